"""Memory at the card's limit: where a peak-memory estimate cannot tell "fits" from "out of
memory" (issue 31).

An estimate of a run's peak lies within ``memory_estimate_spread`` (13 %) of the published
peak in 8 runs of 10 (``benchmarks/memory_by_source.py``, each source left out). A run planned
above ``1 - spread`` of the usable memory may still run out of it, and one planned up to
``1 + spread`` of it may still run: the verdict says which side it is on and how close, so a
user neither starts a long run that stops on out-of-memory, nor pays for more GPUs because of
an estimate a few per cent over what one card holds.
"""

from __future__ import annotations

from typing import Any

from advisor.scaling.result import Projection


def memory_share(projection: Projection, i: int) -> tuple[float, float] | None:
    """(GB planned per GPU, GB usable on each) at the projection's ``i``-th count, or None
    where the projection says no usable memory."""
    margins = projection.memory_margin_gb
    if not margins or i >= len(margins) or i >= len(projection.memory_per_gpu_gb):
        return None
    memory = float(projection.memory_per_gpu_gb[i])
    usable = memory + float(margins[i])
    return (memory, usable) if usable > 0.0 and memory > 0.0 else None


def one_gpu_facts(projection: Projection, spread: float) -> dict[str, Any]:
    """The base facts: the spread (in per cent) and, where one GPU is projected and does not
    fit its memory, how far over it is and whether that is within the spread."""
    facts: dict[str, Any] = {"memory_spread_percent": 100.0 * spread,
                             "one_gpu_near_fit": False}
    at_one = memory_share(projection, 0) if projection.gpus and projection.gpus[0] == 1 \
        else None
    if at_one is None:
        return facts
    memory, usable = at_one
    facts["one_gpu_usable_gb"] = usable
    over = memory / usable - 1.0
    if not projection.single_gpu_fits and over > 0.0:  # short of the card (not of host RAM)
        facts["one_gpu_short_percent"] = 100.0 * over
        facts["one_gpu_near_fit"] = at_limit(False, memory / usable, spread)
    return facts


def verdict_memory_facts(projection: Projection, i: int, spread: float) -> dict[str, Any]:
    """The verdict's memory per GPU, its cards' usable memory, the share planned and whether a
    run that fits is within the spread of the limit."""
    at = memory_share(projection, i)
    if at is None:
        return {}
    memory, usable = at
    share = memory / usable
    fits = bool(projection.fits[i])
    return {"verdict_memory_gb": memory, "verdict_usable_gb": usable,
            "verdict_memory_percent": 100.0 * share,
            "verdict_memory_at_limit": fits and at_limit(fits, share, spread)}


def at_limit(fits: bool, share: float, spread: float) -> bool:
    """A plan at the limit: it fits with less than ``spread`` of the usable memory to spare,
    or is short of it by no more than that (``share``: GB planned over GB usable)."""
    return share >= 1.0 - spread if fits else share <= 1.0 + spread


def counts_at_limit(projection: Projection, spread: float) -> list[tuple[int, float, bool]]:
    """(GPU count, share of the usable memory planned, fits) of every count at the limit."""
    out = []
    for i, n in enumerate(projection.gpus):
        at = memory_share(projection, i)
        if at is None:
            continue
        share = at[0] / at[1]
        fits = bool(projection.fits[i])
        if at_limit(fits, share, spread):
            out.append((n, share, fits))
    return out
