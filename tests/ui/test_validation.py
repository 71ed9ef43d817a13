"""Validation messages appear at the field (never a traceback); a broken file is reported and
never overwritten. A time value of revenue asks for economics.value_per_day at that field."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from advisor.profile import Profile
from tests.support.ui import make_window


@pytest.fixture
def warnings(monkeypatch):
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda parent, title, text, *a: shown.append((title, text))))
    return shown


def _page(window, key):
    return next(p for p in window.pages if p.page.key == key)


def test_out_of_range_value_is_explained_at_its_field(qtbot):
    window = make_window(qtbot)
    editor = _page(window, "hardware").editors["hardware.max_gpu_temp_c"]
    qtbot.keyClicks(editor.input, "150")
    assert editor.error_label.text() == "must be ≤ 130.0, got 150.0"
    assert not editor.error_label.isHidden()
    assert window.answers.profile.hardware.max_gpu_temp_c == 15  # last valid answer ("15") kept
    editor.input.clear()
    qtbot.keyClicks(editor.input, "88")
    assert editor.error_label.isHidden()
    assert window.answers.profile.hardware.max_gpu_temp_c == 88


def test_text_in_a_number_field_and_a_required_field_left_empty(qtbot):
    window = make_window(qtbot)
    editor = _page(window, "model").editors["model.params_millions"]
    editor.input.clear()
    qtbot.keyClicks(editor.input, "lots")
    assert "must be a number" in editor.error_label.text()
    editor.input.selectAll()
    qtbot.keyClick(editor.input, "\b")
    assert editor.input.text() == ""
    assert editor.error_label.text() == "is required"


def test_messages_follow_the_language(qtbot):
    window = make_window(qtbot)
    editor = _page(window, "hardware").editors["hardware.gpus_per_node"]
    editor.input.selectAll()
    qtbot.keyClicks(editor.input, "0")
    assert editor.error_label.text().startswith("must be ≥ 1")
    window.hub.set_language("zh")
    assert editor.error_label.text().startswith("必须 ≥ 1")


def test_a_rule_across_fields_shows_on_its_page(qtbot):
    window = make_window(qtbot)
    hardware = _page(window, "hardware")
    nodes = hardware.editors["hardware.nodes"]
    nodes.input.selectAll()
    qtbot.keyClicks(nodes.input, "2")
    assert "several machines need a network" in hardware.banner.text()
    assert not hardware.banner.isHidden()
    link = hardware.editors["hardware.inter_link"]
    index = link.input.findData("infiniband_hdr")
    link.input.setCurrentIndex(index)
    link.input.activated.emit(index)
    assert hardware.banner.isHidden()
    assert window.answers.profile.hardware.nodes == 2


def test_broken_file_loads_with_field_messages_and_is_never_overwritten(qtbot, tmp_path,
                                                                         warnings, monkeypatch):
    broken = tmp_path / "broken.yaml"
    text = ("schema_version: 1\ntask: nlp\nmodel: {name: X, params_millions: -5}\n"
            "training: {single_gpu_hours: 10}\nhardware: {gpu: rtx4090, gpus_per_node: 4}\n")
    broken.write_text(text, encoding="utf-8")
    window = make_window(qtbot)
    assert window.document.open_path(broken) is False
    assert warnings and "params_millions" in warnings[-1][1] and "broken.yaml:3" in warnings[-1][1]
    editor = _page(window, "model").editors["model.params_millions"]
    assert editor.input.text() == "-5" and editor.error_label.text().startswith("must be ≥ 0.001")
    # Fix it, then Save: it must ask for a new name, and refuse the broken file's own name.
    editor.input.selectAll()
    qtbot.keyClicks(editor.input, "110")
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(broken), "")))
    assert window.document.save() is False
    assert broken.read_text(encoding="utf-8") == text
    fixed = tmp_path / "fixed.yaml"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(fixed), "")))
    assert window.document.save() is True
    assert "params_millions: 110" in fixed.read_text(encoding="utf-8")
    assert broken.read_text(encoding="utf-8") == text


def test_unreadable_file_is_reported_and_changes_nothing(qtbot, tmp_path, warnings):
    window = make_window(qtbot)
    before = dict(window.answers.data)
    bad = tmp_path / "bad.yaml"
    bad.write_text("task: [unclosed\n", encoding="utf-8")
    assert window.document.open_path(bad) is False
    assert window.document.open_path(Path(tmp_path / "missing.yaml")) is False
    assert len(warnings) == 2 and "not found" in warnings[1][1]
    assert window.answers.data == before


def test_saving_with_problems_writes_a_draft_never_a_profile(qtbot, tmp_path, warnings):
    window = make_window(qtbot)
    editor = _page(window, "habits").editors["training.horizon_months"]
    editor.input.selectAll()
    qtbot.keyClicks(editor.input, "999")
    assert window.document.save_to(tmp_path / "p.json") is False  # a draft is YAML
    assert not (tmp_path / "p.json").exists()
    assert window.document.save_to(tmp_path / "p.yaml") is True
    assert (tmp_path / "p.yaml").read_text(encoding="utf-8").startswith("# gpu-advisor draft:")
    assert window.document.draft


def test_the_wizard_shows_it_at_the_field():
    from ui.window.answers import answers_from_profile, set_path, validate_answers

    data = answers_from_profile(Profile())
    set_path(data, "economics.time_value", "revenue")
    profile, found = validate_answers(data)
    assert profile is None and list(found) == ["economics.value_per_day"]
    set_path(data, "economics.value_per_day", 500)
    profile, found = validate_answers(data)
    assert found == {} and profile.economics.value_per_day == 500


def test_the_wizard_window_marks_the_field(qtbot):
    from tests.support.ui import make_window

    window = make_window(qtbot)
    page = next(p for p in window.pages if p.page.key == "habits")
    time_value = page.editors["economics.time_value"].input
    index = time_value.findData("revenue")
    time_value.setCurrentIndex(index)
    time_value.activated.emit(index)
    value = page.editors["economics.value_per_day"]
    assert not value.error_label.isHidden() and value.error_label.text() == "is required"
    qtbot.keyClicks(value.input, "800")
    assert value.error_label.isHidden()
    assert window.answers.profile.economics.value_per_day == 800
