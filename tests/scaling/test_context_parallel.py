"""Issue 32, part 5: long context. A sequence too long for tensor parallel and recomputation to
hold is split over GPUs (context parallel, CP): its activations and logits divided by the
degree, its ranks reducing their gradients and sharing their shards with the replicas, ring
attention's key / value exchange per layer, inside a machine or across machines; searched only
for long sequences, and named "CP n" in the layout."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.profile import Optimizer, Precision, Profile, TrainingMethod
from advisor.scaling import project
from advisor.scaling.card_memory import usable_gb
from advisor.scaling.layouts.cluster import Cluster
from advisor.scaling.layouts.layout import Layout, candidates_of
from advisor.scaling.layouts.memory import memory_parts, shard_group
from advisor.scaling.layouts.methods import method_states
from advisor.scaling.layouts.search import LONG_SEQUENCE, Fixed, enumerate_layouts
from advisor.scaling.layouts.shape import ModelShape
from advisor.scaling.layouts.states import StateBytes
from advisor.scaling.layouts.step import step_time
from advisor.scaling.layouts.traffic import context_s, traffic
from advisor.scaling.llm_compute import load_llm_params
from advisor.scaling.parameters import load_params

LLAMA_8B = {"name": "Llama-3.1-8B", "params_millions": 8030, "layers": 32,
            "hidden_size": 4096, "attention_heads": 32, "kv_heads": 8, "vocab_size": 128256}
SHAPE_8B = ModelShape(8.03e9, 32, 4096, 32, 131072, 128256, kv_heads=8)
H100 = Cluster(peak_tflops=989, memory_gb=80, memory_bandwidth_gbs=3350, generation="hopper",
               gpus_per_node=8, busbw_intra_gbs=340, busbw_node_gbs=280)
SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def fine_tune(sequence: int, gpus: int = 8, **training) -> Profile:
    return Profile.model_validate({
        "task": "llm", "model": {**LLAMA_8B, "sequence_length": sequence},
        "training": {"dataset_tokens": 1e9, "fine_tuning": True, "precision": "bf16",
                     "pure_16bit": True, "batch_per_gpu": 1, "parallelism": "fsdp",
                     "activation_checkpointing": "full", **training},
        "hardware": {"gpu": "h100_sxm", "gpus_per_node": gpus, "intra_link": "nvswitch"},
        "economics": {"mode": "cloud", "currency": "USD", "time_value": "none"}})


def test_a_128k_token_fine_tune_of_an_8b_model_on_8_h100s_fits_only_with_context_parallel():
    """FSDP, as torchtune and the Hugging Face Trainer fine-tune: each GPU would hold whole
    131,072-token sequences, whose logits alone take 200 GB; split over 8 GPUs they fit."""
    profile = fine_tune(131072)
    pr = project(profile, [8])
    assert pr.fits[0] and "CP 8" in pr.layout[0] and "CP 8" in pr.layout_zh[0]
    # every layout that keeps whole sequences on a GPU needs more than the card
    states = method_states(SHAPE_8B, Precision.bf16, Optimizer.adamw, TrainingMethod.full,
                           fine_tuning=True, pure_16bit=True)
    whole = enumerate_layouts(SHAPE_8B, 8, 8, 8, "full",
                              Fixed(tp=1, pp=1, sharding=("fsdp",), cp=1))
    need = memory_parts(SHAPE_8B, whole, H100, states, 1.343).needed
    assert whole.size and np.all(need > usable_gb(80, load_params()))


def test_the_plan_with_context_parallel_is_the_fastest_that_fits_and_scales():
    pr = project(fine_tune(131072), [8, 16])
    assert all(pr.fits) and all("CP" in label for label in pr.layout)
    assert pr.speedup[1] > pr.speedup[0]


@SETTINGS
@given(sequence=st.integers(128, LONG_SEQUENCE - 1), gpus=st.sampled_from([2, 4, 8, 16, 64]),
       per_node=st.sampled_from([4, 8]))
def test_short_sequences_never_pick_context_parallel(sequence, gpus, per_node):
    shape = replace(SHAPE_8B, sequence=sequence)
    c = enumerate_layouts(shape, gpus, per_node, gpus, "full", Fixed())
    assert c.size and np.all(c.cp == 1)


def test_a_short_fine_tune_is_planned_without_context_parallel():
    pr = project(fine_tune(8192), [8])
    assert pr.fits[0] and "CP" not in pr.layout[0]


def test_long_sequences_are_also_tried_split_over_the_gpus():
    c = enumerate_layouts(SHAPE_8B, 16, 8, 16, "full", Fixed())
    assert set(c.cp.tolist()) == {1, 2, 4, 8, 16}
    assert np.all(c.tp * c.cp * c.pp * c.dp == 16)


@pytest.mark.parametrize("cp", [2, 4, 8])
def test_context_parallel_divides_activations_and_logits_not_the_states(cp):
    states = StateBytes()
    one, split = (memory_parts(SHAPE_8B, candidates_of([Layout(1, 1, 1, checkpointing="full",
                                                               cp=k)]), H100, states, 1.0)
                  for k in (1, cp))
    assert float(split.activations[0]) == pytest.approx(float(one.activations[0]) / cp)
    assert float(split.logits[0]) == pytest.approx(float(one.logits[0]) / cp)
    assert float(split.weights[0]) == pytest.approx(float(one.weights[0]))


def test_context_parallel_ranks_share_shards_and_reduce_gradients_with_the_replicas():
    c = candidates_of([Layout(1, 1, 2, "fsdp", cp=4), Layout(1, 1, 8, "fsdp")])
    assert shard_group(c, 8).tolist() == [8.0, 8.0]
    mem = memory_parts(SHAPE_8B, c, H100, StateBytes(), 1.0)
    assert float(mem.weights[0]) == pytest.approx(float(mem.weights[1]))
    alone = candidates_of([Layout(1, 1, 1, cp=8)])  # one replica, its sequence over 8 GPUs
    assert float(traffic(SHAPE_8B, alone, H100, 2.0).grads_per_step[0]) > 0.0


def test_context_parallel_traffic_across_machines_costs_more_than_inside():
    """CP 8 on one 8-GPU machine passes keys and values over NVSwitch; on 4-GPU machines the
    ring crosses the network, which every GPU of a machine shares."""
    c = candidates_of([Layout(1, 1, 1, checkpointing="full", cp=8)])
    inside, inside_net = context_s(SHAPE_8B, c, H100)
    across, across_net = context_s(SHAPE_8B, c, replace(H100, gpus_per_node=4,
                                                         busbw_node_gbs=100))
    assert float(across[0]) > float(inside[0]) > 0.0
    assert float(inside_net[0]) == 0.0 < float(across_net[0])


def test_the_key_value_exchange_grows_with_the_key_value_heads_and_the_degree():
    c = candidates_of([Layout(1, 1, 1, cp=2), Layout(1, 1, 1, cp=8)])
    gqa, _ = context_s(SHAPE_8B, c, H100)
    full_heads, _ = context_s(replace(SHAPE_8B, kv_heads=None), c, H100)
    assert np.all(full_heads > gqa) and gqa[1] > gqa[0]
    assert float(full_heads[0]) == pytest.approx(4.0 * float(gqa[0]), rel=0.01)


def test_ring_attention_hides_its_exchange_behind_the_attention_but_not_its_first_pass():
    c = candidates_of([Layout(1, 1, 1, checkpointing="full", cp=8)])
    q = load_llm_params()
    step = step_time(SHAPE_8B, c, H100, StateBytes(), q, 2.0)
    exchange = float(step.traffic.cp_per_micro_batch[0])
    whole = step_time(SHAPE_8B, candidates_of([Layout(1, 1, 8, checkpointing="full")]), H100,
                      StateBytes(), q, 2.0)
    # 1 / 8 of the tokens per GPU: about 1 / 8 of the compute of a whole sequence each
    assert float(step.compute_s[0]) == pytest.approx(float(whole.compute_s[0]) / 8, rel=1e-6)
    exposed = float(step.communication_s[0] - whole.communication_s[0])
    assert exchange / 8 <= exposed + 1e-9 and exposed < exchange


def test_the_layout_label_names_the_context_parallel_degree():
    lay = Layout(8, 16, 8, "zero1", cp=16)
    assert lay.gpus == 16384
    assert lay.label().en.startswith("TP 8 × CP 16 × PP 16 × DP 8")
    assert lay.label().zh.startswith("TP 8 × CP 16 × PP 16 × DP 8")
    assert Layout(1, 1, 1, cp=8).family == "hybrid"
