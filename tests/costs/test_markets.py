"""The market picks the prices, the currency converts them, the language never enters: the
default market comes from the profile, else its currency, else the locale (never the language
of the messages); each market has its electricity, offers, card prices and tax; prices older
than 12 months are named."""

from __future__ import annotations

import pytest

from advisor.catalog import load_catalog, override_path
from advisor.catalog.price_age import PriceUse, as_of_date, stale_warnings
from advisor.costs import estimate_costs
from advisor.profile import Market, Profile
from advisor.profile.market import market_of_locale, system_market
from advisor.text.i18n import Text
from tests.support.costs import projection


def _profile(**economics) -> Profile:
    return Profile.model_validate({"training": {"single_gpu_hours": 10},
                                   "hardware": {"gpu": "rtx4090", "gpus_per_node": 4},
                                   "economics": {"mode": "own", **economics}})


@pytest.mark.parametrize("locale, market", [
    ("zh_CN.UTF-8", "CN"), ("de_DE.UTF-8", "EU"), ("fr_BE", "EU"), ("en_US.UTF-8", "US"),
    ("C.UTF-8", None), ("POSIX", None), ("ja_JP", None), ("zh", "CN"), ("", None)])
def test_the_locale_names_a_market(locale, market):
    found = market_of_locale(locale)
    assert (found.value if found else None) == market


