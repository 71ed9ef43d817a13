"""The terms of LoRA / QLoRA / offload memory one by one (issue 17; benchmarks/finetune_memory.py
scores them together against Qwen's, PEFT's and QLoRA's published figures): QLoRA's 16-bit
embedding and output layer, the dequantised layer, paged optimizer states, DeepSpeed's 16-bit
loss and its buckets, the output layer gathered whole under ZeRO-3 / FSDP."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.profile import Optimizer, Precision, TrainingMethod
from advisor.scaling import project
from advisor.scaling.layouts.cluster import Cluster
from advisor.scaling.layouts.layout import Layout, candidates_of
from advisor.scaling.layouts.memory import (
    DEEPSPEED_REDUCE_ELEMENTS,
    evicted,
    memory_parts,
)
from advisor.scaling.layouts.methods import (
    HF_LOGIT_BYTES,
    NF4_BYTES,
    method_states,
    unquantised_params,
)
from advisor.scaling.layouts.offload import ORDER, offloaded
from advisor.scaling.layouts.shape import ModelShape
from tests.support.finetune import on_two_4090s

A100 = Cluster(peak_tflops=312, memory_gb=80, memory_bandwidth_gbs=2039, generation="ampere",
               gpus_per_node=8, busbw_intra_gbs=200, busbw_node_gbs=160)
QWEN_7B = ModelShape(7.721e9, 32, 4096, 32, 2048, 151936)  # untied embedding and output
GPT2_XL = ModelShape(1.558e9, 48, 1600, 25, 1024, 50257)  # tied
SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def states(shape: ModelShape, method: TrainingMethod, precision: Precision = Precision.bf16):
    return method_states(shape, precision, Optimizer.adamw, method, 64, 1.0, True)


def parts(shape: ModelShape, layout: Layout, s):
    return memory_parts(shape, candidates_of([layout]), A100, s, 1.34)


def test_an_untied_output_layer_is_counted_from_the_parameters_beyond_the_layers():
    assert unquantised_params(QWEN_7B) == pytest.approx(2 * 151936 * 4096)
    assert unquantised_params(GPT2_XL) == pytest.approx(50257 * 1600, rel=0.05)
    derived = ModelShape(7e9, 32, 4096, 32, 2048, 32000, shape_given=False)
    assert unquantised_params(derived) == 32000 * 4096


def test_qlora_keeps_the_embedding_and_output_layer_in_16_bits():
    q = states(QWEN_7B, TrainingMethod.qlora)
    kept = 2 * 151936 * 4096  # 1.24 B of Qwen-7B's 7.7 B parameters
    frozen_gb = (q.weight_bytes - q.trainable_fraction * 2.0) * QWEN_7B.params / 1e9
    assert frozen_gb == pytest.approx(((QWEN_7B.params - kept) * NF4_BYTES + kept * 2) / 1e9)
    assert 5.8 < frozen_gb < 5.9  # 3.3 GB of 4-bit layers + 2.5 GB of 16-bit embeddings
    quantised_all = QWEN_7B.params * NF4_BYTES / 1e9
    assert frozen_gb - quantised_all == pytest.approx(kept * (2 - NF4_BYTES) / 1e9)


def test_qlora_holds_one_layer_dequantised_to_16_bits():
    # under DeepSpeed (Qwen's Q-LoRA): without it PEFT's fp32 upcast adds more
    # (tests/scaling/test_memory_buffers.py)
    lora = parts(QWEN_7B, Layout(1, 1, 1, "zero2", checkpointing="full"),
                 states(QWEN_7B, TrainingMethod.lora))
    qlora = parts(QWEN_7B, Layout(1, 1, 1, "zero2", checkpointing="full"),
                  states(QWEN_7B, TrainingMethod.qlora))
    assert float(qlora.buffers[0] - lora.buffers[0]) == pytest.approx(
        2.0 * QWEN_7B.layer_params / 1e9)


def test_hugging_face_loss_runs_in_16_bits_under_deepspeed_and_in_fp32_under_autocast():
    s = states(QWEN_7B, TrainingMethod.lora)
    logits = QWEN_7B.sequence * QWEN_7B.vocab / 1e9
    plain = parts(QWEN_7B, Layout(1, 1, 1, "none", checkpointing="full"), s)
    zero2 = parts(QWEN_7B, Layout(1, 1, 1, "zero2", checkpointing="full"), s)
    assert float(plain.logits[0]) == pytest.approx(HF_LOGIT_BYTES * logits)
    assert float(zero2.logits[0]) == pytest.approx(6.0 * logits)  # 3 tensors x 2 bytes
    fp32 = states(QWEN_7B, TrainingMethod.lora, Precision.fp32)
    zero2_fp32 = parts(QWEN_7B, Layout(1, 1, 1, "zero2", checkpointing="full"), fp32)
    assert float(zero2_fp32.logits[0]) == pytest.approx(12.0 * logits)


def test_pretraining_keeps_megatrons_fused_loss_under_every_sharding():
    s = method_states(QWEN_7B, Precision.bf16, Optimizer.adamw, TrainingMethod.full)
    for sharding in ("none", "zero1", "zero3", "fsdp"):
        m = parts(QWEN_7B, Layout(1, 1, 8, sharding, checkpointing="full"), s)
        assert float(m.logits[0]) == pytest.approx(6.0 * QWEN_7B.sequence * QWEN_7B.vocab / 1e9)


def test_zero2_buckets_hold_16_bit_gradients_not_the_average_weight_bytes():
    q = states(QWEN_7B, TrainingMethod.qlora)
    m = parts(QWEN_7B, Layout(1, 1, 1, "zero2", checkpointing="full"), q)
    trainable = QWEN_7B.params * q.trainable_fraction
    dequant = 2.0 * QWEN_7B.layer_params
    bucket = min(2 * 5e8 * 2.0, trainable * 4.0)  # never more than the gradients it carries
    assert float(m.buffers[0]) == pytest.approx((bucket + dequant) / 1e9)


BLOOMZ = ModelShape(7.069e9, 30, 4096, 32, 64, 250880)  # tied 1.03 B output layer
LLAMA_7B = ModelShape(6.74e9, 32, 4096, 32, 2048, 32000)  # 131 M: smaller than a layer


def lora_fp32(shape: ModelShape, offload: int):
    return offloaded(states(shape, TrainingMethod.lora, Precision.fp32), ORDER[offload])


def test_zero3_allocates_its_reduce_bucket_and_gathers_the_output_layer_whole():
    """PEFT's ZeRO-3 offload log: 1,916 MiB on the GPU before training, its 5e8-element fp32
    reduce bucket (1,907 MiB); the logits need the whole output layer (bloomz-7b1: 1.03 B),
    which, offloaded, is gathered beside the GPU copy of its host partition (one GPU: all)."""
    s = lora_fp32(BLOOMZ, 2)
    m = parts(BLOOMZ, Layout(1, 1, 1, "zero3", micro_batch=8), s)
    bucket = DEEPSPEED_REDUCE_ELEMENTS * 4.0
    assert bucket / 2**20 == pytest.approx(1907, abs=1)
    gathered = (2 * 250880 * 4096 + 5e7) * s.weight_bytes  # + DeepSpeed's prefetch bucket
    assert float(m.buffers[0]) == pytest.approx((bucket + gathered) / 1e9)
    assert float(m.weights[0]) == 0.0  # the weights themselves live in host RAM


@pytest.mark.parametrize("dp", [1, 2, 8])
def test_offloaded_zero3_stages_the_output_layers_partition_beside_its_gather(dp):
    """DeepSpeed's all_gather_coalesced copies the host partition to the GPU (numel / dp) and
    gathers it into a full buffer: the partition is counted beside the output layer."""
    layout = Layout(1, 1, dp, "zero3", micro_batch=8)
    s = lora_fp32(BLOOMZ, 2)
    offload = parts(BLOOMZ, layout, s)
    output_layer = 250880 * 4096 * s.weight_bytes
    bucket = DEEPSPEED_REDUCE_ELEMENTS * 4.0
    prefetch = 5e7 * s.weight_bytes
    assert float(offload.buffers[0]) == pytest.approx(
        (bucket + output_layer + output_layer / dp + prefetch) / 1e9)
    # the same layout with the weights on the GPU (optimizer offloaded, or nothing) gathers
    # from a partition already there: no staged copy (on one GPU nothing is gathered at all,
    # yet DeepSpeed allocates its reduce bucket all the same)
    for level in (0, 1):
        on_gpu = parts(BLOOMZ, layout, lora_fp32(BLOOMZ, level))
        gathered = 0.0 if dp == 1 else output_layer + prefetch
        expected = (bucket + gathered) / 1e9
        assert float(on_gpu.buffers[0]) == pytest.approx(expected)


def test_only_deepspeed_stages_the_partition_and_only_where_the_output_layer_is_largest():
    s = lora_fp32(BLOOMZ, 2)
    fsdp = parts(BLOOMZ, Layout(1, 1, 1, "fsdp", micro_batch=8), s)
    # FSDP (CPUOffload) gathers the output layer and its next layer: no DeepSpeed staging
    assert float(fsdp.buffers[0]) == pytest.approx(
        (250880 * 4096 + BLOOMZ.layer_params) * s.weight_bytes / 1e9)
    # a 32 k vocabulary: its 131 M output layer, staged, stays below DeepSpeed's layers in
    # flight (three layers of 202 M), which decide the gathered buffers as before
    small = lora_fp32(LLAMA_7B, 2)
    offload = parts(LLAMA_7B, Layout(1, 1, 1, "zero3", micro_batch=1), small)
    in_flight = 3 * LLAMA_7B.layer_params
    assert 2 * 32000 * 4096 + 5e7 < in_flight
    assert float(offload.buffers[0]) == pytest.approx(
        (DEEPSPEED_REDUCE_ELEMENTS * 4.0 + in_flight * small.weight_bytes) / 1e9)


def test_peft_offload_rows_gain_the_staged_output_layer_and_their_plain_rows_do_not():
    from benchmarks.finetune_memory import checks, projected_gb

    by_key = {c.key: c for c in checks()}
    bloomz = projected_gb(by_key["peft-bloomz-7b1-lora-zero3-offload"])[0]
    plain = projected_gb(by_key["peft-bloomz-7b1-lora"])[0]
    assert 16.0 < bloomz < 17.0  # published 18.1 GB; 12.4 GB without the staged copy
    assert 34.0 < plain < 35.0  # published 32 GB; no DeepSpeed, nothing gathered


def test_paged_optimizer_states_need_no_room_and_fill_what_is_left():
    q = states(QWEN_7B, TrainingMethod.qlora)
    m = parts(QWEN_7B, Layout(1, 1, 1, checkpointing="full"), q)
    assert float(m.paged[0]) == float(m.optimizer[0]) > 0
    assert float(m.needed[0]) == pytest.approx(float(m.total[0] - m.optimizer[0]))
    roomy = evicted(m, 80.0)
    assert float(roomy.total[0]) == pytest.approx(float(m.total[0]))  # all kept on the GPU
    tight = evicted(m, float(m.needed[0]) + 0.5)
    assert float(tight.total[0]) == pytest.approx(float(m.needed[0]) + 0.5)
    assert float(tight.host[0]) == pytest.approx(float(m.optimizer[0]) - 0.5)
    # under DeepSpeed its own AdamW runs on the GPU: nothing paged
    zero2 = parts(QWEN_7B, Layout(1, 1, 1, "zero2", checkpointing="full"), q)
    assert float(zero2.paged[0]) == 0.0 and float(zero2.needed[0]) == float(zero2.total[0])
    lora = parts(QWEN_7B, Layout(1, 1, 1, checkpointing="full"),
                 states(QWEN_7B, TrainingMethod.lora))
    assert lora.paged is None


def _llama65_qlora_on_one_a6000():
    """The QLoRA paper's case: LLaMA-65B, rank 64, one 48 GB card, recomputed activations."""
    llama65 = {"name": "LLaMA-65B", "params_millions": 65286, "layers": 80,
               "hidden_size": 8192, "attention_heads": 64, "vocab_size": 32000,
               "sequence_length": 512}
    profile = on_two_4090s(method="qlora", lora_rank=64, batch_per_gpu=1,
                           activation_checkpointing="full")
    hardware = profile.hardware.model_copy(update={"gpu": "rtx_a6000", "gpus_per_node": 1})
    model = profile.model.model_copy(update=llama65)
    return profile.model_copy(update={"hardware": hardware, "model": model})


