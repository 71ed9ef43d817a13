"""The desktop bundle as a user gets it: one archive, unpacked anywhere, run with no Python and no
virtualenv (a scrubbed environment whose PATH holds no interpreter). Both programs work: the
command line gives the same answers as the virtualenv, writes a Chinese PDF with its fonts
embedded, and the wizard starts (offscreen) on its first page.

The same checks on each OS (the release workflow runs them on Windows, macOS and Linux): the
archive is a .tar.gz of the folder on Linux, a .zip of it on Windows, and on macOS a .zip of a
folder holding `GPU Scaling Advisor.app`, whose Contents/MacOS has both programs."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pypdf
import pytest

from advisor import __version__
from advisor.cli import main as venv_cli
from advisor.files.about import COMPONENTS
from tests.support.paths import EXAMPLES, ROOT

ARCHIVE = Path(os.environ.get("GPU_ADVISOR_BUNDLE_ARCHIVE", "missing.tar.gz"))
SCREENSHOT = ROOT / "build" / "bundle" / "first-page.png"  # kept for people (and CI) to look at
NAME = "gpu-scaling-advisor"
APP = "GPU Scaling Advisor.app"
LINUX, MACOS, WINDOWS = (sys.platform.startswith("linux"), sys.platform == "darwin",
                         sys.platform == "win32")
EXE = ".exe" if WINDOWS else ""


@dataclass(frozen=True)
class Bundle:
    """The unpacked archive: its one top folder, where the two programs are, PyInstaller's
    folder of libraries (``sys._MEIPASS`` when they run) and where its data files are (the
    same folder, except in the macOS .app: Contents/Frameworks and Contents/Resources)."""

    top: Path
    programs: Path
    internal: Path
    resources: Path


def _unpack(archive: Path, where: Path) -> None:
    if archive.name.endswith(".tar.gz"):
        with tarfile.open(archive) as tar:
            tar.extractall(where, filter="tar")
    elif MACOS:  # as Finder does: the .app's links and executable bits kept
        subprocess.run(["ditto", "-x", "-k", str(archive), str(where)], check=True)
    else:
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(where)


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Bundle:
    """The archive unpacked in a fresh folder outside the tree (one top folder in it)."""
    assert ARCHIVE.is_file(), f"no archive at {ARCHIVE}: run `make bundle` first"
    where = tmp_path_factory.mktemp("unpacked")
    _unpack(ARCHIVE, where)
    tops = list(where.iterdir())
    assert len(tops) == 1 and tops[0].name.startswith(f"{NAME}-{__version__}-"), tops
    top = tops[0]
    if MACOS:
        contents = top / APP / "Contents"
        return Bundle(top, contents / "MacOS", contents / "Frameworks", contents / "Resources")
    return Bundle(top, top, top / "_internal", top / "_internal")


@pytest.fixture()
def scrubbed(tmp_path) -> dict[str, str]:
    """An environment with nothing of Python in it: PATH is an empty folder, no PYTHON*,
    VIRTUAL_ENV or LD_LIBRARY_PATH, a new home."""
    (tmp_path / "bin").mkdir()
    (tmp_path / "home").mkdir()
    env = {"PATH": str(tmp_path / "bin"), "HOME": str(tmp_path / "home"), "LANG": "C.UTF-8",
           "TMPDIR": str(tmp_path), "QT_QPA_PLATFORM": "offscreen", "GPU_ADVISOR_LANG": "en"}
    if WINDOWS:  # a Windows program needs SYSTEMROOT; home and temp under their Windows names
        home = tmp_path / "home"
        env.update(SYSTEMROOT=os.environ["SYSTEMROOT"], USERPROFILE=str(home),
                   APPDATA=str(home / "AppData" / "Roaming"),
                   LOCALAPPDATA=str(home / "AppData" / "Local"), TEMP=str(tmp_path),
                   TMP=str(tmp_path))
    assert shutil.which("python3", path=env["PATH"]) is None
    assert shutil.which("python", path=env["PATH"]) is None
    return env


def _run(bundle: Bundle, program: str, *args: str, env: dict[str, str], cwd: Path):
    return subprocess.run([str(bundle.programs / f"{program}{EXE}"), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=180)


def test_the_archive_holds_both_programs_the_icon_and_the_menu_entry(bundle: Bundle):
    for name in ("gpu-advisor", "gpu-advisor-gui"):
        assert os.access(bundle.programs / f"{name}{EXE}", os.X_OK), name
    licences = bundle.top / "LICENSES"
    for name in ("LGPL-3.0.txt", "GPL-3.0.txt", "DroidSansFallback-Apache-2.0.txt"):
        assert (licences / name).stat().st_size > 1000, name
    if MACOS:  # the .app's icon, named in its Info.plist
        assert (bundle.resources / "gpu-advisor.icns").stat().st_size > 1000
        return
    assert {p.name for p in (bundle.top / "icons").glob("gpu-advisor-*.png")} >= {
        f"gpu-advisor-{n}.png" for n in (16, 32, 48, 128, 256, 512)}
    if not LINUX:
        return
    assert os.access(bundle.top / "install-desktop-entry.sh", os.X_OK)
    entry = (bundle.top / "gpu-scaling-advisor.desktop").read_text(encoding="utf-8")
    for line in ("[Desktop Entry]", "Type=Application", "Exec=gpu-advisor-gui %f",
                 "Icon=gpu-scaling-advisor", "Name[zh_CN]=多卡训练顾问"):
        assert line in entry.splitlines(), line
    # issue 34: the entry claims no file type (it opened docker-compose and Kubernetes YAML
    # as profiles); a profile opens with File > Open or "Open with"
    assert not any(line.startswith("MimeType=") for line in entry.splitlines())


def test_the_bundle_carries_the_data_and_only_pyside6_essentials(bundle: Bundle):
    data = bundle.internal / "advisor" / "_data"
    for rel in ("rules", "resources/catalog/gpus.yaml", "resources/catalog/cloud_offers.yaml",
                "resources/i18n/advisor_zh_CN.qm", "resources/fonts/DroidSansFallbackFull.ttf",
                "resources/scaling/parameters.yaml", "resources/article/facts.yaml"):
        assert (data / rel).exists(), rel
    assert sorted(p.name for p in (data / "rules").glob("*.yaml")) == sorted(
        p.name for p in (ROOT / "rules").glob("*.yaml"))
    internal = bundle.internal
    assert list(bundle.resources.glob("pyside6_essentials-*.dist-info"))
    for folder in {bundle.internal, bundle.resources}:
        assert not list(folder.glob("pyside6_addons-*")) and not list(folder.glob("pyside6-*"))
    with pytest.raises(metadata.PackageNotFoundError):  # built from Essentials only
        metadata.distribution("PySide6-Addons")
    qt_modules = {p.name.split(".")[0] for pattern in ("Qt*.so", "Qt*.pyd")
                  for p in (internal / "PySide6").glob(pattern)}
    assert {"QtCore", "QtGui", "QtWidgets"} <= qt_modules
    assert not qt_modules & {"QtQml", "QtQuick", "QtNetwork", "QtSql", "QtTest", "QtDesigner",
                             "QtCharts", "QtWebEngineCore", "Qt3DCore", "QtMultimedia"}
    assert not (internal / "scipy").exists() and not (internal / "pytest").exists()


def test_version_runs_with_no_python_on_the_path(bundle, scrubbed, tmp_path):
    result = _run(bundle, "gpu-advisor", "--version", env=scrubbed, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"gpu-advisor {__version__}\n")
    assert "Projection parameters fitted on" in result.stdout
    # every version comes from the bundle's own package metadata
    for component in COMPONENTS:
        if component.distribution:
            assert re.search(rf"{re.escape(component.name)} \d", result.stdout), component.name
    zh = _run(bundle, "gpu-advisor", "--version", "--lang", "zh", env=scrubbed, cwd=tmp_path)
    assert "预测模型参数拟合日期" in zh.stdout


@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.stem)
def test_recommend_gives_the_json_the_venv_gives(bundle, scrubbed, tmp_path, capsys, example):
    profile = shutil.copy(example, tmp_path / example.name)
    assert venv_cli(["recommend", str(profile), "--format", "json"]) == 0
    expected = json.loads(capsys.readouterr().out)
    result = _run(bundle, "gpu-advisor", "recommend", example.name, "--format", "json",
                  env=scrubbed, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == expected


def _cjk_codepoints(font) -> int:
    """How many CJK ideographs the font's ToUnicode map covers (what pypdf reads back)."""
    if "/ToUnicode" not in font:
        return 0
    cmap = font["/ToUnicode"].get_object().get_data().decode("latin-1")
    return sum(1 for code in re.findall(r"<([0-9A-Fa-f]{4})>", cmap)
               if 0x4E00 <= int(code, 16) <= 0x9FFF)


