"""Context parallelism against a published long-context training run (issue 32, part 5).

Llama 3's 405B pre-training ran its long-context stage at 131,072 tokens per sequence with
context parallel 16 (Llama Team 2024, "The Llama 3 Herd of Models", arXiv 2407.21783, Table 4
and Sec. 3.3.2; the row of ``benchmarks/data/llm_runs.csv``, source ``llama3_405b_t4``,
checked when loaded): 16,384 H100s, TP 8 x CP 16 x PP 16, 380 TFLOP/s per GPU (BF16 MFU 38 %),
against 400 at 8,192 tokens on the same 16,384 GPUs without context parallel. The row prints
DP 4, but 8 x 16 x 16 x 4 is 8,192 GPUs and its 16 M tokens a batch at 16 sequences per
replica need 8 replicas: DP 8 is taken (the GPU count and the batch agree on it). Its keys and
values are all-gathered (Sec. 3.3.2: "we first all-gather the key (K) and value (V) tensors"),
the volume ring attention passes around; grouped-query attention's 8 key / value heads keep it
small. Recomputation is not stated for this stage: the fastest that fits of none, selective
and full is scored (full fits; none needs more than the card), as the other runs whose
recomputation is unknown are (``benchmarks/llm_points.py``).

Nothing here was fitted: the layout model's parameters are those ``benchmarks/fit_llm.py``
fitted on runs without context parallelism (``resources/scaling/llm_parameters.yaml``).

Run: ``.venv/bin/python -m benchmarks.long_context``.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass

from advisor.scaling.layouts.search import Fixed
from advisor.scaling.layouts.shape import ModelShape
from benchmarks.llm_points import ANY, DATA, Point, points
from benchmarks.llm_predict import predict

TOLERANCE = 0.15
LLAMA3_405B_LONG = ModelShape(params=405e9, layers=126, hidden=16384, heads=128,
                              sequence=131072, vocab=128256, kv_heads=8)


@dataclass(frozen=True)
class LongRun:
    point: Point
    base_key: str  # the same machines' run at a short sequence (benchmarks/llm_points.py)


def runs() -> list[LongRun]:
    long = Point("llama3-405B-131k-cp16", "llama3_405b_t4", "Llama 3 405B", 16384,
                 "tflops_per_gpu", 380, LLAMA3_405B_LONG, "meta_h100", 8 * 16, ANY,
                 Fixed(tp=8, pp=16, cp=16, sharding=("zero1",), micro_batch=1,
                       sequence_parallel=True), "palm", flash=True, grad_reduce_bytes=4.0,
                 note="DP 8 (the row's DP 4 gives 8,192 GPUs); 16 sequences per replica")
    return [LongRun(long, "llama3-405B-16384")]


def check_against_csv(items: list[LongRun]) -> None:
    rows = list(csv.DictReader((DATA / "llm_runs.csv").open(encoding="utf-8")))
    for run in items:
        pt = run.point
        if not any(r["source_id"] == pt.source and pt.model in r["model"]
                   and r["metric"] == pt.metric and float(r["value"]) == pt.value
                   and r["seq_len"] == str(pt.shape.sequence) for r in rows):
            raise ValueError(f"{pt.key}: no row {pt.source} / {pt.metric} = {pt.value}")


def main() -> None:
    items = runs()
    check_against_csv(items)
    by_key = {pt.key: pt for pt in points()}
    print(f"{'run':<26} {'layout':<62} {'published':>10} {'model':>8} {'error':>8}")
    for run in items:
        pt = run.point
        pred = predict(pt)
        published = pt.tokens_per_s_per_gpu()
        error = pred.tokens_per_s_per_gpu / published - 1.0
        print(f"{pt.key:<26} {pred.choice.layout.label().en:<62} {published:>9.1f}t "
              f"{pred.tokens_per_s_per_gpu:>7.1f}t {error:>+8.1%}")
        step = pred.choice.step
        print(f"  fits: {pred.choice.fits} ({pred.choice.memory_gb:.1f} GB), recomputation "
              f"{pred.checkpointing}; per step: compute {float(step.compute_s[0]):.2f} s, "
              f"exposed communication {float(step.communication_s[0]):.2f} s (key / value "
              f"exchange {float(step.traffic.cp_per_micro_batch[0]):.3f} s per micro-batch "
              f"before overlap), bubble {float(step.bubble_s[0]):.2f} s")
        base = by_key[run.base_key]
        observed = published / base.tokens_per_s_per_gpu()
        predicted = pred.tokens_per_s_per_gpu / predict(base).tokens_per_s_per_gpu
        print(f"  tokens/s per GPU at 131,072 over 8,192 tokens on the same GPUs: published "
              f"{observed:.3f}, model {predicted:.3f} ({predicted / observed - 1:+.1%})")
        print("within 15 %" if abs(error) <= TOLERANCE else "OUTSIDE 15 %")


if __name__ == "__main__":
    main()
