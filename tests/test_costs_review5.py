"""Fifth review, cost items: server-class machines priced as servers (5), the per-run cost
following the side it is priced on and owned hardware that one run keeps busy for months (2),
and the costs table adding up when more GPUs are slower (13).

The profiles are the reviewer's (p2a, p2c, p2d, p2e), copied here; the projections are written
out so the tests do not move when the scaling model does."""

from __future__ import annotations

import json
import math

import pytest
import yaml

from advisor.catalog import load_catalog
from advisor.costs import estimate_costs
from advisor.costs.breakeven import HOURS_PER_MONTH
from advisor.costs.text import render_text
from advisor.files.paths import resources_dir
from advisor.profile import Profile
from advisor.scaling.result import Projection

P2A = {  # 13B fine-tune on 8 x H100 SXM, compare mode, $2.50 a GPU-hour
    "schema_version": 1, "task": "llm",
    "model": {"name": "Llama 2 13B fine-tune", "params_millions": 13000, "layers": 40,
              "hidden_size": 5120, "sequence_length": 4096},
    "training": {"single_gpu_hours": 300, "runs_per_month": 2, "batch_per_gpu": 2,
                 "precision": "bf16", "input_pipeline": "tuned"},
    "hardware": {"gpu": "h100_sxm", "gpus_per_node": 8, "intra_link": "nvswitch",
                 "cooling": "server"},
    "economics": {"mode": "compare", "currency": "USD", "cloud_price_per_gpu_hour": 2.5,
                  "time_value": "deadline", "value_per_day": 3000},
}
P2C = {  # 30B fine-tune on 2 x 8 H100 SXM over 100 GbE, own hardware, PUE 1.4
    "schema_version": 1, "task": "llm",
    "model": {"name": "30B fine-tune", "params_millions": 30000, "layers": 60,
              "hidden_size": 6656, "sequence_length": 2048},
    "training": {"single_gpu_hours": 800, "runs_per_month": 1, "batch_per_gpu": 1,
                 "precision": "bf16"},
    "hardware": {"gpu": "h100_sxm", "gpus_per_node": 8, "nodes": 2, "intra_link": "nvswitch",
                 "inter_link": "ethernet_100g", "cooling": "server"},
    "economics": {"mode": "own", "currency": "USD", "electricity_per_kwh": 0.12, "pue": 1.4,
                  "time_value": "revenue", "value_per_day": 10000},
}
P2D = {  # 70B full fine-tune on H100 SXM, compare mode, catalog prices
    "schema_version": 1, "task": "llm",
    "model": {"name": "70B LoRA-less full fine-tune", "params_millions": 70000},
    "training": {"single_gpu_hours": 2000, "runs_per_month": 1, "batch_per_gpu": 1,
                 "precision": "bf16"},
    "hardware": {"gpu": "h100_sxm", "gpus_per_node": 8, "intra_link": "nvswitch",
                 "cooling": "server"},
    "economics": {"mode": "compare", "currency": "USD", "time_value": "deadline",
                  "value_per_day": 5000},
}
P2E = {  # 13B pretrain on 4 x 8 A100 SXM4 over RoCE
    "schema_version": 1, "task": "llm",
    "model": {"name": "13B pretrain", "params_millions": 13000, "layers": 40,
              "hidden_size": 5120, "sequence_length": 2048},
    "training": {"single_gpu_hours": 5000, "runs_per_month": 1, "batch_per_gpu": 4,
                 "precision": "bf16", "activation_checkpointing": False},
    "hardware": {"gpu": "a100_sxm4_80gb", "gpus_per_node": 8, "nodes": 4,
                 "intra_link": "nvswitch", "inter_link": "roce", "cooling": "server"},
    "economics": {"mode": "compare", "currency": "USD", "time_value": "deadline",
                  "value_per_day": 8000, "deadline_days": 30},
}