def test_a_chinese_pdf_embeds_its_cjk_font(bundle, scrubbed, tmp_path):
    shutil.copy(EXAMPLES / "medium-model-4gpu-worth-it.yaml", tmp_path)
    result = _run(bundle, "gpu-advisor", "recommend", "medium-model-4gpu-worth-it.yaml",
                  "--pdf", "report.pdf", "--lang", "zh", env=scrubbed, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    reader = pypdf.PdfReader(tmp_path / "report.pdf")
    assert len(reader.pages) >= 2
    cjk_fonts = []
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descendant = font["/DescendantFonts"][0].get_object()
            descriptor = descendant["/FontDescriptor"].get_object()
            program = next((descriptor[k] for k in ("/FontFile2", "/FontFile3", "/FontFile")
                            if k in descriptor), None)
            assert program is not None and len(program.get_object().get_data()) > 1000, \
                f"{font['/BaseFont']} is not embedded"
            if _cjk_codepoints(font) > 20:
                cjk_fonts.append(str(font["/BaseFont"]))
    assert cjk_fonts, "no embedded font carries the Chinese text"
    assert "加速比" in re.sub(r"\s+", "", reader.pages[0].extract_text())


def test_the_wizard_starts_offscreen_on_its_first_page(bundle, scrubbed, tmp_path):
    from PySide6.QtGui import QImage

    shot = tmp_path / "first-page.png"
    result = _run(bundle, "gpu-advisor-gui", "--screenshot", str(shot), env=scrubbed,
                  cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "first page: 1. Task and model" in result.stdout, result.stdout
    image = QImage(str(shot))
    assert (image.width(), image.height()) == (1280, 800)
    colours = {image.pixel(x, y) for x in range(0, 1280, 16) for y in range(0, 800, 16)}
    assert len(colours) > 8, "a blank window"
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(shot, SCREENSHOT)
    print(f"screenshot of the bundle's first page: {SCREENSHOT}", file=sys.stderr)


@pytest.mark.skipif(not LINUX, reason="the menu entry and its installer are Linux's")
def test_the_menu_entry_installs_for_this_user(bundle, tmp_path):
    data = tmp_path / "share"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_DATA_HOME": str(data)}
    result = subprocess.run([str(bundle.top / "install-desktop-entry.sh")], env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    entry = (data / "applications" / "gpu-scaling-advisor.desktop").read_text()
    assert f'Exec="{bundle.top}/gpu-advisor-gui" %f' in entry.splitlines()
    assert (data / "icons" / "hicolor" / "256x256" / "apps" / "gpu-scaling-advisor.png").is_file()
    removed = subprocess.run([str(bundle.top / "install-desktop-entry.sh"), "--remove"], env=env,
                             capture_output=True, text=True, timeout=60)
    assert removed.returncode == 0, removed.stderr
    assert not (data / "applications" / "gpu-scaling-advisor.desktop").exists()
