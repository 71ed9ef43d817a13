"""Invariants of the large-model layouts on random transformers (hypothesis): more GPUs never
raise the per-GPU memory of sharded states, a tensor-parallel degree always divides the heads
and the width and stays inside one machine, a faster network never slows a layout search,
and a layout projection keeps its speed-up within its band and at most N."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.profile import Profile
from advisor.scaling import project
from advisor.scaling.layouts.cluster import Cluster
from advisor.scaling.layouts.layout import Layout, candidates_of
from advisor.scaling.layouts.memory import memory_parts
from advisor.scaling.layouts.search import Fixed, best_layout, enumerate_layouts
from advisor.scaling.layouts.shape import ModelShape
from advisor.scaling.layouts.states import StateBytes
from advisor.scaling.llm_compute import load_llm_params

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
CLUSTER = Cluster(peak_tflops=312, memory_gb=80, memory_bandwidth_gbs=2039,
                  generation="ampere", gpus_per_node=8, busbw_intra_gbs=200,
                  busbw_node_gbs=160)


@st.composite
def shapes(draw) -> ModelShape:
    heads = draw(st.sampled_from([12, 16, 20, 24, 25, 32, 40, 48, 56, 64, 96, 112, 128]))
    width = heads * draw(st.sampled_from([64, 80, 128]))
    layers = draw(st.integers(2, 128))
    params = 12.0 * layers * width**2 + 32000 * width
    return ModelShape(params, layers, width, heads, draw(st.sampled_from([512, 2048, 8192])),
                      32000)


@SETTINGS
@given(shapes(), st.sampled_from(["zero1", "zero2", "zero3", "fsdp", "hsdp"]),
       st.integers(1, 6), st.integers(1, 64), st.integers(1, 64))
def test_more_gpus_never_raise_the_per_gpu_memory_of_sharded_states(shape, sharding, tp_log,
                                                                      dp, more):
    tp = min(2 ** (tp_log - 1), 8)
    fewer = Layout(tp, 1, dp, sharding)
    bigger = Layout(tp, 1, dp + more, sharding)
    a = memory_parts(shape, candidates_of([fewer]), CLUSTER, StateBytes(), 1.0)
    b = memory_parts(shape, candidates_of([bigger]), CLUSTER, StateBytes(), 1.0)
    assert b.states[0] <= a.states[0] + 1e-9
    assert b.total[0] <= a.total[0] + 1e-9


@SETTINGS
@given(shapes(), st.integers(1, 512), st.sampled_from([1, 2, 4, 8, 16]))
def test_a_tensor_parallel_degree_always_divides_the_heads(shape, gpus, per_node):
    c = enumerate_layouts(shape, gpus, per_node, 256, "none", Fixed())
    for t in set(c.tp.tolist()):
        assert shape.heads % t == 0 and shape.hidden % t == 0 and t <= per_node
    assert all(int(t * p * d) == gpus for t, p, d in zip(c.tp, c.pp, c.dp, strict=True))


@given(shapes(), st.sampled_from([8, 16, 32, 64, 128, 256]), st.sampled_from([4, 8]))
@SETTINGS
def test_an_interleaved_pipeline_splits_the_layers_into_equal_chunks(shape, gpus, per_node):
    """Review 7: 8 stages x 4 chunks of a 27-layer model (32 chunks) is no layout anyone can
    launch: an interleaved schedule needs a layer in every chunk of every stage."""
    c = enumerate_layouts(shape, gpus, per_node, gpus, "full", Fixed())
    for p, v in zip(c.pp.tolist(), c.interleave.tolist(), strict=True):
        assert v == 1 or shape.layers >= p * v, (shape.layers, p, v)
        assert v == 1 or (-(-shape.layers // p)) % v == 0
        assert p <= shape.layers


@SETTINGS
@given(shapes(), st.sampled_from([8, 16, 64, 256]), st.floats(1.0, 8.0))
def test_a_faster_network_never_slows_the_layout_kept(shape, gpus, factor):
    q = load_llm_params()
    def rate(cluster):
        c = best_layout(shape, gpus, cluster, StateBytes(), q, 2.0, 4 * gpus, "full", 73.6,
                        1.3)
        return c.fits, c.tokens_per_step / c.step_s
    slow = rate(CLUSTER)
    fast = rate(replace(CLUSTER, busbw_node_gbs=CLUSTER.busbw_node_gbs * factor))
    assert fast[0] == slow[0]
    assert fast[1] >= slow[1] * (1 - 1e-9)


@SETTINGS
@given(st.integers(2000, 400000), st.sampled_from(["a100_sxm4_80gb", "h100_sxm", "rtx4090"]),
       st.integers(1, 8), st.sampled_from(["none", "selective", "full"]))
def test_layout_projections_keep_their_band_and_bounds(params_millions, gpu, nodes, ck):
    link = "pcie4" if gpu == "rtx4090" else "nvswitch"
    profile = Profile.model_validate({
        "schema_version": 1, "task": "llm",
        "model": {"params_millions": params_millions, "sequence_length": 2048},
        "training": {"dataset_tokens": 1e10, "batch_per_gpu": 2, "precision": "bf16",
                     "activation_checkpointing": ck},
        "hardware": {"gpu": gpu, "gpus_per_node": 8, "nodes": nodes, "intra_link": link,
                     "inter_link": "infiniband_hdr" if nodes > 1 else "none"}})
    r = project(profile)
    assert r.speedup[0] == 1.0 and r.planned_from_size
    for n, s, lo, hi, tp in zip(r.gpus, r.speedup, r.speedup_low, r.speedup_high,
                                r.tensor_parallel, strict=True):
        assert 0 < lo <= s <= hi <= n + 1e-6
        assert tp <= 8
    assert all(h > 0 for h in r.run_hours) and r.run_hours_one_gpu > 0
    assert all(0 < m < 1 for m in r.mfu)
