"""A non-editable install carries rules/ and resources/ and runs from outside the source tree;
the built wheel installs into a fresh virtualenv (as `pipx install` does) and gives both
programs, `gpu-advisor` and `gpu-advisor-gui`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from tests.support.paths import EXAMPLES, ROOT

ROOT = ROOT
DATA = ("advisor/_data/resources/catalog/gpus.yaml", "advisor/_data/rules",
        "advisor/_data/resources/catalog/models.yaml",
        "advisor/_data/resources/i18n/advisor_zh_CN.qm",
        "advisor/_data/resources/fonts/DroidSansFallbackFull.ttf",
        "advisor/_data/resources/scaling/parameters.yaml",
        "advisor/_data/resources/icons/gpu-advisor-256.png")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(work / "dist"), str(ROOT)],
        capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr
    return next((work / "dist").glob("*.whl"))


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("site")
    inst = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
         str(wheel)], capture_output=True, text=True, timeout=300)
    assert inst.returncode == 0, inst.stderr
    return target


def test_the_wheel_carries_every_data_file(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    for data in DATA:
        assert any(n == data or n.startswith(data + "/") for n in names), data
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "gpu-advisor = advisor.cli:main" in text
    assert "gpu-advisor-gui = ui.app.launch:main" in text


def _run(target: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(target), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def test_installed_cli_runs_outside_the_source_tree(installed: Path, tmp_path: Path) -> None:
    for example in EXAMPLES.glob("*.yaml"):
        shutil.copy(example, tmp_path / example.name)
    # a model named by its catalog id: the catalog's models.yaml is read from the wheel
    shutil.copy(ROOT / "tests" / "profiles" / "models" / "finetune-llama-3.1-8b-by-name.yaml",
                tmp_path)
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


@pytest.fixture(scope="module")
def fresh_venv(wheel: Path, tmp_path_factory) -> Path:
    """A new virtualenv outside the tree with the wheel installed as pipx would (its own
    scripts); the dependencies come from this environment's site-packages through a path
    file, so the test needs no network. The editable install of the checkout is not seen:
    path files inside a folder named by a path file are not read."""
    venv = tmp_path_factory.mktemp("pipx") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=120)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = subprocess.run([str(python), "-c", "import sysconfig; "
                              "print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    Path(purelib, "_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    inst = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                           "--no-deps", "--no-index", "-q", str(wheel)],
                          capture_output=True, text=True, timeout=300)
    assert inst.returncode == 0, inst.stderr
    return venv


def _program(venv: Path, name: str) -> Path:
    return venv / ("Scripts" if os.name == "nt" else "bin") / name


def _venv_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(QT_QPA_PLATFORM="offscreen", GPU_ADVISOR_STATE_DIR=str(tmp_path / "state"),
               GPU_ADVISOR_LOG_DIR=str(tmp_path / "log"))
    return env


def test_the_wheel_in_a_fresh_venv_runs_the_command_line(fresh_venv: Path, tmp_path: Path):
    env = _venv_env(tmp_path)
    cli = _program(fresh_venv, "gpu-advisor")
    version = subprocess.run([str(cli), "--version"], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=120)
    assert version.returncode == 0, version.stderr
    assert "Projection parameters fitted on" in version.stdout
    example = shutil.copy(EXAMPLES / "medium-model-4gpu-worth-it.yaml", tmp_path)
    where = subprocess.run([str(_program(fresh_venv, "python")), "-c",
                            "import advisor.files.paths as p; print(p.resources_dir())"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert where.stdout.strip().startswith(str(fresh_venv)), where.stdout + where.stderr
    result = subprocess.run([str(cli), "recommend", str(example), "--format", "json"],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["verdict"]["rating"] == "worth_it"


def test_the_wheel_in_a_fresh_venv_starts_the_desktop_app(fresh_venv: Path, tmp_path: Path):
    from PySide6.QtGui import QImage

    shot = tmp_path / "first-page.png"
    gui = subprocess.run([str(_program(fresh_venv, "gpu-advisor-gui")), "--screenshot",
                          str(shot)], cwd=tmp_path, env=_venv_env(tmp_path),
                         capture_output=True, text=True, timeout=120)
    assert gui.returncode == 0, gui.stdout + gui.stderr
    assert "first page: 1. Task and model" in gui.stdout
    assert QImage(str(shot)).width() >= 800
