"""Issue 34: an Alt+letter on every field label. The letters of a page (``ui.forms.mnemonics``)
are unique within each column, unique on the page as far as the letters go (fields shown
always first), never the menu bar's or Back/Next's; Alt+letter moves the focus to the field;
Chinese labels carry the letter as Chinese programs write it, "参数量(&P)"; no screen reader
reads a '&'."""

from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication

from tests.support.ui import active_window, make_window, projection_recommend
from ui.forms.mnemonics import RESERVED, Label, assign, candidates, with_mnemonic

# -- the rules, on made-up labels ---------------------------------------------------------------


def test_candidates_put_word_initials_first_and_leave_out_the_reserved():
    assert candidates("Batch per GPU") == ["P", "G", "A", "T", "C", "R", "U"]  # no B (Back)
    assert candidates("Link between machines")[:2] == ["M", "I"]  # L (Language), B: reserved
    assert candidates("Fine-tuning method")[:2] == ["T", "M"]  # F (File) reserved
    assert candidates("GPU model").count("M") == 1  # each letter once
    assert candidates("3 × 3") == []


def test_letters_are_unique_on_a_page_while_they_last():
    labels = [Label("a", "Layers", 0), Label("b", "Learning rate", 0), Label("c", "Loss", 1),
              Label("d", "Label smoothing", 1)]
    letters = assign(labels)
    assert len(set(letters.values())) == 4
    assert not set(letters.values()) & RESERVED
    assert all(letters[label.key] in candidates(label.title) for label in labels)


def test_a_word_initial_is_taken_where_it_can_be():
    letters = assign([Label("a", "Precision", 0), Label("b", "Optimizer", 0),
                      Label("c", "Storage", 1)])
    assert letters == {"a": "P", "b": "O", "c": "S"}


def test_with_more_labels_than_letters_no_column_repeats_one():
    # 3 columns of 15 labels: 45 labels, 20 letters left after the reserved
    titles = ["Parameters", "Layers", "Hidden size", "Heads", "Sequence length", "Vocabulary",
              "Precision", "Batch", "Global batch", "Optimizer", "Offload", "Experts",
              "Resolution", "Denoiser", "Rank"]
    labels = [Label(f"{c}.{i}", title, c) for c in range(3) for i, title in enumerate(titles)]
    letters = assign(labels)
    assert len(letters) == 45 and not set(letters.values()) & RESERVED
    for column in range(3):
        used = [letters[f"{column}.{i}"] for i in range(15)]
        assert len(set(used)) == 15, (column, used)
    available = set().union(*(candidates(title) for title in titles))
    assert set(letters.values()) >= available  # every letter the titles have is used


def test_fields_shown_always_get_their_own_letter_before_those_shown_sometimes():
    labels = [Label("sometimes", "Pipeline", 0, always_shown=False),
              Label("always", "Pipeline", 1)]
    letters = assign(labels)
    assert letters["always"] == "P"  # the first choice goes to the label always shown
    assert letters["sometimes"] != "P"


def test_a_letter_outside_the_title_only_when_the_column_has_none_left():
    labels = [Label(str(i), "Pu", 0) for i in range(3)]  # two letters for three labels
    letters = assign(labels)
    assert sorted(letters.values())[:2] == ["P", "U"] or len(set(letters.values())) == 3
    assert len(set(letters.values())) == 3
    outside = [letter for letter in letters.values() if letter not in "PU"]
    assert len(outside) == 1 and outside[0] not in RESERVED


def test_the_label_text_marks_the_letter_in_both_languages():
    assert with_mnemonic("Layers", "Y", "en") == "La&yers"
    assert with_mnemonic("Pipeline-parallel degree", "D", "en") == "Pipeline-parallel &degree"
    assert with_mnemonic("参数量", "P", "zh") == "参数量(&P)"
    assert with_mnemonic("Cooling", "J", "en") == "Cooling (&J)"  # not a letter of the title
    assert with_mnemonic("R&D cost", "C", "en") == "R&&D &cost"  # its own '&' shown as one
    assert with_mnemonic("Layers", None, "en") == "Layers"


# -- the wizard's pages --------------------------------------------------------------------------


def _labels(page):
    """(key, label widget, buddy, column) of every field label on a question page."""
    columns = {path: section.column for section in page.page.sections for path in section.fields}
    out = [(path, editor.label, editor.input, columns[path])
           for path, editor in page.editors.items()]
    if page.preset_combo is not None:
        out.append(("preset", page.preset_label, page.preset_combo, 0))
    return out


