"""Fine-tuning methods and offload in the layout model (issue 17): LoRA and QLoRA keep the
frozen weights in 16 or 4 bits and train only the adapters, whose gradients alone are
exchanged; offload moves states to host memory, and more offload never raises a GPU's
memory (hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.profile import Offload, Optimizer, Precision, TrainingMethod
from advisor.scaling import project
from advisor.scaling.layouts.cluster import Cluster
from advisor.scaling.layouts.layout import Layout, candidates_of
from advisor.scaling.layouts.memory import memory_parts
from advisor.scaling.layouts.methods import adapter_params, method_states
from advisor.scaling.layouts.offload import ORDER, offloaded
from advisor.scaling.layouts.shape import ModelShape
from advisor.scaling.layouts.traffic import traffic
from tests.support.finetune import on_two_4090s

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
CLUSTER = Cluster(peak_tflops=312, memory_gb=80, memory_bandwidth_gbs=2039,
                  generation="ampere", gpus_per_node=8, busbw_intra_gbs=200,
                  busbw_node_gbs=160)
LLAMA = ModelShape(6.74e9, 32, 4096, 32, 4096, 32000)


def test_lora_on_every_linear_layer_trains_about_forty_million_parameters_of_llama_7b():
    # r = 16 on q, k, v, o, gate, up, down: 40.0 M counted from the shapes (PEFT prints it)
    assert 36e6 < adapter_params(LLAMA, 16, 1.0) < 42e6


def test_qlora_keeps_about_half_a_byte_per_frozen_weight():
    q = method_states(LLAMA, Precision.bf16, Optimizer.adamw, TrainingMethod.qlora)
    lora = method_states(LLAMA, Precision.bf16, Optimizer.adamw, TrainingMethod.lora)
    full = method_states(LLAMA, Precision.bf16, Optimizer.adamw, TrainingMethod.full)
    assert 0.5 < q.weight_bytes < 0.6 < lora.weight_bytes == lora.weight_bytes < 2.05
    assert q.trainable_fraction == lora.trainable_fraction < 0.01
    assert full.trainable_fraction == 1.0 and full.per_param == 16.0


def test_only_the_adapters_gradients_are_exchanged():
    c = candidates_of([Layout(1, 1, 8, "none", micro_batch=1)])
    full = traffic(LLAMA, c, CLUSTER, 2.0)
    lora = traffic(LLAMA, c, CLUSTER, 2.0, trainable_fraction=0.006)
    assert lora.grads_per_step[0] < 0.01 * full.grads_per_step[0]


def test_a_7b_model_fits_one_24_gb_card_with_qlora_and_not_in_full():
    full = project(on_two_4090s(activation_checkpointing="full"), [1])
    qlora = project(on_two_4090s(method="qlora", activation_checkpointing="full"), [1])
    assert not full.fits[0] and full.memory_per_gpu_gb[0] > 100
    # what it shows is capped at the card: paged optimizer states fill what is left of it
    assert qlora.fits[0] and qlora.memory_per_gpu_gb[0] <= qlora.usable_memory_gb


def test_the_frozen_weights_take_no_weight_gradient_so_lora_computes_less():
    full = project(on_two_4090s(activation_checkpointing="full"), [1])
    lora = project(on_two_4090s(method="lora", activation_checkpointing="full"), [1])
    # the one-GPU reference with enough memory: 4 P + adapters instead of 6 P per token
    assert lora.run_hours[0] < 0.8 * full.run_hours[0]


def test_offload_needs_the_machines_ram_and_says_so():
    short = project(on_two_4090s(offload="optimizer", activation_checkpointing="full"), [2])
    assert not short.fits[0]  # 2 x 24 GB machine: 96 GB RAM assumed, the states need more
    assert any("host memory per machine, more than the 76.8 GB usable of its 96 GB RAM" in n
               for n in short.notes), short.notes
    profile = on_two_4090s(offload="optimizer", activation_checkpointing="full")
    hardware = profile.hardware.model_copy(update={"host_memory_gb": 256})
    roomy = project(profile.model_copy(update={"hardware": hardware}), [2])
    assert roomy.fits[0] and roomy.memory_per_gpu_gb[0] <= 24


@SETTINGS
@given(st.sampled_from([1, 2, 4, 8, 16, 64]), st.sampled_from(["zero2", "zero3", "fsdp"]),
       st.sampled_from(list(TrainingMethod)), st.sampled_from([1, 2, 8]),
       st.sampled_from(["none", "full"]), st.sampled_from([0.7e9, 6.74e9, 70e9]))
def test_more_offload_never_raises_gpu_memory(dp, sharding, method, micro, ck, params):
    layers = 32 if params < 10e9 else 80
    hidden = 4096 if params < 10e9 else 8192
    shape = ModelShape(params, layers, hidden, 32, 2048, 32000)
    states = method_states(shape, Precision.bf16, Optimizer.adamw, method, 16, 1.0, True)
    c = candidates_of([Layout(1, 1, dp, sharding, micro_batch=micro, checkpointing=ck)])
    totals = [float(memory_parts(shape, c, CLUSTER, offloaded(states, level), 1.0).total[0])
              for level in ORDER]
    assert totals == sorted(totals, reverse=True), totals
    assert ORDER == (Offload.none, Offload.optimizer, Offload.parameters)
