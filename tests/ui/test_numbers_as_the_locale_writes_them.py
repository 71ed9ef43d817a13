"""Issue 37: number fields read what the user types as their locale writes numbers — a decimal
comma in de_DE and fr_FR, grouping by points or spaces, full-width digits and commas from
Chinese input methods, a unit typed after the number — each a correct value or a field
message, never a silent reinterpretation; what a field shows reads back as itself."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QLocale

from ui.forms.field_spec import field_spec, format_number, parse_number
from ui.forms.typed_numbers import Marks

LOCALES = {name: Marks.of_locale(QLocale(name)) for name in ("en_US", "de_DE", "fr_FR",
                                                             "zh_CN")}
HOURS = field_spec("training.single_gpu_hours")
GPUS = field_spec("hardware.gpus_per_node")


def test_the_locales_marks():
    assert LOCALES["en_US"] == Marks(".", ",") == LOCALES["zh_CN"]
    assert LOCALES["de_DE"] == Marks(",", ".")
    assert LOCALES["fr_FR"].decimal == "," and LOCALES["fr_FR"].group == " "


@pytest.mark.parametrize(("locale", "text", "value"), [
    ("en_US", "2.5", 2.5), ("en_US", "1,500", 1500), ("en_US", "1,000.5", 1000.5),
    ("de_DE", "2,5", 2.5), ("de_DE", "1.500", 1500), ("de_DE", "1.000,5", 1000.5),
    ("fr_FR", "2,5", 2.5), ("fr_FR", "1 500,5", 1500.5), ("fr_FR", "1\u202f500,5", 1500.5),
    ("zh_CN", "２．５", 2.5), ("zh_CN", "１，５００", 1500), ("zh_CN", "1，500", 1500),
    ("de_DE", "２，５", 2.5), ("en_US", " 12 ", 12), ("de_DE", "2,5e3", 2500),
])
def test_a_number_as_the_locale_writes_it_is_read_right(locale, text, value):
    got, error, _ = parse_number(HOURS, text, LOCALES[locale])
    assert error is None and got == pytest.approx(value)


@pytest.mark.parametrize(("locale", "text", "expected_form"), [
    ("en_US", "2,5", "1,500.5"),  # a comma groups thousands here: 2,5 is no number
    ("en_US", "1.000,5", "1,500.5"),
    ("de_DE", "2.5", "1.500,5"),  # a point groups thousands here
    ("de_DE", "1,000.5", "1.500,5"),
    ("fr_FR", "2.5", "1 500,5"),
    ("zh_CN", "２，５", "1,500.5"),  # a full-width comma from the input method, mid-number
])
def test_an_ambiguous_number_is_a_field_message_showing_the_form_expected(
        locale, text, expected_form):
    got, error_en, error_zh = parse_number(HOURS, text, LOCALES[locale])
    assert got is None and expected_form in error_en and expected_form in error_zh


@pytest.mark.parametrize("text", ["24 h", "24h", "3 GPUs", "1.5 days", "$1,500"])
def test_a_unit_typed_after_the_number_is_a_field_message(text):
    got, error_en, error_zh = parse_number(HOURS, text, LOCALES["en_US"])
    assert got is None and "number alone" in error_en and "只填数字" in error_zh


def test_a_whole_number_field_refuses_a_decimal_comma_value():
    assert parse_number(GPUS, "4", LOCALES["de_DE"])[0] == 4
    assert parse_number(GPUS, "2,5", LOCALES["de_DE"])[1] is not None


@settings(max_examples=200, deadline=None)
@given(value=st.floats(0.0001, 1e7, allow_nan=False), locale=st.sampled_from(sorted(LOCALES)))
def test_what_a_field_shows_reads_back_as_itself(value, locale):
    marks = LOCALES[locale]
    shown = format_number(HOURS, value, marks)
    again = parse_number(HOURS, shown, marks)[0]
    assert again is not None
    assert format_number(HOURS, again, marks) == shown


def test_the_editor_reads_with_the_systems_marks(qtbot, monkeypatch):
    from ui.forms import editors

    monkeypatch.setattr(editors, "typing_marks", lambda: LOCALES["de_DE"])
    editor = editors.NumberEditor(HOURS)
    qtbot.addWidget(editor)
    got = []
    editor.edited.connect(got.append)
    editor._typed("2,5")
    assert got == [2.5]
    editor.set_value(1234.5)
    assert editor.input.text() == "1234,5" and editor.value() == 1234.5
