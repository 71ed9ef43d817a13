"""Issue 32, part 3: a diffusion model's answers (denoiser, resolution, frozen encoders, EMA
...) are on the wizard's model page while the task is diffusion and hidden for every other
task, so the other tasks' page does not grow; with them shown the page still fits 1400 x 900
with the live preview, in both languages."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QScrollArea

from tests.support.ui import make_window, projection_recommend, wait_results
from ui.wizard.page_fields import TASK_FIELDS


def _model_page(window):
    return next(p for p in window.pages if p.page.key == "model")


DIFFUSION = {path for path, tasks in TASK_FIELDS.items() if tasks == ("diffusion",)}
LANGUAGE_MODELS = {path for path, tasks in TASK_FIELDS.items() if "llm" in tasks}


def _shown(page) -> set[str]:
    return {path for path in TASK_FIELDS if path in page.editors
            and not page.editors[path].isHidden()}


def test_diffusion_fields_show_only_while_the_task_is_diffusion(qtbot):
    window = make_window(qtbot, "en", projection_recommend)
    page = _model_page(window)
    assert set(TASK_FIELDS) <= set(page.editors)  # every one of them is on the page
    assert window.answers.get("task") not in ("diffusion", "llm", "nlp")
    assert _shown(page) == set()
    window.answers.set("task", "diffusion")
    assert _shown(page) == DIFFUSION
    window.answers.set("task", "llm")
    assert _shown(page) == LANGUAGE_MODELS == {"training.loss"}  # the loss, a language model's


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_model_page_fits_1400_by_900_with_the_diffusion_fields(qtbot, lang):
    window = make_window(qtbot, lang, projection_recommend)
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    wait_results(qtbot, window)
    page = _model_page(window)
    window.go_to(window.pages.index(page))
    window.answers.set("task", "diffusion")
    qtbot.waitUntil(lambda: window.preview.isVisible())
    qtbot.wait(20)
    scroll = page.findChild(QScrollArea)
    overflow = scroll.widget().minimumSizeHint().height() - scroll.viewport().height()
    assert _shown(page) == DIFFUSION
    assert overflow <= 0, overflow
