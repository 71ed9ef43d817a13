"""Schedules one GPU cannot keep up with (F17): the finding names the smallest count that keeps
up, or says plainly that no count considered does; past a month of saved days the value of time
still orders the counts; half a run a month is not "0 runs", and a model one GPU cannot hold gets
no one-GPU schedule."""

from __future__ import annotations

from advisor.profile import Profile
from advisor.verdict.recommendation import recommend
from tests.support.verdict import all_text, pitfall, rules_case


def _profile(hours: float) -> Profile:
    return Profile.model_validate(dict(
        schema_version=1, task="object_detection", model=dict(name="DETR", params_millions=41),
        training=dict(single_gpu_hours=hours, runs_per_week=3, batch_per_gpu=8,
                      precision="amp"),
        hardware=dict(gpu="rtx4090", gpus_per_node=4, intra_link="pcie4"),
        economics=dict(mode="own", currency="CNY", time_value="revenue", value_per_day=2000)))


def test_a_larger_count_that_saves_more_is_worth_more_past_a_month():
    rec = recommend(_profile(100), lang="en")
    costs = rec.costs
    # the value of time is counted against the fewest GPUs that do the month's runs (one GPU
    # cannot): every count's signed value (time lost below it) still orders the counts
    runs = _profile(100).training.runs_per_month
    base = costs.baseline_gpus
    assert base is not None and base > 1
    assert costs.run_hours[costs.gpus.index(base)] * runs <= 730.0
    assert all(h * runs > 730.0 for n, h in zip(costs.gpus, costs.run_hours, strict=True) if n < base)
    value = costs.time_value_per_month
    assert value == sorted(value) and len(set(value)) == len(value)
    assert rec.verdict.gpus == 4
    note = next(p for p in rec.pitfalls if p.id == "cannot_keep_up")
    assert note.severity == "info" and "One GPU could not keep up" in note.title.en


def test_a_schedule_no_count_keeps_up_with_is_said_plainly():
    rec = recommend(_profile(300), lang="zh")
    queue = next(p for p in rec.pitfalls if p.id == "cannot_keep_up")
    assert queue.severity == "warning" and "730 小时" in queue.title.zh
    runs = _profile(300).training.runs_per_month
    fastest = min(rec.projection.run_hours) * runs
    assert fastest > 730  # not even the fastest count considered keeps up
    assert "比这里考虑的更多的卡" in queue.remedy.zh


def test_the_smallest_count_that_keeps_up_is_named():
    """Review 5: the finding named the fastest count (4) where 2 already keep up."""
    rec = recommend(Profile.model_validate(dict(
        schema_version=1, task="object_detection", model=dict(name="DETR", params_millions=41),
        training=dict(single_gpu_hours=100, runs_per_week=3, batch_per_gpu=8, precision="amp"),
        hardware=dict(gpu="rtx4090", gpus_per_node=4, intra_link="pcie4"),
        economics=dict(mode="own", currency="CNY", time_value="none"))), lang="en")
    pr, runs = rec.projection, _profile(100).training.runs_per_month
    keeps = [n for n, h, ok in zip(pr.gpus, pr.run_hours, pr.fits, strict=True)
             if ok and h * runs <= 730]
    note = next(p for p in rec.pitfalls if p.id == "cannot_keep_up")
    # issue 29: the answer itself is a count that keeps up (the smallest, when it costs
    # least), and the note says how far it brings the month
    assert rec.verdict.gpus == keeps[0] < max(pr.gpus)
    assert f"{keeps[0]} GPUs bring it to about" in note.title.en


def test_half_a_run_a_month_is_not_zero_runs():
    r = rules_case("half-a-run-a-month")
    queue = pitfall(r, "cannot_keep_up")
    assert queue is not None and "1,000 hours on one GPU" in queue.title.en
    assert "0 runs" not in queue.title.en and "runs a month" not in queue.title.en


def test_no_one_gpu_schedule_for_a_model_one_gpu_cannot_hold():
    r = rules_case("llm30b-h100-own-revenue")
    assert not r.projection.single_gpu_fits
    assert "One GPU could not keep up" not in all_text(r, "en")


def test_a_rating_the_policy_changes_is_the_policys_in_the_trace():
    """One GPU that cannot keep up with the schedule, rated "not worth it" by the rules: the
    policy moves to two GPUs and rates them required; the rule that said "not worth it" is then
    shown as overridden by the policy's step, which decided the rating with the count."""
    rec = recommend(Profile.model_validate(dict(
        schema_version=1, task="image_classification",
        model=dict(name="small", params_millions=1.0),
        training=dict(single_gpu_throughput=1.0, throughput_unit="samples",
                      dataset_samples=1000, epochs=70, batch_per_gpu=1, precision="fp32",
                      input_pipeline="starved", runs_per_month=38),
        hardware=dict(gpu="rtx3090", gpus_per_node=1, intra_link="pcie3"),
        economics=dict(mode="own", currency="CNY", time_value="deadline", gpu_price=500.0,
                       value_per_day=0.0))), lang="en")
    assert rec.verdict.rating == "required" and rec.verdict.gpus > 1
    rated = [e for e in rec.trace if "rating" in e.decided]
    assert [e.rule for e in rated] == ["policy.best_candidate"]
    assert rated[0].conclusion["rating"] == "required"
    for e in rec.trace:
        if e.conclusion.get("rating") not in (None, "required"):
            assert e.overridden_by == "policy.best_candidate", e.rule
