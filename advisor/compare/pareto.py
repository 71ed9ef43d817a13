"""The Pareto front of time per run against monthly cost, and what dominates the rest.

A point dominates another when it is no slower and no dearer, and better on one of the two
(within a relative tolerance, so two prices that differ in the tenth digit are a tie). Only
points that can run (the model fits) and have a price take part. A dominated point is never an
answer (``advisor.compare.answers`` picks from the front); each one names a point that
dominates it: the cheapest of those, then the fastest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

REL_TOL = 1e-9


@dataclass(frozen=True)
class Candidate:
    key: tuple[str, int]  # (option id, GPU count)
    hours: float  # time per run
    cost: float  # cost per month


def _le(a: float, b: float) -> bool:
    return a <= b + REL_TOL * max(abs(a), abs(b), 1.0)


def _lt(a: float, b: float) -> bool:
    return a < b - REL_TOL * max(abs(a), abs(b), 1.0)


def tie(a: Candidate, b: Candidate) -> bool:
    """The same time and the same cost (within the tolerance)."""
    return _le(a.hours, b.hours) and _le(b.hours, a.hours) and _le(a.cost, b.cost) and \
        _le(b.cost, a.cost)


def dominates(a: Candidate, b: Candidate) -> bool:
    return _le(a.hours, b.hours) and _le(a.cost, b.cost) and \
        (_lt(a.hours, b.hours) or _lt(a.cost, b.cost))


def front(candidates: Sequence[Candidate]) -> list[Candidate]:
    """The candidates no other dominates, fastest first (exact ties both stay: neither is
    better)."""
    ordered = sorted(candidates, key=lambda c: (c.hours, c.cost, c.key))
    out: list[Candidate] = []
    best: Candidate | None = None
    for c in ordered:
        if best is None or _lt(c.cost, best.cost):
            out.append(c)
            best = c
        elif _le(c.cost, best.cost) and _le(c.hours, best.hours):
            out.append(c)  # the same time and cost as the last front point
    # The sweep orders times exactly; a later point whose time ties within the tolerance and
    # costs less dominates an earlier one it kept (0.1 h at 1.0 against 0.1000...02 h at 0):
    # drop those (the front is short, the check is cheap)
    kept = [f for f in out if not any(dominates(c, f) for c in candidates)]
    return kept or out


def dominators(candidates: Sequence[Candidate], on_front: Sequence[Candidate]
               ) -> dict[tuple[str, int], Candidate]:
    """For every candidate off the front: the front point that dominates it, the cheapest
    first (a front point dominates every point it is better than: the front covers them)."""
    keys = {c.key for c in on_front}
    cheapest_first = sorted(on_front, key=lambda c: (c.cost, c.hours, c.key))
    out: dict[tuple[str, int], Candidate] = {}
    for c in candidates:
        if c.key in keys:
            continue
        out[c.key] = _dominator(c, candidates, cheapest_first)
    return out


def _dominator(c: Candidate, candidates: Sequence[Candidate],
               cheapest_first: list[Candidate]) -> Candidate:
    """The front point that stands for ``c``: one that dominates it, else one no worse on
    both. Within the tolerance dominance need not chain (issue 35: a tiny data set's runs cost
    100.0000117 to 100.0000118 a month, 3.5e-8 apart against a tolerance of 1e-7: each
    count dominates the next, the front point none of the first ones), so it is looked for
    from the point that dominates ``c``, then from the one that dominates that, and so on."""
    point, seen = c, set()
    while point.key not in seen:
        seen.add(point.key)
        winner = next((f for f in cheapest_first if dominates(f, point)), None) or next(
            (f for f in cheapest_first if _le(f.hours, point.hours) and _le(f.cost, point.cost)),
            None)
        if winner is not None:
            return winner
        point = min((d for d in candidates if dominates(d, point)),
                    key=lambda d: (d.hours, d.cost, d.key), default=point)
    return min(cheapest_first, key=lambda f: (f.hours, f.cost, f.key))  # the fastest
