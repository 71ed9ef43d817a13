"""The conflict policy: which of several fired rules decides each part of the recommendation.

Every conclusion slot (``rating``, ``gpus``, ``parallelism``, ``framework``, ``deployment``) is
decided on its own, among the fired rules that set it, by this order:

1. **Vetoes first.** A rule whose ``then`` carries ``veto`` (the memory wall: sharded or model
   parallel training is required; alternating training, shared vGPUs that scale below 50 %, or
   no GPU count faster than one: more GPUs are not worth it) beats every rule without one,
   whatever the decision table says. The memory wall beats the other vetoes: a model that
   does not fit one GPU is never told to stay on one.
2. **More specific beats more general:** the rule that tests more conditions wins.
3. **Higher priority** wins.
4. Only if all of that ties, the rule id in alphabetical order decides, so the outcome never
   depends on the order of rules in a file or of files in the folder.

Then the GPU count is settled (``settle_count``), so that it respects the projection and the
cost model, whatever row of the decision table framed it:

5. **The cost model's count wins over the table's.** When the rating is ``worth_it`` or
   ``required`` and a fired rule that rates the workload ``worth_it`` takes its count from the
   cost model (``gpus: {fact: best_value_gpus}``), that count replaces a different one chosen by
   a general rule (F02: the user's own prices are more specific than the article's table) -
   if the cost model could compare it, i.e. it is among the counts considered.
6. **Constraints.** ``gpus_at_most`` (F02: past ``useful_gpus`` extra GPUs add nothing) lowers
   the count; ``gpus_at_least`` (the memory wall, a deadline) raises it and wins a conflict, as
   a job that must fit or finish in time needs those GPUs. The smallest ``gpus_at_most`` and
   the largest ``gpus_at_least`` of all fired rules apply.
Pitfalls with the same id are merged: the highest severity wins, texts and sources are joined.
Advice with the same id keeps the top-ranked rule's text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from advisor.files.records import record
from advisor.rulebase.model import SEVERITY_RANK
from advisor.verdict.engine import Firing

SLOTS = ("rating", "gpus", "parallelism", "framework", "deployment")
MEMORY_WALL = "memory_wall"


def rank(firing: Firing) -> tuple[int, int, int]:
    """Bigger is stronger: (veto, specificity, priority). The memory wall outranks the other
    vetoes: a job that cannot run on one GPU is never told to stay on one, however specific the
    rule that would say so."""
    rule = firing.rule
    veto = 2 if rule.then.get("veto") == MEMORY_WALL else 1 if rule.is_veto else 0
    return (veto, rule.specificity, rule.priority)


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
    gpus_at_most: int | None = None


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
    at_most = min((int(f.conclusion["gpus_at_most"]) for f in firings
                   if "gpus_at_most" in f.conclusion), default=None)
    return Decision(values, winners, overridden, at_least, at_most)


def _count_from_cost_model(firing: Firing) -> bool:
    ref = firing.rule.then.get("gpus")
    return getattr(ref, "fact", None) == "best_value_gpus" \
        and firing.conclusion.get("rating") == "worth_it"


@record
class Count:
    """The settled GPU count and the fired rules that decided it, strongest reason first."""

    gpus: int
    deciders: tuple[Firing, ...]


def settle_count(decision: Decision, firings: Sequence[Firing], considered_max: int) -> Count:
    """Steps 5 and 6 of the policy: the count, and which rules decided it. The cost model
    compares only the counts considered (up to ``considered_max``): a larger count asked for
    by the table stands, and the recommendation reports the shortfall."""
    by_id = {f.rule.id: f for f in firings}
    framing = by_id.get(decision.winners.get("gpus", ""))
    gpus = int(decision.values.get("gpus", 1))
    deciders = [framing] if framing else []
    if decision.values.get("rating") in ("worth_it", "required") and gpus <= considered_max:
        priced = [f for f in order(firings) if _count_from_cost_model(f)]
        if priced and int(priced[0].conclusion["gpus"]) != gpus:
            gpus, deciders = int(priced[0].conclusion["gpus"]), [priced[0]]
    if decision.gpus_at_most is not None and gpus > decision.gpus_at_most:
        gpus = decision.gpus_at_most
        deciders += [f for f in order(firings) if f.conclusion.get("gpus_at_most") == gpus][:1]
    # "Not worth it" means one GPU: a lower bound from a rule that lost the rating (a
    # deadline behind a vGPU veto) must not turn it into "not worth it: 4 GPUs"
    if gpus < decision.gpus_at_least and decision.values.get("rating") != "not_worth_it":
        gpus = decision.gpus_at_least
        deciders = [f for f in order(firings)
                    if f.conclusion.get("gpus_at_least") == gpus][:1] + deciders
    unique = {f.rule.id: f for f in reversed(deciders)}  # first occurrence kept
    return Count(gpus, tuple(f for f in deciders if unique.pop(f.rule.id, None) is not None))


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


def count_winner(decision: Decision, count: Count) -> str | None:
    """The rule that supplied the settled GPU count (the headline quotes it)."""
    if count.deciders:
        return count.deciders[0].rule.id
    return decision.winners.get("gpus") or decision.winners.get("rating")


def final_overrides(firings: Sequence[Firing], decision: Decision, count: Count,
                    gpus: int, quoted: Iterable[str]) -> dict[str, str]:
    """Which decide-stage rules lost, once the count is settled (step 5 and 6 can replace the
    count ``decide`` chose): a rule is overridden when its rating, count or count bound is not
    the verdict's, by the rule that supplied that slot. Rules the headline quotes supplied the
    verdict and are never marked."""
    keep = set(quoted)
    rating = decision.values.get("rating")
    by_rating, by_count = decision.winners.get("rating"), count_winner(decision, count)
    out: dict[str, str] = {}
    for f in firings:
        rid, c = f.rule.id, f.conclusion
        if rid in keep:
            continue
        if "rating" in c and c["rating"] != rating:
            loser_of = by_rating
        elif ("gpus" in c and int(c["gpus"]) != gpus) \
                or ("gpus_at_most" in c and gpus > int(c["gpus_at_most"])) \
                or ("gpus_at_least" in c and gpus < int(c["gpus_at_least"])):
            loser_of = by_count
        else:
            continue
        if loser_of and loser_of != rid:
            out[rid] = loser_of
    return out


def decided_slots(decision: Decision, count: Count) -> dict[str, list[str]]:
    """Rule id -> the verdict slots it supplied (rating, gpus, parallelism, ...)."""
    out: dict[str, list[str]] = {}
    winners = dict(decision.winners)
    if "rating" in decision.values:
        by_count = count_winner(decision, count)
        if by_count:
            winners["gpus"] = by_count
    for slot, rid in winners.items():
        out.setdefault(rid, []).append(slot)
    return out
