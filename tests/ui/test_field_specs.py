"""The field-metadata → widget mapping (ui/forms/field_spec.py, ui/forms/editors.py), mostly without a window."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.profile import CustomGpu, EconomicsSpec, HardwareSpec, ModelSpec, Profile, TrainingSpec
from ui.forms.field_spec import field_spec, format_number, parse_number
from ui.wizard.page_fields import PAGES

# file-only inputs (alternatives: written in the file, shown on the compare page)
NOT_IN_WIZARD = {"schema_version", "notes", "measured", "alternatives"}


def test_number_field_carries_bounds_unit_and_both_languages():
    spec = field_spec("training.single_gpu_hours")
    assert spec.kind == "float" and spec.optional
    # at least 0.01 h (advisor.profile.bounds: a run of 5e-324 h made every number downstream
    # infinite), the least the field's two decimals can hold
    assert spec.minimum == 0.01 and not spec.exclusive_min and spec.maximum == 100_000
    assert spec.title("en") == "One run on one GPU" and spec.title("zh") == "单卡跑一次的时间"
    assert spec.unit("en") == "h" and spec.unit("zh") == "小时"
    assert "single GPU" in spec.help("en") and "一张卡" in spec.help("zh")
    assert "≥ 0.01" in spec.tooltip("en") and "100 000" in spec.tooltip("en")


def test_int_enum_bool_gpu_and_text_kinds():
    assert field_spec("hardware.gpus_per_node").kind == "int"
    assert field_spec("hardware.gpus_per_node").minimum == 1
    intra = field_spec("hardware.intra_link")
    assert intra.kind == "enum" and "nvlink" in intra.choices and not intra.optional
    storage = field_spec("training.storage")
    assert storage.kind == "enum" and storage.optional
    assert field_spec("economics.moved_to_multi_gpu_before").kind == "bool"
    assert field_spec("hardware.gpu").kind == "gpu"
    assert field_spec("model.name").kind == "text"


def test_currency_units_follow_the_profile_currency():
    spec = field_spec("economics.cloud_price_per_gpu_hour")
    assert spec.unit("en", "USD") == "USD/GPU-h"
    assert spec.unit("zh", "元") == "元/卡时"


@pytest.mark.parametrize("text,expected", [("12", 12.0), (" 1,500 ", 1500.0), ("", None),
                                           ("2.5e3", 2500.0)])
def test_parse_number_accepts_numbers_and_empty(text, expected):
    assert parse_number(field_spec("training.single_gpu_hours"), text)[0] == expected


@pytest.mark.parametrize("path,text,fragment", [
    ("training.single_gpu_hours", "abc", "must be a number"),
    ("hardware.gpus_per_node", "2.5", "whole number"),
    ("training.single_gpu_hours", "nan", "finite"),
])
def test_parse_number_explains_unreadable_text(path, text, fragment):
    value, en, zh = parse_number(field_spec(path), text)
    assert value is None and fragment in en and zh


def test_format_number_round_trips():
    spec = field_spec("model.params_millions")
    for value in (25.6, 6740.0, 0.5, 123456.0):
        assert parse_number(spec, format_number(spec, value))[0] == pytest.approx(value)


def test_every_profile_input_is_on_exactly_one_page():
    on_pages = [path for page in PAGES for path in page.fields]
    assert len(on_pages) == len(set(on_pages))
    expected = {name for name in Profile.model_fields if name not in NOT_IN_WIZARD
                and name not in {"model", "training", "hardware", "economics"}}
    for section, model in (("model", ModelSpec), ("training", TrainingSpec),
                           ("hardware", HardwareSpec), ("economics", EconomicsSpec)):
        expected |= {f"{section}.{name}" for name in model.model_fields}
    # the user's own GPU: every spec of it, shown while "Custom GPU…" is chosen
    expected |= {f"hardware.gpu.{name}" for name in CustomGpu.model_fields}
    assert set(on_pages) == expected


def test_editors_show_title_unit_tooltip_and_error(qtbot):
    from ui.forms.editors import create_editor

    editor = create_editor(field_spec("hardware.max_gpu_temp_c"))
    qtbot.addWidget(editor)
    editor.retranslate("zh")
    assert editor.label.text() == "实测最高显卡温度"
    assert editor.unit_label.text() == "°C"
    assert "满载" in editor.input.toolTip() and "130" in editor.input.toolTip()
    editor.set_error("必须 ≤ 130")
    assert not editor.error_label.isHidden() and editor.error_label.text() == "必须 ≤ 130"
    editor.set_error(None)
    assert editor.error_label.isHidden()


def test_number_editor_emits_values_and_parse_failures(qtbot):
    from ui.forms.editors import create_editor

    editor = create_editor(field_spec("hardware.nodes"))
    qtbot.addWidget(editor)
    with qtbot.waitSignal(editor.edited) as blocker:
        qtbot.keyClicks(editor.input, "3")
    assert blocker.args == [3]
    with qtbot.waitSignal(editor.parseFailed) as blocker:
        qtbot.keyClicks(editor.input, "x")
    assert "number" in blocker.args[0]


NUMBER_FIELDS = [path for page in PAGES for path in page.fields
                 if field_spec(path).kind in ("int", "float")]


@settings(max_examples=60, deadline=None)
@given(path=st.sampled_from(NUMBER_FIELDS),
       text=st.one_of(st.text(max_size=12), st.floats(allow_nan=True).map(str),
                      st.integers(-10**15, 10**15).map(str)))
def test_any_typed_text_gives_a_value_or_a_message_never_an_exception(path, text):
    from ui.window.answers import AnswerModel

    answers = AnswerModel()
    value, error_en, error_zh = parse_number(field_spec(path), text)
    if error_en:
        answers.typing_problem(path, error_en, error_zh)
        assert answers.all_problems()[path].message_zh
        return
    answers.set(path, value)
    assert answers.get(path) == value
    accepted = path not in answers.problems
    if accepted and not answers.problems:
        section, name = path.split(".") if "." in path else (None, path)
        current = getattr(getattr(answers.profile, section), name) if section else \
            getattr(answers.profile, name)
        assert current == value


def test_gpu_editor_selects_a_typed_spelling_of_a_catalog_gpu(qtbot):
    """A profile written by hand ('RTX 4090', 'rtx_4090') shows the catalog entry, and the
    value the editor gives back is the catalog id."""
    from ui.forms.editors import create_editor

    editor = create_editor(field_spec("hardware.gpu"))
    qtbot.addWidget(editor)
    for typed in ("RTX 4090", "rtx_4090", "NVIDIA GeForce RTX 4090"):
        editor.set_value("a100_sxm4_80gb")
        editor.set_value(typed)
        assert editor.value() == "rtx4090", typed
