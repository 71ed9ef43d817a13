"""Owned hardware treated as owned (reviews 8 and 9): where one GPU cannot be the baseline and
the best value lies beyond the GPUs the user owns, net values are measured against those when
they hold the job and do the month's runs, so renting more shows what it adds to them, not what
it adds to the fewest GPUs that can run the job. One GPU that keeps the schedule stays the
baseline, owned GPUs that cannot keep it are not one, and an answer within them keeps the
fewest that run the job."""

from __future__ import annotations

import pytest

from advisor.costs import estimate_costs
from advisor.verdict.facts import _base_kind
from tests.support.costs import h100_fsdp, projection_1_to_8, projection_from_hours

# 2 to 16 GPUs of a model one GPU cannot hold, 8 to a machine
_COUNTS, _HOURS = (2, 4, 8, 16), (200.0, 101.0, 51.0, 26.0)


def _owned(owned: int, runs: float = 1.0, one_fits: bool = False, hours=_HOURS, counts=_COUNTS):
    prof = h100_fsdp(mode="compare", owned_gpus=owned, value_per_day=2000)
    prof = prof.model_copy(update={"training": prof.training.model_copy(
        update={"runs_per_month": runs})})
    proj = projection_from_hours(counts, hours, one_fits=one_fits)
    return proj, estimate_costs(prof, proj, lang="en")


def test_the_owned_gpus_are_the_baseline_where_one_gpu_cannot_run_the_job():
    proj, report = _owned(8)
    assert report.baseline_gpus == 8
    i = report.gpus.index(8)
    assert report.net_value_per_month[i] == pytest.approx(0.0, abs=1e-6)
    assert _base_kind(proj, report) == "owned"
    assert any("your 8 owned GPUs" in a for a in report.assumptions)


def test_renting_beyond_the_owned_gpus_is_valued_against_them():
    _, mine = _owned(8)
    _, fewest = _owned(0)
    assert fewest.baseline_gpus == 2
    i = mine.gpus.index(16)
    # the same row, measured from another point: lower by what 8 GPUs already give over 2
    assert mine.net_value_per_month[i] < fewest.net_value_per_month[i]


def test_owned_gpus_that_cannot_do_the_months_runs_are_not_the_baseline():
    # 8 GPUs at 51 h a run: 20 runs a month take 1,020 h, more than the month has
    _, report = _owned(8, runs=20)
    assert report.baseline_gpus == 16


def test_one_owned_gpu_or_one_gpu_that_keeps_up_stays_the_baseline():
    _, report = _owned(1)
    assert report.baseline_gpus == 2  # one owned card: the fewest that run it, as before
    prof = h100_fsdp(mode="compare", owned_gpus=4)
    report = estimate_costs(prof, projection_1_to_8(100), lang="en")
    assert report.baseline_gpus == 1


def test_an_answer_within_the_owned_gpus_keeps_the_fewest_as_its_baseline():
    # no value on time: the best value is not beyond the 8 owned GPUs, so its net value is
    # still what it saves over the fewest GPUs that run the job (the rules read that figure)
    prof = h100_fsdp(mode="compare", owned_gpus=8, time_value="none")
    report = estimate_costs(prof, projection_from_hours(_COUNTS, _HOURS), lang="en")
    assert report.best_value_gpus <= 8
    assert report.baseline_gpus == 2
