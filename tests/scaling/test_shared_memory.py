"""A set of layouts' memory is computed once per distinct input inside ``sharing_memory``
(``advisor/scaling/layouts/shared_memory.py``): the key holds every cluster figure the memory
reads, two clusters that differ only in compute and links share it, and inside the block every
figure is the one computed outside it."""

from __future__ import annotations

import ast
import inspect
from dataclasses import replace

import numpy as np
import pytest

from advisor.catalog.profile_check import load_profile
from advisor.scaling import project
from advisor.scaling.layouts import memory as memory_module
from advisor.scaling.layouts import shared_memory
from advisor.scaling.layouts.cluster import Cluster
from advisor.scaling.layouts.memory import MEMORY_FIELDS
from advisor.scaling.layouts.search import Fixed, _fitting, enumerate_layouts
from advisor.scaling.layouts.shape import ModelShape
from advisor.scaling.layouts.states import StateBytes
from tests.support.paths import EXAMPLES, PROFILES

SHAPE = ModelShape(params=6.74e9, layers=32, hidden=4096, heads=32, sequence=4096,
                   vocab=32000)
CLUSTER = Cluster(peak_tflops=165.0, memory_gb=24.0, memory_bandwidth_gbs=1008.0,
                  generation="ada", gpus_per_node=4, busbw_intra_gbs=20.0, busbw_node_gbs=0.0)
LAYOUT_PROFILES = [EXAMPLES / "plan-7b-on-one-8xh100.yaml",
                   PROFILES / "verdict" / "llm-7b-on-4x-rtx4090.yaml"]


def _cluster_reads(tree: ast.AST) -> set[str]:
    return {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name) and node.value.id == "cluster"}


def test_the_memory_reads_no_cluster_figure_the_key_leaves_out():
    """Every ``cluster.X`` the memory module reads is in ``MEMORY_FIELDS``, and the cluster is
    handed to no function outside the module (which could read another figure)."""
    tree = ast.parse(inspect.getsource(memory_module))
    assert _cluster_reads(tree) <= set(MEMORY_FIELDS)
    assert set(MEMORY_FIELDS) <= {f for f in vars(CLUSTER)}
    own = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and any(
                isinstance(a, ast.Name) and a.id == "cluster"
                for a in [*node.args, *(k.value for k in node.keywords)]):
            assert isinstance(node.func, ast.Name) and node.func.id in own, ast.dump(node.func)


def _groups():
    return [enumerate_layouts(SHAPE, n, 4, 256, "none", Fixed(max_micro_batch=2))
            for n in (1, 2, 4)]


def test_clusters_alike_in_memory_share_one_computation_inside_the_block():
    groups = _groups()
    other = replace(CLUSTER, peak_tflops=71.0, busbw_intra_gbs=8.0, generation="ampere")
    with shared_memory.sharing_memory():
        first = _fitting(SHAPE, groups, CLUSTER, StateBytes(), [21.0] * 3, 1.0, np.inf)
        again = _fitting(SHAPE, groups, other, StateBytes(), [21.0] * 3, 1.0, np.inf)
        assert again[1] is first[1]  # the same memory object: computed once
        wider = _fitting(SHAPE, groups, replace(CLUSTER, gpus_per_node=8), StateBytes(),
                         [21.0] * 3, 1.0, np.inf)
        assert wider[1] is not first[1]  # a figure the memory reads: computed again
        lighter = _fitting(SHAPE, groups, CLUSTER, StateBytes(optimizer_bytes=6.0),
                           [21.0] * 3, 1.0, np.inf)
        assert lighter[1] is not first[1]
    outside = _fitting(SHAPE, groups, CLUSTER, StateBytes(), [21.0] * 3, 1.0, np.inf)
    assert outside[1] is not first[1]  # the block's memo is gone
    for a, b in zip(first, outside, strict=True):
        if isinstance(a, np.ndarray):
            assert np.array_equal(a, b)
    assert np.array_equal(first[1].total, outside[1].total)


def test_blocks_nest_and_the_memo_is_dropped_when_the_outermost_ends():
    with shared_memory.sharing_memory():
        with shared_memory.sharing_memory():
            inner = shared_memory._memo.get()
        assert shared_memory._memo.get() is inner is not None
    assert shared_memory._memo.get() is None


def test_the_memo_holds_what_its_key_names_by_identity():
    """An id can be reused once its object is gone: the memo keeps the object alive, and a
    key is computed once."""
    calls = []
    with shared_memory.sharing_memory():
        held = object()
        key = ("test", id(held))
        for _ in range(2):
            shared_memory.remembered(key, (held,), lambda: calls.append(1) or len(calls))
        del held
        assert shared_memory._memo.get()[key][0][0] is not None
    assert calls == [1]
    assert shared_memory.remembered(("test",), (), lambda: "computed") == "computed"


@pytest.mark.parametrize("path", LAYOUT_PROFILES, ids=lambda p: p.stem)
def test_a_projection_inside_the_block_is_the_one_outside(path):
    profile = load_profile(path)
    outside = project(profile).model_dump_json()
    with shared_memory.sharing_memory():
        assert project(profile).model_dump_json() == outside
        assert project(profile).model_dump_json() == outside  # from the memo