def test_the_default_market_is_the_locales_not_the_languages(monkeypatch):
    monkeypatch.delenv("GPU_ADVISOR_MARKET", raising=False)
    for var in ("LC_ALL", "LC_MONETARY", "LANG", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    monkeypatch.setenv("LANGUAGE", "zh_CN")  # the messages' language: Chinese
    monkeypatch.setenv("GPU_ADVISOR_LANG", "zh")
    assert system_market() == Market.EU
    report = estimate_costs(_profile(), projection(10), lang="zh")
    assert (report.market, report.currency) == ("EU", "EUR")
    monkeypatch.setenv("GPU_ADVISOR_MARKET", "CN")
    assert system_market() == Market.CN


def test_each_market_has_its_own_prices_and_the_currency_only_converts():
    catalog = load_catalog()
    reports = {m: estimate_costs(_profile(market=m), projection(10), lang="en")
               for m in ("CN", "US", "EU")}
    kwh = {m: r.priced_with["electricity_per_kwh"] for m, r in reports.items()}
    assert kwh == pytest.approx({"CN": 0.56, "US": 0.1688, "EU": 0.2872})
    taxes = {m: r.priced_with["tax_rate"] for m, r in reports.items()}
    assert taxes == pytest.approx({"CN": 0.13, "US": 0.0752, "EU": 0.213})
    assert len({r.priced_with["cloud_per_gpu_hour"] for r in reports.values()}) == 3
    # The same market in another currency: every figure converted at the catalog's rate.
    us_in_cny = estimate_costs(_profile(market="US"), projection(10), lang="en",
                               currency="CNY")
    fx = catalog.fx_cny_per_usd
    for a, b in zip(us_in_cny.cost_per_month, reports["US"].cost_per_month, strict=True):
        assert a == pytest.approx(b * fx, rel=1e-9)
    assert us_in_cny.market == "US"


def test_catalog_hardware_carries_the_markets_tax_and_the_users_own_prices_do_not():
    catalog = load_catalog()
    taxed = estimate_costs(_profile(market="EU"), projection(10), lang="en")
    card = catalog.gpu_price("rtx4090", "EUR", "EU")
    assert taxed.priced_with["gpu_price"] == pytest.approx(card * 1.213)
    mine = estimate_costs(_profile(market="EU", currency="EUR", gpu_price=1800),
                          projection(10), lang="en")
    assert mine.priced_with["gpu_price"] == 1800  # as paid
    untaxed = estimate_costs(_profile(market="EU", purchase_tax_rate=0), projection(10),
                             lang="en")
    assert untaxed.priced_with["gpu_price"] == pytest.approx(card)
    assert untaxed.capex[0] < taxed.capex[0]
    assert any("purchase_tax_rate" in t.en and "purchase_tax_rate" in t.zh
               for t in taxed.assumption_texts)


def test_china_retail_prices_hold_vat_once():
    catalog = load_catalog()
    report = estimate_costs(_profile(market="CN"), projection(10), lang="en")
    assert report.priced_with["gpu_price"] == pytest.approx(14500)  # the shop price, VAT in
    # the same card bought in the US: its street price plus the US sales tax
    assert catalog.gpu_price("rtx4090", "USD", "US") == 1775


@pytest.mark.parametrize("text, end", [
    ("2026-11-09", "2026-11-09"), ("2025-11", "2025-11-30"), ("2026-Q1", "2026-03-31"),
    ("2024-H2 (published 2025-05-06)", "2025-05-06"), ("2026", "2026-12-31"),
    ("early 2026", "2026-12-31"), ("whitepaper 2018-09; price = launch 2018", "2018-12-31"),
    (None, None), ("undated", None)])
def test_as_of_reads_the_end_of_the_latest_period(text, end):
    found = as_of_date(text)
    assert (found.isoformat() if found else None) == end


def test_prices_older_than_a_year_are_named(monkeypatch):
    monkeypatch.setenv("GPU_ADVISOR_TODAY", "2026-12-01")
    path = override_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("electricity:\n  - {id: us_residential, price_per_kwh: 0.2, source: bill,"
                    " as_of: '2024-01'}\n", "utf-8")
    report = estimate_costs(_profile(market="US"), projection(10), lang="en")
    old = [w for w in report.price_warnings if "us_residential" in w.en]
    assert old and "2024-01" in old[0].en and "us_residential" in old[0].zh
    path.write_text("electricity:\n  - {id: us_residential, price_per_kwh: 0.2, source: bill,"
                    " as_of: '2026-10'}\n", "utf-8")
    fresh = estimate_costs(_profile(market="US"), projection(10), lang="en")
    assert not [w for w in fresh.price_warnings if "us_residential" in w.en]
    assert {u["entry"] for u in fresh.prices_used} >= {"us_residential", "us_sales_tax_average"}


def test_stale_warnings_group_by_kind_and_list_the_undated():
    from datetime import date

    uses = [PriceUse(Text(en="cloud offer", zh="云报价"), "a", "2024-01"),
            PriceUse(Text(en="cloud offer", zh="云报价"), "b", "2023-05-02"),
            PriceUse(Text(en="cloud offer", zh="云报价"), "c", "2026-10"),
            PriceUse(Text(en="card price", zh="显卡价格"), "d", None),
            PriceUse(Text(en="cloud offer", zh="云报价"), "a", "2024-01")]
    lines = stale_warnings(uses, on=date(2026, 12, 1))
    assert [t.en for t in lines] == [
        "cloud offer older than 12 months: a (2024-01), b (2023-05-02)",
        "undated (age unknown): d"]
    assert lines[0].zh.startswith("超过 12 个月的云报价")


def test_the_cost_and_recommend_outputs_warn_about_old_prices(monkeypatch, capsys):
    from advisor.cli import main
    from advisor.costs.text import render_text
    from tests.support.paths import ROOT

    monkeypatch.setenv("GPU_ADVISOR_TODAY", "2026-12-01")
    report = estimate_costs(_profile(market="CN"), projection(10), lang="zh")
    assert any("cn_household" in w.en for w in report.price_warnings)  # dated 2024-03
    text = render_text(report, "zh")
    assert "提醒：以下价格已超过 12 个月（请核实）：" in text and "cn_household (2024-03)" in text
    example = str(ROOT / "examples" / "medium-model-4gpu-worth-it.yaml")
    assert main(["--lang", "en", "recommend", example, "--details"]) == 0
    assert "Warning: prices older than 12 months (check them):" in capsys.readouterr().out
    monkeypatch.setenv("GPU_ADVISOR_TODAY", "2024-04-01")  # everything was fresh then
    fresh = estimate_costs(_profile(market="CN"), projection(10), lang="zh")
    assert not [w for w in fresh.price_warnings if "older than" in w.en]
