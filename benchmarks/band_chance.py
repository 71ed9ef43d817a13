"""How often a perfectly calibrated 80 % band would still read outside 78-85 % in a regime
cell of the size the published data give (issue 30's target for the band).

A band that holds exactly 80 % of the points it has never seen still shows a coverage that
scatters around 80 % in a finite cell: about +-10 points (95 %) for 60 points. The simulation
draws, for every cell of every fold scheme, which points such a band would hold:

* *independent points*: each point inside with probability ``level`` (the least scatter the
  cells can have);
* *series together*: all points of one published series inside or outside together (the most:
  a series' points share its machine, framework and harness, so its errors are correlated).

The truth lies between the two. The figures say how many of the cells an ideal band would
leave outside the target, and how often it would leave none.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Chance:
    """Cells outside the target range for an ideal band, averaged over draws, and the share of
    draws with every cell inside."""

    mean_outside: float
    all_inside: float


def ideal_band_outside(schemes: list[list[np.ndarray]], series: np.ndarray, *,
                       together: bool, level: float = 0.8, low: float = 0.78,
                       high: float = 0.85, draws: int = 4000, seed: int = 0) -> Chance:
    """``schemes``: for each fold scheme, the boolean masks of its cells over the points;
    ``series``: each point's series. Each scheme gets a fresh draw (each scheme's bands are
    calibrated apart); its cells share it. Empty cells are not counted."""
    rng = np.random.default_rng(seed)
    series = np.asarray(series)
    _, unit = np.unique(series, return_inverse=True)
    n_units = int(unit.max()) + 1 if together else len(series)
    outside = np.zeros(draws)
    for cells in schemes:
        kept = [m for m in cells if m.any()]
        if not kept:
            continue
        masks = np.array(kept, dtype=float)  # cells x points
        inside = rng.random((draws, n_units)) < level
        hits = inside[:, unit] if together else inside  # draws x points
        share = (hits.astype(float) @ masks.T) / masks.sum(axis=1)  # draws x cells
        # a share that rounds into the range (as the report prints whole per cents) is in it
        pct = np.round(100.0 * share)
        outside += ((pct < round(100 * low)) | (pct > round(100 * high))).sum(axis=1)
    return Chance(float(outside.mean()), float(np.mean(outside == 0)))


def observed_outside(schemes: list[list[np.ndarray]], covered: list[np.ndarray],
                     low: float = 0.78, high: float = 0.85) -> tuple[int, int]:
    """(cells outside the range, cells) of the measured coverage, rounded as printed."""
    out = total = 0
    for cells, hit in zip(schemes, covered, strict=True):
        for m in cells:
            if not m.any():
                continue
            pct = round(100.0 * float(hit[m].mean()))
            total += 1
            out += int(pct < round(100 * low) or pct > round(100 * high))
    return out, total
