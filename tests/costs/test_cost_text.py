"""The cost report as people read it: no break-even a month or a sane horizon cannot reach,
money with its symbol and counts in the singular or plural, counts that do not fit shown as not
applicable, and the override-file footer only when it is true."""

from __future__ import annotations

import pytest

from advisor.catalog import load_catalog, override_path
from advisor.catalog.profile_check import load_profile
from advisor.cli import main
from advisor.costs import estimate_costs
from advisor.costs.breakeven import (
    HOURS_PER_MONTH,
    breakeven_month_limit,
    buy_vs_rent_curves,
)
from advisor.costs.money import gpus_text, money, unit_price
from advisor.costs.text import NOT_APPLICABLE, render_text
from advisor.profile import Profile
from tests.support.costs import projection
from tests.support.paths import ROOT

EXAMPLES = ROOT / "examples"


def profile(gpu="rtx4090", hours=48.0, runs_per_month=10.0, horizon=12.0, **economics):
    eco = {"mode": "compare", "currency": "CNY", "electricity_per_kwh": 0.6,
           "engineer_day_rate": 1500, "time_value": "revenue", "value_per_day": 3000}
    eco.update(economics)
    return Profile.model_validate({
        "training": {"single_gpu_hours": hours, "runs_per_month": runs_per_month,
                     "horizon_months": horizon},
        "hardware": {"gpu": gpu, "gpus_per_node": 4}, "economics": eco})


# -- 1. a break-even beyond a month's hours or beyond a sane number of months is none --------

def test_hours_a_month_has():
    assert HOURS_PER_MONTH == pytest.approx(24 * 365 / 12)


def test_breakeven_above_the_hours_in_a_month_is_none():
    # ¥80,000 of hardware over a year against ¥8 an hour of cloud: 833 h a month.
    bvr = buy_vs_rent_curves(4, 80_000, 100.0, 4_000.0, 12, cloud_per_hour=8.0,
                             own_per_hour=0.0)
    assert bvr.breakeven_hours_per_month is None
    # Just under a month's hours it is kept.
    bvr = buy_vs_rent_curves(4, 69_000, 100.0, 4_000.0, 12, cloud_per_hour=8.0,
                             own_per_hour=0.0)
    assert bvr.breakeven_hours_per_month == pytest.approx(69_000 / 12 / 8)
    assert bvr.breakeven_hours_per_month <= HOURS_PER_MONTH


