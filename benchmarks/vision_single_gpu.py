"""Images a second on one GPU, planned from a catalog model's FLOPs, against timm's published
training throughputs on an RTX 3090 (``benchmarks/data/timm_train_rtx3090.csv``: AMP,
synthetic data, the batch timm ran). Measured, not fitted: no parameter is set from these rows.

    .venv/bin/python -m benchmarks.vision_single_gpu

Each row is the profile a user would fill (``model: {id: ...}``, the batch, fp16, one RTX
3090, a tuned input pipeline), projected by ``advisor.scaling.project``; printed: published
and planned images a second, the error, and the model FLOP/s share of the card's dense peak
the plan implies (MFU, in FLOPs done: 2 per multiply-add).
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from advisor.catalog.profile_check import parse_profile_text
from advisor.scaling import project

DATA = Path(__file__).resolve().parent / "data" / "timm_train_rtx3090.csv"
PROFILE = """schema_version: 1
task: image_classification
model: {{id: {model}}}
training: {{dataset_samples: 1281167, epochs: 1, batch_per_gpu: {batch}, precision: fp16,
           input_pipeline: tuned}}
hardware: {{gpu: rtx3090, gpus_per_node: 1}}
economics: {{mode: cloud, currency: USD}}
"""


def rows() -> list[dict[str, str]]:
    with DATA.open(encoding="utf-8") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def main() -> None:
    print(f"{'model':<24} {'batch':>5} {'published':>9} {'planned':>8} {'error':>7} {'MFU':>5}")
    errors: dict[str, list[float]] = {"cnn": [], "vit": []}
    for r in rows():
        pr = project(parse_profile_text(PROFILE.format(model=r["catalog_id"],
                                                       batch=r["batch"])), [1])
        planned, published = pr.samples_per_s_per_gpu[0], float(r["train_samples_per_sec"])
        err = planned / published - 1.0
        errors["vit" if r["catalog_id"].startswith("vit") else "cnn"].append(err)
        print(f"{r['timm_model']:<24} {r['batch']:>5} {published:>9.1f} {planned:>8.1f} "
              f"{err:>+7.1%} {pr.mfu[0]:>5.0%}")
    for kind, e in errors.items():
        a = np.abs(np.array(e))
        print(f"{kind}: {len(a)} models, mean |error| {a.mean():.1%}, "
              f"mean |log ratio| {np.abs(np.log1p(np.array(e))).mean():.3f}")


if __name__ == "__main__":
    main()
