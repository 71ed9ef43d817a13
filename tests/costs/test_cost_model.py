"""Mechanics of the cost model: currency (the same prices converted at the catalog rate),
missing prices (every catalog GPU works in every mode; an unpriced card is a note, not an
error), deadline, migration, text and CLI."""

from __future__ import annotations

import json

import pytest

from advisor.catalog import gpu_ids, load_catalog, override_path
from advisor.cli import main
from advisor.costs import CITED_FACTS, estimate_costs
from advisor.costs.text import render_text
from advisor.files.errors import InputError
from advisor.profile import Profile
from tests.support.costs import H100_FSDP, projection, projection_1_to_8
from tests.support.paths import ROOT

EXAMPLES = ROOT / "examples"
MONEY = ("energy_cost_per_run", "cloud_cost_per_run", "own_cost_per_run",
         "migration_cost_per_run", "cost_per_run", "cost_per_month",
         "time_saved_value_per_month", "net_value_per_month", "capex")


def profile(**economics) -> Profile:
    eco = {"mode": "compare", "gpu_price": 10_000, "cloud_price_per_gpu_hour": 2.0,
           "electricity_per_kwh": 0.6, "engineer_day_rate": 1500, "time_value": "revenue",
           "value_per_day": 3000}
    eco.update(economics)
    return Profile.model_validate({"training": {"single_gpu_hours": 48, "runs_per_week": 2.5},
                                   "hardware": {"gpu": "rtx4090", "gpus_per_node": 4},
                                   "economics": eco})


def test_profile_prices_convert_with_the_catalog_rate():
    fx = load_catalog().fx_cny_per_usd
    cny = estimate_costs(profile(currency="CNY"), projection(48), lang="en")
    usd = estimate_costs(profile(currency="CNY"), projection(48), lang="en", currency="USD")
    assert (cny.currency, usd.currency) == ("CNY", "USD")
    for name in MONEY:
        for a, b in zip(getattr(cny, name), getattr(usd, name), strict=True):
            assert b * fx == pytest.approx(a, rel=1e-9, abs=1e-9), name
    assert usd.best_value_gpus == cny.best_value_gpus


def test_the_language_never_picks_the_currency_or_the_prices():
    """The issue: the same profile cost $164 a month in English and $78 in Chinese. The
    market (the profile's, else the locale's: US in the tests) picks the prices, the
    currency follows it, and the language only translates."""
    p = profile()
    assert p.economics.currency is None and p.economics.market is None
    zh, en = (estimate_costs(p, projection(48), lang=lang) for lang in ("zh", "en"))
    assert zh.currency == en.currency == "USD" and zh.market == en.market == "US"
    assert zh.cost_per_month == en.cost_per_month and zh.priced_with == en.priced_with
    for market, currency in (("CN", "CNY"), ("US", "USD"), ("EU", "EUR")):
        report = estimate_costs(p, projection(48), lang="zh", market=market)
        assert (report.market, report.currency) == (market, currency)
    with pytest.raises(InputError):
        estimate_costs(p, projection(48), lang="en", currency="GBP")
    with pytest.raises(InputError):
        estimate_costs(p, projection(48), lang="en", market="JP")


def test_catalog_prices_fill_what_the_profile_leaves_empty():
    p = Profile.model_validate({"training": {"single_gpu_hours": 10},
                                "hardware": {"gpu": "rtx4090"},
                                "economics": {"currency": "USD"}})
    report = estimate_costs(p, projection(10), lang="en")
    catalog = load_catalog()
    # The US street price and the US average sales tax (the profile's USD: the US market).
    assert report.priced_with["gpu_price"] == pytest.approx(1775 * (1 + catalog.tax_rate("US")))
    assert report.priced_with["cloud_per_gpu_hour"] == pytest.approx(
        catalog.cloud_price_per_gpu_hour("rtx4090", "USD", "US"))
    assert report.priced_with["electricity_per_kwh"] == pytest.approx(0.1688)
    assert any("street price" in a and "7.52% tax" in a for a in report.assumptions)
    zh = estimate_costs(p, projection(10), lang="zh")
    assert any("市场价" in a for a in zh.assumptions)
    assert zh.assumption_texts == report.assumption_texts


def test_user_catalog_override_changes_the_estimate():
    p = profile(electricity_per_kwh=None, currency="CNY")
    before = estimate_costs(p, projection(48), lang="en")
    path = override_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("electricity: [{id: cn_household, price_per_kwh: 1.12}]\n", "utf-8")
    after = estimate_costs(p, projection(48), lang="en")
    assert after.energy_cost_per_run[0] == pytest.approx(2 * before.energy_cost_per_run[0])


