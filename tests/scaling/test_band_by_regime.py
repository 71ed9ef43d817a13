"""Issue 30, the band per regime: its width follows what is uncertain about the job (no
peer-to-peer, little work per GPU, Ethernet / RoCE between machines, a default loader), not the
source of the measurements (advisor/scaling/band.py), and the leave-one-regime-out folds
follow the three regimes the accuracy report scores (benchmarks/projection_eval.REGIMES)."""

from __future__ import annotations

import numpy as np
import pytest

from advisor.profile import Profile
from advisor.scaling.band import band_log_edges, ethernet_between_machines, no_peer_to_peer
from advisor.scaling.parameters import load_params
from advisor.scaling.project import project
from benchmarks import projection_eval as ev
from benchmarks.profile_points import flatten


def _profile(link: str = "nvswitch", nodes: int = 1, gpu: str = "a100_sxm4_80gb",
             batch: int = 256, throughput: float = 1000.0, pipeline: str = "tuned",
             inter: str = "infiniband_hdr") -> Profile:
    return Profile.model_validate({
        "task": "image_classification", "model": {"name": "ResNet-50", "params_millions": 25.6},
        "training": {"single_gpu_throughput": throughput, "dataset_samples": 10**6,
                     "epochs": 1, "batch_per_gpu": batch, "precision": "amp",
                     "input_pipeline": pipeline},
        "hardware": {"gpu": gpu, "gpus_per_node": 8, "nodes": nodes, "intra_link": link,
                     "inter_link": inter if nodes > 1 else "none", "cooling": "server"}})


def test_leave_one_regime_out_folds_follow_the_band_s_regimes():
    profiles = [_profile("nvswitch", 1), _profile("pcie4", 1), _profile("nvswitch", 4)]
    points = flatten(profiles, [[2, 8], [4], [16, 32]], [1, 1, 8],
                     [[1.9, 7.5], [3.8], [1.9, 3.7]])
    labels = ev.fold_labels([], points, "regime")
    assert labels.tolist() == [ev.REGIMES[0], ev.REGIMES[0], ev.REGIMES[1], ev.REGIMES[2],
                               ev.REGIMES[2]]
    assert set(np.unique(labels)) <= set(ev.REGIMES)


def test_the_regime_flags_are_physical():
    assert no_peer_to_peer("pcie4", is_consumer=True)  # GeForce on PCIe: via host memory
    assert not no_peer_to_peer("nvlink_bridge", is_consumer=True)  # a bridge is a direct path
    assert not no_peer_to_peer("pcie4", is_consumer=False)  # workstation / data-centre cards
    assert ethernet_between_machines("roce") and ethernet_between_machines("ethernet_25g")
    assert not ethernet_between_machines("infiniband_hdr")
    assert not ethernet_between_machines("none")


def _edges(**flags):
    """Log edges at 8 GPUs of one machine and 16 GPUs of two, 12.5 % overhead."""
    p = load_params()
    work = flags.pop("work", 1.0)
    return band_log_edges(np.array([3.0, 3.0]), np.array([0.0, 1.0]),
                          np.array([0.1335, 0.1335]), np.array([work, work]), p, **flags)


@pytest.mark.parametrize("flag", [{"no_p2p": True}, {"work": 0.05},
                                  {"default_loader": True}])
def test_each_flagged_regime_widens_the_band_over_the_plain_one(flag):
    low0, high0 = _edges()
    low, high = _edges(**flag)
    assert np.all(high - low > high0 - low0 + 1e-6)
    assert np.all(low < low0 - 1e-6)


@pytest.mark.parametrize("flag", [{"work": 0.05}, {"default_loader": True}])
def test_only_a_card_without_peer_to_peer_narrows_the_upper_edge(flag):
    _, high0 = _edges()
    assert np.all(_edges(**flag)[1] >= high0)
    # the staging through host memory is paid for sure: less of the overhead comes back
    _, high = _edges(no_p2p=True)
    assert np.all(high < high0 - 1e-6)
    assert high[0] == pytest.approx(
        high0[0] * np.exp(-load_params().band_high_no_peer_to_peer))


def test_ethernet_widens_only_across_machines():
    low0, high0 = _edges()
    low, high = _edges(ethernet=True)
    assert low[0] == pytest.approx(low0[0])  # one machine: the network is not used
    assert low[1] < low0[1] - 1e-6


def test_less_work_per_gpu_is_never_narrower():
    lows = [_edges(work=w)[0][0] for w in (2.0, 0.5, 0.2, 0.05, 0.01)]
    assert lows == sorted(lows, reverse=True)
    assert lows[-1] < lows[1]


def test_the_band_widens_with_gpus_and_machines():
    p = load_params()
    one = np.array([1.0, 2.0, 3.0, 3.0, 3.0])
    machines = np.array([0.0, 0.0, 0.0, 1.0, 2.0])
    low, high = band_log_edges(one, machines, np.linspace(0.02, 0.2, 5), np.ones(5), p)
    assert np.all(np.diff(low) < 0) and np.all(np.diff(high) > 0)


def _width(r, i):
    return r.speedup_high[i] / r.speedup_low[i]


def test_project_gives_a_wider_band_in_each_flagged_regime():
    """Through ``project``: the same job on the same count, plain against each flag."""
    plain = project(_profile("pcie4", gpu="rtx_a6000"), [1, 8])
    no_p2p = project(_profile("pcie4", gpu="rtx4090"), [1, 8])  # GeForce: no peer-to-peer
    little = project(_profile("pcie4", gpu="rtx_a6000", batch=8, throughput=1000.0), [1, 8])
    loader = project(_profile("pcie4", gpu="rtx_a6000", pipeline="typical"), [1, 8])
    for flagged in (no_p2p, little, loader):
        assert _width(flagged, 1) > _width(plain, 1)
    ib = project(_profile("nvswitch", nodes=2, inter="infiniband_hdr"), [1, 16])
    eth = project(_profile("nvswitch", nodes=2, inter="roce"), [1, 16])
    assert _width(eth, 1) > _width(ib, 1)
    for r in (plain, no_p2p, little, loader, ib, eth):
        assert r.speedup_low[1] <= r.speedup[1] <= r.speedup_high[1] <= r.gpus[1]
