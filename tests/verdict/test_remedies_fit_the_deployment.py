"""Remedies fit the deployment: a power supply, case heat and the four-card layout are findings
only where the verdict owns the hardware; a rental is told to ask its provider, an owner to fix
the fans or the hypervisor (F23, F27, F29)."""

from __future__ import annotations

import pytest

from tests.support.paths import EXAMPLES, PROFILES
from tests.support.verdict import ALL, on_own_setups, pitfall, rules_case


@pytest.mark.parametrize("name", [p.stem for p in ALL])
def test_hardware_pitfalls_follow_the_deployment(recs, name):
    rec = recs[name]
    found = {t.rule for t in rec.trace}
    owned_only = {"pitfalls.packed_open_air_cards", "hardware_topology.psu_for_four",
                  "hardware_topology.psu_for_eight", "hardware_topology.four_is_the_sweet_spot"}
    if rec.verdict.deployment == "cloud":
        assert not owned_only & found, name


def test_owned_open_air_cards_still_warn():
    # the rules' advice on the user's own four cards (the answer itself rents the same cards
    # at an offer: as fast, for far less a run)
    rec = on_own_setups(EXAMPLES / "product-tuning-revenue-worth-it.yaml")
    assert rec.verdict.deployment == "own" and rec.verdict.gpus == 4
    assert {"thermal_throttling", "psu_capacity"} <= {p.id for p in rec.pitfalls}


def test_medium_example_on_cloud_has_no_psu_or_case_heat(recs):
    rec = recs["medium-model-4gpu-worth-it"]
    assert rec.verdict.deployment == "cloud"
    assert not {"psu_capacity", "thermal_throttling"} & {p.id for p in rec.pitfalls}


def test_no_fans_to_buy_for_a_cloud_rental():
    r = rules_case("stylegan-vgpu-cloud-hot")
    assert r.verdict.deployment == "cloud"
    heat = pitfall(r, "thermal_throttling")
    assert "fans" not in heat.remedy.en and "风扇" not in heat.remedy.zh
    assert "provider" in heat.remedy.en


def test_own_vgpu_servers_get_the_hypervisor_remedy():
    r = on_own_setups(PROFILES / "rules" / "ppo-vgpu-own-hot.yaml")  # on the user's servers
    assert r.verdict.deployment == "own"
    vgpu = pitfall(r, "vgpu_sharing")
    assert "hypervisor" in vgpu.remedy.en and "provider" not in vgpu.remedy.en
    assert "云厂商" not in vgpu.remedy.zh
    heat = pitfall(r, "thermal_throttling")
    assert "fans" in heat.remedy.en  # own hardware: the cooling is the owner's to fix