def test_missing_prices_degrade_compare_and_leave_the_unknown_side_out():
    custom = {"name": "Lab card", "memory_gb": 24, "tflops_fp16": 100, "tflops_fp32": 30,
              "tdp_w": 300}
    no_price = Profile.model_validate({"training": {"single_gpu_hours": 10},
                                       "hardware": {"gpu": custom},
                                       "economics": {"currency": "USD",
                                                     "cloud_price_per_gpu_hour": 0.8}})
    report = estimate_costs(no_price, projection(10), lang="en")
    assert report.mode == "cloud" and not report.own_priced and report.cloud_priced
    assert report.buy_vs_rent.breakeven_months is None
    assert report.buy_vs_rent.breakeven_hours_per_month is None
    # Review 2, item 2: own mode without a card price is a report, not an error: the own
    # figures leave the cards out and a note in both languages names economics.gpu_price.
    own = no_price.model_copy(deep=True)
    own.economics.mode = "own"
    mine = estimate_costs(own, projection(10), lang="en")
    assert mine.mode == "own" and not mine.own_priced and "gpu_price" not in mine.priced_with
    assert any("economics.gpu_price" in t.en and "economics.gpu_price" in t.zh
               for t in mine.assumption_texts)
    # issue 29: own hardware costed without a card price is the user's own: nothing bought
    # within the machine the profile describes
    total = own.hardware.total_gpus
    assert all(capex == 0 for n, capex in zip(mine.gpus, mine.capex, strict=True)
               if n <= total)
    to_buy = own.model_copy(deep=True)
    to_buy.economics.owned_gpus = 0  # said to be bought: the machine only, no card
    bought = estimate_costs(to_buy, projection(10), lang="en")
    tax = 1 + bought.priced_with["tax_rate"]
    catalog = load_catalog()
    for n, capex in zip(bought.gpus, bought.capex, strict=True):
        if n <= total:
            assert capex == pytest.approx(catalog.machine_overhead(n, "USD") * tax)
    nothing = Profile.model_validate({"training": {"single_gpu_hours": 10},
                                      "hardware": {"gpu": custom}})
    blind = estimate_costs(nothing, projection(10), lang="en")
    assert not blind.own_priced and not blind.cloud_priced


def test_migration_is_spread_over_the_runs_and_skipped_when_done_before():
    report = estimate_costs(profile(), projection(48), lang="en")
    runs = 2.5 * 52 / 12 * 12
    assert report.migration_cost_per_run[0] == 0
    assert report.migration_cost_per_run[2] == pytest.approx(2 * 1500 / runs, rel=1e-4)
    done = estimate_costs(profile(moved_to_multi_gpu_before=True), projection(48), lang="en")
    assert done.migration_cost_per_run == [0.0, 0.0, 0.0]
    # F32: a second machine adds work even for a team that has moved before.
    two = estimate_costs(profile(moved_to_multi_gpu_before=True),
                         projection(48, gpus=(1, 4, 8), speedups=(1, 3, 5), nodes=(1, 1, 2)),
                         lang="en")
    assert two.migration_cost_per_run[1] == 0 and two.migration_cost_per_run[2] > 0


def test_time_value_none_counts_nothing_and_pue_raises_energy():
    learning = estimate_costs(profile(time_value="none"), projection(48), lang="en")
    assert learning.time_saved_value_per_month == [0.0, 0.0, 0.0]
    assert learning.best_value_gpus == 1
    pue = estimate_costs(profile(pue=1.5), projection(48), lang="en")
    home = estimate_costs(profile(), projection(48), lang="en")
    assert pue.energy_kwh_per_run[0] == pytest.approx(1.5 * home.energy_kwh_per_run[0])


def test_deadline_picks_the_cheapest_count_that_finishes():
    # One 48 h run is due within 1.5 days: one GPU is too slow, two are enough (for a team
    # that has run on several GPUs before: no move first)
    moved = {"moved_to_multi_gpu_before": True}
    assert estimate_costs(profile(deadline_days=1.5, **moved), projection(48),
                          lang="en").deadline_gpus == 2
    assert estimate_costs(profile(deadline_days=1, **moved), projection(48),
                          lang="en").deadline_gpus == 4
    # the first move takes a day (F16): 26.7 h on two GPUs after it miss 1.5 days; in 1.9 days
    # four (16 h) make it after the move, two (26.7 h) do not, one (48 h) does not at all
    assert estimate_costs(profile(deadline_days=1.5), projection(48),
                          lang="en").deadline_gpus is None
    assert estimate_costs(profile(deadline_days=1.9), projection(48),
                          lang="en").deadline_gpus == 4
    # Seven runs a week: the ~10 runs due in 10 days take 20 days on one GPU, 11 on two.
    busy = profile(deadline_days=10).model_dump()
    busy["training"] = {"single_gpu_hours": 48, "runs_per_week": 7}
    report = estimate_costs(Profile.model_validate(busy), projection(48), lang="en")
    assert report.deadline_gpus == 4
    tight = estimate_costs(profile(deadline_days=0.5), projection(48), lang="en")
    assert tight.deadline_gpus is None
    assert any("deadline" in a for a in tight.assumptions)


