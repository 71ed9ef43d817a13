"""What each modelling choice of the projection is worth, under the headline's folds.

    .venv/bin/python -m benchmarks.projection_ablations

Re-scores the projection leave one source out (as ``projection_accuracy.py``: each fold
fitted on the other sources' series, the held-out source's profiles projected as users leave
them) with one choice changed at a time, and writes benchmarks/results/projection_ablations.md.
Variants change the profiles, the fit or a parameter, never the runtime code:

* the fit: on the profiles as left (input sizes at auto) instead of stated; without the weak
  priors; a least-squares (linear) or soft-L1 loss instead of the bounded arctan;
* the host's fixed step jitter held at 0 (the model before issue 30);
* the overlap held at 0.5 ... 0.95 (the other parameters refitted): how strongly the data
  identify it;
* inputs: every series variable-size (the model before input sizes: cv / sqrt(b) for all),
  every series fixed-size; fp16 gradients for mixed precision; gradient accumulation and
  strong scaling not expressed (every series keeps its per-GPU batch and one all-reduce per
  micro-batch).

A second table bounds what any further mechanism could gain: it shifts the out-of-sample
predictions of every cell of a grouping (link x N, task x N, ...) by that cell's own median
log error, in-sample - an oracle no projection from these inputs can beat.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from advisor.profile import Profile
from advisor.scaling.parameters import FITTED
from benchmarks import projection_eval as ev
from benchmarks.profile_points import ProfilePoints, flatten
from benchmarks.scaling_series import Series, load_series
from benchmarks.series_profiles import profile_for

OUT = Path(__file__).resolve().parent / "results" / "projection_ablations.md"


def _points(series: list[Series], profiles: list[Profile]) -> ProfilePoints:
    return flatten(profiles, [s.gpus for s in series], [s.baseline for s in series],
                   [s.actual for s in series])


def _with(profile: Profile, **training) -> Profile:
    return profile.model_copy(update={"training": profile.training.model_copy(update=training)})


def _out_of_source(series: list[Series], fit_points: ProfilePoints, points: ProfilePoints,
                   fit: Callable[[ProfilePoints], object] = ev.fit) -> np.ndarray:
    labels = ev.fold_labels(series, points, "source")
    params = {g: fit(fit_points.subset(labels != g)) for g in sorted(set(labels))}
    return ev.out_of_fold(points, labels, params)


def score(points: ProfilePoints, pred: np.ndarray) -> dict[str, float]:
    e = np.abs(pred / points.actual - 1.0) * 100.0
    multi = points.gpus > points.at_n.gpus_per_node
    single = ~multi
    row = {"all": e.mean(), "single": e[single].mean(), "multi": e[multi].mean(),
           "median": float(np.median(e))}
    for n in (2, 4, 8):
        row[f"N{n}"] = e[single & (points.gpus == n)].mean()
    return row


def _fixed(name: str, value: float) -> Callable[[ProfilePoints], object]:
    names = tuple(n for n in FITTED if n != name)
    return lambda pts: ev.fit(pts, ev.fit_start().with_values(**{name: value}), names)


def _loss(loss: str) -> Callable[[ProfilePoints], object]:
    return lambda pts: ev.fit(pts, loss=loss)


def _no_priors(pts: ProfilePoints):
    return ev.fit(pts, priors={})


def variants(series: list[Series]) -> list[tuple[str, ProfilePoints, ProfilePoints, Callable]]:
    """(name, fit points, scored points, fit) per variant."""
    stated = [profile_for(s, input_sizes="stated") for s in series]
    as_left = [profile_for(s) for s in series]
    pts_stated, pts_left = _points(series, stated), _points(series, as_left)

    def transformed(**training) -> tuple[ProfilePoints, ProfilePoints]:
        return (_points(series, [_with(p, **training) for p in stated]),
                _points(series, [_with(p, **training) for p in as_left]))

    def per_series(change: Callable[[Series, Profile], Profile]):
        return (_points(series, [change(s, p) for s, p in zip(series, stated, strict=True)]),
                _points(series, [change(s, p) for s, p in zip(series, as_left, strict=True)]))

    half = ("amp", "fp16", "bf16")
    fp16 = per_series(lambda s, p: _with(p, gradient_dtype="fp16")
                      if p.training.precision.value in half else p)
    weak = per_series(lambda s, p: _with(p, keep_batch="per_gpu",
                                         gradient_accumulation_steps=1))
    out = [("shipped: fit with input sizes stated, scored as left (auto)", pts_stated, pts_left,
            ev.fit),
           ("fit and scored with input sizes stated", pts_stated, pts_stated, ev.fit),
           ("fit and scored as left (auto)", pts_left, pts_left, ev.fit),
           ("without the weak priors", pts_stated, pts_left, _no_priors),
           ("least-squares loss (no robust loss)", pts_stated, pts_left, _loss("linear")),
           ("soft-L1 loss instead of arctan", pts_stated, pts_left, _loss("soft_l1"))]
    out.append(("no host jitter (step_jitter_s held at 0, the model before issue 30)",
                pts_stated, pts_left, _fixed("step_jitter_s", 0.0)))
    for value in (0.5, 0.7, 0.8, 0.9, 0.95):
        out.append((f"overlap held at {value}", pts_stated, pts_left,
                    _fixed("overlap_fraction", value)))
    every_variable = transformed(input_sizes="variable")
    every_fixed = transformed(input_sizes="fixed")
    out += [("every input variable-size (cv / sqrt(b) for all, as before)",
             *every_variable, ev.fit),
            ("every input fixed-size", *every_fixed, ev.fit),
            ("fp16 gradients for mixed precision", *fp16, ev.fit),
            ("strong scaling and accumulation not expressed", *weak, ev.fit)]
    return out


# Groupings of the oracle bound: what a user knows (link, GPU generation, task, precision,
# N) and, for contrast, the model family and the exact system (which a projection for a new
# model cannot know).
ORACLE_GROUPS: dict[str, Callable[[Series, int], str]] = {
    "framework (TF1, TF2, PyTorch, MXNet, Paddle)": lambda s, n: _framework(s.framework),
    "per-GPU batch (octaves) x N": lambda s, n: f"{round(np.log2(s.batch0))}|{n}",
    "single-GPU step time (octaves) x N": lambda s, n: f"{round(np.log2(s.step_compute_s))}|{n}",
    "link x N": lambda s, n: f"{s.link}|{n}",
    "link x GPU generation x N": lambda s, n: f"{s.link}|{s.generation}|{n}",
    "task x N": lambda s, n: f"{s.task}|{n}",
    "task x precision x link x N": lambda s, n: f"{s.task}|{s.precision}|{s.link}|{n}",
    "model family x link x N": lambda s, n: f"{s.family}|{s.link}|{n}",
    "model family x GPU x precision x N": lambda s, n: f"{s.family}|{s.gpu}|{s.precision}|{n}",
}


def _framework(name: str) -> str:
    for key, label in (("TensorFlow 2", "TF2"), ("TensorFlow", "TF1"), ("MXNet", "MXNet"),
                       ("Paddle", "Paddle")):
        if key in name:
            return label
    return "PyTorch"


def oracle_bounds(series: list[Series], points: ProfilePoints, pred: np.ndarray) -> list[str]:
    """One-machine MAPE after dividing each cell's predictions by the cell's own median
    predicted/measured ratio (in-sample: an upper bound on what a mechanism that acts through
    these inputs alone could gain, not a method)."""
    single = points.gpus <= points.at_n.gpus_per_node
    ratio = np.log(pred / points.actual)
    lines = ["| per-cell median correction, in-sample | cells | one-machine MAPE |",
             "|---|---:|---:|",
             f"| none (out-of-source projection) | - | "
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


def report() -> str:
    series, _ = load_series()
    clean = [s for s in series if not s.flagged]
    lines = ["# Projection ablations (leave-one-source-out MAPE, %)", "",
             "Generated by `benchmarks/projection_ablations.py`; the folds of "
             "`projection_accuracy.md` (each source predicted by the fit on the others). "
             "One-machine columns N = 2/4/8.", "",
             "| variant | all | one machine | several machines | median | N=2 | N=4 | N=8 |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    headline = None
    for name, fit_points, points, fit in variants(clean):
        pred = _out_of_source(clean, fit_points, points, fit)
        headline = pred if headline is None else headline
        r = score(points, pred)
        lines.append(f"| {name} | {r['all']:.2f} | {r['single']:.2f} | {r['multi']:.2f} | "
                     f"{r['median']:.2f} | {r['N2']:.2f} | {r['N4']:.2f} | {r['N8']:.2f} |")
    as_left = _points(clean, [profile_for(s) for s in clean])
    lines += ["", "### Oracle bound: how much any mechanism could still gain", "",
              "Each cell's out-of-source predictions are divided by the cell's own median "
              "predicted / measured ratio, using the measurements being scored: a lookup "
              "table fitted in-sample, so an upper bound, not a method.", ""]
    lines += oracle_bounds(clean, as_left, headline)
    return "\n".join(lines + [""])


def main() -> None:
    text = report()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(text)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
