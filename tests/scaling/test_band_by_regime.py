"""Issue 30, the band per regime: each regime (one NVLink / NVSwitch machine, one PCIe machine,
several machines) is calibrated on its own out-of-sample errors and shrunk toward a pooled
band as far as its evidence is thin (benchmarks/projection_eval.pooling_weight), so a regime
seen in few sources or model families gets a wider band."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from advisor.profile import Profile
from benchmarks import projection_eval as ev
from benchmarks.profile_points import flatten


@given(st.integers(1, 1000))
def test_more_calibration_groups_keep_more_of_the_regime_s_own_width(groups):
    w = ev.pooling_weight(groups)
    assert 0.0 <= w < 1.0
    assert ev.pooling_weight(groups + 1) > w


def test_a_regime_seen_in_one_group_takes_the_pooled_width():
    assert ev.pooling_weight(1) == 0.0
    assert ev.pooling_weight(0) == 0.0


def _profile(link: str, nodes: int) -> Profile:
    return Profile.model_validate({
        "task": "image_classification", "model": {"name": "ResNet-50", "params_millions": 25.6},
        "training": {"single_gpu_throughput": 1000.0, "dataset_samples": 10**6, "epochs": 1,
                     "batch_per_gpu": 256, "precision": "amp", "input_pipeline": "tuned"},
        "hardware": {"gpu": "a100_sxm4_80gb", "gpus_per_node": 8, "nodes": nodes,
                     "intra_link": link,
                     "inter_link": "infiniband_hdr" if nodes > 1 else "none",
                     "cooling": "server"}})


def test_leave_one_regime_out_folds_follow_the_band_s_regimes():
    profiles = [_profile("nvswitch", 1), _profile("pcie4", 1), _profile("nvswitch", 4)]
    points = flatten(profiles, [[2, 8], [4], [16, 32]], [1, 1, 8],
                     [[1.9, 7.5], [3.8], [1.9, 3.7]])
    labels = ev.fold_labels([], points, "regime")
    assert labels.tolist() == [ev.REGIMES[0], ev.REGIMES[0], ev.REGIMES[1], ev.REGIMES[2],
                               ev.REGIMES[2]]
    assert set(np.unique(labels)) <= set(ev.REGIMES)
