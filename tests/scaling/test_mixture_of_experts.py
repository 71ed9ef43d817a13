"""A mixture of experts computes with its active parameters and holds all of them; expert
parallelism splits its experts over data-parallel replicas and moves its tokens by all-to-all
(issue 32, part 2)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor import project
from advisor.catalog.profile_check import parse_profile_text
from advisor.files.errors import InputError
from advisor.scaling.layouts.cluster import Cluster
from advisor.scaling.layouts.layout import Layout, candidates_of
from advisor.scaling.layouts.memory import memory_parts
from advisor.scaling.layouts.search import Fixed, best_layout, enumerate_layouts
from advisor.scaling.layouts.shape import ModelShape, with_experts
from advisor.scaling.layouts.states import mixed_precision_adam
from advisor.scaling.layouts.step import step_time
from advisor.scaling.layouts.traffic import traffic
from advisor.scaling.llm_compute import load_llm_params

Q = load_llm_params()
STATES = mixed_precision_adam()
# Mixtral 8x7B's shape (config.json), its 46.7 B parameters, 12.9 B of them active
BASE = ModelShape(params=46.7e9, layers=32, hidden=4096, heads=32, sequence=4096,
                  vocab=32000, kv_heads=8)
MIXTRAL = with_experts(BASE, experts=8, top_k=2, active=12.9e9, expert_width=14336)


def h100(gpus_per_node: int = 8, node_gbs: float = 300.0) -> Cluster:
    return Cluster(peak_tflops=989.0, memory_gb=80.0, memory_bandwidth_gbs=3350.0,
                   generation="hopper", gpus_per_node=gpus_per_node, busbw_intra_gbs=340.0,
                   busbw_node_gbs=node_gbs)


def dense(params: float) -> ModelShape:
    """The dense model of Mixtral's shape with ``params`` parameters."""
    return replace(BASE, params=params)


def rate(shape: ModelShape, gpus: int = 64, fixed: Fixed = Fixed()) -> float:
    choice = best_layout(shape, gpus, h100(), STATES, Q, 2.0, 512, "selective", 72.0,
                         Q.context_overhead_gb, fixed)
    assert choice is not None and choice.fits
    return choice.tokens_per_step / (choice.step_s * gpus)


def one(shape: ModelShape, layout: Layout, cluster: Cluster | None = None):
    c = candidates_of([layout])
    cl = cluster or h100()
    return memory_parts(shape, c, cl, STATES, 1.0), traffic(shape, c, cl, 2.0), \
        step_time(shape, c, cl, STATES, Q, 2.0)


def test_the_experts_are_counted_from_total_and_active_parameters():
    # 32 layers x 8 experts x 3 x 4,096 x 14,336 = 45.1 B routed parameters
    assert MIXTRAL.expert_params == pytest.approx(32 * 8 * 3 * 4096 * 14336, rel=0.01)
    assert MIXTRAL.active_params == pytest.approx(12.9e9)
    assert MIXTRAL.model_flops_per_token() == pytest.approx(dense(12.9e9)
                                                            .model_flops_per_token())


def test_an_moe_is_much_faster_than_the_dense_model_of_its_total_size():
    """3.6 times fewer FLOPs per token; the busiest expert rank (capacity factor 1.25), the
    smaller micro-batch its experts' memory leaves and its all-to-all take a part of that."""
    assert rate(MIXTRAL) > 1.8 * rate(dense(46.7e9))


def test_an_moe_is_about_as_fast_as_a_dense_model_of_its_active_size():
    """No faster (the same FLOPs, narrower matmuls, an all-to-all when split) and not much
    slower."""
    moe, active = rate(MIXTRAL), rate(dense(12.9e9))
    assert 0.6 * active < moe <= 1.01 * active