def test_a_65b_model_fits_one_48_gb_card_with_qlora_because_its_optimizer_is_paged():
    profile = _llama65_qlora_on_one_a6000()
    paged = project(profile, [1])
    assert paged.fits[0] and paged.memory_per_gpu_gb[0] <= paged.usable_memory_gb + 0.01
    training = profile.training.model_copy(update={"parallelism": "zero2"})
    deepspeed = project(profile.model_copy(update={"training": training}), [1])
    assert not deepspeed.fits[0]  # DeepSpeed's AdamW keeps its 9 GB on the card


@SETTINGS
@given(st.sampled_from([1, 2, 8]), st.sampled_from(["zero2", "zero3", "fsdp"]),
       st.sampled_from([1, 4]), st.floats(5.0, 80.0))
def test_more_offload_never_raises_gpu_memory_with_paged_qlora_states(dp, sharding, micro,
                                                                      usable):
    shape = ModelShape(6.74e9, 32, 4096, 32, 2048, 32000)
    q = states(shape, TrainingMethod.qlora)
    c = candidates_of([Layout(1, 1, dp, sharding, micro_batch=micro, checkpointing="full")])
    totals = [float(evicted(memory_parts(shape, c, A100, offloaded(q, level), 1.34),
                            usable).total[0]) for level in ORDER]
    assert totals == sorted(totals, reverse=True), totals
    assert np.all(np.diff(totals) <= 1e-9)


