"""Megatron-LM 2019's scaling tables against the layout model (reported, not scored).

Shoeybi et al. 2019 (arXiv 1909.08053) measured, on DGX-2H V100s, relative to one GPU
training the 1.2B model (39 TFLOP/s, batch 8, 1,024 tokens):

* Figure 5, weak scaling (Table 1's shapes, 96-wide heads): 95 / 82 / 77 % of linear for
  2.5B / 4.2B / 8.3B on 2 / 4 / 8 GPUs of tensor parallelism; 96 / 83 / 79 / 74 % with 64-way
  data parallelism on top (64 ... 512 GPUs);
* Table 7, the 8.3B on 8 GPUs with 16 / 24 / 32 heads: 82 / 80 / 77 %;
* Table 8, strong scaling of the 1.2B model at batch 8: 1.64 / 2.34 / 2.98 x on 2 / 4 / 8 GPUs.

Efficiency as the paper defines it: FLOP/s per GPU over the single GPU's (the same FLOP
count for both, Narayanan's Eq. 3 here). The scored points of ``llm_points.py`` take the 77 %
and 74 % rows; this table shows the rest, the strong-scaling row included, which no GEMM-width
model reproduces together with the weak-scaling rows (the 1.2B model on 4 GPUs and the 8.3B
on 8 multiply matrices of the same narrowest width, 384, yet reach 59 % and 77 %).
"""

from __future__ import annotations

from advisor.scaling.layouts.search import Fixed
from advisor.scaling.layouts.shape import ModelShape
from advisor.scaling.llm_compute import LlmParams
from benchmarks.llm_points import Point, _gpt
from benchmarks.llm_predict import predict

BASE = _gpt(1.2, 40, 1536, 16, seq=1024)
WEAK = ((2.5, 54, 1920, 20, 2, 0.95, 0.83), (4.2, 64, 2304, 24, 4, 0.82, 0.79),
        (8.3, 72, 3072, 32, 8, 0.77, 0.74))
HEADS = ((16, 0.82), (24, 0.80), (32, 0.77))
STRONG = ((2, 1.64), (4, 2.34), (8, 2.98))


def _flops_per_token(s: ModelShape) -> float:
    return 96.0 * s.layers * s.hidden**2 * (
        1.0 + s.sequence / (6.0 * s.hidden) + s.vocab / (16.0 * s.layers * s.hidden))


def _tflops_per_gpu(shape: ModelShape, tp: int, dp: int, q: LlmParams) -> float:
    pt = Point("megatron2019-table", "shoeybi2019_s51", "", tp * dp, "tflops_per_gpu", 0.0,
               shape, "dgx2h", 8 * dp, ("full",),
               Fixed(tp=tp, pp=1, sharding=("none",), micro_batch=8, sequence_parallel=False),
               "narayanan")
    return predict(pt, q).tokens_per_s_per_gpu * _flops_per_token(shape) / 1e12


def rows(q: LlmParams) -> list[tuple[str, float, float]]:
    """(case, published, model) efficiencies or speed-ups relative to one GPU."""
    one = _tflops_per_gpu(BASE, 1, 1, q)
    out = []
    for pb, layers, hidden, heads, t, mp, mdp in WEAK:
        shape = _gpt(pb, layers, hidden, heads, seq=1024)
        out.append((f"Fig. 5 {pb:g}B on {t} GPUs (TP {t})", mp,
                    _tflops_per_gpu(shape, t, 1, q) / one))
        out.append((f"Fig. 5 {pb:g}B on {64 * t} GPUs (TP {t} x DP 64)", mdp,
                    _tflops_per_gpu(shape, t, 64, q) / one))
    for heads, published in HEADS:
        shape = _gpt(8.3, 72, 3072, heads, seq=1024)
        out.append((f"Table 7 8.3B, {heads} heads, TP 8", published,
                    _tflops_per_gpu(shape, 8, 1, q) / one))
    for t, published in STRONG:
        out.append((f"Table 8 1.2B on {t} GPUs (speed-up)", published,
                    t * _tflops_per_gpu(BASE, t, 1, q) / one))
    return out


def section(q: LlmParams, held: LlmParams | None) -> list[str]:
    lines = ["", "## Megatron-LM 2019's scaling tables (reported, not scored)", "",
             "Relative to one V100 training the 1.2B model (`benchmarks/llm_megatron2019.py`).",
             "", "| case | published | in-sample | left out |", "|---|---|---|---|"]
    cv = dict((k, m) for k, _, m in rows(held)) if held else {}
    for key, published, model in rows(q):
        left = f"{cv[key]:.2f} ({cv[key] / published - 1:+.0%})" if key in cv else "—"
        lines.append(f"| {key} | {published:.2f} | {model:.2f} ({model / published - 1:+.0%})"
                     f" | {left} |")
    return lines