def test_counts_that_do_not_fit_are_never_chosen():
    proj = projection(48, fits=[False, True, True])
    report = estimate_costs(profile(), proj, lang="en")
    assert report.best_value_gpus in (2, 4)
    assert report.net_value_per_month[1] == 0  # compared with the smallest setup that fits
    assert any("one GPU cannot run" in a for a in report.assumptions)


def test_one_gpu_is_the_baseline_even_when_not_projected():
    full = estimate_costs(profile(), projection(48), lang="en")
    part = estimate_costs(profile(), projection(48, gpus=(2, 4), speedups=(1.8, 3.0)),
                          lang="en")
    assert part.net_value_per_month == pytest.approx(full.net_value_per_month[1:])
    assert part.time_saved_value_per_month == pytest.approx(
        full.time_saved_value_per_month[1:])


def test_text_report_in_both_languages():
    report_en = estimate_costs(profile(currency="CNY"), projection(48), lang="en")
    text = render_text(report_en, "en")
    assert "Best value: 4 GPUs" in text and "¥" in text and "Buy vs rent" in text
    assert "GPU(s)" not in text
    report_zh = estimate_costs(profile(currency="CNY"), projection(48), lang="zh")
    text_zh = render_text(report_zh, "zh")
    assert "性价比最高：4 卡" in text_zh and "自建还是云实例租用" in text_zh
    assert "使用的价格" in text_zh
    assert "Prices used" in text and "2 engineer-days" in text


def test_cited_facts_cover_the_cost_facts():
    for fact in ("F02", "F09", "F10", "F11", "F12", "F13", "F14", "F15", "F16", "F17", "F22",
                 "F23", "F31"):
        assert CITED_FACTS.get(fact), fact


# -- CLI --------------------------------------------------------------------------------------

@pytest.fixture
def fake_projection(monkeypatch):
    calls = []

    def project(prof, gpus):
        calls.append(gpus)
        counts = gpus or [1, 2, 4]
        speedups = [min(n, 0.8 * n + 0.2) for n in counts]
        return projection(prof.run_hours_one_gpu, counts, speedups)

    monkeypatch.setattr("advisor.cli.commands.costs.project", project)
    return calls


