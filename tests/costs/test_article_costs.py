"""The article's cost claims come out of the cost model: F09-F12, F16/F17, F23, F31."""

from __future__ import annotations

import itertools

import pytest

from advisor.catalog import load_catalog
from advisor.catalog.profile_check import load_profile
from advisor.costs import (
    article_breakeven,
    estimate_costs,
    migration_days,
    migration_payback_runs,
    worth_moving,
)
from advisor.costs.breakeven import HOURS_PER_MONTH
from advisor.costs.migration import hours_saved_per_run
from advisor.profile import Profile
from tests.support.costs import projection
from tests.support.paths import ROOT

EXAMPLES = ROOT / "examples"


# F04: data parallel, 2 GPUs ~1.8x, 4 GPUs 2.8-3.3x (3.0 = F12's "2 h vs 40 min").
TYPICAL = ([1, 2, 4], [1.0, 1.8, 3.0])


def example(name: str) -> Profile:
    return load_profile(EXAMPLES / f"{name}.yaml")


def costs_for(profile: Profile, gpus=TYPICAL[0], speedups=TYPICAL[1], **kwargs):
    proj = projection(profile.run_hours_one_gpu, list(gpus), list(speedups))
    return estimate_costs(profile, proj, lang="en", **kwargs)


# -- F31: buy vs rent thresholds --------------------------------------------------------------

ARTICLE = load_catalog().article


def _corners():
    ws, pw, cl = (ARTICLE.workstation_4gpu_price_cny, ARTICLE.power_per_month_cny,
                  ARTICLE.cloud_4gpu_per_hour_cny)
    return list(itertools.product((ws.low, ws.high), (pw.low, pw.high), (cl.low, cl.high)))


def test_f31_article_arithmetic_over_one_year_gives_its_thresholds():
    # The article's own reckoning: the machine over a year + its monthly power bill versus
    # hours x the cloud rate. At its midpoint prices the crossing is ~50 h a month, and even
    # its dearest workstation against its cheapest cloud crosses well below 200 h.
    band = article_breakeven(ARTICLE, power_billing="monthly")
    assert band.horizon_months == 12
    assert band.midpoint == pytest.approx(50.2, abs=0.1)
    assert band.midpoint >= band.rent_below == 50  # below 50 h: renting wins
    assert band.least_favourable_to_owning < band.own_above == 200  # above 200 h: owning wins
    assert not band.owning_wins(49) and band.owning_wins(201)
    assert band.owning_wins(201, "least_favourable_to_owning")


def test_f31_decisions_at_every_article_price():
    horizon = ARTICLE.horizon_months
    for capex, power_month, cloud_hour in _corners():
        own_per_month = capex / horizon + power_month  # the article's monthly reckoning
        for hours in (200, 250, 400):
            assert own_per_month < hours * cloud_hour, (capex, power_month, cloud_hour)
    mid_capex, mid_power, mid_cloud = (ARTICLE.workstation_4gpu_price_cny.mid,
                                       ARTICLE.power_per_month_cny.mid,
                                       ARTICLE.cloud_4gpu_per_hour_cny.mid)
    for hours in (10, 30, 49.9):
        assert mid_capex / horizon + mid_power > hours * mid_cloud  # renting wins


def test_f31_with_power_charged_per_hour_used():
    # The cost model charges electricity for the hours actually trained (F11's bill is at full
    # load). Owning still wins above 200 h at every article price over 6-12 months; over half a
    # year the whole band lies between the article's 50 and 200 h.
    year = article_breakeven(ARTICLE, power_billing="per_hour")
    assert year.midpoint == pytest.approx(42.2, abs=0.1)
    assert year.least_favourable_to_owning < 200
    half = article_breakeven(ARTICLE, horizon_months=6, power_billing="per_hour")
    assert 50 <= half.most_favourable_to_owning < half.least_favourable_to_owning <= 200


