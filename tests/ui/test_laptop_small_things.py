"""Review D7 (3)-(5), small things seen on laptop screens: the compare details name an option
"#1" as the table's "#" column and the plot's labels do (not "[1]"); the folded live-result
line has no "·" after a colon ("(typical price): · 8 GPUs"); a loaded profile's fields show
the start of their text ("Faster R-CNN R50-FPN", not "er R-CNN R50-FPN")."""

from __future__ import annotations

from types import SimpleNamespace as NS

import pytest

from tests.support.ui import MEDIUM, make_window
from ui.compare.table import ref_text, status_text
from ui.results.live_preview import LivePreview, one_line

# --- (3) "#1" in the compare details, as in the table and on the plot -----------------------
RESULT = NS(options=[NS(id="yours"), NS(id="rent-h100")])


@pytest.mark.parametrize(("lang", "gpus", "said"), [
    ("en", 1, "#1 at 1 GPU"), ("en", 8, "#2 at 8 GPUs"),
    ("zh", 1, "#1 单卡"), ("zh", 8, "#2 8 卡"),
])
def test_compare_details_write_an_option_number_as_the_table_does(lang, gpus, said):
    ref = NS(option="yours" if gpus == 1 else "rent-h100", gpus=gpus)
    text = ref_text(RESULT, ref, lang)
    assert text == said and "[" not in text


def test_a_dominated_rows_status_names_the_option_with_a_hash():
    point = NS(fits=True, priced=True, on_front=False, same_as=None,
               dominated_by=NS(option="rent-h100", gpus=4))
    assert status_text(RESULT, point, "en") == "dominated by #2 at 4 GPUs"


def test_the_compare_pages_details_say_hash_numbers(qtbot):
    from advisor.catalog.profile_check import load_profile
    from advisor.compare import compare
    from ui.compare.details import point_html

    result = compare(load_profile(MEDIUM), verdicts=True)
    answer = result.answer("net_value")
    assert answer is not None and answer.point is not None
    key = (answer.point.option, answer.point.gpus)
    for lang in ("en", "zh"):
        html = point_html(result, key, lang)
        assert "[1]" not in html and "#" in html


# --- (4) the folded live-result line ----------------------------------------------------------
@pytest.mark.parametrize(("text", "line"), [
    ("With NVLink bridge (typical price):\n8 GPUs: 5.72× one GPU\n¥2,615 a month",
     "With NVLink bridge (typical price): 8 GPUs: 5.72× one GPU · ¥2,615 a month"),
    ("采用NVLink 桥接（典型价格）：\n8卡：5.72× 单卡\n每月 ¥2,615",
     "采用NVLink 桥接（典型价格）：8卡：5.72× 单卡 · 每月 ¥2,615"),
    ("8 GPUs: 5.72× one GPU\n¥2,615 a month", "8 GPUs: 5.72× one GPU · ¥2,615 a month"),
])
def test_the_folded_line_has_no_dot_after_a_colon(text, line):
    assert one_line(text) == line


def _results(applied: bool):
    setup = NS(applied=applied, label=NS(get=lambda lang: "NVLink bridge (typical price)"))
    rec = NS(verdict=NS(rating="worth_it", gpus=8, runnable=True),
             projection=NS(gpus=[1, 2, 4, 8], speedup=[1.0, 1.9, 3.6, 5.72]),
             costs=NS(gpus=[1, 2, 4, 8], cost_per_month=[900.0, 1400.0, 2000.0, 2615.0],
                      currency="CNY", mode_priced=True),
             setups=[setup])
    return NS(recommendation=rec, profile=None, better_link=None, better_link_name=None)


def test_the_folded_preview_reads_with_a_setup_applied(qtbot):
    preview = LivePreview(plot=False)
    qtbot.addWidget(preview)
    preview.set_folded(True)
    preview.show_results(_results(applied=True), "en")
    line = preview.line.text()
    assert "With NVLink bridge (typical price): 8 GPUs" in line, line
    assert ": ·" not in line and "：·" not in line and "）：·" not in line


# --- (5) a loaded field shows the start of its text -------------------------------------------
def _editor(window, path):
    return next(page.editors[path] for page in window.pages if path in page.editors)


def _line_edit(editor):
    edit = editor.input
    return edit.lineEdit() if hasattr(edit, "lineEdit") and edit.lineEdit() else edit


def test_a_loaded_model_name_shows_its_start(qtbot):
    window = make_window(qtbot, argv=[str(MEDIUM)])
    edit = _line_edit(_editor(window, "model.name"))
    assert edit.text() == "Faster R-CNN R50-FPN"
    assert edit.cursorPosition() == 0


def test_loaded_text_and_number_fields_show_their_start(qtbot):
    window = make_window(qtbot, argv=[str(MEDIUM)])
    shown = [(path, _line_edit(editor)) for page in window.pages
             for path, editor in page.editors.items()
             if type(editor).__name__ in ("NumberEditor", "TextEditor", "ModelEditor")]
    filled = [(path, edit) for path, edit in shown if edit.text()]
    assert filled
    assert [path for path, edit in filled if edit.cursorPosition() != 0] == []


def test_a_field_being_typed_in_keeps_its_cursor(qtbot):
    from ui.forms.editors import show_start

    window = make_window(qtbot, argv=[str(MEDIUM)])
    window.show()
    qtbot.waitExposed(window)
    edit = _line_edit(_editor(window, "model.name"))
    edit.setFocus()
    qtbot.waitUntil(edit.hasFocus)
    edit.setCursorPosition(5)
    show_start(edit)
    assert edit.cursorPosition() == 5
