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

from advisor.files.builtin_data import compiled
from advisor.files.paths import resources_dir, rules_dir
from advisor.rulebase.model import FactRef, Rule


def rule_files(folder: Path | None = None) -> list[Path]:
    """The rule files (``rules/*.yaml``; the fixture cases live in ``rules/cases/``)."""
    return sorted((folder or rules_dir()).glob("*.yaml"))


# The packages whose code decides a loaded Rule (loader, conditions, fact catalog, texts):
# by the layer contract, the rule base and the layers beneath it.
RULE_LAYERS = ("text", "files", "profile", "rulebase")


@cache
def default_rules() -> tuple[Rule, ...]:
    """The project's rules, checked; kept compiled in the user's cache folder until a rule
    file, the article's facts or the code that checks them changes (``advisor.files.builtin_data``)."""
    files = rule_files()

    def build() -> tuple[Rule, ...]:
        from advisor.rulebase.loader import load_rules  # the checks: only when files changed

        return tuple(load_rules(files))

    return compiled("rules", [*files, resources_dir() / "article" / "facts.yaml"], build,
                    RULE_LAYERS)


def rule_by_id(rule_id: str) -> Rule | None:
    return next((r for r in default_rules() if r.id == rule_id), None)


__all__ = ["FactRef", "Rule", "default_rules", "load_rule_file", "load_rules", "rule_by_id",
           "rule_files"]


def __getattr__(name: str):
    if name in ("load_rule_file", "load_rules"):  # the loader, imported on first use
        from advisor.rulebase import loader

        return getattr(loader, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
