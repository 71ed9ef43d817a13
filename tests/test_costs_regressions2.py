"""Second review, cost and catalog items: rows that cannot run (1), GPUs without a purchase
price (2), --currency (5), catalog gaps and cooling defaults (9), cloud price blending (15)."""

from __future__ import annotations

import json

import pytest

from advisor.catalog import load_catalog
from advisor.catalog.gpus import gpu_ids, load_gpus, resolve_gpu
from advisor.cli import main
from advisor.costs import estimate_costs
from advisor.costs.model import DAYS_PER_MONTH, time_value_per_month
from advisor.costs.text import render_text
from advisor.profile import Profile
from advisor.scaling.result import Projection
from tests.support.paths import ROOT

# The reviewer's /tmp/rv2/p/h100fsdp.yaml: a 70B LLM with FSDP on 8 x H100 SXM, rented in USD,
# $20,000 a day of revenue, 2000 single-GPU hours, twice a month.
H100_FSDP = {
    "schema_version": 1, "task": "llm",
    "model": {"name": "Llama 3 70B fine-tune", "params_millions": 70000, "layers": 80,
              "hidden_size": 8192, "sequence_length": 4096},
    "training": {"single_gpu_hours": 2000, "runs_per_month": 2, "batch_per_gpu": 1,
                 "precision": "bf16", "parallelism": "fsdp", "input_pipeline": "tuned"},
    "hardware": {"gpu": "h100_sxm5", "gpus_per_node": 8, "intra_link": "nvswitch"},
    "economics": {"mode": "cloud", "currency": "USD", "time_value": "revenue",
                  "value_per_day": 20000},
}


def projection(single: float, gpus=(1, 2, 4, 8), speedups=(1.0, 1.9, 3.6, 6.8),
               fits=None) -> Projection:
    gpus, speedups = list(gpus), list(speedups)
    n = len(gpus)
    fits = list(fits or [True] * n)
    return Projection(
        gpus=gpus, nodes=[1] * n, speedup=speedups, speedup_low=speedups,
        speedup_high=speedups, efficiency=[s / g for s, g in zip(speedups, gpus, strict=True)],
        step_time_s=[1.0 / s for s in speedups], run_hours=[single / s for s in speedups],
        bottleneck=["compute"] * n, memory_per_gpu_gb=[1.0] * n, fits=fits,
        parallelism=["data"] * n, single_gpu_fits=fits[0])


def profile(**eco) -> Profile:
    data = json.loads(json.dumps(H100_FSDP))
    data["economics"].update(eco)
    return Profile.model_validate(data)


# -- item 1: rows that cannot run -------------------------------------------------------------

def test_nothing_fits_means_no_best_value_and_no_buy_vs_rent_setup():
    prof = profile(mode="compare")
    report = estimate_costs(prof, projection(2000, fits=[False] * 4), lang="en")
    assert report.best_value_gpus is None
    assert report.buy_vs_rent.gpus == 0
    assert report.buy_vs_rent.breakeven_months is None
    assert report.buy_vs_rent.breakeven_hours_per_month is None
    assert report.time_saved_value_per_month == [0.0] * 4
    assert report.net_value_per_month == [0.0] * 4
    assert report.fits == [False] * 4
    text = render_text(report, "en")
    assert "Best value: none" in text and "Best value: 1 GPU" not in text
    assert "owning pays off" not in text and "(1 GPU)" not in text
    assert "compared with 1 GPUs" not in text
    assert "性价比最高：无" in render_text(report, "zh")


@pytest.mark.parametrize("fits", [[False, False, True, True], [False, True, False, True],
                                  [True, False, False, False], [False, False, False, True]])
def test_best_value_and_buy_vs_rent_only_from_rows_that_fit(fits):
    prof = profile(mode="compare")
    proj = projection(2000, fits=fits)
    report = estimate_costs(prof, proj, lang="en")
    best = report.best_value_gpus
    assert best is not None and fits[proj.gpus.index(best)]
    assert report.buy_vs_rent.gpus == best
    for i, ok in enumerate(fits):
        if not ok:  # never a hypothetical value on a row that cannot run
            assert report.time_saved_value_per_month[i] == 0.0
            assert report.net_value_per_month[i] == 0.0


