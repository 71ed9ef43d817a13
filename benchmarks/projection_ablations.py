"""What each modelling choice of the projection is worth, under the same cross-validation.

    .venv/bin/python -m benchmarks.projection_ablations

Re-scores the projection leave-one-model-family-out (as ``projection_accuracy.py``) with one
choice changed at a time, and writes benchmarks/results/projection_ablations.md. The variants
change the inputs or the fit, never the runtime code:

* the model before the per-sample straggler term: every step jitters by the same CV, which is
  the current physics with a batch of one sample everywhere (cv / sqrt(1));
* no weak priors on the overlap / bandwidth pair (``projection_eval.PRIORS``);
* alternatives that were evaluated and not kept: fp16 gradients for mixed precision, a lower
  no-P2P factor for GeForce cards, gradient accumulation at its provable lower bound, and a
  steeper jitter law (exponent 0.75 on the batch instead of the CLT's 0.5).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

import benchmarks.projection_eval as evaluation
from advisor.scaling.parameters import ScalingParams
from benchmarks.scaling_series import DATA, Points, Series, flatten, load_series

OUT = Path(__file__).resolve().parent / "results" / "projection_ablations.md"
HALF = ("AMP", "FP16/AMP", "BF16", "FP16")
# The sources' notes say the global batch is held by gradient accumulation for these tables.
ACCUMULATION_NOTES = ("via gradient accumulation", "accumulation shrinks",
                      "accumulation steps shrink", "accumulated batch")


def _notes() -> dict[str, str]:
    with DATA.open(encoding="utf-8") as fh:
        return {re.search(r"series=([^;]*)", r["notes"]).group(1): r["notes"]
                for r in csv.DictReader(fh)}


def _cv(series: list[Series], points: Points) -> np.ndarray:
    families = np.array([series[i].family for i in points.series])
    out = np.empty_like(points.actual)
    for family in sorted(set(families)):
        held = families == family
        fitted = evaluation.fit(evaluation.subset(points, ~held), ScalingParams())
        out[held] = evaluation.predict(evaluation.subset(points, held), fitted)
    return out


def score(series: list[Series], points: Points) -> dict[str, float]:
    pred = _cv(series, points)
    e = np.abs(pred / points.actual - 1.0) * 100.0
    multi = points.gpus > points.fields["gpus_per_node"]
    single = ~multi
    row = {"all": e.mean(), "single": e[single].mean(), "multi": e[multi].mean(),
           "median": float(np.median(e)), "worst": e.max()}
    for n in (2, 4, 8):
        row[f"N{n}"] = e[single & (points.gpus == n)].mean()
    return row


def points_with(series: list[Series], fields: Callable[[Points, list[Series]], None] | None
            ) -> Points:
    pts = flatten(series)
    if fields:
        fields(pts, series)
    return pts


def one_sample_batches(pts: Points, _series) -> None:
    pts.fields["batch0"] = np.ones_like(pts.fields["batch0"])


def _steeper_jitter(pts: Points, _series) -> None:
    # cv / b**0.75 == cv / sqrt(b**1.5) at the baseline batch
    pts.fields["batch0"] = pts.fields["batch0"] ** 1.5


def _accumulation_lower_bound(pts: Points, series) -> None:
    """Global batch fixed by accumulation: at N GPUs at least max(N) / N micro-batches are
    accumulated per all-reduce, so the exchanged bytes per micro-batch shrink by that."""
    notes = _notes()
    steps = np.ones_like(pts.gpus)
    for k, i in enumerate(pts.series):
        s = series[i]
        if any(text in notes[s.sid] for text in ACCUMULATION_NOTES):
            steps[k] = max(1.0, max(s.gpus) / pts.gpus[k])
    pts.fields["grad_bytes"] = pts.fields["grad_bytes"] / steps


def _fp16_gradients(series: list[Series]) -> list[Series]:
    return [replace(s, grad_bytes=2.0) if s.precision in HALF else s for s in series]


def _no_p2p(factor: float) -> Callable[[list[Series]], list[Series]]:
    def apply(series: list[Series]) -> list[Series]:
        return [replace(s, busbw_intra=s.busbw_intra * factor / 0.62)
                if "GeForce" in s.gpu else s for s in series]
    return apply


VARIANTS: list[tuple[str, Callable | None, Callable | None, bool]] = [
    # name, series transform, points transform, keep priors
    ("shipped model", None, None, True),
    ("without the weak priors", None, None, False),
    ("step-level jitter (before: batch ignored), no priors", None, one_sample_batches, False),
    ("fp16 gradients for mixed precision", _fp16_gradients, None, True),
    ("GeForce no-P2P factor 0.4 instead of 0.62", _no_p2p(0.4), None, True),
    ("gradient accumulation, lower bound", None, _accumulation_lower_bound, True),
    ("jitter ~ b^-0.75 instead of b^-0.5", None, _steeper_jitter, True),
]


def report() -> str:
    series, _ = load_series()
    clean = [s for s in series if not s.flagged]
    priors = dict(evaluation.PRIORS)
    lines = ["# Projection ablations (leave-one-model-family-out MAPE, %)", "",
             "Generated by `benchmarks/projection_ablations.py`; same data and cross-validation "
             "as `projection_accuracy.md`. Single-node columns N = 2/4/8.", "",
             "| variant | all | single node | multi node | median | worst | N=2 | N=4 | N=8 |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    try:
        for name, on_series, on_points, keep_priors in VARIANTS:
            evaluation.PRIORS.clear()
            if keep_priors:
                evaluation.PRIORS.update(priors)
            chosen = on_series(clean) if on_series else clean
            r = score(chosen, points_with(chosen, on_points))
            lines.append(f"| {name} | {r['all']:.2f} | {r['single']:.2f} | {r['multi']:.2f} | "
                         f"{r['median']:.2f} | {r['worst']:.0f} | {r['N2']:.2f} | "
                         f"{r['N4']:.2f} | {r['N8']:.2f} |")
    finally:
        evaluation.PRIORS.clear()
        evaluation.PRIORS.update(priors)
    return "\n".join(lines + [""])


def main() -> None:
    text = report()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(text)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