def test_the_projection_says_when_paged_optimizer_states_stay_in_host_ram():
    proj = project(_llama65_qlora_on_one_a6000(), [1])
    en = [n for n in proj.notes if "stay in host RAM" in n]
    zh = [n for n in proj.notes_zh if "留在主机内存" in n]
    assert len(en) == len(zh) == 1 and "GB of its optimizer states" in en[0], proj.notes
    roomy = project(on_two_4090s(method="qlora", activation_checkpointing="full"), [1])
    assert not any("stay in host RAM" in n for n in roomy.notes)
    # there they sit on the card, counted in the memory per GPU but not in its margin
    assert any("sit on the card while there is room" in n for n in roomy.notes)


def test_paged_states_that_leave_the_card_need_room_in_host_ram():
    from advisor.scaling.layouts.search import choose_many
    from advisor.scaling.llm_compute import load_llm_params

    shape = ModelShape(65.286e9, 80, 8192, 64, 512, 32000)
    q = states(shape, TrainingMethod.qlora)
    group = candidates_of([Layout(1, 1, 1, checkpointing="full")])
    mem = memory_parts(shape, group, A100, q, 1.34)
    usable = float(mem.needed[0]) + 1.0  # the paged states overflow the card by the rest
    spill = float(mem.total[0]) - usable

    def fits(ram_gb: float) -> bool:
        choice = choose_many(shape, [group], A100, q, load_llm_params(), 2.0, [usable], 1.34,
                             host_usable_gb=ram_gb)[0]
        return choice.fits

    assert spill > 5.0
    assert fits(spill + 0.5) and not fits(spill - 0.5)


