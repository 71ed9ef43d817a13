"""Open and save (YAML/JSON), recent files, autosave and restore after a quit or a crash."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from advisor.catalog.profile_check import load_profile
from tests.support.ui import EXAMPLES, make_window
from ui.window import user_files


@pytest.fixture
def warnings(monkeypatch):
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda parent, title, text, *a: shown.append((title, text))))
    return shown


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_save_and_load_round_trip(qtbot, tmp_path, suffix):
    example = next(p for p in EXAMPLES if "research-deadline" in p.stem)
    window = make_window(qtbot, argv=[str(example)])
    assert window.document.path == example
    hardware = next(p for p in window.pages if p.page.key == "hardware")
    temp = hardware.editors["hardware.max_gpu_temp_c"]
    qtbot.keyClicks(temp.input, "86")
    target = tmp_path / f"copy{suffix}"
    assert window.document.save_to(target)
    saved = load_profile(target)
    assert saved == window.answers.profile
    assert saved.hardware.max_gpu_temp_c == 86
    assert saved.economics.deadline_days == load_profile(example).economics.deadline_days
    other = make_window(qtbot)
    assert other.document.open_path(target)
    assert other.answers.profile == saved
    assert other.windowTitle().endswith(f"copy{suffix}[*]") and not other.isWindowModified()


def test_recent_files_newest_first_and_missing_ones_forgotten(qtbot, tmp_path, warnings):
    first, second = EXAMPLES[0], EXAMPLES[1]
    window = make_window(qtbot)
    window.document.open_path(first)
    window.document.open_path(second)
    window.document.open_path(first)
    assert user_files.recent_files()[:2] == [str(first.resolve()), str(second.resolve())]
    window.document.fill_recent_menu()
    assert [a.text() for a in window.recent_menu.actions()][:2] == user_files.recent_files()[:2]
    gone = tmp_path / "gone.yaml"
    gone.write_text(first.read_text(encoding="utf-8"), encoding="utf-8")
    window.document.open_path(gone)
    gone.unlink()
    window.document.open_recent(str(gone.resolve()))
    assert warnings and str(gone.resolve()) not in user_files.recent_files()


def test_answers_are_autosaved_and_restored_even_when_invalid(qtbot):
    window = make_window(qtbot)
    model = window.pages[0]
    model.editors["model.name"].input.clear()
    qtbot.keyClicks(model.editors["model.name"].input, "My ViT")
    hardware = next(p for p in window.pages if p.page.key == "hardware")
    qtbot.keyClicks(hardware.editors["hardware.max_gpu_temp_c"].input, "999")
    qtbot.waitUntil(lambda: user_files.autosave_path().exists())
    qtbot.waitUntil(lambda: "999" in user_files.autosave_path().read_text(encoding="utf-8"))
    # A crash: the window is gone without closeEvent; a new start restores the answers.
    restored = make_window(qtbot)
    assert restored.answers.get("model.name") == "My ViT"
    editor = next(p for p in restored.pages if p.page.key == "hardware") \
        .editors["hardware.max_gpu_temp_c"]
    assert editor.input.text() == "999" and "≤ 130" in editor.error_label.text()


def test_quitting_saves_the_answers_immediately(qtbot):
    window = make_window(qtbot)
    window.show()
    window.answers.set("training.single_gpu_hours", 77.0)
    window.document.ask_unsaved = lambda: "cancel"  # the question stays open: a crash now
    window.close()  # before the autosave timer fires
    assert window.isVisible()
    assert "single_gpu_hours: 77.0" in user_files.autosave_path().read_text(encoding="utf-8")
    assert make_window(qtbot).answers.profile.training.single_gpu_hours == 77.0
