"""Writing the report: atomic, clear bilingual errors for places it cannot go, headless."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from advisor.catalog.profile_check import load_profile
from advisor.files.errors import InputError
from advisor.verdict.result import Recommendation
from tests.support.paths import ROOT

ROOT = ROOT
NAME = "medium-model-4gpu-worth-it"
FIXTURE = ROOT / "tests" / "fixtures" / "report" / f"{NAME}.recommendation.json"
PROFILE = ROOT / "examples" / f"{NAME}.yaml"


@pytest.fixture(scope="module")
def case() -> tuple[Recommendation, object]:
    rec = Recommendation.model_validate_json(FIXTURE.read_text())
    return rec, load_profile(PROFILE)


def _bilingual(error: InputError) -> tuple[str, str]:
    en, zh = error.render("en"), error.render("zh")
    assert en != zh and any("\u4e00" <= ch <= "\u9fff" for ch in zh)
    return en, zh


def test_missing_folder_is_an_input_error_and_writes_nothing(case, tmp_path):
    from ui.report import export_pdf

    target = tmp_path / "no-such-folder" / "report.pdf"
    with pytest.raises(InputError) as caught:
        export_pdf(*case, target)
    en, zh = _bilingual(caught.value)
    assert "does not exist" in en and "不存在" in zh and str(target) in en
    assert not (tmp_path / "no-such-folder").exists()


def test_a_folder_as_target_is_an_input_error(case, tmp_path):
    from ui.report import export_pdf

    with pytest.raises(InputError) as caught:
        export_pdf(*case, tmp_path)
    en, zh = _bilingual(caught.value)
    assert "folder" in en and "文件夹" in zh
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root may write into read-only folders")
def test_read_only_folder_is_an_input_error(case, tmp_path):
    from ui.report import export_pdf

    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(InputError) as caught:
            export_pdf(*case, folder / "report.pdf")
        _bilingual(caught.value)
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o700)


def test_a_folder_refusing_writes_is_an_input_error_even_for_root(case, tmp_path, monkeypatch):
    """The same refusal as a read-only folder, simulated at the system calls so it also runs
    as root (CI): the folder check and the temporary file both fail with EACCES."""
    import errno
    import tempfile

    from ui.report import export_pdf

    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "access", lambda *a, **k: False)
    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    with pytest.raises(InputError) as caught:
        export_pdf(*case, tmp_path / "report.pdf")
    _bilingual(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_a_failed_rename_keeps_the_old_report_and_leaves_no_temporary_file(case, tmp_path,
                                                                         monkeypatch):
    from ui.report import export_pdf

    target = tmp_path / "report.pdf"
    target.write_bytes(b"old report")

    def full_disk(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(InputError) as caught:
        export_pdf(*case, target)
    _bilingual(caught.value)
    assert target.read_bytes() == b"old report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.pdf"]


def test_a_failed_render_leaves_the_old_report_untouched(case, tmp_path, monkeypatch):
    import ui.report.export as export

    target = tmp_path / "report.pdf"
    target.write_bytes(b"old report")

    def broken(*args, **kwargs):
        raise RuntimeError("renderer failed")

    monkeypatch.setattr(export, "plot_images", broken)
    with pytest.raises(RuntimeError):
        export.export_pdf(*case, target)
    assert target.read_bytes() == b"old report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.pdf"]


def test_an_existing_report_is_replaced_by_a_complete_one(case, tmp_path):
    from ui.report import export_pdf

    target = tmp_path / "report.pdf"
    target.write_bytes(b"old report")
    assert export_pdf(*case, str(target), "zh") == target
    assert target.read_bytes().startswith(b"%PDF-")
    assert target.read_bytes().rstrip().endswith(b"%%EOF")
    assert [p.name for p in tmp_path.iterdir()] == ["report.pdf"]


def test_unknown_language_is_refused(case, tmp_path):
    from ui.report import export_pdf

    with pytest.raises(ValueError):
        export_pdf(*case, tmp_path / "r.pdf", "fr")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("env", "platform", "expected"), [
    ({}, "linux", True),
    ({"DISPLAY": ":0"}, "linux", False),
    ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", False),
    ({"QT_QPA_PLATFORM": "xcb"}, "linux", False),
    ({}, "win32", False),
    ({}, "darwin", False),
])
def test_offscreen_only_where_there_is_no_display(monkeypatch, env, platform, expected):
    from ui.report import qt_app

    for var in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    monkeypatch.setattr(qt_app.sys, "platform", platform)
    assert qt_app.needs_offscreen() is expected


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="display variables are X11/Wayland")
def test_a_fresh_process_without_display_exports(tmp_path):
    """What `gpu-advisor recommend --pdf` does on a server: no DISPLAY, no QT_QPA_PLATFORM."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    target = tmp_path / "report.pdf"
    code = (
        "import sys\n"
        "from advisor.catalog.profile_check import load_profile\n"
        "from advisor.verdict.result import Recommendation\n"
        "from ui.report import export_pdf\n"
        f"rec = Recommendation.model_validate_json(open({str(FIXTURE)!r}).read())\n"
        f"export_pdf(rec, load_profile({str(PROFILE)!r}), {str(target)!r}, 'zh')\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert target.read_bytes().startswith(b"%PDF-")
