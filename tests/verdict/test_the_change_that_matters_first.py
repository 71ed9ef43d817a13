"""Issue 29, classes 3 and 4: a starved loader is fixed before GPUs are added (F28), and a
comparison never answers with a setup that cannot do the month's runs."""

from __future__ import annotations

from advisor.compare import compare
from advisor.profile import Profile
from advisor.verdict.recommendation import recommend
from tests.support.verdict import verdict_case


def test_a_starved_loader_is_fixed_before_gpus_are_added():
    rec = verdict_case("starved-pipeline-rtx4090")
    applied = next(o for o in rec.setups if o.applied)
    assert applied.id == "input_pipeline_tuned"
    assert rec.verdict.headline.en.startswith("With a tuned input pipeline")
    assert "policy.best_candidate" in {t.rule for t in rec.trace}
    assert any(p.id == "setup_change" and "F28" in p.sources for p in rec.pitfalls)
    # the answer is faster and cheaper a run than the rules' pick on the starved loader
    before = next(c for c in rec.candidates if c.setup == "as_given" and c.gpus == 2)
    after = next(c for c in rec.candidates if c.setup == applied.id
                 and c.gpus == rec.verdict.gpus)
    assert after.run_hours < before.run_hours and after.cost_per_run < before.cost_per_run
    assert rec.summary[-1].text.en.startswith("set input_pipeline: tuned")


def test_a_tuned_loader_gets_no_such_setup():
    rec = verdict_case("resnet-4x-l40s-cloud")
    assert not any(o.id == "input_pipeline_tuned" for o in rec.setups)


def _slow(runs: float) -> Profile:
    return Profile.model_validate({
        "task": "llm",
        "model": {"name": "13B continual pretrain", "params_millions": 13000, "layers": 40,
                  "hidden_size": 5120, "sequence_length": 2048},
        "training": {"single_gpu_hours": 1133, "runs_per_month": runs, "batch_per_gpu": 2,
                     "precision": "bf16", "activation_checkpointing": "full",
                     "input_pipeline": "tuned"},
        "hardware": {"gpu": "a100_sxm4_80gb", "gpus_per_node": 8, "intra_link": "nvswitch",
                     "cooling": "server"},
        "economics": {"mode": "compare", "currency": "USD", "time_value": "none"}})


def test_compare_answers_only_with_setups_that_do_the_months_runs():
    result = compare(_slow(2), verdicts=False)
    for answer in result.answers:
        if answer.point is not None:
            assert result.at(answer.point).keeps_schedule, answer.key
    slow = [p for o in result.options for p in o.points if p.keeps_schedule is False]
    assert slow  # shown, marked, never an answer
    assert recommend(_slow(2), lang="en").verdict.runnable