def test_f31_cost_model_reproduces_the_article_breakeven():
    # A profile priced exactly like the article's 4060-class workstation and cloud instance.
    catalog = load_catalog()
    card = ARTICLE.card_price_4060_class_cny
    ratio4 = catalog.machine_overhead(4, "CNY") / catalog.machine_overhead(1, "CNY")
    base = (ARTICLE.workstation_4gpu_price_cny.mid - 4 * card) / ratio4
    power_4gpu_w = 4 * 160 + catalog.system_power_w(4)
    kwh_price = ARTICLE.power_per_month_cny.mid / (power_4gpu_w / 1000 * HOURS_PER_MONTH)
    profile = Profile.model_validate({
        "training": {"single_gpu_hours": 30, "runs_per_month": 4},
        "hardware": {"gpu": "rtx4060ti_16gb", "gpus_per_node": 4},
        "economics": {"mode": "compare", "currency": "CNY", "gpu_price": card,
                      "base_system_price": base,
                      "cloud_price_per_gpu_hour": ARTICLE.cloud_4gpu_per_hour_cny.mid / 4,
                      "electricity_per_kwh": kwh_price}})
    report = costs_for(profile, gpus=[4], speedups=[3.0])
    assert report.capex[0] == pytest.approx(ARTICLE.workstation_4gpu_price_cny.mid)
    expected = article_breakeven(ARTICLE, power_billing="per_hour").midpoint
    assert report.buy_vs_rent.breakeven_hours_per_month == pytest.approx(expected, rel=1e-9)
    assert report.buy_vs_rent.breakeven_hours_per_month < 200


# -- F09-F11, F23: power and machines ---------------------------------------------------------

def test_f09_f11_power_of_a_4060_class_machine():
    report = costs_for(example("personal-learning-resnet-not-worth-it"))
    one, four = report.power_w[0], report.power_w[2]
    assert 300 <= one <= 450  # F09: one training GPU's whole machine
    assert 2.5 <= four / one <= 3.5  # F11: about 3x the electricity at full load
    monthly_cny = four / 1000 * HOURS_PER_MONTH * report.priced_with["electricity_per_kwh"]
    assert 200 <= monthly_cny <= 400  # F31: ¥200-400 a month


def test_f23_eight_gpus_cost_more_per_card_in_the_machine():
    profile = example("medium-model-4gpu-worth-it").model_copy(deep=True)
    profile.hardware.gpus_per_node = 8
    report = costs_for(profile, gpus=[1, 4, 8], speedups=[1, 3, 5])
    card = report.priced_with["gpu_price"]
    overhead = [c - n * card for c, n in zip(report.capex, report.gpus, strict=True)]
    assert overhead[2] / 8 > overhead[1] / 4


# -- F12: value of time, three cases ----------------------------------------------------------

def test_f12_research_with_a_deadline_is_worth_it():
    profile = example("research-deadline-worth-it")
    report = costs_for(profile)
    assert report.best_value_gpus > 1
    best = report.gpus.index(report.best_value_gpus)
    assert report.net_value_per_month[best] > 0
    # Paying ~¥20,000 more to finish a week earlier: a week at this value is worth more.
    assert 7 * report.priced_with["value_per_day"] > ARTICLE.deadline_case["extra_cost_cny"]
    # One GPU cannot finish the runs due in 21 days; two can.
    assert report.deadline_gpus == 2


def test_f12_product_tuning_is_worth_it_when_revenue_covers_power():
    profile = example("product-tuning-revenue-worth-it")
    report = costs_for(profile, speedups=[1.0, 1.85, 3.2])
    four = report.gpus.index(4)
    power_cost_per_day = report.power_w[four] / 1000 * 24 * report.priced_with[
        "electricity_per_kwh"]
    assert report.priced_with["value_per_day"] > power_cost_per_day
    assert report.best_value_gpus == 4
    assert report.net_value_per_month[four] > 0
    assert report.migration_cost_per_run == [0.0, 0.0, 0.0]  # moved to multi-GPU before


