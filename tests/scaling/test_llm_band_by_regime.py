"""Review 10: the layouts' band (calibrated on InfiniBand clusters and NVLink machines) widens
below where the data-parallel band's regime factors say the run is less certain: cards without
peer-to-peer and Ethernet between machines (16 RTX 4090s over 10 GbE read +-10 %)."""

from __future__ import annotations

import math

from advisor.catalog.profile_check import expand_profile_data, vet_profile
from advisor.profile import Profile
from advisor.scaling import project
from advisor.scaling.llm_compute import load_llm_params


def _gpt2(hardware: dict) -> Profile:
    return vet_profile(Profile.model_validate(expand_profile_data({
        "schema_version": 1, "task": "llm", "model": {"id": "gpt2", "sequence_length": 1024},
        "training": {"dataset_tokens": 1e10, "batch_per_gpu": 16, "precision": "bf16",
                     "input_pipeline": "tuned"},
        "hardware": hardware,
        "economics": {"mode": "cloud", "currency": "USD", "time_value": "none"}})))


def _low_width(r, n: int) -> float:
    i = r.gpus.index(n)
    return math.log(r.speedup[i] / r.speedup_low[i])


def test_geforce_over_ethernet_widens_the_layouts_band_below():
    w = load_llm_params().band_log_width
    r = project(_gpt2({"gpu": "rtx4090", "gpus_per_node": 8, "nodes": 2,
                       "intra_link": "pcie4", "inter_link": "ethernet_10g"}), [1, 8, 16])
    assert _low_width(r, 8) > w * 1.3  # no peer-to-peer inside the machine
    assert _low_width(r, 16) > _low_width(r, 8)  # and Ethernet between machines
    i = r.gpus.index(16)
    assert r.speedup_high[i] <= 16.0


def test_a_cluster_like_the_calibration_keeps_the_calibrated_width():
    w = load_llm_params().band_log_width
    r = project(_gpt2({"gpu": "h100_sxm", "gpus_per_node": 8, "nodes": 2,
                       "intra_link": "nvswitch", "inter_link": "infiniband_ndr"}), [1, 8, 16])
    for n in (8, 16):
        assert math.isclose(_low_width(r, n), w, rel_tol=1e-3)  # the output rounds