def test_an_moe_computes_as_its_active_size_does_and_adds_its_all_to_all():
    """On one layout its compute is the dense active model's (its expert matmuls at their own
    widths, no narrower than a few per cent); its communication holds the all-to-all of
    every micro-batch."""
    lay = Layout(1, 1, 8, "zero1", micro_batch=1, micro_batches=4, ep=8)
    moe = one(replace(MIXTRAL, capacity_factor=1.0), lay)[2]
    active = one(dense(12.9e9), replace(lay, ep=1))[2]
    assert active.compute_s[0] <= moe.compute_s[0] <= 1.3 * active.compute_s[0]
    a2a = moe.traffic.a2a_per_micro_batch[0]
    assert a2a > 0 and moe.communication_s[0] >= 4 * a2a


def test_an_moe_holds_the_states_of_all_its_parameters():
    lay = Layout(1, 1, 1)
    moe, _, _ = one(MIXTRAL, lay)
    total, _, _ = one(dense(46.7e9), lay)
    active, _, _ = one(dense(12.9e9), lay)
    assert moe.states[0] == pytest.approx(total.states[0], rel=1e-9)
    assert moe.states[0] > 3 * active.states[0]
    assert moe.states[0] == pytest.approx(46.7e9 * 16 / 1e9, rel=1e-9)  # 2 + 2 + 12 bytes


@settings(max_examples=40, deadline=None)
@given(experts_log=st.integers(2, 8), top_k=st.integers(1, 8), tp=st.sampled_from([1, 2, 4]),
       sharding=st.sampled_from(["none", "zero1", "zero2"]), data=st.data())
def test_expert_parallelism_divides_the_experts_memory_per_gpu(experts_log, top_k, tp,
                                                               sharding, data):
    experts = 2 ** experts_log
    top_k = min(top_k, experts - 1)
    shape = with_experts(BASE, experts, top_k, 8e9)
    ep = data.draw(st.sampled_from([e for e in (2, 4, 8, 16) if e <= experts]))
    lay = Layout(tp, 1, 16, sharding, ep=1)
    whole, _, _ = one(shape, lay)
    split, _, _ = one(shape, replace(lay, ep=ep))
    routed = shape.expert_params / tp  # every routed parameter on a tensor rank, unsplit
    assert split.weights[0] < whole.weights[0]
    assert whole.weights[0] - split.weights[0] == pytest.approx(
        routed * 2.0 * (1 - 1 / ep) / 1e9, rel=1e-6)
    assert split.total[0] < whole.total[0]
    # ZeRO-1 shards the experts' optimizer states over the replicas that hold them: the
    # same bytes per GPU whatever ep
    if sharding != "none":
        assert split.optimizer[0] == pytest.approx(whole.optimizer[0], rel=1e-6)


def test_an_all_to_all_across_machines_costs_more_than_inside_one():
    lay = Layout(1, 1, 16, "zero1", micro_batch=1, micro_batches=4, ep=8)
    _, inside, _ = one(MIXTRAL, lay, h100(gpus_per_node=8))
    _, across, _ = one(MIXTRAL, lay, h100(gpus_per_node=4))
    assert across.a2a_per_micro_batch[0] > inside.a2a_per_micro_batch[0] > 0
    assert across.network_bytes_per_step[0] > inside.network_bytes_per_step[0]
    # more experts per token move more bytes; no expert parallelism moves none
    _, more, _ = one(with_experts(BASE, 8, 4, 23.9e9, 14336), lay)
    assert more.a2a_per_micro_batch[0] > inside.a2a_per_micro_batch[0]
    _, unsplit, _ = one(MIXTRAL, replace(lay, ep=1))
    assert unsplit.a2a_per_micro_batch[0] == 0


def test_a_busier_expert_rank_slows_the_step_only_where_experts_are_split():
    lay = Layout(1, 1, 8, "zero1", micro_batch=1, micro_batches=4, ep=8)
    even, busy = replace(MIXTRAL, capacity_factor=1.0), replace(MIXTRAL, capacity_factor=1.5)
    assert one(busy, lay)[2].step_s[0] > one(even, lay)[2].step_s[0]
    whole = replace(lay, ep=1)
    assert one(busy, whole)[2].step_s[0] == pytest.approx(one(even, whole)[2].step_s[0])


