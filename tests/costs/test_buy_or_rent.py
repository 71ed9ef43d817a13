"""Owning or renting, count by count (F31): owned hardware is paid off over the runs one set of it
can do within the horizon, not over runs it has no time for; compare mode prices each count on
its cheaper side and names that side, which agrees with the break-even; the break-even counts
only the runs one set can do."""

from __future__ import annotations

import pytest

from advisor.costs import estimate_costs
from advisor.costs.breakeven import HOURS_PER_MONTH
from advisor.costs.text import render_text
from advisor.profile import Profile
from advisor.scaling.result import Projection
from tests.support.costs import P2D, profile_from, projection_from_hours


def reviewer_p2d(**economics) -> tuple[Profile, Projection]:
    """The reviewer's `costs p2d.yaml --gpus 8,24,32`: one run at 24 GPUs took 3.2 months."""
    return (profile_from(P2D, economics=economics),
            projection_from_hours([8, 24, 32], [286.33, 2347.7, 1979.3], fits=[False, True, True]))


def test_owned_purchase_is_spread_over_the_runs_one_set_can_do():
    prof, proj = reviewer_p2d()
    report = estimate_costs(prof, proj, lang="en")
    i = report.gpus.index(24)
    fit = 12 * HOURS_PER_MONTH / 2347.7
    assert report.runs_fit_in_horizon[i] == pytest.approx(fit)
    assert fit == pytest.approx(3.73, abs=0.01)
    # Before: $603k spread over 12 runs ($57,439 a run). Now over the 3.7 that fit.
    assert report.own_cost_per_run[i] == pytest.approx(
        report.capex[i] / fit + report.energy_cost_per_run[i])
    assert report.own_cost_per_run[i] > report.capex[i] / 12 * 3
    # The note names the counts and the largest one's runs (32 GPUs: 4.4 of 12).
    assert any("at 24, 32 GPUs one set of hardware cannot keep to the schedule" in a and
               f"{12 * HOURS_PER_MONTH / 1979.3:.1f} of the 12" in a for a in report.assumptions)


def test_compare_mode_per_run_cost_is_the_side_it_names():
    prof, proj = reviewer_p2d()
    report = estimate_costs(prof, proj, lang="en")
    for i in range(len(report.gpus)):
        side = report.deployment[i]
        base = report.own_cost_per_run[i] if side == "own" else report.cloud_cost_per_run[i]
        assert report.cost_per_run[i] == pytest.approx(base + report.migration_cost_per_run[i])
        other = report.cloud_cost_per_run[i] if side == "own" else report.own_cost_per_run[i]
        assert base <= other * (1 + 1e-9)  # the cheaper side, per run as per month
    # The reviewer's 24 GPUs: the own figure ($57,589) was shown under "cheaper of own and
    # cloud"; spread over the runs that fit, owning costs more than renting.
    i = report.gpus.index(24)
    assert report.deployment[i] == "cloud"
    text = render_text(report, "en")
    assert "as" in text.splitlines()[2].split() and "cloud" in text


@pytest.mark.parametrize("single", [100.0, 600.0, 2000.0, 6000.0, 20000.0])
@pytest.mark.parametrize("cloud", [1.0, 2.5, 4.14, 12.0])
def test_the_side_chosen_agrees_with_the_break_even(single, cloud):
    """Owning is the cheaper side exactly when the break-even (hours a month above which
    owning wins, at most 730) is reached by the hours the runs need, capped at a month: the
    deployment rules read the same numbers."""
    prof = profile_from(P2D, economics={"cloud_price_per_gpu_hour": cloud})
    proj = projection_from_hours([8], [single / 7.0])
    report = estimate_costs(prof, proj, lang="en")
    bvr = report.buy_vs_rent
    monthly = min(proj.run_hours[0] * 1.0, HOURS_PER_MONTH)
    owns = bvr.breakeven_hours_per_month is not None and \
        monthly >= bvr.breakeven_hours_per_month
    assert (report.deployment[0] == "own") == owns


def test_buy_vs_rent_counts_only_the_runs_one_set_can_do():
    prof, proj = reviewer_p2d(cloud_price_per_gpu_hour=20.0)
    report = estimate_costs(prof, proj, lang="en")
    bvr = report.buy_vs_rent
    i = report.gpus.index(bvr.gpus)
    runs_done = HOURS_PER_MONTH / report.run_hours[i]
    margin = (report.cloud_cost_per_run[i] - report.energy_cost_per_run[i]) * runs_done
    assert bvr.breakeven_months == pytest.approx(report.capex[i] / margin)
