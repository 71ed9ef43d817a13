"""GPU memory of each large-model layout: the states ZeRO and FSDP shard, their buffers, and
the activations of tensor / pipeline parallel and recomputation (Rajbhandari et al. 2019,
Korthikanti et al. 2022, Zhao et al. 2023)."""

from __future__ import annotations

import pytest

from advisor.scaling.layouts.cluster import Cluster
from advisor.scaling.layouts.layout import Layout, candidates_of
from advisor.scaling.layouts.memory import memory_parts
from advisor.scaling.layouts.shape import ModelShape
from advisor.scaling.layouts.states import StateBytes, mixed_precision_adam

A100 = Cluster(peak_tflops=312, memory_gb=80, memory_bandwidth_gbs=2039, generation="ampere",
               gpus_per_node=8, busbw_intra_gbs=200, busbw_node_gbs=160,
               flash_attention=False)
GPT175 = ModelShape(175e9, 96, 12288, 96, 2048, 51200)


def parts(shape: ModelShape, layout: Layout, cluster: Cluster = A100,
          states: StateBytes | None = None):
    return memory_parts(shape, candidates_of([layout]), cluster, states or StateBytes(), 1.0)


def gb(value) -> float:
    return float(value[0])


@pytest.mark.parametrize("sharding, published", [("none", 120.0), ("zero1", 31.4),
                                                 ("zero2", 16.6), ("zero3", 1.9)])
def test_zero_state_bytes_match_the_zero_paper(sharding, published):
    """ZeRO, Figure 1: 7.5B parameters on 64 GPUs hold 120 / 31.4 / 16.6 / 1.9 GB of model
    states (2 + 2 + 12 bytes per parameter, sharded stage by stage)."""
    shape = ModelShape(7.5e9, 32, 4096, 32, 1024, 1)  # no embedding: the paper counts Psi
    m = parts(shape, Layout(1, 1, 64, sharding))
    assert gb(m.states) == pytest.approx(published, rel=0.02)


def test_unsharded_gradients_need_a_full_precision_buffer():
    """The ZeRO paper's 6 GB fused fp32 buffer for 1.5B parameters: while gradients are
    all-reduced whole (data parallel); not on one GPU without Megatron's fp32 main grads
    (tests/scaling/test_memory_buffers.py); ZeRO-1 and ZeRO-2 reduce through DeepSpeed's
    buckets (issue 31, cause 6)."""
    shape = ModelShape(1.5e9, 48, 1600, 16, 1024, 1)
    assert gb(parts(shape, Layout(1, 1, 8)).buffers) == pytest.approx(6.0, rel=0.01)
    assert gb(parts(shape, Layout(1, 1, 1)).buffers) == 0.0
    for sharding in ("zero1", "zero2"):  # bucketed
        assert gb(parts(shape, Layout(1, 1, 8, sharding)).buffers) == pytest.approx(2.0)


def test_fsdp_holds_the_gathered_layer_its_prefetch_and_two_layers_gradients():
    # the layer computing, the one prefetched, its gradients and the last layer's, still
    # being reduce-scattered (layouts/memory.py)
    m = parts(GPT175, Layout(1, 1, 128, "fsdp", checkpointing="full"))
    layer = GPT175.layer_params
    assert gb(m.buffers) == pytest.approx(4 * layer * 2 / 1e9, rel=1e-6)
    assert gb(m.weights) == pytest.approx(175e9 * 2 / 128 / 1e9, rel=0.01)
    deepspeed = parts(GPT175, Layout(1, 1, 128, "zero3", checkpointing="full"))
    assert gb(deepspeed.buffers) < gb(m.buffers)  # its live-parameter cap


def test_hybrid_shard_shards_inside_one_machine_only():
    full = parts(GPT175, Layout(1, 1, 64, "fsdp"))
    hybrid = parts(GPT175, Layout(1, 1, 64, "hsdp"))
    assert gb(hybrid.states) == pytest.approx(gb(full.states) * 64 / 8, rel=1e-6)


def test_tensor_parallel_with_sequence_parallel_divides_the_activations():
    """Korthikanti Eq. 2 and 4: s b h (10 + 24/t + 5as/ht) without sequence parallel,
    s b h (34 + 5as/h) / t with it."""
    shape = ModelShape(22e9, 48, 6144, 64, 2048, 51200)
    sbh = 2048 * 4 * 6144
    scores = 5 * 64 * 2048 / 6144
    plain = parts(shape, Layout(8, 1, 1, micro_batch=4, sequence_parallel=False))
    seq = parts(shape, Layout(8, 1, 1, micro_batch=4, sequence_parallel=True))
    assert gb(plain.activations) == pytest.approx(48 * sbh * (10 + 24 / 8 + scores / 8) / 1e9)
    assert gb(seq.activations) == pytest.approx(48 * sbh * (34 + scores) / 8 / 1e9)