def test_reviewer_h100_fsdp_profile_never_names_a_count_that_cannot_run(capsys, tmp_path):
    path = tmp_path / "h100fsdp.json"
    path.write_text(json.dumps(H100_FSDP))
    assert main(["--lang", "en", "costs", str(path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    fitting = [n for n, ok in zip(data["gpus"], data["fits"], strict=True) if ok]
    if fitting:
        assert data["best_value_gpus"] in fitting
        assert data["buy_vs_rent"]["gpus"] in fitting
    else:
        assert data["best_value_gpus"] is None and data["buy_vs_rent"]["gpus"] == 0
    for ok, value, net in zip(data["fits"], data["time_saved_value_per_month"],
                              data["net_value_per_month"], strict=True):
        if not ok:
            assert value == 0.0 and net == 0.0


# -- item 1: time saved is capped at calendar time ---------------------------------------------

def test_time_value_never_exceeds_a_month_of_days():
    # 2000 h a run, twice a month: 8 GPUs "save" 2 x 1706 h = 142 days a month on paper.
    prof = profile()
    report = estimate_costs(prof, projection(2000), lang="en")
    cap = 20000 * DAYS_PER_MONTH
    assert cap * 0.95 < max(report.time_saved_value_per_month) < cap
    for value in report.time_saved_value_per_month:
        assert 0.0 <= value <= cap + 1e-6
    # The net value can only be the capped time value minus the extra cost.
    for i, value in enumerate(report.net_value_per_month):
        assert value <= cap - (report.cost_per_month[i] - report.cost_per_month[0]) + 1e-6


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


# -- item 5: --currency converts the same prices -----------------------------------------------

@pytest.mark.parametrize("given", ["USD", "CNY"])
@pytest.mark.parametrize("gpu", ["a100_sxm4_80gb", "rtx4090", "rtx3090", "h100_sxm"])
def test_currency_converts_the_same_prices_at_the_catalog_rate(given, gpu):
    data = json.loads(json.dumps(H100_FSDP))
    data["hardware"]["gpu"] = gpu
    data["economics"] = {"mode": "compare", "currency": given}
    prof = Profile.model_validate(data)
    proj = projection(100)
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


# -- item 2 and 9: every catalog GPU works in every mode ---------------------------------------

@pytest.mark.parametrize("mode", ["own", "cloud", "compare"])
@pytest.mark.parametrize("gpu", gpu_ids())
def test_every_catalog_gpu_works_in_every_mode(gpu, mode):
    data = json.loads(json.dumps(H100_FSDP))
    data["hardware"] = {"gpu": gpu, "gpus_per_node": 4}
    data["economics"] = {"mode": mode, "currency": "USD", "time_value": "revenue",
                         "value_per_day": 500}
    prof = Profile.model_validate(data)
    report = estimate_costs(prof, projection(48, gpus=(1, 2, 4), speedups=(1, 1.8, 3.2)),
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


def test_new_catalog_gpus_are_sourced_and_resolvable():
    a40 = resolve_gpu("a40")
    assert a40.memory_gb == 48 and a40.tflops_fp16_dense == pytest.approx(149.7)
    assert a40.tflops_fp32 == pytest.approx(37.4) and a40.memory_bandwidth_gbs == 696
    assert a40.tdp_w == 300 and a40.pcie_gen == 4 and a40.nvlink == "bridge"
    assert a40.source and a40.as_of and a40.generation == "ampere"
    ti = resolve_gpu("rtx2080ti")
    assert (ti.memory_gb, ti.memory_bandwidth_gbs, ti.tflops_fp16_dense, ti.tflops_fp32,
            ti.tdp_w, ti.pcie_gen, ti.nvlink) == (11, 616, 53.8, 13.4, 250, 3, "bridge")
    assert ti.generation == "turing" and ti.default_cooling == "open_air"
    for spec in load_gpus().values():
        assert spec.source and spec.generation, spec.id


def test_cooling_default_follows_the_gpu_class():
    gpus = load_gpus()
    for gpu_id in ("a100_pcie_40gb", "a100_pcie_80gb", "h100_pcie", "l40s", "t4", "l4", "a40",
                   "v100_pcie_32gb"):
        assert gpus[gpu_id].default_cooling == "server", gpu_id
    for gpu_id in ("rtx3090", "rtx4090", "rtx5090", "rtx4060ti_16gb"):
        assert gpus[gpu_id].default_cooling == "open_air", gpu_id
    assert gpus["rtx_a6000"].default_cooling == "blower"


# -- item 15: cloud price blending ------------------------------------------------------------

def test_no_price_is_derived_from_another_generation_or_a_tutorial_figure():
    catalog = load_catalog()
    offers = {o.id: o for o in catalog.cloud_offers}
    specs = load_gpus()
    for gpu in gpu_ids():
        for currency in ("USD", "CNY"):
            quote = catalog.cloud_quote(gpu, currency)
            if quote is None:
                continue
            for entry in quote.entries:
                offer = offers[entry]
                if offer.gpu == gpu:
                    continue
                other = specs[offer.gpu]
                assert other.generation == specs[gpu].generation, (gpu, entry)
                assert other.gpu_class == specs[gpu].gpu_class, (gpu, entry)
                assert not str(offer.confidence or "").lower().startswith("low"), (gpu, entry)
    rtx3090 = catalog.cloud_quote("rtx3090", "CNY")
    assert "article_4gpu_4060_class" not in rtx3090.entries
    a100 = catalog.cloud_quote("a100_sxm4_80gb", "CNY")
    assert "tencent_gn10xp_2xlarge40" not in a100.entries


def test_each_provider_is_named_once_in_a_price_note():
    catalog = load_catalog()
    for gpu in gpu_ids():
        quote = catalog.cloud_quote(gpu, "CNY")
        if quote is None:
            continue
        names = quote.basis.en.split(": ", 1)[1].split("; ")
        providers = [n.split(" ×")[0].split(" (")[0] for n in names]
        assert len(providers) == len(set(providers)), quote.basis.en


# -- item 3 (costs side): the costs command uses the profile's one projection ------------------

def test_costs_command_uses_the_measured_projection(capsys):

    from advisor.catalog.profile_check import load_profile
    from advisor.verdict.projection_for import projection_for

    path = ROOT / "examples" / \
        "measured-4gpu-only-1.8x-diagnose.yaml"
    assert main(["--lang", "en", "costs", str(path), "--gpus", "1,2,4", "--format",
                 "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = projection_for(load_profile(path), [1, 2, 4])
    assert data["run_hours"] == pytest.approx(expected.run_hours)
    assert data["run_hours"][0] / data["run_hours"][2] == pytest.approx(1.80, abs=0.02)
