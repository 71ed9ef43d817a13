"""The rule fixtures in ``rules/cases/``: for each rule id, fact sets where it must fire and
fact sets where it must not (as semgrep-rules keeps ``ruleid:`` / ``ok:`` cases per rule).

``baseline_facts.yaml`` holds one complete fact set; a case lists only what it changes, and
``null`` removes a fact.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from advisor.files.paths import rules_dir

BASELINE = "baseline_facts.yaml"
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
OUTCOMES = ("fires", "does_not_fire")


@dataclass(frozen=True)
class RuleCase:
    rule_id: str
    outcome: str  # fires | does_not_fire
    facts: dict[str, Any]
    file: str
    number: int

    @property
    def name(self) -> str:
        return f"{self.rule_id}:{self.outcome}[{self.number}]"


def _read(path: Path) -> Any:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)  # noqa: S506 - safe loader


def cases_dir() -> Path:
    return rules_dir() / "cases"


def baseline_facts(folder: Path | None = None) -> dict[str, Any]:
    path = (folder or cases_dir()) / BASELINE
    return dict(_read(path)["facts"])


def apply_changes(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    facts = dict(base)
    for name, value in changes.items():
        if value is None:
            facts.pop(name, None)
        else:
            facts[name] = value
    return facts


def load_cases(folder: Path | None = None) -> list[RuleCase]:
    """Every case of every case file, with the baseline applied."""
    folder = folder or cases_dir()
    base = baseline_facts(folder)
    cases: list[RuleCase] = []
    for path in sorted(folder.glob("*.yaml")):
        if path.name == BASELINE:
            continue
        data = _read(path)
        if data.get("concern") != path.stem:
            raise ValueError(f"{path}: concern must be {path.stem!r}")
        for rule_id, outcomes in (data.get("cases") or {}).items():
            unknown = set(outcomes) - set(OUTCOMES)
            if unknown:
                raise ValueError(f"{path}: {rule_id}: unknown keys {sorted(unknown)}")
            for outcome in OUTCOMES:
                for i, changes in enumerate(outcomes.get(outcome) or []):
                    cases.append(RuleCase(rule_id, outcome, apply_changes(base, changes or {}),
                                          str(path), i))
    return cases
