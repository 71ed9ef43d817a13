"""What the time a count saves is worth (F02, F12): the days saved times the value of a day,
never more than a month of calendar time yet always more for more days saved. A count slower
than the baseline shows the time it loses as a negative value, and each row's net value is that
time value less its extra cost: the columns add up."""

from __future__ import annotations

import math

import pytest

from advisor.costs import estimate_costs
from advisor.costs.model import DAYS_PER_MONTH, time_value_per_month
from advisor.costs.text import render_text
from tests.support.costs import (
    P2C,
    h100_fsdp,
    profile_from,
    projection_1_to_8,
    projection_from_hours,
)


def test_time_value_never_exceeds_a_month_of_days():
    # 2000 h a run, twice a month: 8 GPUs "save" 2 x 1706 h = 142 days a month on paper
    # against one GPU, which never finishes the month's runs: the baseline is the fewest GPUs
    # that do (8), and a count slower than it loses time, never more than a month's worth
    prof = h100_fsdp()
    report = estimate_costs(prof, projection_1_to_8(2000), lang="en")
    cap = 20000 * DAYS_PER_MONTH
    assert report.baseline_gpus == 8
    assert report.time_saved_value_per_month == [0.0] * 4
    for value in report.time_value_per_month:
        assert -cap - 1e-6 <= value <= 0.0
    assert report.time_value_per_month[0] < -0.95 * cap  # one GPU: about a month lost
    # against a baseline that cannot do the runs (what the comparison falls back to when no
    # setup can), the days "saved" bend towards a month
    value = time_value_per_month(2.0, 2000.0, 294.0, 20000)
    assert cap * 0.95 < value < cap


def test_a_baseline_that_keeps_up_counts_every_day_saved():
    # reviews 7 and 8: 4 days a run that 128 GPUs save over 64 were valued at half by the bend
    runs, per_day = 0.5, 20000.0
    base, slower, faster = 1377.9, 227.0, 131.8  # hours a run: 8, 64, 128 GPUs
    gain = time_value_per_month(runs, base, faster, per_day) - \
        time_value_per_month(runs, base, slower, per_day)
    assert gain == pytest.approx(runs * (slower - faster) / 24.0 * per_day)


def test_time_value_is_the_days_saved_times_the_day_value_below_the_cap():
    assert time_value_per_month(2, 48.0, 24.0, 1000.0) == pytest.approx(2000.0)
    assert time_value_per_month(10, 2000.0, 100.0, 1.0) == pytest.approx(DAYS_PER_MONTH, rel=1e-6)
    assert time_value_per_month(10, 100.0, 2000.0, 1.0) == pytest.approx(-DAYS_PER_MONTH, rel=1e-6)


def test_more_days_saved_are_always_worth_more_yet_never_a_month():
    """Review 4: a hard cap gave every count saving over a month the same value, so the
    cheapest won although a larger one cleared more of the backlog."""
    from advisor.costs.model import bounded_days

    half = DAYS_PER_MONTH / 2
    assert bounded_days(half) == half and bounded_days(-3.0) == -3.0
    values = [bounded_days(d) for d in (10, half, 20, 40, 73, 150, 400)]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert all(v < DAYS_PER_MONTH for v in values)
    # smooth at the knee: the slope just above it is still about 1
    assert bounded_days(half + 0.01) - bounded_days(half) == pytest.approx(0.01, rel=1e-3)


def test_slower_counts_show_the_time_they_lose_and_the_net_adds_up():
    # The reviewer's run hours: 7 GPUs is the first that fits; 9 and up span two machines
    # over 100 GbE and are slower.
    gpus = [7, 8, 9, 10]
    hours = [130.66, 116.71, 384.97, 348.42]
    report = estimate_costs(profile_from(P2C), projection_from_hours(gpus, hours), lang="en")
    base = report.baseline_cost_per_month
    assert base == pytest.approx(report.cost_per_month[0])
    for i in range(len(gpus)):
        assert report.net_value_per_month[i] == pytest.approx(
            report.time_value_per_month[i] - (report.cost_per_month[i] - base))
        assert report.time_saved_value_per_month[i] == max(0.0, report.time_value_per_month[i])
    i = gpus.index(9)
    lost_days = (384.97 - 130.66) / 24
    assert report.time_value_per_month[i] == pytest.approx(-lost_days * 10000)
    text = render_text(report, "en")
    row = next(line for line in text.splitlines() if line.startswith("9 "))
    assert "-$105,963" in row  # before: "$0" next to a net value of -$110,624
    assert "a negative time value is time lost" in text
    zh = render_text(report, "zh")
    assert "时间价值为负表示比基准更慢" in zh


def test_no_row_without_lost_time_gets_the_footnote():
    report = estimate_costs(profile_from(P2C), projection_from_hours([7, 8], [130.66, 116.71]), lang="en")
    assert all(v >= 0 for v in report.time_value_per_month)
    assert "time lost" not in render_text(report, "en")
    assert math.isclose(report.net_value_per_month[0], 0.0, abs_tol=1e-6)