def test_recomputation_keeps_less():
    """Selective recomputation drops the attention scores; full keeps each layer's input and
    one layer's activations while it is recomputed."""
    shape = ModelShape(22e9, 48, 6144, 64, 2048, 51200)
    sbh = 2048 * 4 * 6144
    none = parts(shape, Layout(8, 1, 1, micro_batch=4))
    selective = parts(shape, Layout(8, 1, 1, micro_batch=4, checkpointing="selective"))
    full = parts(shape, Layout(8, 1, 1, micro_batch=4, checkpointing="full"))
    assert gb(selective.activations) == pytest.approx(48 * sbh * 34 / 8 / 1e9)
    one_layer = sbh * (34 + 5 * 64 * 2048 / 6144) / 8
    assert gb(full.activations) == pytest.approx((48 * 2 * sbh / 8 + one_layer) / 1e9)
    assert gb(full.activations) < gb(selective.activations) < gb(none.activations)


def test_flash_attention_never_stores_the_scores():
    from dataclasses import replace

    shape = ModelShape(22e9, 48, 6144, 64, 2048, 51200)
    flash = replace(A100, flash_attention=True)
    none = parts(shape, Layout(8, 1, 1, micro_batch=4), flash)
    selective = parts(shape, Layout(8, 1, 1, micro_batch=4, checkpointing="selective"), flash)
    assert gb(none.activations) == pytest.approx(gb(selective.activations))


def test_the_first_pipeline_stage_holds_the_micro_batches_in_flight():
    """1F1B: the first stage keeps p micro-batches of its L/p layers (L layers' worth);
    interleaving multiplies that by 1 + (p-1)/(p v)."""
    shape = ModelShape(175e9, 96, 12288, 96, 2048, 51200)
    one = parts(shape, Layout(8, 1, 1, micro_batch=1, checkpointing="selective"))
    piped = parts(shape, Layout(8, 8, 1, micro_batch=1, micro_batches=64,
                                checkpointing="selective"))
    assert gb(piped.activations) == pytest.approx(gb(one.activations), rel=1e-6)
    interleaved = parts(shape, Layout(8, 8, 1, micro_batch=1, micro_batches=64, interleave=3,
                                      checkpointing="selective"))
    assert gb(interleaved.activations) == pytest.approx(
        gb(one.activations) * (1 + 7 / 24), rel=1e-6)
    few = parts(shape, Layout(8, 8, 1, micro_batch=1, micro_batches=2,
                              checkpointing="selective"))
    assert gb(few.activations) < gb(piped.activations)


def test_fp32_training_keeps_four_byte_states():
    s = mixed_precision_adam(4.0)
    assert (s.weight_bytes, s.grad_bytes, s.optimizer_bytes) == (4.0, 4.0, 8.0)
    assert mixed_precision_adam(2.0).per_param == 16.0


def test_frozen_weights_and_offloaded_states_plug_in():
    """What fine-tuning methods and offload will set: trained share and where states live."""
    shape = ModelShape(7e9, 32, 4096, 32, 2048, 32000)
    lora = StateBytes(trainable_fraction=0.01)
    offloaded = StateBytes(optimizer_on_gpu=False)
    full = parts(shape, Layout(1, 1, 1))
    assert gb(parts(shape, Layout(1, 1, 1), states=lora).states) < gb(full.states) / 7
    assert gb(parts(shape, Layout(1, 1, 1), states=offloaded).optimizer) == 0.0


MIXED = [Layout(1, 1, 8), Layout(1, 1, 16, "hsdp"), Layout(2, 4, 2, "zero1", micro_batches=8),
         Layout(1, 1, 8, "zero3"), Layout(8, 1, 1), Layout(1, 2, 4, "fsdp", micro_batches=4),
         Layout(2, 1, 8, "hsdp", checkpointing="full"), Layout(1, 1, 4, "zero2")]


def test_each_layouts_memory_is_the_same_alone_as_among_others():
    """A term no candidate of a set has (a pipeline, hybrid shard) is left out of that set's
    arithmetic: each layout alone gets, bit for bit, what it gets beside ones that have it."""
    together = memory_parts(GPT175, candidates_of(MIXED), A100, StateBytes(), 1.0)
    for i, layout in enumerate(MIXED):
        alone = parts(GPT175, layout)
        for name in ("weights", "grads", "optimizer", "buffers", "activations", "logits",
                     "host"):
            assert getattr(alone, name)[0] == getattr(together, name)[i], (layout, name)