def test_the_search_tries_expert_degrees_that_divide_the_experts_and_the_replicas():
    c = enumerate_layouts(MIXTRAL, 64, 8, 512, "none", Fixed())
    ep, dp, sharding = c.ep, c.dp, c.sharding
    assert (ep > 1).any()
    assert np.all(dp % ep == 0) and np.all(8 % ep == 0)
    assert set(ep[sharding > 2].tolist()) == {1}  # fully sharded replicas hold every expert
    assert set(enumerate_layouts(dense(46.7e9), 64, 8, 512, "none", Fixed()).ep.tolist()) \
        == {1}
    fixed = enumerate_layouts(MIXTRAL, 64, 8, 512, "none", Fixed(ep=4))
    assert set(fixed.ep[fixed.sharding <= 2].tolist()) == {4}


def test_a_model_too_large_for_its_replicas_fits_once_its_experts_are_split():
    """ZeRO-1 with every expert on every replica does not fit 8 x 80 GB; split 8 ways the
    experts do (a search limited to ZeRO-1 must choose expert parallelism)."""
    big = with_experts(replace(BASE, params=140e9, layers=56, hidden=6144, heads=48), 8, 2,
                       39e9, 16384)
    zero1 = Fixed(tp=8, pp=1, sharding=("zero1",))
    no_split = best_layout(big, 64, h100(), STATES, Q, 2.0, 512, "full", 72.0, 1.0,
                           replace(zero1, ep=1))
    split = best_layout(big, 64, h100(), STATES, Q, 2.0, 512, "full", 72.0, 1.0, zero1)
    assert not no_split.fits and split.fits and split.layout.ep > 1


# --- profiles -------------------------------------------------------------------------

def _profile(model: str, hardware: str, training: str = "dataset_tokens: 1.0e+13") -> str:
    return (f"task: llm\nmodel: {model}\ntraining: {{{training}}}\nhardware: {{{hardware}}}\n")


def test_deepseek_v3_by_name_fits_and_is_planned_on_2048_h800():
    profile = parse_profile_text(_profile(
        "{id: deepseek-v3, sequence_length: 4096}",
        "gpu: h800_sxm, gpus_per_node: 8, nodes: 256, intra_link: nvswitch, "
        "inter_link: infiniband_ndr",
        "dataset_tokens: 1.0e+13, precision: bf16, global_batch: 2048, batch_per_gpu: 4, "
        "activation_checkpointing: full"))
    assert profile.model.experts == 256 and profile.model.active_params_millions == 37000
    p = project(profile, [1024, 2048])
    assert p.fits == [True, True]
    assert all(m <= p.usable_memory_gb for m in p.memory_per_gpu_gb)
    assert 0.05 < p.mfu[-1] < 0.6
    assert p.run_hours[-1] < p.run_hours[0]
    assert any("37,000 M of its 671,000 M" in n for n in p.notes)
    assert any("37,000 M" in n and "671,000 M" in n for n in p.notes_zh)


def test_deepseek_v3_as_a_dense_model_of_its_size_would_not_fit():
    """What it was before issue 32: 671 B parameters without experts on the same cluster."""
    profile = parse_profile_text(_profile(
        "{name: as-dense, params_millions: 671000, layers: 61, hidden_size: 7168, "
        "attention_heads: 128, vocab_size: 129280, sequence_length: 4096}",
        "gpu: h800_sxm, gpus_per_node: 8, nodes: 256, intra_link: nvswitch, "
        "inter_link: infiniband_ndr",
        "dataset_tokens: 1.0e+13, precision: bf16, global_batch: 2048, batch_per_gpu: 4, "
        "activation_checkpointing: full"))
    moe = parse_profile_text(_profile(
        "{id: deepseek-v3, sequence_length: 4096}",
        "gpu: h800_sxm, gpus_per_node: 8, nodes: 256, intra_link: nvswitch, "
        "inter_link: infiniband_ndr",
        "dataset_tokens: 1.0e+13, precision: bf16, global_batch: 2048, batch_per_gpu: 4, "
        "activation_checkpointing: full"))
    before, now = project(profile, [2048]), project(moe, [2048])
    assert now.run_hours[0] < 0.5 * before.run_hours[0]


