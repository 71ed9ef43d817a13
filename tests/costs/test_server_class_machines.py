"""Server-class machines are priced and powered as servers: an 8-GPU SXM board is an HGX/DGX-class
chassis with its own draw and a data-centre PUE (unless the profile gives one); workstations keep
the article's PC parts and power (F10, F23); several servers pay for the network between them,
the one the profile names or the InfiniBand the projection assumes, or the costs say that the
network is left out. The catalog rows behind these figures are sourced and dated."""

from __future__ import annotations

import json

import pytest
import yaml

from advisor.catalog import load_catalog
from advisor.costs import estimate_costs
from advisor.files.paths import resources_dir
from advisor.profile import Profile
from tests.support.costs import P2A, P2C, P2E, profile_from, projection_from_hours


def test_an_8_gpu_sxm_server_is_priced_and_powered_as_a_server():
    catalog = load_catalog()
    report = estimate_costs(profile_from(P2A), projection_from_hours([4, 8], [81.36, 44.92]), lang="en")
    server = catalog.machine_overhead(8, "USD", "sxm_server")
    tax = 1 + report.priced_with["tax_rate"]  # the US average sales tax on catalog hardware
    assert tax == pytest.approx(1 + catalog.tax_rate("US"))
    # Before: 8 x $25,000 + $1,222 of PC parts. Now the HGX/DGX-class chassis.
    assert report.capex[1] == pytest.approx((8 * 25000 + server) * tax)
    assert server >= 50_000
    assert report.priced_with["server_machine"] == pytest.approx(server * tax)
    # Before: 8 x 700 W + 400 W. DGX H100: typical 6.5-8.5 kW, at most 10.2 kW.
    assert 6500 <= report.power_w[1] <= 10200
    assert report.power_w[1] == pytest.approx(8 * 700 + catalog.system_power_w(8, "sxm_server"))


def test_workstations_keep_their_rows():
    catalog = load_catalog()
    assert catalog.machine_overhead(8, "USD") == pytest.approx(16161)  # an 8-GPU PCIe server
    assert catalog.system_power_w(8) == 400
    data = json.loads(json.dumps(P2A))
    data["hardware"] = {"gpu": "rtx4090", "gpus_per_node": 4, "intra_link": "pcie4"}
    report = estimate_costs(Profile.model_validate(data), projection_from_hours([4], [80.0], per_node=4),
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
    proj = projection_from_hours([8], [44.92])
    default = estimate_costs(profile_from(P2A), proj, lang="en")
    assert default.priced_with["pue"] == pytest.approx(catalog.server_pue.pue)
    assert 1.3 <= catalog.server_pue.pue <= 1.7
    assert any("PUE" in a for a in default.assumptions)
    for given in (1.0, 1.4):  # a value the user wrote is never replaced, 1.0 included
        mine = estimate_costs(profile_from(P2A, economics={"pue": given}), proj, lang="en")
        assert mine.priced_with["pue"] == given
        assert not any("Uptime" in a for a in mine.assumptions)
    # A profile_from written back whole (the wizard saves every field) keeps the default: an
    # empty PUE is None, not 1.0, so the GUI and the CLI price the same profile_from alike.
    from advisor.profile import Profile

    again = Profile.model_validate(profile_from(P2A).model_dump(mode="json"))
    assert again.economics.pue is None
    assert estimate_costs(again, proj, lang="en").priced_with["pue"] == pytest.approx(
        catalog.server_pue.pue)


def test_several_servers_over_roce_include_the_network():
    catalog = load_catalog()
    report = estimate_costs(profile_from(P2E), projection_from_hours([8, 32], [712.53, 191.10]), lang="en")
    card = report.priced_with["gpu_price"]  # as paid: the sales tax is in
    tax = 1 + report.priced_with["tax_rate"]
    server = catalog.machine_overhead(8, "USD", "sxm_server") * tax
    fabric = catalog.fabric_cost(4, "USD") * tax
    assert report.capex[0] == pytest.approx(8 * card + server)  # one machine: no network
    assert report.capex[1] == pytest.approx(32 * card + 4 * server + fabric)
    f = catalog.fabric
    assert catalog.fabric_cost(4, "USD") == pytest.approx(4 * f.cables_per_machine + f.switch_price)
    assert catalog.fabric_cost(2, "USD") == pytest.approx(2 * f.cables_per_machine)
    assert any("400 Gb/s switch" in a for a in report.assumptions)


def test_a_network_the_catalog_does_not_price_is_said_to_be_left_out():
    report = estimate_costs(profile_from(P2C), projection_from_hours([8, 16], [116.71, 337.0]), lang="zh")
    assert any("not priced" in t.en and "未计入" in t.zh for t in report.assumption_texts)


def test_the_assumed_infiniband_between_servers_is_priced():
    """Review 6: the projection assumed InfiniBand NDR between H100 servers the profile did not
    network, but owning them left the fabric out ("not priced"). It is priced now."""
    from advisor.costs import estimate_costs
    from advisor.profile import Profile
    from advisor.verdict.beyond import considered

    profile = Profile.model_validate({
        "schema_version": 1, "task": "llm",
        "model": {"name": "70B", "params_millions": 70000},
        "training": {"single_gpu_hours": 2000, "runs_per_month": 1, "batch_per_gpu": 1,
                     "precision": "bf16"},
        "hardware": {"gpu": "h100_sxm", "gpus_per_node": 8, "intra_link": "nvswitch",
                     "cooling": "server"},
        "economics": {"mode": "own", "currency": "USD", "time_value": "deadline",
                      "value_per_day": 5000}})
    projection, _ = considered(profile)
    report = estimate_costs(profile, projection, lang="en")
    assert max(report.gpus) > 8
    assert any("400 Gb/s switch" in a for a in report.assumptions)
    assert not any("not priced" in a for a in report.assumptions)
