"""What each modelling choice of the projection is worth, under the same cross-validation.

    .venv/bin/python -m benchmarks.projection_ablations

Re-scores the projection leave-one-model-family-out (as ``projection_accuracy.py``) with one
choice changed at a time, and writes benchmarks/results/projection_ablations.md. The variants
change the inputs or the fit, never the runtime code:

* the model before the per-sample straggler term: every step jitters by the same CV, which is
  the current physics with a batch of one sample everywhere (cv / sqrt(1));
* no weak priors on the overlap / bandwidth pair (``projection_eval.PRIORS``);
* gradient accumulation ignored (the model before 2026-11-30: one all-reduce per micro-batch);
* alternatives that were evaluated and not kept: fp16 gradients for mixed precision, a lower
  no-P2P factor for GeForce cards, and a steeper jitter law (exponent 0.75 on the batch
  instead of the CLT's 0.5).

A second table bounds what any further mechanism could gain: it shifts the cross-validated
predictions of every cell of a grouping (link x N, task x N, ...) by that cell's own median
log error, in-sample - an oracle no projection from these inputs can beat.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

import benchmarks.projection_eval as evaluation
from advisor.scaling.parameters import ScalingParams
from benchmarks.scaling_series import Points, Series, flatten, load_series

OUT = Path(__file__).resolve().parent / "results" / "projection_ablations.md"
HALF = ("AMP", "FP16/AMP", "BF16", "FP16")


def _cv(series: list[Series], points: Points) -> np.ndarray:
    families = np.array([series[i].family for i in points.series])
    out = np.empty_like(points.actual)
    for family in sorted(set(families)):
        held = families == family
        fitted = evaluation.fit(evaluation.subset(points, ~held), ScalingParams())
        out[held] = evaluation.predict(evaluation.subset(points, held), fitted)
    return out


def score(series: list[Series], points: Points, pred: np.ndarray | None = None
          ) -> dict[str, float]:
    pred = _cv(series, points) if pred is None else pred
    e = np.abs(pred / points.actual - 1.0) * 100.0
    multi = points.gpus > points.fields["gpus_per_node"]
    single = ~multi
    row = {"all": e.mean(), "single": e[single].mean(), "multi": e[multi].mean(),
           "median": float(np.median(e)), "worst": e.max()}
    for n in (2, 4, 8):
        row[f"N{n}"] = e[single & (points.gpus == n)].mean()
    return row


# Groupings of the oracle bound: what a user knows (link, GPU generation, task, precision,
# N) and, for contrast, the model family and the exact system (which a projection for a new
# model cannot know).
ORACLE_GROUPS: dict[str, Callable[[Series, int], str]] = {
    "framework (TF1, TF2, PyTorch, MXNet, Paddle)": lambda s, n: _framework(s.framework),
    "per-GPU batch (octaves) x N": lambda s, n: f"{round(np.log2(s.batch0))}|{n}",
    "single-GPU step time (octaves) x N": lambda s, n: f"{round(np.log2(s.step_compute_s))}|{n}",
    "exchange / step time (octaves) x N": lambda s, n: f"{round(np.log2(_exchange_ratio(s)))}|{n}",
    "link x N": lambda s, n: f"{s.link}|{n}",
    "link x GPU generation x N": lambda s, n: f"{s.link}|{s.generation}|{n}",
    "task x N": lambda s, n: f"{s.task}|{n}",
    "task x precision x link x N": lambda s, n: f"{s.task}|{s.precision}|{s.link}|{n}",
    "model family x link x N": lambda s, n: f"{s.family}|{s.link}|{n}",
    "model family x GPU x precision x N": lambda s, n: f"{s.family}|{s.gpu}|{s.precision}|{n}",
}


def _exchange_ratio(s: Series) -> float:
    """Gradient bytes over the node's busbw, per single-GPU step: how communication-bound."""
    return s.params_m * 1e6 * s.grad_bytes / (s.busbw_intra * 1e9) / s.step_compute_s


def _framework(name: str) -> str:
    for key, label in (("TensorFlow 2", "TF2"), ("TensorFlow", "TF1"), ("MXNet", "MXNet"),
                       ("Paddle", "Paddle")):
        if key in name:
            return label
    return "PyTorch"


def oracle_bounds(series: list[Series], points: Points, pred: np.ndarray) -> list[str]:
    """Single-node MAPE after dividing each cell's predictions by the cell's own median
    predicted/measured ratio (in-sample: an upper bound on what a mechanism that acts through
    these inputs alone could gain, not a method)."""
    single = points.gpus <= points.fields["gpus_per_node"]
    ratio = np.log(pred / points.actual)
    lines = ["| per-cell median correction, in-sample | cells | single node MAPE |",
             "|---|---:|---:|",
             f"| none (cross-validated projection) | - | "
             f"{(np.abs(pred / points.actual - 1) * 100)[single].mean():.2f} |"]
    for name, key in ORACLE_GROUPS.items():
        labels = np.array([key(series[i], int(n)) for i, n in zip(points.series, points.gpus,
                                                                   strict=True)])
        shifted = pred.copy()
        cells = sorted(set(labels[single]))
        for cell in cells:
            m = single & (labels == cell)
            shifted[m] = pred[m] * np.exp(-np.median(ratio[m]))
        e = np.abs(shifted / points.actual - 1) * 100
        lines.append(f"| {name} | {len(cells)} | {e[single].mean():.2f} |")
    return lines + [""]


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


def _no_accumulation(pts: Points, _series) -> None:
    """One all-reduce per micro-batch everywhere, as before the accumulation input."""
    pts.fields["accumulation"] = np.ones_like(pts.fields["accumulation"])
    pts.fields["accumulation0"] = np.ones_like(pts.fields["accumulation0"])


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
    ("gradient accumulation ignored (before 2026-11-30)", None, _no_accumulation, True),
    ("fp16 gradients for mixed precision", _fp16_gradients, None, True),
    ("GeForce no-P2P factor 0.4 instead of 0.62", _no_p2p(0.4), None, True),
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
    points = flatten(clean)
    lines += ["", "### Oracle bound: how much any mechanism could still gain", "",
              "Each cell's cross-validated predictions are divided by the cell's own median "
              "predicted / measured ratio, using the measurements being scored: a lookup "
              "table fitted in-sample, so an upper bound, not a method.", ""]
    lines += oracle_bounds(clean, points, _cv(clean, points))
    return "\n".join(lines + [""])


def main() -> None:
    text = report()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(text)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
