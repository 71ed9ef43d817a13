"""Fit the layout model's efficiency parameters on published runs and write them.

    .venv/bin/python -m benchmarks.fit_llm            # writes resources/scaling/llm_parameters.yaml
    .venv/bin/python -m benchmarks.fit_llm --dry-run  # prints the fit only

Least squares (soft-L1) on log(predicted / published) tokens per second per GPU of the
``layout`` points of ``benchmarks/llm_points.py`` (runs whose layout is published), each
source weighted by 1 / sqrt(its points) so that one long table does not outvote the rest,
plus a weak prior per parameter. ``fit(points)`` is reused by the leave-one-source-out
cross-validation in ``benchmarks/llm_accuracy.py``.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import numpy as np
import yaml
from scipy.optimize import least_squares

from advisor.scaling.llm_compute import FITTED, LlmParams, load_llm_params
from benchmarks.llm_points import Point, check_against_csv, points
from benchmarks.llm_predict import predict

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "resources" / "scaling" / "llm_parameters.yaml"
# (prior, log-scale width, lower, upper): priors are physical guesses, weak against the data
PRIORS = {
    "gemm_share": (0.8, 0.5, 0.3, 1.0),
    "gemm_half_width": (256.0, 2.0, 1.0, 8192.0),
    "activation_traffic": (3.0, 1.5, 0.05, 40.0),
    "score_traffic": (3.0, 1.5, 0.05, 40.0),
    "gradient_overlap": (0.5, 1.5, 0.0, 1.0),
    "shard_overlap": (0.8, 1.5, 0.0, 1.0),
}
PRIOR_WEIGHT = 0.1


def residuals(x: np.ndarray, items: list[Point]) -> np.ndarray:
    q = load_llm_params().with_values(**dict(zip(FITTED, map(float, x), strict=True)))
    counts = Counter(pt.source for pt in items)
    out = [np.log(predict(pt, q).tokens_per_s_per_gpu / pt.tokens_per_s_per_gpu())
           / np.sqrt(counts[pt.source]) for pt in items]
    for name, value in zip(FITTED, x, strict=True):
        prior, width, _, _ = PRIORS[name]
        out.append(PRIOR_WEIGHT * np.log(max(value, 1e-6) / prior) / np.log1p(width))
    return np.array(out)


def fit(items: list[Point]) -> LlmParams:
    start = np.array([getattr(load_llm_params(), n) for n in FITTED], dtype=float)
    low = np.array([PRIORS[n][2] for n in FITTED])
    high = np.array([PRIORS[n][3] for n in FITTED])
    start = np.clip(start, low + 1e-6, high - 1e-6)
    result = least_squares(residuals, start, args=(items,), bounds=(low, high),
                           loss="soft_l1", f_scale=0.1, diff_step=1e-2, max_nfev=300)
    return load_llm_params().with_values(**dict(zip(FITTED, map(float, result.x),
                                                    strict=True)))


def training_points() -> list[Point]:
    items = points()
    check_against_csv(items)
    return [pt for pt in items if pt.set == "layout"]


def write(q: LlmParams, band: float | None = None) -> None:
    raw = yaml.safe_load(OUT.read_text(encoding="utf-8"))
    for name in FITTED:
        raw["parameters"][name]["value"] = round(float(getattr(q, name)), 6)
    if band is not None:
        raw["parameters"]["band_log_width"]["value"] = round(band, 4)
    dump(raw)


def dump(raw: dict) -> None:
    """``raw`` (the whole file's data) written back with its header."""
    header = ("# The large-model layout model's parameters; see advisor/scaling/llm_compute.py.\n")
    OUT.write_text(header + yaml.safe_dump(raw, sort_keys=False, allow_unicode=True, width=100),
                   encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    items = training_points()
    q = fit(items)
    for name in FITTED:
        print(f"{name:22s} {getattr(q, name):.6g}")
    if not args.dry_run:
        write(q)
        print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
