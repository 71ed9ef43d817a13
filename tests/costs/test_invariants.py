"""Properties of the cost model that hold for any prices and any projection."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.catalog import load_catalog
from advisor.costs import estimate_costs
from advisor.profile import Profile
from advisor.scaling.result import Projection

COST_FIELDS = ("energy_kwh_per_run", "energy_cost_per_run", "cloud_cost_per_run",
               "own_cost_per_run", "migration_cost_per_run", "cost_per_run", "cost_per_month",
               "gpu_hours_per_run", "run_hours", "capex", "power_w")

price = st.floats(min_value=0.01, max_value=1e4, allow_nan=False, allow_infinity=False)


@st.composite
def cases(draw):
    gpus = sorted(draw(st.sets(st.sampled_from([1, 2, 4, 8, 16]), min_size=1, max_size=5)))
    per_node = draw(st.sampled_from([1, 2, 4, 8]))
    speedups = [1.0 if n == 1 else draw(st.floats(min_value=0.3, max_value=float(n)))
                for n in gpus]
    fits = [draw(st.booleans()) for _ in gpus]
    single = draw(st.floats(min_value=0.05, max_value=2000))
    n = len(gpus)
    proj = Projection(
        gpus=gpus, nodes=[max(1, -(-g // per_node)) for g in gpus], speedup=speedups,
        speedup_low=speedups, speedup_high=speedups,
        efficiency=[s / g for s, g in zip(speedups, gpus, strict=True)],
        step_time_s=[1.0 / s for s in speedups], run_hours=[single / s for s in speedups],
        bottleneck=["compute"] * n, memory_per_gpu_gb=[1.0] * n, fits=fits,
        parallelism=["data"] * n, single_gpu_fits=fits[0])
    economics = {
        "mode": draw(st.sampled_from(["own", "cloud", "compare"])),
        "currency": draw(st.sampled_from(["CNY", "USD"])),
        "gpu_price": draw(price), "cloud_price_per_gpu_hour": draw(price),
        "electricity_per_kwh": draw(st.floats(min_value=0.01, max_value=5)),
        "pue": draw(st.floats(min_value=1.0, max_value=3.0)),
        "time_value": draw(st.sampled_from(["deadline", "revenue", "none"])),
        "value_per_day": draw(st.floats(min_value=0, max_value=1e5)),
        "moved_to_multi_gpu_before": draw(st.booleans()),
        "deadline_days": draw(st.none() | st.floats(min_value=0.5, max_value=365)),
    }
    if draw(st.booleans()):
        economics["base_system_price"] = draw(price)
    profile = Profile.model_validate({
        "training": {"single_gpu_hours": single,
                     "runs_per_month": draw(st.floats(min_value=0, max_value=300)),
                     "horizon_months": draw(st.floats(min_value=0.5, max_value=60))},
        "hardware": {"gpu": draw(st.sampled_from(["rtx4090", "rtx4060ti_16gb", "h100_sxm"])),
                     "gpus_per_node": per_node, "nodes": 16 // per_node,
                     "inter_link": "infiniband_hdr"},
        "economics": economics})
    return profile, proj


SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _with(profile: Profile, **economics) -> Profile:
    data = profile.model_dump()
    data["economics"].update(economics)
    return Profile.model_validate(data)


@SETTINGS
@given(cases())
def test_costs_are_never_negative(case):
    profile, proj = case
    report = estimate_costs(profile, proj, lang="en", catalog=load_catalog())
    for name in COST_FIELDS:
        assert all(v >= 0 for v in getattr(report, name)), name
    assert all(v >= 0 for v in report.buy_vs_rent.own_cumulative)
    assert all(v >= 0 for v in report.buy_vs_rent.cloud_cumulative)
    if any(proj.fits):
        assert report.best_value_gpus in proj.gpus
        assert proj.fits[proj.gpus.index(report.best_value_gpus)]
    else:  # nothing can run: no best value, no buy-vs-rent setup (review 2, item 1)
        assert report.best_value_gpus is None and report.buy_vs_rent.gpus == 0


@SETTINGS
@given(cases(), st.floats(min_value=0.0, max_value=3.0))
def test_dearer_electricity_or_cloud_never_lowers_a_cost(case, rise):
    profile, proj = case
    eco = profile.economics
    before = estimate_costs(profile, proj, lang="en")
    for change in ({"electricity_per_kwh": min(eco.electricity_per_kwh * (1 + rise), 100)},
                   {"cloud_price_per_gpu_hour": eco.cloud_price_per_gpu_hour * (1 + rise)},
                   {"gpu_price": eco.gpu_price * (1 + rise)}):
        after = estimate_costs(_with(profile, **change), proj, lang="en")
        for name in COST_FIELDS:
            for old, new in zip(getattr(before, name), getattr(after, name), strict=True):
                assert new >= old - 1e-9 * max(1.0, abs(old)), (name, change)


@SETTINGS
@given(cases())
def test_breakeven_is_where_the_cumulative_curves_cross(case):
    profile, proj = case
    profile = _with(profile, mode="compare")
    report = estimate_costs(profile, proj, lang="en")
    bvr = report.buy_vs_rent
    assert len(bvr.months) == len(bvr.own_cumulative) == len(bvr.cloud_cumulative)
    gap = [o - c for o, c in zip(bvr.own_cumulative, bvr.cloud_cumulative, strict=True)]
    if bvr.breakeven_months is None:
        # Renting never becomes dearer than owning: the gap never closes.
        assert all(g > -1e-6 * max(1.0, o) for g, o in zip(gap, bvr.own_cumulative,
                                                           strict=True))
        return
    m = bvr.breakeven_months
    assert bvr.months[-1] >= min(m, 120.0) or m > 120.0
    for month, g in zip(bvr.months, gap, strict=True):
        scale = max(1.0, bvr.own_cumulative[0])
        if month < m * (1 - 1e-9):
            assert g > -1e-9 * scale
        elif month > m * (1 + 1e-9):
            assert g < 1e-9 * scale
    # Both curves are straight lines: interpolate them at the break-even month.
    if m <= bvr.months[-1]:
        k = min(int(m), len(bvr.months) - 2)
        t = m - bvr.months[k]
        own = bvr.own_cumulative[k] + t * (bvr.own_cumulative[k + 1] - bvr.own_cumulative[k])
        cloud = bvr.cloud_cumulative[k] + t * (bvr.cloud_cumulative[k + 1] -
                                               bvr.cloud_cumulative[k])
        assert own == pytest.approx(cloud, rel=1e-9, abs=1e-6)


@SETTINGS
@given(cases())
def test_breakeven_hours_make_owning_and_renting_cost_the_same(case):
    profile, proj = case
    profile = _with(profile, mode="compare")
    report = estimate_costs(profile, proj, lang="en")
    hours = report.buy_vs_rent.breakeven_hours_per_month
    if hours is None:
        return
    i = report.gpus.index(report.buy_vs_rent.gpus)
    runs = hours / report.run_hours[i]
    horizon = profile.training.horizon_months
    if runs * horizon < 1 or runs > 100_000:
        return  # per-run figures assume at least one run in the horizon
    data = profile.model_dump()
    data["training"]["runs_per_month"] = runs
    at = estimate_costs(Profile.model_validate(data), proj, lang="en")
    own_month = at.own_cost_per_run[i] * runs
    cloud_month = at.cloud_cost_per_run[i] * runs
    assert own_month == pytest.approx(cloud_month, rel=1e-6)


@SETTINGS
@given(cases())
def test_time_value_is_never_negative_and_breakevens_are_reachable(case):
    from advisor.costs.breakeven import HOURS_PER_MONTH, breakeven_month_limit

    profile, proj = case
    report = estimate_costs(_with(profile, mode="compare"), proj, lang="en")
    assert all(v >= 0 for v in report.time_saved_value_per_month)
    bvr = report.buy_vs_rent
    assert bvr.breakeven_hours_per_month is None or \
        bvr.breakeven_hours_per_month <= HOURS_PER_MONTH
    assert bvr.breakeven_months is None or \
        bvr.breakeven_months <= breakeven_month_limit(profile.training.horizon_months)
