"""Opening a file with problems takes the previous profile's verdict off the screen (issue 19,
item 5): the card, the tabs, the live preview and the summary say there are no results until
the answers are fixed, and a computation still running for the old answers does not bring it
back."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from tests.support.profiles import write_file
from tests.support.ui import MEDIUM, make_window, projection_recommend, wait_results

BROKEN = """schema_version: 1
model: {name: half-typed, params_millions: -5}
training: {single_gpu_hours: 12}
hardware: {gpu: rtx4090, gpus_per_node: 2}
"""


@pytest.fixture
def warnings(monkeypatch):
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda parent, title, text, *a: shown.append((title, text))))
    return shown


def test_a_broken_file_takes_the_previous_verdict_off_the_screen(qtbot, tmp_path, warnings):
    window = make_window(qtbot, "en", projection_recommend, argv=[str(MEDIUM)])
    window.show()
    wait_results(qtbot, window)
    card = window.results_page.card
    assert card.rating_label.text() != "No results"
    broken = write_file(tmp_path, "broken.yaml", BROKEN)
    assert window.document.open_path(broken) is False
    assert warnings  # the problems are reported
    assert window.answers.get("model.name") == "half-typed"  # the new file's answers show
    assert window.results is None
    assert card.rating_label.text() == "No results"
    assert "opened file has problems" in card.headline_label.text()
    assert all(value.text() == "—" for value in card.values.values())
    assert not window.results_page.tabs.isEnabled()
    assert window.summary.text() == ""  # no "Verdict so far" of the other profile
    window.go_to(0)
    assert not window.preview.isVisible()


def test_fixing_the_answers_brings_results_for_them(qtbot, tmp_path, warnings):
    window = make_window(qtbot, "en", projection_recommend, argv=[str(MEDIUM)])
    window.show()
    wait_results(qtbot, window)
    window.document.open_path(write_file(tmp_path, "broken.yaml", BROKEN))
    with qtbot.waitSignal(window.resultsShown, timeout=5000):
        window.answers.set("model.params_millions", 25.0)
    assert window.results.profile.model.name == "half-typed"
    assert window.results_page.card.rating_label.text() != "No results"
    assert window.results_page.tabs.isEnabled()


def test_a_late_result_for_the_old_answers_is_dropped(qtbot, tmp_path, warnings):
    window = make_window(qtbot, "en", projection_recommend, argv=[str(MEDIUM)])
    window.show()
    wait_results(qtbot, window)
    window.answers.set("training.single_gpu_hours", 50.0)  # a computation for the old file…
    window.document.open_path(write_file(tmp_path, "broken.yaml", BROKEN))  # …then this
    qtbot.wait(200)
    qtbot.waitUntil(lambda: not window.recomputer.busy, timeout=5000)
    assert window.results is None
    assert window.results_page.card.rating_label.text() == "No results"