# --- issue 31, cause 3: bitsandbytes dequantises one matrix at a time ------------------------

LLAMA_8B = ModelShape(8.03e9, 32, 4096, 32, 2048, 128256, kv_heads=8)


def _bnb(shape: ModelShape):
    return method_states(shape, Precision.bf16, Optimizer.adamw_8bit, TrainingMethod.qlora, 32,
                         1.0, True)


def test_a_peft_prepared_qlora_holds_no_dequantised_layer_beside_the_output_layers_copy():
    """bitsandbytes' MatMul4Bit multiplies by a temporary 16-bit copy of one matrix and keeps
    the 4-bit weight for the backward pass: outside DeepSpeed the buffers are the output
    layer's 16-bit autocast copy alone (it is larger than any layer matrix); under DeepSpeed
    (Qwen's GPTQ Q-LoRA) a whole dequantised layer is still held."""
    q = _bnb(LLAMA_8B)
    undequantised = replace(q, dequant_copy_bytes=0.0)
    plain = parts(LLAMA_8B, Layout(1, 1, 1, checkpointing="full"), q)
    assert float(plain.buffers[0]) == pytest.approx(
        float(parts(LLAMA_8B, Layout(1, 1, 1, checkpointing="full"), undequantised).buffers[0]))
    assert float(plain.buffers[0]) == pytest.approx(2.0 * 128256 * 4096 / 1e9, rel=1e-6)
    zero2 = parts(LLAMA_8B, Layout(1, 1, 1, "zero2", checkpointing="full"), q)
    zero2_bare = parts(LLAMA_8B, Layout(1, 1, 1, "zero2", checkpointing="full"), undequantised)
    assert float(zero2.buffers[0] - zero2_bare.buffers[0]) == pytest.approx(
        2.0 * LLAMA_8B.layer_params / 1e9)


def test_a_matrix_larger_than_the_output_layer_is_what_its_dequantisation_holds():
    # a tiny vocabulary: the MLP's matrix (a third of the layer) outweighs the output layer
    shape = ModelShape(8.03e9, 32, 4096, 32, 2048, 1000)
    m = parts(shape, Layout(1, 1, 1, checkpointing="full"), _bnb(shape))
    assert float(m.buffers[0]) == pytest.approx(2.0 * shape.layer_params / 3.0 / 1e9, rel=1e-6)


def test_unsloths_hugging_face_8b_qlora_on_12_gb_trains_most_of_its_published_length():
    """Unsloth's README, "Hugging Face + FA2": 932 tokens of Llama 3.1 8B Q-LoRA fit 12 GB.
    With a whole dequantised layer beside the output layer's copy the advisor put it at 511
    (-45 %); the copy of one matrix at a time, never beside it, gives about 700."""
    from benchmarks import finetune_memory as fm

    check = next(c for c in fm.checks() if c.key == "unsloth-hf-8B-qlora-12GB-context")
    longest = fm.longest_sequence(check)
    assert 0.7 * 932 <= longest <= 1.15 * 932
