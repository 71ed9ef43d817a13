"""The wizard's own files and the user's, when hostile (issue 20, items 1, 2, 5 and 7): a
restored session keeps a broken file's mark so Save never writes over it; a read-only file is
replaced only when the user says so; the autosave is read through the user files' guards and
moved aside when bad; deeply nested JSON opens with a message, not a RecursionError."""

from __future__ import annotations

import os

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from tests.support.ui import EXAMPLES, make_window
from ui.window import user_files

BROKEN = """\
# my comments, kept as they are
schema_version: 1
task: image_classification
model: {name: ResNet-50, params_millions: 25.6}
training: {single_gpu_hours: 12, runs_per_week: 2}
hardware: {gpu: rtx4090, gpus_per_node: 0, intra_link: pcie4}   # broken: 0 GPUs
"""


@pytest.fixture
def warnings(monkeypatch):
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda parent, title, text, *a: shown.append((title, text))))
    return shown


@pytest.fixture
def save_dialog(monkeypatch):
    """The Save As dialog: records that it was shown and cancels."""
    asked: list[str] = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (asked.append(a[2]) or "", "")))
    return asked


def _fix_and_autosave(qtbot, window) -> None:
    hardware = next(p for p in window.pages if p.page.key == "hardware")
    editor = hardware.editors["hardware.gpus_per_node"]
    editor.input.clear()
    qtbot.keyClicks(editor.input, "4")
    assert not window.answers.all_problems()
    window.document.autosave_now()


@pytest.mark.parametrize("restart", ["close", "kill"])
def test_a_restored_broken_file_is_never_overwritten(restart, qtbot, tmp_path, warnings,
                                                     save_dialog):
    """Open a broken file, fix it, restart without a file, Save: the autosave restored the
    broken file as the save path and Save wrote over it, comments gone."""
    source = tmp_path / "broken.yaml"
    source.write_text(BROKEN, encoding="utf-8")
    window = make_window(qtbot, argv=[str(source)])
    assert window.document.broken_source == source and window.document.path is None
    _fix_and_autosave(qtbot, window)
    if restart == "close":
        window.close()
    restored = make_window(qtbot)  # `gpu-advisor gui` with no file
    assert restored.answers.profile.hardware.gpus_per_node == 4
    assert restored.document.broken_source == source and restored.document.path is None
    assert not restored.document.save()  # asks for a new name (cancelled here)
    assert save_dialog and save_dialog[-1].endswith("broken-fixed.yaml")
    assert restored.document.save_to(source) is False  # and refuses the broken file's name
    assert source.read_text(encoding="utf-8") == BROKEN


def test_an_old_autosave_without_the_mark_is_checked_against_the_file(qtbot, tmp_path,
                                                                      save_dialog):
    source = tmp_path / "broken.yaml"
    source.write_text(BROKEN, encoding="utf-8")
    user_files.write_autosave({"hardware": {"gpus_per_node": 4}}, str(source))  # no mark
    restored = make_window(qtbot)
    assert restored.document.broken_source == source and restored.document.path is None


def test_a_read_only_profile_is_replaced_only_when_the_user_agrees(qtbot, tmp_path, monkeypatch,
                                                                   warnings):
    path = tmp_path / "locked.yaml"
    path.write_text(EXAMPLES[0].read_text(encoding="utf-8"), encoding="utf-8")
    path.chmod(0o444)
    before = path.read_bytes()
    window = make_window(qtbot, argv=[str(path)])
    window.answers.set("training.single_gpu_hours", 77.0)
    questions: list[str] = []
    for answer in (QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes):
        monkeypatch.setattr(QMessageBox, "question", staticmethod(
            lambda parent, title, text, *a, answer=answer: questions.append(text) or answer))
        saved = window.document.save()
        if answer == QMessageBox.StandardButton.No:
            assert not saved and path.read_bytes() == before
    assert saved and "77.0" in path.read_text(encoding="utf-8")
    assert questions == [f"{path} is read-only. Replace it anyway?"] * 2
    assert not warnings


def _write_autosave(raw: bytes) -> None:
    path = user_files.autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(raw)


@pytest.mark.parametrize(("raw", "reason"), [
    # an alias bomb hung start-up
    (b"answers: &a [x, x]\nb: &b [*a, *a, *a, *a]\nc: [*b, *b, *b, *b]\n", "anchors and aliases"),
    # 5,000-deep nesting crashed every start, and the file was not moved aside
    (b"answers: " + b"[" * 5000 + b"]" * 5000 + b"\n", "nested too deeply"),
    (b"\x00\x01binary", "binary data"),
])
def test_a_hostile_autosave_is_moved_aside_with_a_message(raw, reason, qtbot, warnings):
    _write_autosave(raw)
    window = make_window(qtbot)
    assert warnings and reason in warnings[0][1]
    assert not user_files.autosave_path().exists()
    kept = list(user_files.state_dir().glob("autosave.broken-*.yaml"))
    assert len(kept) == 1 and kept[0].read_bytes() == raw
    assert window.answers.profile is not None


def test_a_huge_autosave_is_refused_without_being_read(qtbot, warnings):
    """200 MB took 72 s to start."""
    path = user_files.autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:
        handle.truncate(200 * 1024 * 1024)  # sparse: nothing written to disk
    make_window(qtbot)
    assert warnings and "file is too large" in warnings[0][1]
    assert list(user_files.state_dir().glob("autosave.broken-*.yaml"))


def test_the_autosave_reason_is_in_the_window_language(qtbot, warnings):
    _write_autosave(b"answers: [1, 2\n")
    make_window(qtbot, "zh")
    assert warnings and "不是有效的 YAML" in warnings[0][1]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_a_fifo_as_the_autosave_does_not_hang_start_up(qtbot, warnings):
    path = user_files.autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    make_window(qtbot)
    assert warnings and "FIFO" in warnings[0][1]


def test_deeply_nested_json_opens_with_a_message(qtbot, tmp_path, warnings):
    """A RecursionError escaped from the GUI's open."""
    path = tmp_path / "deep.json"
    path.write_text('{"model": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    window = make_window(qtbot)
    assert window.document.open_path(path) is False
    assert warnings and "nested too deeply" in warnings[0][1]