@pytest.mark.parametrize("horizon, limit", [(12, 120), (6, 60), (36, 120), (0.5, 5)])
def test_breakeven_months_beyond_the_limit_is_none(horizon, limit):
    assert breakeven_month_limit(horizon) == limit
    # capex / (cloud - own) months: just inside and just outside the limit.
    inside = buy_vs_rent_curves(1, (limit - 0.5) * 100, 0.0, 100.0, horizon, 1.0, 0.0)
    outside = buy_vs_rent_curves(1, (limit + 0.5) * 100, 0.0, 100.0, horizon, 1.0, 0.0)
    assert inside.breakeven_months == pytest.approx(limit - 0.5)
    assert outside.breakeven_months is None
    assert outside.months[-1] == pytest.approx(max(1, -(-horizon // 1)))


def test_reviewer_case_no_impossible_hours_in_report_or_text():
    # The medium example's 4090s against a cheap cloud: before, "owning wins above 1,091
    # training hours a month" (a month has 730 h) and "pays off after 279.4 months".
    prof = profile(hours=48, runs_per_month=2, cloud_price_per_gpu_hour=0.8,
                   gpu_price=13_000)
    report = estimate_costs(prof, projection(48), lang="en")
    bvr = report.buy_vs_rent
    assert bvr.breakeven_hours_per_month is None
    assert bvr.breakeven_months is None
    text = render_text(report, "en")
    assert "even training around the clock, owning does not pay off within 12 months" in text
    assert "does not pay off within 120 months" in text
    assert "training hours a month" not in text
    zh = render_text(estimate_costs(prof, projection(48), lang="zh"), "zh")
    assert "即使全天候训练，12 个月内自建也无法回本" in zh


def test_facts_for_the_rules_get_none_not_an_impossible_number():
    from advisor.verdict.facts import HOURS_PER_MONTH as RULES_HOURS

    assert RULES_HOURS == pytest.approx(HOURS_PER_MONTH)
    prof = profile(hours=48, runs_per_month=2, cloud_price_per_gpu_hour=0.8, gpu_price=13_000)
    report = estimate_costs(prof, projection(48), lang="en")
    assert report.buy_vs_rent.breakeven_hours_per_month is None


# -- 4. money with its symbol, singular and plural ---------------------------------------------

def test_money_formats():
    assert money(3000, "CNY") == "¥3,000" and money(0, "CNY") == "¥0"
    assert money(-54.2, "USD") == "-$54.20" and money(-0.001, "USD") == "$0"
    assert unit_price(0.56, "CNY") == "¥0.56" and unit_price(0.1688, "USD") == "$0.169"
    assert unit_price(1.768, "CNY") == "¥1.77" and unit_price(0, "CNY") == "¥0"
    assert gpus_text(1, "en") == "1 GPU" and gpus_text(8, "en") == "8 GPUs"
    assert gpus_text(1, "zh") == "单卡" and gpus_text(4, "zh") == "4 卡"


def test_learning_profile_prices_read_naturally_in_both_languages():
    prof = load_profile(EXAMPLES / "personal-learning-resnet-not-worth-it.yaml")
    en = render_text(estimate_costs(prof, projection(2.0), lang="en"), "en")
    zh = render_text(estimate_costs(prof, projection(2.0), lang="zh"), "zh")
    for text in (en, zh):
        assert "0.000" not in text and " CNY\n" not in text and "GPU(s)" not in text
    assert "value of a day saved: ¥0 (time saved is not counted as money)" in en
    assert "electricity, per kWh: ¥0.56" in en
    assert "Best value: 1 GPU\n" in en and "Buy vs rent (1 GPU):" in en
    assert "性价比最高：单卡" in zh and "自建还是云实例租用（单卡）" in zh
    assert "省下一天的价值：¥0（省下的时间不计为金钱）" in zh and "电费（每度）：¥0.56" in zh
    assert "回本" in zh


# -- 5. counts that do not fit: not applicable, and no negative time value --------------------

def test_counts_that_do_not_fit_show_not_applicable():
    prof = load_profile(EXAMPLES / "large-model-8plus-gpus-required.yaml")
    proj = projection(400, gpus=[1, 2, 3, 4, 8], speedups=[1, 1.95, 2.84, 3.7, 6.7],
                      fits=[False, False, True, True, True], nodes=[1, 1, 1, 1, 1])
    report = estimate_costs(prof, proj, lang="en", currency="USD")
    assert all(v >= 0 for v in report.time_saved_value_per_month)
    assert report.fits == [False, False, True, True, True]
    assert len(report.net_value_per_month) == 5  # JSON keeps a value for every count
    text = render_text(report, "en")
    rows = {line.split()[0]: line.split() for line in text.splitlines()
            if line[:1].isdigit()}
    assert rows["1*"][-2:] == [NOT_APPLICABLE, NOT_APPLICABLE]
    assert rows["2*"][-2:] == [NOT_APPLICABLE, NOT_APPLICABLE]
    assert NOT_APPLICABLE not in rows["8"]
    assert not any(cell.startswith("-$") for cell in rows["3"] + rows["8"])
    assert "not applicable" in text
    zh = render_text(estimate_costs(prof, proj, lang="zh", currency="USD"), "zh")
    assert "不适用" in zh


def test_slower_setups_have_no_time_value_but_lose_net_value():
    prof = profile(hours=48, runs_per_month=10)
    report = estimate_costs(prof, projection(48, speedups=(1.0, 0.8, 3.0)), lang="en")
    assert report.time_saved_value_per_month[1] == 0
    assert report.net_value_per_month[1] < -(report.cost_per_month[1] - report.cost_per_month[0])


# -- 6. the override footer only when the file is absent or was read fine ---------------------

def _text(capsys) -> str:
    assert main(["costs", str(EXAMPLES / "medium-model-4gpu-worth-it.yaml"), "--gpus",
                 "1,2"]) == 0
    return capsys.readouterr().out


def test_footer_is_a_hint_when_there_is_no_override_file(capsys):
    assert not override_path().exists()
    out = _text(capsys)
    assert f"To use your own prices, put them in {override_path()}." in out
    assert "override the catalog" not in out


def test_footer_confirms_a_good_override_file(capsys):
    override_path().parent.mkdir(parents=True, exist_ok=True)
    override_path().write_text("fx: {cny_per_usd: 7.1, source: my bank, as_of: '2026-11'}\n")
    out = _text(capsys)
    assert f"Your own prices from {override_path()} override the catalog." in out


@pytest.mark.parametrize("content", ["fx: {cny_per_usd: lots}\n", "[not, a, mapping]\n",
                                     "cloud_offers:\n  - {id: x}\n"])
def test_no_footer_when_the_override_file_has_problems(capsys, content):
    override_path().parent.mkdir(parents=True, exist_ok=True)
    override_path().write_text(content)
    assert load_catalog().warnings
    out = _text(capsys)
    assert "Catalog override problems:" in out
    assert "override the catalog" not in out and "To use your own prices" not in out
