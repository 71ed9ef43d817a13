"""How fast one GPU runs its matrix products (advisor/scaling/llm_compute.py): a product's
efficiency depends on all three of its dimensions, so a tensor-parallel slice costs in the
products where it is narrow, and more tokens per micro-batch or wider matrices never slow it."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from advisor.scaling.layouts.layout import Layout, candidates_of
from advisor.scaling.layouts.shape import ModelShape
from advisor.scaling.llm_compute import compute_per_micro_batch_s, gemm_efficiency, load_llm_params
from benchmarks.llm_points import cluster

Q = load_llm_params()
dims = st.floats(min_value=16.0, max_value=65536.0)


@given(dims, dims, dims, st.floats(min_value=1.0, max_value=4.0))
def test_a_wider_product_is_never_less_efficient(m, k, n, factor):
    base = gemm_efficiency(m, k, n, Q)
    assert 0.0 < base < 1.0
    for wider in ((m * factor, k, n), (m, k * factor, n), (m, k, n * factor)):
        assert gemm_efficiency(*wider, Q) >= base - 1e-12


def test_one_narrow_width_alone_gives_the_half_width_form():
    d, d0 = 384.0, Q.gemm_half_width
    assert np.isclose(gemm_efficiency(1e12, 1e12, d, Q), d / (d + d0))


def _micro_batch_s(shape: ModelShape, tp: int, micro_batch: int) -> float:
    lay = Layout(tp, 1, 1, micro_batch=micro_batch, checkpointing="full",
                 sequence_parallel=False)
    return float(compute_per_micro_batch_s(shape, candidates_of([lay]), cluster("dgx2h", False),
                                           Q)[0])


def test_a_slice_costs_less_when_the_other_width_is_larger():
    """Megatron-LM 2019 (Table 8, Figure 5): the 8.3B model on 8 GPUs multiplies h/t = 384
    wide slices against h = 3,072, the 1.2B model on 4 GPUs the same slices against 1,536;
    per FLOP the larger model's products run faster."""
    small = ModelShape(1.2e9, 40, 1536, 16, 1024, 51200)
    large = ModelShape(8.3e9, 72, 3072, 32, 1024, 51200)
    per_flop = [_micro_batch_s(s, t, 8) / (s.hardware_flops_per_token("full") / t)
                for s, t in ((small, 4), (large, 8))]
    assert per_flop[1] < per_flop[0]


def test_more_tokens_per_micro_batch_never_cost_more_per_token():
    shape = ModelShape(7e9, 32, 4096, 32, 2048, 32000)
    per_token = [_micro_batch_s(shape, 8, b) / b for b in (1, 2, 4, 8)]
    assert all(b <= a * (1 + 1e-9) for a, b in zip(per_token, per_token[1:], strict=False))
