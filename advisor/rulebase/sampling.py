"""Random valid fact sets drawn from the fact catalog (stress test, property tests, benchmark)."""

from __future__ import annotations

import random
from typing import Any

from advisor.rulebase.fact_catalog import FACTS, check_facts


def _number(rng: random.Random, kind: str, low: float, high: float) -> int | float:
    # half the draws near the small end, where the rules' thresholds are
    top = high if rng.random() < 0.2 else min(high, max(low, 1.0) * 200)
    value = rng.uniform(low, top)
    if rng.random() < 0.1:  # exact threshold-like values
        value = float(rng.choice([0, 1, 2, 4, 8, 16, 24, 50, 72, 84, 168, 200]))
        value = min(max(value, low), high)
    return int(round(value)) if kind == "int" else value


def random_facts(rng: random.Random, *, with_verdict: bool = True) -> dict[str, Any]:
    """A fact set that passes ``check_facts``; optional facts are left out now and then."""
    facts: dict[str, Any] = {}
    for name, spec in FACTS.items():
        if spec.stage in ("verdict", "setup") and not with_verdict:
            continue
        if spec.optional and rng.random() < 0.3:
            continue
        if spec.kind == "bool":
            facts[name] = rng.random() < 0.5
        elif spec.kind == "str":
            facts[name] = rng.choice(spec.choices)
        else:
            facts[name] = _number(rng, spec.kind, spec.low, spec.high)
    return check_facts(facts)
