"""How many published speed-ups lie above what N GPUs can give in expectation: N, less the
wait for the slowest GPU and the run time lost to interruptions (``advisor.scaling.waiting.
held_to_ideal``, which caps every projection). A physics review asked for the 80 % band's upper
edge to be capped the same way; a band holds measured outcomes, and this counts how many of
those the capped edge would leave outside.

    .venv/bin/python -m benchmarks.band_upper_edge   # ~2 s

Over ``scaling-dev.csv``'s series without a quality flag, each point above its baseline count;
the cap over a baseline of more than one GPU is the ratio of the two counts' caps.
"""

from __future__ import annotations

import numpy as np

from advisor.scaling.parameters import load_params
from advisor.scaling.waiting import held_to_ideal
from benchmarks.scaling_series import load_series


def _cap(gpus: int, cv: float) -> float:
    return float(held_to_ideal(np.array([gpus]), np.array([float(gpus)]), cv)[0])


def main() -> None:
    cv = load_params().step_time_cv
    series, _ = load_series()
    points = above_cap = above_n = 0
    by_n: dict[int, list[int]] = {}
    for s in series:
        if s.flagged:
            continue
        for gpus, actual in zip(s.gpus, s.actual, strict=True):
            if gpus <= s.baseline:
                continue
            cap = _cap(gpus, cv) / _cap(s.baseline, cv)
            points += 1
            over = actual > cap
            above_cap += over
            above_n += actual > gpus / s.baseline
            by_n.setdefault(gpus, [0, 0])[0] += 1
            by_n[gpus][1] += over
    print(f"{points} published speed-ups; above the expectation's cap: {above_cap} "
          f"({100 * above_cap / points:.0f} %); above N x: {above_n} "
          f"({100 * above_n / points:.0f} %)")
    for n in sorted(by_n):
        total, over = by_n[n]
        if total >= 10:
            print(f"  N = {n:>4}: {over} of {total} above the cap")


if __name__ == "__main__":
    main()