@pytest.mark.parametrize("method", ["full", "lora"])
def test_a_qwen3_30b_a3b_fine_tune_fits_eight_h100(method):
    profile = parse_profile_text(_profile(
        "{id: qwen3-30b-a3b, sequence_length: 4096}",
        "gpu: h100_sxm, gpus_per_node: 8, intra_link: nvswitch",
        f"dataset_tokens: 1.0e+9, precision: bf16, fine_tuning: true, method: {method}, "
        "batch_per_gpu: 1, global_batch: 64, activation_checkpointing: full"))
    assert profile.model.experts == 128
    p = project(profile, [8])
    assert p.fits == [True]


def test_a_small_moe_with_a_measured_rate_takes_the_layouts_and_counts_active_flops():
    profile = parse_profile_text(_profile(
        "{name: small-moe, params_millions: 6900, active_params_millions: 1300, experts: 64, "
        "experts_per_token: 8, layers: 16, hidden_size: 2048, attention_heads: 16, "
        "vocab_size: 50304, sequence_length: 4096}",
        "gpu: h100_sxm, gpus_per_node: 8, intra_link: nvswitch",
        "single_gpu_throughput: 20000, throughput_unit: tokens, dataset_samples: 100000, "
        "epochs: 1, precision: bf16, batch_per_gpu: 4"))
    p = project(profile, [1, 8])
    assert p.layout  # the layouts' projection (layout labels), not the data-parallel one
    per_token = 6 * 1.3e9 + 12 * 16 * 2048 * 4096
    assert p.tflops_per_gpu[0] == pytest.approx(20000 * per_token / 1e12, rel=0.01)
    assert not any("too high" in n or "impossible" in n.lower() for n in p.notes)


# --- the profile's fields ------------------------------------------------------------------

def test_a_catalog_moe_fills_its_expert_fields():
    profile = parse_profile_text(_profile("{id: qwen3-30b-a3b}", "gpu: h100_sxm, intra_link: nvswitch"))
    m = profile.model
    assert (m.experts, m.experts_per_token, m.moe_intermediate_size) == (128, 8, 768)
    assert m.active_params_millions == 3300 and m.is_moe


@pytest.mark.parametrize("model, field, en, zh", [
    ("{params_millions: 1000, experts: 8}", "experts_per_token", "needs experts", "须同时填写"),
    ("{params_millions: 1000, shared_experts: 1}", "experts", "needs experts", "须同时填写"),
    ("{params_millions: 1000, experts: 8, experts_per_token: 9, active_params_millions: 200}",
     "experts_per_token", "must not exceed experts", "不能超过"),
    ("{params_millions: 1000, experts: 8, experts_per_token: 2, active_params_millions: 2000}",
     "active_params_millions", "must not exceed params_millions", "不能超过"),
    ("{params_millions: 1000, layers: 8, experts: 8, experts_per_token: 2, "
     "active_params_millions: 300, dense_layers: 8}", "dense_layers", "fewer than layers",
     "必须少于"),
    ("{id: mixtral-8x7b, params_millions: 10000}", "active_params_millions",
     "must not exceed params_millions", "不能超过"),
])
def test_an_incomplete_or_impossible_mixture_of_experts_is_refused_in_both_languages(
        model, field, en, zh):
    with pytest.raises(InputError) as err:
        parse_profile_text(_profile(model, "gpu: h100_sxm"))
    problem = err.value.problems[0]
    assert problem.path == f"model.{field}"
    assert en in problem.message_en and zh in problem.message_zh
    assert problem.line == 2