def test_cli_json(fake_projection, capsys, tmp_path):
    # the answer stays on the user's own cards here, time having no money value (a rented
    # setup is projected by the comparison's evaluation, at the same counts; with the
    # example's day worth 1,500 the answer rents more cards)
    text = (EXAMPLES / "measured-4gpu-only-1.8x-diagnose.yaml").read_text(encoding="utf-8")
    path = tmp_path / "measured.yaml"
    path.write_text(text.replace("time_value: revenue, value_per_day: 1500",
                                 "time_value: none"), encoding="utf-8")
    code = main(["costs", str(path), "--format", "json", "--gpus", "1,2,4,8"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["gpus"] == [1, 2, 4, 8] and data["currency"] == "CNY"
    assert data["catalog_warnings"] == []
    assert fake_projection == [[1, 2, 4, 8]]


def test_cli_json_of_a_rented_answer_keeps_the_counts_asked(capsys):
    code = main(["costs", str(EXAMPLES / "medium-model-4gpu-worth-it.yaml"), "--format", "json",
                 "--gpus", "1,2,4,8"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["gpus"] == [1, 2, 4, 8] and data["currency"] == "CNY"


def test_cli_text_chinese_and_usd(fake_projection, capsys):
    code = main(["--lang", "zh", "costs", str(EXAMPLES / "research-deadline-worth-it.yaml"),
                 "--currency", "USD"])
    assert code == 0
    out = capsys.readouterr().out
    assert "成本" in out and "USD" in out and "$" in out


def test_cli_reports_catalog_problems_and_bad_gpu_counts(fake_projection, capsys):
    path = override_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("fx: {cny_per_usd: lots}\n", "utf-8")
    assert main(["costs", str(EXAMPLES / "medium-model-4gpu-worth-it.yaml")]) == 0
    out = capsys.readouterr().out
    assert "catalog.yaml:1" in out and "built-in catalog used" in out
    assert main(["costs", str(EXAMPLES / "medium-model-4gpu-worth-it.yaml"),
                 "--gpus", "0,x"]) == 2
    assert "--gpus" in capsys.readouterr().err


def test_cli_with_the_real_projection(capsys):
    code = main(["costs", str(EXAMPLES / "personal-learning-resnet-not-worth-it.yaml"),
                 "--format", "json", "--gpus", "1,4"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["gpus"] == [1, 4] and data["best_value_gpus"] == 1
    assert len(data["fits"]) == 2 and data["currency"] == "CNY"


def test_source_message_is_translated():
    path = override_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("fx: {cny_per_usd: 7.0, source: '  '}\n", "utf-8")
    (warning,) = load_catalog().warnings
    assert "source" in warning.message_en and "出处" in warning.message_zh


@pytest.mark.parametrize("given", ["USD", "CNY"])
@pytest.mark.parametrize("gpu", ["a100_sxm4_80gb", "rtx4090", "rtx3090", "h100_sxm"])
def test_currency_converts_the_same_prices_at_the_catalog_rate(given, gpu):
    data = json.loads(json.dumps(H100_FSDP))
    data["hardware"]["gpu"] = gpu
    data["economics"] = {"mode": "compare", "currency": given}
    prof = Profile.model_validate(data)
    proj = projection_1_to_8(100)
    usd = estimate_costs(prof, proj, lang="en", currency="USD")
    cny = estimate_costs(prof, proj, lang="en", currency="CNY")
    fx = load_catalog().fx_cny_per_usd
    for key in ("gpu_price", "cloud_per_gpu_hour", "electricity_per_kwh", "engineer_day_rate",
                "machine_overhead_1gpu"):
        assert cny.priced_with[key] == pytest.approx(usd.priced_with[key] * fx), key
    for name in ("cost_per_run", "cost_per_month", "cloud_cost_per_run", "own_cost_per_run"):
        for a, b in zip(getattr(usd, name), getattr(cny, name), strict=True):
            assert b == pytest.approx(a * fx), name
    assert usd.buy_vs_rent.breakeven_hours_per_month == pytest.approx(
        cny.buy_vs_rent.breakeven_hours_per_month)
    assert usd.best_value_gpus == cny.best_value_gpus


@pytest.mark.parametrize("mode", ["own", "cloud", "compare"])
@pytest.mark.parametrize("gpu", gpu_ids())
def test_every_catalog_gpu_works_in_every_mode(gpu, mode):
    data = json.loads(json.dumps(H100_FSDP))
    data["hardware"] = {"gpu": gpu, "gpus_per_node": 4}
    data["economics"] = {"mode": mode, "currency": "USD", "time_value": "revenue",
                         "value_per_day": 500}
    prof = Profile.model_validate(data)
    report = estimate_costs(prof, projection_1_to_8(48, gpus=(1, 2, 4), speedups=(1, 1.8, 3.2)),
                            lang="en")
    assert report.best_value_gpus in (1, 2, 4)
    if not report.own_priced:
        notes = report.assumption_texts
        assert any("economics.gpu_price" in t.en and "economics.gpu_price" in t.zh
                   for t in notes)
        assert "gpu_price" not in report.priced_with
    if not report.cloud_priced:
        assert any("economics.cloud_price_per_gpu_hour" in t.en for t in report.assumption_texts)
    for lang in ("en", "zh"):
        assert render_text(report, lang)


def test_own_mode_without_a_card_price_is_a_report_not_an_error(capsys, tmp_path):
    data = json.loads(json.dumps(H100_FSDP))
    data["hardware"] = {"gpu": "a100_pcie_40gb", "gpus_per_node": 4}
    data["model"] = {"name": "ResNet-50", "params_millions": 25.6}
    data["task"] = "image_classification"
    data["training"] = {"single_gpu_hours": 72}
    data["economics"] = {"mode": "own", "currency": "CNY"}
    path = tmp_path / "a100pcie.json"
    path.write_text(json.dumps(data))
    assert main(["--lang", "zh", "costs", str(path)]) == 0
    out = capsys.readouterr().out
    assert "economics.gpu_price" in out and "不含显卡" in out
    assert main(["--lang", "en", "costs", str(path), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["own_priced"] is False and report["mode"] == "own"
