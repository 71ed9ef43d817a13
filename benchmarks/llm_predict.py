"""The layout model's prediction for one published run (shared by the fit and the scoring)."""

from __future__ import annotations

from dataclasses import dataclass

from advisor.scaling.card_memory import usable_gb
from advisor.scaling.layouts.search import Choice, best_layout
from advisor.scaling.layouts.states import mixed_precision_adam
from advisor.scaling.llm_compute import LlmParams, load_llm_params
from advisor.scaling.parameters import load_params
from benchmarks.llm_points import Point, cluster


@dataclass(frozen=True)
class Prediction:
    tokens_per_s_per_gpu: float
    choice: Choice
    checkpointing: str


def predict(pt: Point, q: LlmParams | None = None) -> Prediction:
    """The fastest fitting layout among what the source leaves open; when nothing fits, the
    fastest (the source ran it: its throughput is scored; the memory claims are scored in
    benchmarks/llm_claims.py)."""
    q = q or load_llm_params()
    p = load_params()
    c = cluster(pt.machines, pt.flash)
    states = mixed_precision_adam(c.bytes_per_value)
    best: Prediction | None = None
    for ck in pt.checkpointing:
        choice = best_layout(pt.shape, pt.gpus, c, states, q, pt.grad_reduce_bytes,
                             pt.global_batch, ck, usable_gb(c.memory_gb, p),
                             q.context_overhead_gb, pt.fixed, none_fit="fastest")
        if choice is None:
            continue
        rate = choice.tokens_per_step / (choice.step_s * pt.gpus)
        cand = Prediction(rate, choice, ck)
        if best is None or (cand.choice.fits, rate) > (best.choice.fits,
                                                        best.tokens_per_s_per_gpu):
            best = cand
    if best is None:
        raise ValueError(f"{pt.key}: no layout")
    return best

