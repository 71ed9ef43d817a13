"""Issue 34 (items 4 and 7): screen readers hear a name for the step list, the verdict card,
the result tabs and each view (the plots included), in the app's language; Export PDF refuses
while answers are invalid (the results on screen belong to earlier answers)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from tests.support.ui import make_window, wait_results


@pytest.mark.parametrize("lang,steps,speedup", [("en", "Steps of the questionnaire", "Speed-up"),
                                                ("zh", "问卷步骤", "加速比")])
def test_the_step_list_card_tabs_and_plots_have_names(qtbot, lang, steps, speedup):
    window = make_window(qtbot, lang=lang)
    wait_results(qtbot, window)
    assert window.steps.accessibleName() == steps
    page = window.results_page
    assert page.card.accessibleName() and page.tabs.accessibleName()
    names = [page.tabs.widget(i).accessibleName() for i in range(page.tabs.count())]
    assert all(names) and names[0] == speedup
    assert page.speedup.accessibleName() == speedup  # the plot itself


def test_export_refuses_while_answers_are_invalid(qtbot, monkeypatch):
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda parent, title, text, *a: shown.append(text)))
    window = make_window(qtbot)
    wait_results(qtbot, window)
    window.answers.set("hardware.max_gpu_temp_c", 999)
    from PySide6.QtWidgets import QFileDialog

    asked: list = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: asked.append(a) or ("", "")))
    window.document.export_pdf()
    assert asked == [] and shown and "not valid" in shown[-1]


@pytest.mark.parametrize("lang,words", [("en", "For earlier answers: 1 to fix"),
                                        ("zh", "属于之前的答案：有 1 个要改正")])
def test_a_stale_preview_says_so_and_greys_its_verdict(qtbot, lang, words):
    window = make_window(qtbot, lang=lang)
    wait_results(qtbot, window)
    preview = window.preview
    assert preview is not None and preview._results is not None
    green = preview.rating.styleSheet()
    window.answers.set("hardware.max_gpu_temp_c", 999)  # invalid: the verdict is of before
    assert preview.caption.text() == words
    assert "italic" in preview.rating.styleSheet() and "italic" not in green
    window.answers.set("hardware.max_gpu_temp_c", 80)  # valid again: current
    assert words not in preview.caption.text()
    assert "italic" not in preview.rating.styleSheet()
