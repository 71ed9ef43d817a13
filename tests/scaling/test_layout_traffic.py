"""The collectives of each large-model layout and their time: tensor-parallel activation
exchanges per layer, pipeline sends, the data-parallel reduction, ZeRO-3 / FSDP gathers every
micro-batch, hybrid shard inside a machine, and a machine's network adapters shared by its
tensor-parallel ranks (# F07, # F08)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from advisor.scaling.layouts.cluster import Cluster
from advisor.scaling.layouts.layout import Layout, candidates_of
from advisor.scaling.layouts.shape import ModelShape
from advisor.scaling.layouts.states import StateBytes
from advisor.scaling.layouts.step import step_time
from advisor.scaling.layouts.traffic import traffic
from advisor.scaling.llm_compute import load_llm_params

DGX = Cluster(peak_tflops=312, memory_gb=80, memory_bandwidth_gbs=2039, generation="ampere",
              gpus_per_node=8, busbw_intra_gbs=200, busbw_node_gbs=160,
              latency_intra_s=0.0, latency_inter_s=0.0, flash_attention=True)
GPT175 = ModelShape(175e9, 96, 12288, 96, 2048, 51200)
GRADS = 2.0


def moved(layout: Layout, shape: ModelShape = GPT175, cluster: Cluster = DGX):
    return traffic(shape, candidates_of([layout]), cluster, GRADS)


def one(value) -> float:
    return float(value[0])


def test_tensor_parallel_exchanges_activations_four_times_per_layer_six_with_recomputation():
    act = 1 * 2048 * 12288 * 2.0  # b s h values of 2 bytes
    per_exchange = 2 * 7 / 8 * act / 200e9
    plain = moved(Layout(8, 1, 1))
    full = moved(Layout(8, 1, 1, checkpointing="full"))
    assert one(plain.tp_per_micro_batch) == pytest.approx(96 * 4 * per_exchange)
    assert one(full.tp_per_micro_batch) == pytest.approx(96 * 6 * per_exchange)
    assert one(moved(Layout(1, 1, 8)).tp_per_micro_batch) == 0.0


def test_the_tensor_parallel_ranks_of_a_machine_share_its_adapters():
    """TP 8 x DP 4: each rank all-reduces 1/8 of the gradients, but all eight at once through
    the same adapters, so the machine still sends the whole model's gradients."""
    grads = 175e9 * GRADS
    tp8 = moved(Layout(8, 1, 4))
    dp = moved(Layout(1, 1, 32))
    assert one(tp8.network_bytes_per_step) == pytest.approx(2 * 3 / 4 * grads, rel=0.01)
    assert one(dp.network_bytes_per_step) == pytest.approx(2 * 3 / 4 * grads, rel=0.01)
    # ... and takes as long as that through the machine's 160 GB/s: not 1/8 of it
    assert one(tp8.grads_per_step) == pytest.approx(2 * 3 / 4 * grads / 160e9, rel=0.01)


def test_fsdp_gathers_every_micro_batch_what_data_parallel_reduces_once():
    """1.5x the all-reduce bytes per micro-batch (two gathers and a reduce-scatter), so with
    m micro-batches 1.5 m times a step's all-reduce; DeepSpeed's ZeRO-3 crosses the network
    once per GPU, not once per machine."""
    data = moved(Layout(1, 1, 32, micro_batches=4))
    fsdp = moved(Layout(1, 1, 32, "fsdp", micro_batches=4))
    zero3 = moved(Layout(1, 1, 32, "zero3", micro_batches=4))
    assert one(fsdp.network_bytes_per_step) == pytest.approx(
        4 * 1.5 * one(data.network_bytes_per_step), rel=0.01)
    assert one(zero3.network_bytes_per_step) == pytest.approx(
        8 * one(fsdp.network_bytes_per_step), rel=0.01)
    assert one(fsdp.shard_per_micro_batch) > 0 and one(fsdp.grads_per_step) == 0


def test_hybrid_shard_gathers_inside_the_machine_and_all_reduces_between():
    hybrid = moved(Layout(1, 1, 32, "hsdp", micro_batches=4))
    data = moved(Layout(1, 1, 32, micro_batches=4))
    assert one(hybrid.network_bytes_per_step) == pytest.approx(
        one(data.network_bytes_per_step), rel=0.01)
    assert one(hybrid.shard_per_micro_batch) < one(moved(
        Layout(1, 1, 32, "fsdp", micro_batches=4)).shard_per_micro_batch)


def test_pipeline_sends_two_messages_per_micro_batch_and_chunk():
    plain = moved(Layout(8, 8, 1, micro_batches=16))
    interleaved = moved(Layout(8, 8, 1, micro_batches=16, interleave=2))
    assert one(interleaved.pp_per_step) == pytest.approx(2 * one(plain.pp_per_step))
    assert one(moved(Layout(8, 1, 8)).pp_per_step) == 0.0


def test_zero3_is_communication_bound_at_small_micro_batches():
    """Narayanan et al. 2021, Table 2: ZeRO-3's per-GPU throughput halves with the
    micro-batch once the gathers no longer hide behind the compute."""
    q = load_llm_params()
    def rate(b):
        s = step_time(GPT175, candidates_of([Layout(1, 1, 1536, "zero3", micro_batch=b,
                                                     checkpointing="full")]),
                      DGX, StateBytes(), q, GRADS)
        return b / float(s.step_s[0])
    assert rate(1) < 0.6 * rate(2) < 0.6 * rate(4)


def test_pipeline_bubble_shrinks_with_micro_batches_and_interleaving():
    q = load_llm_params()
    def bubble_share(m, v=1):
        s = step_time(GPT175, candidates_of([Layout(8, 8, 1, micro_batches=m, interleave=v)]),
                      DGX, StateBytes(), q, GRADS)
        return float(s.bubble_s[0] / s.step_s[0])
    assert bubble_share(8) > bubble_share(64)
    assert bubble_share(64, 2) < bubble_share(64)
    assert bubble_share(8) == pytest.approx(7 / (8 + 7), rel=0.1)


def test_faster_network_never_slows_a_layout():
    q = load_llm_params()
    layout = candidates_of([Layout(8, 4, 8, "zero1", micro_batches=32)])
    slow = step_time(GPT175, layout, DGX, StateBytes(), q, GRADS).step_s[0]
    fast = step_time(GPT175, layout, replace(DGX, busbw_node_gbs=320), StateBytes(), q,
                     GRADS).step_s[0]
    assert fast <= slow
