"""The declarative rule base: ``rules/*.yaml`` loaded, checked and ready for the engine.

Public API::

    default_rules() -> list[Rule]              # the project's rules, loaded once
    load_rules(paths) -> list[Rule]            # InputError naming file, line and rule id
    load_rule_file(path) -> list[Rule]
    rule_files() -> list[Path]
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from advisor.files.paths import rules_dir
from advisor.rulebase.loader import load_rule_file, load_rules
from advisor.rulebase.model import FactRef, Rule


def rule_files(folder: Path | None = None) -> list[Path]:
    """The rule files (``rules/*.yaml``; the fixture cases live in ``rules/cases/``)."""
    return sorted((folder or rules_dir()).glob("*.yaml"))


@cache
def default_rules() -> tuple[Rule, ...]:
    return tuple(load_rules(rule_files()))


def rule_by_id(rule_id: str) -> Rule | None:
    return next((r for r in default_rules() if r.id == rule_id), None)


__all__ = ["FactRef", "Rule", "default_rules", "load_rule_file", "load_rules", "rule_by_id",
           "rule_files"]
