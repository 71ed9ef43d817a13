"""The conflict policy: which of several fired rules decides each part of the recommendation.

Every conclusion slot (``rating``, ``gpus``, ``parallelism``, ``framework``, ``deployment``) is
decided on its own, among the fired rules that set it, by this order:

1. **Vetoes first.** A rule whose ``then`` carries ``veto`` (the memory wall: sharded or model
   parallel training is required; alternating training: more GPUs are not worth it) beats every
   rule without one, whatever the decision table says.
2. **More specific beats more general:** the rule that tests more conditions wins.
3. **Higher priority** wins.
4. Only if all of that ties, the rule id in alphabetical order decides, so the outcome never
   depends on the order of rules in a file or of files in the folder.

``gpus_at_least`` is a constraint, not a choice: the largest one of all fired rules applies.
Pitfalls with the same id are merged: the highest severity wins, texts and sources are joined.
Advice with the same id keeps the top-ranked rule's text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from advisor.engine import Firing
from advisor.rulebase.model import SEVERITY_RANK

SLOTS = ("rating", "gpus", "parallelism", "framework", "deployment")


def rank(firing: Firing) -> tuple[int, int, int]:
    """Bigger is stronger: (veto, specificity, priority)."""
    rule = firing.rule
    return (1 if rule.is_veto else 0, rule.specificity, rule.priority)


def order(firings: Iterable[Firing]) -> list[Firing]:
    """Strongest first; the rule id breaks exact ties (never file order)."""
    by_id = sorted(firings, key=lambda f: f.rule.id)
    return sorted(by_id, key=rank, reverse=True)


@dataclass(frozen=True)
class Decision:
    """The value chosen for each slot, the rule that chose it, and the rules it overrode."""

    values: dict[str, Any]
    winners: dict[str, str]  # slot -> rule id
    overridden: dict[str, str]  # rule id -> the rule id that beat it (first slot it lost)
    gpus_at_least: int


def decide(firings: Sequence[Firing], slots: Sequence[str] = SLOTS) -> Decision:
    values: dict[str, Any] = {}
    winners: dict[str, str] = {}
    overridden: dict[str, str] = {}
    ranked = order(firings)
    for slot in slots:
        setting = [f for f in ranked if slot in f.conclusion]
        if not setting:
            continue
        top = setting[0]
        values[slot], winners[slot] = top.conclusion[slot], top.rule.id
        for other in setting[1:]:
            if other.conclusion[slot] != values[slot]:
                overridden.setdefault(other.rule.id, top.rule.id)
    at_least = max((int(f.conclusion["gpus_at_least"]) for f in firings
                    if "gpus_at_least" in f.conclusion), default=1)
    return Decision(values, winners, overridden, at_least)


@dataclass
class MergedPitfall:
    id: str
    severity: str
    firings: list[Firing]


def merge_pitfalls(firings: Iterable[Firing]) -> list[MergedPitfall]:
    """One entry per pitfall id, most severe first, then by id."""
    merged: dict[str, MergedPitfall] = {}
    for firing in order(f for f in firings if "pitfall" in f.conclusion):
        pid, sev = firing.conclusion["pitfall"], firing.conclusion["severity"]
        entry = merged.setdefault(pid, MergedPitfall(pid, sev, []))
        if SEVERITY_RANK[sev] > SEVERITY_RANK[entry.severity]:
            entry.severity = sev
        entry.firings.append(firing)
    for entry in merged.values():  # the most severe finding speaks first
        entry.firings.sort(key=lambda f: -SEVERITY_RANK[f.conclusion["severity"]])
    return sorted(merged.values(), key=lambda m: (-SEVERITY_RANK[m.severity], m.id))


def pick_advice(firings: Iterable[Firing]) -> list[Firing]:
    """The top-ranked firing for each advice id, in id order."""
    chosen: dict[str, Firing] = {}
    for firing in order(f for f in firings if "advice" in f.conclusion):
        chosen.setdefault(firing.conclusion["advice"], firing)
    return [chosen[k] for k in sorted(chosen)]
