"""The compiled rule base, GPU table and catalog say exactly what their YAML sources say (the
rule-case tests run on the sources; these check that the cached forms are the same objects)."""

from __future__ import annotations

import subprocess
import sys

from advisor.catalog.catalog import builtin_sections
from advisor.catalog.gpus import builtin_gpus
from advisor.catalog.overrides import load_builtin_sections
from advisor.rulebase import default_rules, load_rules, rule_files
from tests.support.paths import ROOT


def _from_cache_in_a_fresh_process(expression: str) -> str:
    """repr of ``expression`` computed twice in fresh interpreters sharing the test's cache
    folder: the second one reads the compiled form the first one stored."""
    code = f"import advisor.catalog.catalog, advisor.catalog.gpus, advisor.rulebase\nprint(repr({expression}))"
    runs = [subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                           text=True, check=True, timeout=120).stdout for _ in range(2)]
    assert runs[0] == runs[1]
    return runs[1]


def test_the_compiled_rules_are_the_rules_of_the_yaml_files() -> None:
    assert default_rules() == tuple(load_rules(rule_files()))
    cached = _from_cache_in_a_fresh_process("advisor.rulebase.default_rules()")
    assert cached.strip() == repr(tuple(load_rules(rule_files())))


def test_the_compiled_catalog_is_the_catalog_of_the_yaml_files() -> None:
    assert builtin_sections() == load_builtin_sections()
    cached = _from_cache_in_a_fresh_process("advisor.catalog.catalog.builtin_sections()")
    assert cached.strip() == repr(load_builtin_sections())
    gpus = _from_cache_in_a_fresh_process("advisor.catalog.gpus.builtin_gpus()")
    assert gpus.strip() == repr(builtin_gpus())
