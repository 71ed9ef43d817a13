"""The command line's front door stays cheap: ``--version`` and ``--help`` import no command,
neither the rule engine nor numpy nor the projection; ``validate`` and ``schema`` need the
profile's models only; ``project`` needs no rule engine and no price model (and no layout
search for a data-parallel profile). Import guards
(what is loaded), not timings: the times are measured by ``benchmarks/cli_startup.py``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from advisor.cli.no_pydantic_plugins import LOADER
from tests.support.paths import EXAMPLES, ROOT

HEAVY = ("durable", "durable_rules_engine", "numpy", "advisor.scaling", "advisor.verdict",
         "advisor.rulebase", "advisor.costs", "advisor.diagnosis", "advisor.hwimport")


def _loaded_after(argv: list[str]) -> tuple[int, list[str]]:
    """(exit status, modules loaded) of ``gpu-advisor ARGV`` in a fresh interpreter."""
    code = (
        "import io, json, sys, contextlib\n"
        "from advisor.cli import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):\n"
        "    try:\n"
        f"        status = main({argv!r})\n"
        "    except SystemExit as exc:\n"
        "        status = exc.code or 0\n"
        "sys.__stdout__.write(json.dumps([status, sorted(sys.modules)]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=True)
    status, modules = json.loads(done.stdout)
    return status, modules


def _heavy(modules: list[str], names: tuple[str, ...] = HEAVY) -> list[str]:
    """The modules of ``names`` loaded; the command line's own stand-in for pydantic's plugin
    loader (``advisor.cli.no_pydantic_plugins``, put in place before parsing) is not one."""
    return [m for m in modules if any(m == n or m.startswith(n + ".") for n in names)
            and m != LOADER]


@pytest.mark.parametrize("argv", [["--version"], ["--help"], []])
def test_version_and_help_import_no_engine_numpy_projection_or_command(argv) -> None:
    status, modules = _loaded_after(argv)
    assert status == (2 if not argv else 0)
    assert _heavy(modules, HEAVY + ("advisor.cli.commands", "pydantic")) == []


@pytest.mark.parametrize("argv", [["validate", str(EXAMPLES / "medium-model-4gpu-worth-it.yaml")],
                                  ["schema"]])
def test_validate_and_schema_import_no_engine_numpy_or_projection(argv) -> None:
    status, modules = _loaded_after(argv)
    assert status == 0
    assert _heavy(modules, HEAVY + ("advisor.catalog.entries", "advisor.catalog.overrides")) == []


LAYOUT_MODULES = ("advisor.scaling.layout_projection", "advisor.scaling.llm_compute",
                  "advisor.scaling.layouts.engine", "advisor.scaling.layouts.search")


def test_project_imports_neither_the_rule_engine_nor_the_prices() -> None:
    status, modules = _loaded_after(["project", str(EXAMPLES / "medium-model-4gpu-worth-it.yaml")])
    assert status == 0
    assert _heavy(modules, ("durable", "durable_rules_engine", "advisor.rulebase",
                            "advisor.costs", "advisor.catalog.entries",
                            "advisor.catalog.overrides", "advisor.hwimport")) == []
    assert _heavy(modules, LAYOUT_MODULES) == []  # a data-parallel profile: no layout search


def test_a_large_model_projects_through_the_layouts() -> None:
    status, modules = _loaded_after(["project", str(EXAMPLES / "plan-7b-on-one-8xh100.yaml")])
    assert status == 0
    assert _heavy(modules, LAYOUT_MODULES) == sorted(LAYOUT_MODULES)


def test_a_command_imports_its_own_module_only() -> None:
    status, modules = _loaded_after(["schema"])
    assert status == 0
    assert [m for m in modules if m.startswith("advisor.cli.commands.")] == [
        "advisor.cli.commands.schema"]


def test_recommend_for_a_data_parallel_profile_loads_no_layout_model() -> None:
    # the rule facts read the optimizer family and the GPU's peak, which need no layout code;
    # the recommendation's sharing block enters the layouts' memory memo, a module that
    # imports nothing of the layouts (contextvars only); the data-parallel memory reads the
    # state bytes per parameter from the layouts' table of them (a dataclass and two dicts)
    status, modules = _loaded_after(["recommend", str(EXAMPLES / "medium-model-4gpu-worth-it.yaml"),
                                     "--format", "json"])
    assert status == 0
    assert sorted(m for m in modules if m.startswith("advisor.scaling.layouts.")) == [
        "advisor.scaling.layouts.eligibility", "advisor.scaling.layouts.shared_memory",
        "advisor.scaling.layouts.states"]
    assert _heavy(modules, LAYOUT_MODULES) == []
