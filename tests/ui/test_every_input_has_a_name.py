"""Issue 34 (part): a screen reader hears every input's name — its label (and unit), in the
app's language — and a field's message with the field (its accessible description)."""

from __future__ import annotations

from tests.support.ui import make_window


def test_every_input_is_named_by_its_label_in_both_languages(qtbot):
    window = make_window(qtbot, "en", None, threaded=False)
    editors = [e for page in window.pages for e in page.editors.values()]
    assert len(editors) >= 60
    for lang in ("en", "zh"):
        window.hub.set_language(lang)
        for editor in editors:
            name = editor.input.accessibleName()
            # the label's title, not its text: no mnemonic's '&' is read aloud (issue 34)
            assert name and name.startswith(editor.spec.title(lang)), (lang, editor.spec.key)
            assert "&" not in name, (lang, name)
    assert window.pages[0].editors["model.name"].input.accessibleName() == "模型名称"


def test_a_fields_message_is_read_with_the_field(qtbot, monkeypatch):
    from ui.forms import editors

    announced = []
    monkeypatch.setattr(editors, "announce", announced.append)
    window = make_window(qtbot, "en", None, threaded=False)
    editor = window.pages[0].editors["model.params_millions"]
    editor.set_error("must be ≥ 0.001, got -5")
    assert editor.input.accessibleDescription() == "must be ≥ 0.001, got -5"
    assert announced == [editor.input]  # told as it appears
    editor.set_error("must be ≥ 0.001, got -5")
    assert announced == [editor.input]  # the same message again: not told twice
    editor.set_error(None)
    assert editor.input.accessibleDescription() == "" and len(announced) == 2


def test_announcing_a_message_reaches_qts_accessibility_layer(qtbot):
    from PySide6.QtWidgets import QLineEdit

    from ui.forms.editors import announce

    field = QLineEdit()
    qtbot.addWidget(field)
    field.setAccessibleDescription("is required")
    announce(field)  # no assistive technology here: the event is built and sent, no error