def profile(base: dict, **changes) -> Profile:
    data = json.loads(json.dumps(base))
    for section, values in changes.items():
        data[section].update(values)
    return Profile.model_validate(data)


def projection(gpus, run_hours, per_node=8, fits=None, one_fits=False) -> Projection:
    """Counts as given; one GPU cannot hold these models (value is compared with the first
    count that fits)."""
    gpus, run_hours = list(gpus), list(run_hours)
    n = len(gpus)
    speedups = [run_hours[0] * gpus[0] / h for h in run_hours]
    fits = list(fits or [True] * n)
    return Projection(
        gpus=gpus, nodes=[max(1, -(-g // per_node)) for g in gpus], speedup=speedups,
        speedup_low=speedups, speedup_high=speedups,
        efficiency=[s / g for s, g in zip(speedups, gpus, strict=True)],
        step_time_s=[1.0] * n, run_hours=run_hours, bottleneck=["compute"] * n,
        memory_per_gpu_gb=[1.0] * n, fits=fits, parallelism=["data"] * n,
        single_gpu_fits=one_fits)


# -- item 5: server-class machines -----------------------------------------------------------

def test_an_8_gpu_sxm_server_is_priced_and_powered_as_a_server():
    catalog = load_catalog()
    report = estimate_costs(profile(P2A), projection([4, 8], [81.36, 44.92]), lang="en")
    server = catalog.machine_overhead(8, "USD", "sxm_server")
    # Before: 8 x $25,000 + $1,222 of PC parts. Now the HGX/DGX-class chassis.
    assert report.capex[1] == pytest.approx(8 * 25000 + server)
    assert server >= 50_000
    assert report.priced_with["server_machine"] == pytest.approx(server)
    # Before: 8 x 700 W + 400 W. DGX H100: typical 6.5-8.5 kW, at most 10.2 kW.
    assert 6500 <= report.power_w[1] <= 10200
    assert report.power_w[1] == pytest.approx(8 * 700 + catalog.system_power_w(8, "sxm_server"))


def test_workstations_keep_their_rows():
    catalog = load_catalog()
    assert catalog.machine_overhead(8, "CNY") == pytest.approx(8800)
    assert catalog.system_power_w(8) == 400
    data = json.loads(json.dumps(P2A))
    data["hardware"] = {"gpu": "rtx4090", "gpus_per_node": 4, "intra_link": "pcie4"}
    report = estimate_costs(Profile.model_validate(data), projection([4], [80.0], per_node=4),
                            lang="en")
    assert "server_machine" not in report.priced_with
    assert report.priced_with["pue"] == 1.0


def test_server_rows_are_sourced_and_dated():
    raw = yaml.safe_load((resources_dir() / "catalog" / "economics.yaml").read_text("utf-8"))
    servers = [r for key in ("machine_overheads", "system_power") for r in raw[key]
               if r.get("machine_class") == "sxm_server"]
    assert len(servers) == 2
    for row in [*servers, raw["fabric"], raw["server_pue"]]:
        sources = row["source"] if isinstance(row["source"], list) else [row["source"]]
        assert all("http" in s for s in sources if "mean of" not in s), row["id"]
        assert row["as_of"] and row["confidence"], row["id"]
    price = next(r for r in servers if "price" in r)
    assert price["price_low"] <= price["price"] <= price["price_high"]


def test_server_class_uses_a_data_centre_pue_unless_the_user_gave_one():
    catalog = load_catalog()
    proj = projection([8], [44.92])
    default = estimate_costs(profile(P2A), proj, lang="en")
    assert default.priced_with["pue"] == pytest.approx(catalog.server_pue.pue)
    assert 1.3 <= catalog.server_pue.pue <= 1.7
    assert any("PUE" in a for a in default.assumptions)
    for given in (1.0, 1.4):  # a value the user wrote is never replaced, 1.0 included
        mine = estimate_costs(profile(P2A, economics={"pue": given}), proj, lang="en")
        assert mine.priced_with["pue"] == given
        assert not any("Uptime" in a for a in mine.assumptions)
    # A profile written back whole (the wizard saves every field) keeps the default: an
    # empty PUE is None, not 1.0, so the GUI and the CLI price the same profile alike.
    from advisor.profile import Profile

    again = Profile.model_validate(profile(P2A).model_dump(mode="json"))
    assert again.economics.pue is None
    assert estimate_costs(again, proj, lang="en").priced_with["pue"] == pytest.approx(
        catalog.server_pue.pue)


def test_several_servers_over_roce_include_the_network():
    catalog = load_catalog()
    report = estimate_costs(profile(P2E), projection([8, 32], [712.53, 191.10]), lang="en")
    card = report.priced_with["gpu_price"]
    server = catalog.machine_overhead(8, "USD", "sxm_server")
    fabric = catalog.fabric_cost(4, "USD")
    assert report.capex[0] == pytest.approx(8 * card + server)  # one machine: no network
    assert report.capex[1] == pytest.approx(32 * card + 4 * server + fabric)
    f = catalog.fabric
    assert fabric == pytest.approx(4 * f.cables_per_machine + f.switch_price)
    assert catalog.fabric_cost(2, "USD") == pytest.approx(2 * f.cables_per_machine)
    assert any("400 Gb/s switch" in a for a in report.assumptions)


def test_a_network_the_catalog_does_not_price_is_said_to_be_left_out():
    report = estimate_costs(profile(P2C), projection([8, 16], [116.71, 337.0]), lang="zh")
    assert any("not priced" in t.en and "未计入" in t.zh for t in report.assumption_texts)


# -- item 2: the side a row is priced on; hardware busy for more than a month ----------------

def reviewer_p2d(**economics) -> tuple[Profile, Projection]:
    """The reviewer's `costs p2d.yaml --gpus 8,24,32`: one run at 24 GPUs took 3.2 months."""
    return (profile(P2D, economics=economics),
            projection([8, 24, 32], [286.33, 2347.7, 1979.3], fits=[False, True, True]))


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
    prof = profile(P2D, economics={"cloud_price_per_gpu_hour": cloud})
    proj = projection([8], [single / 7.0])
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


# -- item 13: the columns add up -------------------------------------------------------------

def test_slower_counts_show_the_time_they_lose_and_the_net_adds_up():
    # The reviewer's run hours: 7 GPUs is the first that fits; 9 and up span two machines
    # over 100 GbE and are slower.
    gpus = [7, 8, 9, 10]
    hours = [130.66, 116.71, 384.97, 348.42]
    report = estimate_costs(profile(P2C), projection(gpus, hours), lang="en")
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
    report = estimate_costs(profile(P2C), projection([7, 8], [130.66, 116.71]), lang="en")
    assert all(v >= 0 for v in report.time_value_per_month)
    assert "time lost" not in render_text(report, "en")
    assert math.isclose(report.net_value_per_month[0], 0.0, abs_tol=1e-6)


def test_the_pdf_cost_table_shows_the_same_signed_time_value():
    """The PDF's per-count table printed the clipped value ($0) next to the signed net value;
    it now prints the time lost, like the CLI table, so its columns add up too."""
    from advisor.verdict.recommendation import recommend_from
    from ui.report.cost_section import _per_month_rows

    prof = profile(P2C)
    proj = projection([1, 7, 8, 9, 10], [900.0, 130.66, 116.71, 384.97, 348.42],
                      fits=[False, True, True, True, True])
    report = estimate_costs(prof, proj, lang="en")
    rec = recommend_from(prof, proj, report)
    _, rows = _per_month_rows(rec)
    nine = next(r for r in rows if r[0].replace("<b>", "").replace("</b>", "") == "9")
    assert any("−$105,963" in cell for cell in nine), nine
