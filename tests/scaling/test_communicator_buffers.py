"""NCCL's buffers per process group and FSDP's reduce-scatter in flight (issue 32: what
makes Llama3-8x70B out of memory with TP + EP + DP and with FSDP on 256 H100s, Liu et al.
2025, Table 1, as published)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from advisor.scaling.layouts.cluster import Cluster
from advisor.scaling.layouts.communicators import (
    ALL_TO_ALL_PEER_GB,
    COMMUNICATOR_GB,
    channel_share,
    communicator_bytes,
)
from advisor.scaling.layouts.layout import Layout, candidates_of
from advisor.scaling.layouts.memory import memory_parts
from advisor.scaling.layouts.shape import ModelShape
from advisor.scaling.layouts.states import mixed_precision_adam
from benchmarks import moe_accuracy

H100 = Cluster(peak_tflops=989, memory_gb=80, memory_bandwidth_gbs=3350, generation="hopper",
               gpus_per_node=8, busbw_intra_gbs=300, busbw_node_gbs=160, nccl_busbw_gbs=351)
LLAMA_8B = ModelShape(8.03e9, 32, 4096, 32, 4096, 128256, kv_heads=8)
LLAMA2_13B = ModelShape(13.0e9, 40, 5120, 40, 4096, 32000)  # its output layer under a layer's


def comm_gb(layout: Layout, gpus_per_node: int = 8, busbw: float = 351.0) -> float:
    return float(communicator_bytes(candidates_of([layout]), gpus_per_node, busbw)[0]) / 1e9


def test_one_gpu_holds_no_communicator_buffers():
    assert comm_gb(Layout(tp=1, pp=1, dp=1)) == 0.0


def test_each_process_group_adds_one_communicators_buffers():
    one = comm_gb(Layout(tp=1, pp=1, dp=8))
    three = comm_gb(Layout(tp=2, pp=2, dp=2))
    assert one == pytest.approx(COMMUNICATOR_GB * channel_share(351.0))
    assert three == pytest.approx(3 * one)


def test_buffers_follow_the_channels_a_link_needs_and_stop_at_nccls_channel_cap():
    a100 = comm_gb(Layout(tp=1, pp=1, dp=8), busbw=234.0)
    h100 = comm_gb(Layout(tp=1, pp=1, dp=8), busbw=351.0)
    b200 = comm_gb(Layout(tp=1, pp=1, dp=8), busbw=702.0)
    pcie = comm_gb(Layout(tp=1, pp=1, dp=8), busbw=10.7)
    assert a100 == pytest.approx(0.688)  # NVIDIA/nccl issue 964: 688 MB on 4 A100s
    assert h100 == pytest.approx(1.03, abs=0.05)  # issue 1685: 1.06 GB on 8 H100s
    assert b200 == pytest.approx(h100)
    assert pcie < 0.05


def test_an_expert_all_to_all_adds_buffers_for_each_peer_in_its_machine():
    inside = comm_gb(Layout(tp=1, pp=1, dp=8, ep=8))  # 7 peers in the machine
    across = comm_gb(Layout(tp=8, pp=1, dp=8, ep=8), gpus_per_node=8)  # ranks 8 GPUs apart
    share = channel_share(351.0)
    assert inside == pytest.approx(share * (2 * COMMUNICATOR_GB + 7 * ALL_TO_ALL_PEER_GB))
    assert across == pytest.approx(share * 3 * COMMUNICATOR_GB)  # tp, dp, ep: no peers inside


def test_a_hybrid_shard_forms_a_shard_and_a_replicate_group():
    hsdp = comm_gb(Layout(tp=1, pp=1, dp=32, sharding="hsdp"))
    fsdp = comm_gb(Layout(tp=1, pp=1, dp=32, sharding="fsdp"))
    assert hsdp == pytest.approx(2 * fsdp)


def test_the_buffers_are_part_of_a_gpus_memory_and_a_cluster_without_figures_adds_none():
    states = mixed_precision_adam(2.0)
    layout = candidates_of([Layout(tp=2, pp=1, dp=4)])
    counted = memory_parts(LLAMA_8B, layout, H100, states, 1.343)
    none = memory_parts(LLAMA_8B, layout, replace(H100, nccl_busbw_gbs=0.0), states, 1.343)
    extra = float(np.asarray(counted.total - none.total)[0])
    assert extra == pytest.approx(2 * COMMUNICATOR_GB * channel_share(351.0))


def test_fsdp_holds_one_more_layer_of_gradients_while_it_reduce_scatters_them():
    states = mixed_precision_adam(2.0)
    fsdp = memory_parts(LLAMA2_13B, candidates_of([Layout(tp=1, pp=1, dp=8, sharding="fsdp")]), H100,
                        states, 1.343)
    layer = LLAMA2_13B.layer_params
    # gathered: the layer computing, the one prefetched, its gradients and the last layer's
    assert float(fsdp.buffers[0]) >= 4 * layer * 2.0 / 1e9 * 0.999


def test_fsdp_of_a_frozen_model_has_no_gradients_in_flight():
    lora = replace(mixed_precision_adam(2.0), trainable_fraction=0.0)
    full = mixed_precision_adam(2.0)
    c = candidates_of([Layout(tp=1, pp=1, dp=8, sharding="fsdp")])
    frozen = memory_parts(LLAMA2_13B, c, H100, lora, 1.343)
    trained = memory_parts(LLAMA2_13B, c, H100, full, 1.343)
    assert float(trained.buffers[0] - frozen.buffers[0]) == pytest.approx(
        LLAMA2_13B.layer_params * 2.0 / 1e9, rel=1e-6)


@pytest.mark.parametrize("key", ["liu-tp-ep-dp-llama3-8x70b-oom", "liu-fsdp-llama3-8x70b-oom"])
def test_llama3_8x70b_is_out_of_memory_as_published(key):
    point = {p.key: p for p in moe_accuracy.points()}[key]
    assert not moe_accuracy.any_fits(point)


def test_the_same_model_with_a_pipeline_fits_as_megatron_core_trained_it():
    point = {p.key: p for p in moe_accuracy.points()}["liu-mcore-llama3-8x70b"]
    assert moe_accuracy.predict(point).choice.fits