def test_f12_personal_learning_resnet_is_not_worth_it():
    profile = example("personal-learning-resnet-not-worth-it")
    report = costs_for(profile)
    four = report.gpus.index(4)
    assert report.run_hours[0] == 2 and report.run_hours[four] == pytest.approx(2 / 3)
    assert report.best_value_gpus == 1
    assert all(v < 0 for v in report.net_value_per_month[1:])
    # Three more cards for ¥10,000+.
    assert report.capex[four] - report.capex[0] >= 10_000
    assert report.time_saved_value_per_month == [0.0, 0.0, 0.0]


# -- F16 and F17 agree once the move is spread over the runs ----------------------------------

def test_f16_one_run_under_three_days_never_repays_the_move():
    days = migration_days(load_catalog().migration, moved_before=False, case="days_high")
    assert days == 3
    for run_hours in (2, 24, 48, 71):
        for speedup in (1.5, 3.0, 8.0):
            saved = hours_saved_per_run(run_hours, speedup)
            assert migration_payback_runs(days, saved) > 1
            assert not worth_moving(days, saved, runs_in_horizon=1)


def test_f17_medium_runs_two_or_three_times_a_week_repay_it():
    profile = example("medium-model-4gpu-worth-it")
    days = migration_days(load_catalog().migration, moved_before=False, case="days_high")
    runs = profile.training.runs_per_month * profile.training.horizon_months
    assert worth_moving(days, hours_saved_per_run(48, 3.0), runs)


def test_f16_f17_in_money_day_for_day():
    # Value a day of waiting like an engineer-day, as F16 does.
    base = example("medium-model-4gpu-worth-it").model_copy(deep=True)
    base.economics.mode = "cloud"
    base.economics.engineer_day_rate = 1500
    base.economics.value_per_day = 1500
    one_run = base.model_copy(deep=True)
    one_run.training.runs_per_month = 1
    one_run.training.horizon_months = 1
    single = costs_for(one_run)
    assert single.net_value_per_month[2] < 0  # F16: one 2-day run does not repay the move
    spread = costs_for(base)
    assert spread.net_value_per_month[2] > 0  # F17: 2-3 runs a week over a year do
    assert spread.best_value_gpus == 4


def test_f17_table_rows():
    sweeps = costs_for(example("baseline-sweeps-1gpu-not-worth-it"), speedups=[1, 1.7, 2.8])
    assert sweeps.best_value_gpus == 1
    medium = costs_for(example("medium-model-4gpu-worth-it"))
    assert medium.best_value_gpus == 4
    large = example("large-model-8plus-gpus-required")
    proj = projection(400, [1, 4, 8, 16], [1, 3.5, 6.5, 11], nodes=[1, 1, 1, 2])
    report = estimate_costs(large, proj, lang="en", currency="USD")
    assert report.best_value_gpus >= 8
    assert report.mode == "cloud" and report.currency == "USD"


# -- the same cases through the real projection (advisor.scaling.project) ---------------------

@pytest.mark.parametrize("name, worth_it", [
    ("research-deadline-worth-it", True),
    ("product-tuning-revenue-worth-it", True),
    ("personal-learning-resnet-not-worth-it", False),
    ("medium-model-4gpu-worth-it", True),
    ("baseline-sweeps-1gpu-not-worth-it", False),
])
def test_examples_through_the_projection(name, worth_it):
    from advisor.scaling import project

    profile = example(name)
    report = estimate_costs(profile, project(profile), lang="en")
    best = report.gpus.index(report.best_value_gpus)
    if worth_it:
        assert report.best_value_gpus > 1 and report.net_value_per_month[best] > 0
    else:
        assert report.best_value_gpus == 1
        assert all(v <= 0 for v in report.net_value_per_month)


def test_large_model_needs_eight_or_more_through_the_projection():
    from advisor.scaling import project

    profile = example("large-model-8plus-gpus-required")
    report = estimate_costs(profile, project(profile), lang="en")
    assert report.best_value_gpus >= 8
