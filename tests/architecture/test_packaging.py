"""A non-editable install carries rules/ and resources/ and runs from outside the source tree."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.support.paths import ROOT

ROOT = ROOT


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(work / "dist"), str(ROOT)],
        capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr
    wheel = next((work / "dist").glob("*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "advisor/_data/resources/catalog/gpus.yaml" in names
    target = work / "site"
    inst = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
         str(wheel)], capture_output=True, text=True, timeout=300)
    assert inst.returncode == 0, inst.stderr
    return target


def _run(target: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(target), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def test_installed_cli_runs_outside_the_source_tree(installed: Path, tmp_path: Path) -> None:
    for example in (ROOT / "examples").glob("*.yaml"):
        shutil.copy(example, tmp_path / example.name)
    where = _run(installed, tmp_path, "-c", "import advisor, advisor.files.paths as p; "
                 "print(advisor.__file__); print(p.resources_dir()); print(p.rules_dir())")
    assert where.returncode == 0, where.stderr
    lines = where.stdout.splitlines()
    assert all(line.startswith(str(installed)) for line in lines), lines
    assert (installed / "advisor" / "_data" / "rules").is_dir()
    result = _run(installed, tmp_path, "-m", "advisor.cli", "validate",
                  *sorted(p.name for p in tmp_path.glob("*.yaml")))
    assert result.returncode == 0, result.stderr
    assert "ok" in result.stdout