def _letter(text: str) -> str:
    sequence = QKeySequence.mnemonic(text)
    assert not sequence.isEmpty(), text
    return sequence.toString().split("+")[-1].upper()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_field_label_has_its_letter_and_its_input_as_buddy(qtbot, lang):
    window = make_window(qtbot, lang, projection_recommend)
    for page in window.pages:
        by_column: dict[int, list[str]] = {}
        for key, label, buddy, column in _labels(page):
            letter = _letter(label.text())
            assert letter == page.mnemonics[key], (key, label.text())
            assert letter not in RESERVED, (key, letter)
            assert label.buddy() is buddy, key
            assert "&" not in buddy.accessibleName(), (key, buddy.accessibleName())
            if lang == "zh":
                assert label.text().endswith(f"(&{letter})"), label.text()
            by_column.setdefault(column, []).append(letter)
        for column, letters in by_column.items():
            repeated = [letter for letter, n in Counter(letters).items() if n > 1]
            assert not repeated, (page.page.key, column, repeated)


def test_letters_are_the_same_in_both_languages_and_unique_on_the_short_pages(qtbot):
    window = make_window(qtbot, "en", projection_recommend)
    english = {page.page.key: {k: _letter(lbl.text()) for k, lbl, _b, _c in _labels(page)}
               for page in window.pages}
    window.hub.set_language("zh")
    chinese = {page.page.key: {k: _letter(lbl.text()) for k, lbl, _b, _c in _labels(page)}
               for page in window.pages}
    assert english == chinese
    for page in window.pages:
        if len(page.editors) <= 20:  # as many letters as there are left: none shared
            assert len(set(english[page.page.key].values())) == len(english[page.page.key])
    assert window.pages[0].editors["model.params_millions"].label.text() == \
        f"参数量(&{english['model']['model.params_millions']})"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_alt_and_the_letter_moves_the_focus_to_the_field(qtbot, lang):
    window = active_window(qtbot, lang)
    pages = {page.page.key: index for index, page in enumerate(window.pages)}
    for key in ("model", "hardware", "pipeline", "habits"):
        window.go_to(pages[key])
        page = window.pages[pages[key]]
        visible = [k for k, label, _b, _c in _labels(page) if label.isVisibleTo(page)]
        held = Counter(page.mnemonics[k] for k in visible)
        # the last field shown whose letter no other visible field has (not the first field,
        # which has the focus already)
        path = [k for k in visible if held[page.mnemonics[k]] == 1][-1]
        letter = page.mnemonics[path]
        target = _buddy(page, path)
        assert QApplication.focusWidget() is not target
        qtbot.keyClick(QApplication.focusWidget(), getattr(Qt.Key, f"Key_{letter}"),
                       Qt.KeyboardModifier.AltModifier)
        assert QApplication.focusWidget() is target, (path, letter)


def test_a_letter_two_columns_share_goes_to_each_field_in_turn(qtbot):
    window = active_window(qtbot, "en")
    page = window.pages[0]  # the model page asks more questions than there are letters
    shown = {k: label for k, label, _b, _c in _labels(page) if label.isVisibleTo(page)}
    letters = Counter(page.mnemonics[k] for k in shown)
    letter = next((letter for letter, n in letters.items() if n == 2), None)
    if letter is None:
        pytest.skip("no letter is shared by two visible fields of this page")
    holders = {k for k in shown if page.mnemonics[k] == letter}
    reached = set()
    for _ in range(2):
        qtbot.keyClick(QApplication.focusWidget(), getattr(Qt.Key, f"Key_{letter}"),
                       Qt.KeyboardModifier.AltModifier)
        focused = QApplication.focusWidget()
        reached |= {k for k in holders if _buddy(page, k) is focused}
    assert reached == holders


def _buddy(page, key):
    return page.preset_combo if key == "preset" else page.editors[key].input


def test_a_label_read_without_its_mark_in_both_languages():
    from ui.forms.mnemonics import without_mnemonic

    for title, letter in (("Layers", "Y"), ("Pipeline-parallel degree", "D"), ("A & B", "B")):
        assert without_mnemonic(with_mnemonic(title, letter, "en")) == title
    assert without_mnemonic(with_mnemonic("参数量", "P", "zh")) == "参数量"
    assert without_mnemonic(with_mnemonic("3 × 3", "Q", "en")) == "3 × 3"  # written after
