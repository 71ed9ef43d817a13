"""Review 7: RoCE was one link, 100 Gb/s, while a fabric of 400 Gb/s RoCE adapters is what a 2026
H100 cluster on Ethernet runs and what the cost model prices. ``roce_400g`` is that fabric:
close to InfiniBand NDR, far above the 100 Gb/s RoCE, priced as a fabric, named in both
languages, and still Ethernet for the band (no calibration measurement crosses it)."""

from __future__ import annotations

from advisor.catalog import resolve_gpu
from advisor.catalog.profile_check import load_profile
from advisor.costs.machines import PRICED_FABRICS
from advisor.profile import InterLink
from advisor.profile.labels import label
from advisor.scaling import project
from advisor.scaling.band import ethernet_between_machines
from advisor.scaling.links import link_figures
from tests.support.paths import PROFILES

PROFILE = PROFILES / "verdict" / "moe16b-64-owned-h100-roce.yaml"


def _with(link: InterLink):
    profile = load_profile(PROFILE)
    return profile.model_copy(update={"hardware": profile.hardware.model_copy(
        update={"inter_link": link})})


def test_a_400g_roce_fabric_is_close_to_infiniband_ndr_and_far_above_100g():
    gpu = resolve_gpu("h100_sxm", "nvswitch")
    per_node = {link: link_figures("nvswitch", link, gpu, 8).busbw_inter_gbs
                for link in ("roce", "roce_400g", "infiniband_ndr")}
    assert per_node["roce"] * 3 < per_node["roce_400g"] < per_node["infiniband_ndr"]
    assert per_node["roce_400g"] >= 0.85 * per_node["infiniband_ndr"]
    hours = {link: project(_with(link), [128]).run_hours[0]
             for link in (InterLink.roce, InterLink.roce_400g, InterLink.infiniband_ndr)}
    assert hours[InterLink.infiniband_ndr] <= hours[InterLink.roce_400g] < hours[InterLink.roce]


def test_it_is_priced_as_a_fabric_named_in_both_languages_and_banded_as_ethernet():
    assert InterLink.roce_400g in PRICED_FABRICS
    assert label("inter_link", "roce_400g", "en") == "RoCE 400 Gb/s"
    assert label("inter_link", "roce", "en") == "RoCE 100 Gb/s"
    assert "100 Gb/s" in label("inter_link", "roce", "zh")
    assert ethernet_between_machines(InterLink.roce_400g)
