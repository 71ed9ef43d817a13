"""A loaded rule: its condition tree, its conclusion record, its bilingual texts and its sources."""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from advisor.profile.labels import label
from advisor.rulebase.conditions import Node, guaranteed_facts, leaves
from advisor.rulebase.fact_catalog import FACTS, PARALLELISMS, RATINGS, Scalar
from advisor.text.i18n import Text

FRAMEWORKS = ("ddp", "fsdp", "deepspeed", "megatron", "horovod", "torchrec", "none")
DEPLOYMENTS = ("own", "cloud", "either")
SEVERITIES = ("info", "warning", "critical")
SEVERITY_RANK = {s: i for i, s in enumerate(SEVERITIES)}

# Conclusion keys by the kind of rule they make. Verdict rules decide the rating and the GPU
# count (stage "decide"); setup rules choose split, framework and deployment once the verdict is
# known (stage "setup"); pitfall and advice rules run last and also see the setup (stage
# "findings": e.g. hardware pitfalls only when the deployment is owned hardware).
VERDICT_KEYS = ("rating", "gpus", "gpus_at_least", "gpus_at_most", "veto")
SETUP_KEYS = ("parallelism", "framework", "deployment", "veto")
PITFALL_KEYS = ("pitfall", "severity")
ADVICE_KEYS = ("advice",)
SLOT_CHOICES: dict[str, tuple[str, ...]] = {
    "rating": RATINGS, "parallelism": PARALLELISMS, "framework": FRAMEWORKS,
    "deployment": DEPLOYMENTS, "severity": SEVERITIES,
}
COUNT_SLOTS = ("gpus", "gpus_at_least", "gpus_at_most")
STAGE_OF_KIND = {"verdict": "decide", "setup": "setup", "pitfall": "findings", "advice": "findings"}
# The fact stages (advisor.rulebase.fact_catalog.FactSpec.stage) each rule stage may read.
READABLE_FACT_STAGES = {"decide": ("base",), "setup": ("base", "verdict"),
                        "findings": ("base", "verdict", "setup")}


@dataclass(frozen=True)
class FactRef:
    """A conclusion value taken from the fact set (``{fact: best_value_gpus}``)."""

    fact: str


@dataclass(frozen=True)
class Rule:
    id: str
    concern: str
    when: Node
    then: Mapping[str, Any]  # values: str | int | FactRef
    message: Text
    why: Text
    sources: tuple[str, ...]
    priority: int = 0
    remedy: Text | None = None
    file: str = ""
    line: int = 0
    kind: str = "verdict"  # verdict | setup | pitfall | advice
    facts_used: tuple[str, ...] = field(default=())

    @property
    def stage(self) -> str:
        return STAGE_OF_KIND[self.kind]

    @property
    def specificity(self) -> int:
        """How many conditions the rule tests: more conditions, more specific."""
        return len(leaves(self.when))

    @property
    def is_veto(self) -> bool:
        return "veto" in self.then

    @property
    def severity(self) -> str | None:
        return self.then.get("severity")

    def quotable_facts(self) -> set[str]:
        """Facts a message or a conclusion may quote: always present, or guaranteed by when."""
        readable = READABLE_FACT_STAGES[self.stage]
        always = {n for n, s in FACTS.items() if not s.optional and s.stage in readable}
        return always | guaranteed_facts(self.when)

    def conclusion(self, facts: Mapping[str, Scalar]) -> dict[str, Any]:
        """The ``then`` record with fact references replaced by their values."""
        return {k: (facts[v.fact] if isinstance(v, FactRef) else v) for k, v in self.then.items()}

    def matched_facts(self, facts: Mapping[str, Scalar]) -> dict[str, Scalar]:
        """The values of the facts the rule looked at (absent ones left out)."""
        return {name: facts[name] for name in self.facts_used if name in facts}

    def render(self, text: Text, facts: Mapping[str, Scalar]) -> Text:
        return Text(en=format_text(text.en, facts, "en"), zh=format_text(text.zh, facts, "zh"))


def placeholders(template: str) -> list[tuple[str, str]]:
    """``(fact, format_spec)`` for each ``{fact:spec}`` in a message template."""
    return list(_placeholders(template))


@lru_cache(maxsize=4096)  # a rule's texts are few and fixed: parse each once per process
def _placeholders(template: str) -> tuple[tuple[str, str], ...]:
    found = []
    for _, name, spec, _ in string.Formatter().parse(template):
        if name is not None:
            found.append((name, spec or ""))
    return tuple(found)


DURATION = "duration"  # ``{hours_fact:duration}``: hours as people read them ("6 min")


class _Said(str):
    """A value already written out: any format spec leaves it as it is."""

    def __format__(self, spec: str) -> str:
        return str(self)


def format_text(template: str, facts: Mapping[str, Scalar], lang: str = "en") -> str:
    """Fill ``{fact}`` placeholders; whole numbers print without ``.0``; enum values print as
    their human label in ``lang`` (``pcie4`` as "PCIe 4.0", ``advisor.profile.labels``); a
    ``{fact:duration}`` (hours) in minutes, hours or days, the durations of one text in one
    unit where they can share it (``advisor.text.durations``: never "0.0 h instead of 0.1 h")."""
    places = _placeholders(template)
    said: dict[str, str] = {}
    if any(spec == DURATION for _, spec in places):
        from advisor.text.durations import durations

        timed = list(dict.fromkeys(name for name, spec in places
                                   if spec == DURATION and facts.get(name) is not None))
        said = dict(zip(timed, durations(lang, *(float(facts[n]) for n in timed)),
                        strict=True))
    values = {name: (_Said(said[name]) if spec == DURATION
                     else int(v) if isinstance(v, float) and v.is_integer() and not spec
                     else label(name, v, lang))
              for name, spec in places if (v := facts.get(name)) is not None}
    return template.format(**values)
