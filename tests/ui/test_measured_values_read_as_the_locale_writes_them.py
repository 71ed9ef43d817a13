"""Review D1: the "Check a measured run" page reads its measured cells as the wizard's number
fields read theirs (``typing_marks``: the system locale's decimal mark and grouping). On a
German system "1.800" is 1800 and "100,5" is 100.5; a value that could be read two ways is a
row message in both languages naming the decimal mark expected; cells show the locale's mark.

``typing_marks`` reads ``QLocale.system()``, which ``QLocale.setDefault`` does not change (the
app sets the default locale to the UI language), so the German system is stood in for by
giving ``typing_marks`` the marks of ``QLocale("de_DE")``; the default locale is set to German
as well, and restored, so nothing here depends on which of the two the page reads."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale

from ui.diagnosis import DiagnosisPage
from ui.forms import editors
from ui.forms.typed_numbers import Marks

GERMAN = QLocale(QLocale.Language.German, QLocale.Country.Germany)


@pytest.fixture
def german(monkeypatch):
    before = QLocale()
    QLocale.setDefault(GERMAN)
    monkeypatch.setattr(editors, "typing_marks", lambda: Marks.of_locale(GERMAN))
    yield
    QLocale.setDefault(before)


def _page(qtbot, rows: list[tuple[str, str]], lang: str = "en") -> DiagnosisPage:
    page = DiagnosisPage(lambda: None, lang)
    qtbot.addWidget(page)
    page.table.setRowCount(0)
    for gpus, value in rows:
        page._add_row(None, None)
        page.table.item(page.table.rowCount() - 1, 0).setText(gpus)
        page.table.item(page.table.rowCount() - 1, 1).setText(value)
    return page


def test_german_thousands_are_thousands(qtbot, german):
    page = _page(qtbot, [("1", "950"), ("2", "1.800"), ("4", "3.400")])
    d = page.run_diagnosis()
    assert d is not None and page.banner.isHidden()
    assert page._typed == ([1, 2, 4], [950.0, 1800.0, 3400.0])
    assert [p["throughput"] for p in page.measured_section()["points"]] == [950, 1800, 3400]


def test_a_german_decimal_comma_is_a_decimal(qtbot, german):
    page = _page(qtbot, [("1", "1.000,5"), ("2", "1.900,2"), ("4", "3.500,7")])
    assert page.run_diagnosis() is not None, page.banner.text()
    assert page._typed[1] == pytest.approx([1000.5, 1900.2, 3500.7])


@pytest.mark.parametrize(("lang", "words"), [("en", "row 2"), ("zh", "第 2 行")])
def test_an_ambiguous_cell_is_a_row_message_naming_the_decimal_mark(qtbot, german, lang, words):
    page = _page(qtbot, [("1", "100"), ("2", "190.25")], lang)  # a point groups thousands here
    assert page.run_diagnosis() is None
    text = page.banner.text()
    assert not page.banner.isHidden() and words in text
    assert "1.500,5" in text and "','" in text  # the form and the decimal mark expected


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_unreadable_cell_names_the_decimal_mark_too(qtbot, german, lang):
    page = _page(qtbot, [("1", "100"), ("2", "viel")], lang)
    assert page.run_diagnosis() is None
    assert "1.500,5" in page.banner.text() and "','" in page.banner.text()


def test_cells_show_the_locales_decimal_mark_and_read_back(qtbot, german):
    page = _page(qtbot, [])
    page.set_points([1, 2, 4], [1000000.5, 1900000.25, 3500000.0])
    assert [page.table.item(r, 1).text() for r in range(3)] == [
        "1000000,5", "1900000,25", "3500000"]
    assert page.run_diagnosis() is not None, page.banner.text()
    assert page._typed[1] == pytest.approx([1000000.5, 1900000.25, 3500000.0])


def test_the_language_never_changes_what_a_cell_means(qtbot, german):
    values = {}
    for lang in ("en", "zh"):
        page = _page(qtbot, [("1", "950"), ("2", "1.800,5")], lang)
        page.run_diagnosis()
        values[lang] = page._typed
    assert values["en"] == values["zh"] == ([1, 2], [950.0, 1800.5])
