"""Issue 32, part 1, in the wizard: the catalog model is a searchable list. Typing filters it
by name and id (every word typed), choosing one fills the fields the model determines (and
the task unless the user chose one; shape fields it does not give are cleared), and Save
writes the id plus what the user changed, which reads back as the same profile."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from advisor.catalog.models import entry_profile_fields, find_model, load_models
from advisor.catalog.profile_check import load_profile
from tests.support.ui import make_window
from ui.forms.editors import ModelEditor
from ui.forms.field_spec import field_spec

SHAPE = ("params_millions", "layers", "hidden_size", "attention_heads", "kv_heads",
         "vocab_size")


def _editor(window) -> ModelEditor:
    return window.pages[0].editors["model.id"]


def _listed(editor) -> list[str]:
    """The ids the list offers now (after what was typed)."""
    search = editor.search
    return [search.index(row, 0).data(Qt.ItemDataRole.UserRole) for row in
            range(search.rowCount())]


def _choose(editor, model_id: str) -> None:
    """What a click on the model in the list does."""
    index = editor.input.findData(model_id)
    assert index > 0, model_id
    editor.input.setCurrentIndex(index)
    editor.input.activated.emit(index)


def test_the_catalog_model_is_a_list_of_every_catalog_model(qtbot):
    assert field_spec("model.id").kind == "model"
    window = make_window(qtbot, "en", None)
    editor = _editor(window)
    assert isinstance(editor, ModelEditor) and editor.input.isEditable()
    ids = [editor.input.itemData(i) for i in range(editor.input.count())]
    assert ids == [None, *(entry.id for entry in load_models())]
    assert editor.input.lineEdit().placeholderText()


@pytest.mark.parametrize(("typed", "wanted", "not_wanted"), [
    ("llama 8b", "llama-3.1-8b", "qwen2.5-7b"),
    ("QWEN2.5-7", "qwen2.5-7b", "llama-3.1-8b"),
    ("resnet", "resnet-50", "vit-b-16"),
    ("meta-llama/Llama-3.1-70B", "llama-3.1-70b", "llama-3.1-8b"),  # its repository
])
def test_typing_filters_the_list_by_name_and_id(qtbot, typed, wanted, not_wanted):
    window = make_window(qtbot, "en", None)
    window.show()
    editor = _editor(window)
    editor.input.setFocus()
    qtbot.keyClicks(editor.input.lineEdit(), typed)
    listed = _listed(editor)
    assert wanted in listed and not_wanted not in listed
    words = typed.lower().split()
    for model_id in listed:
        entry = find_model(model_id)
        names = " ".join([entry.name, entry.id, *entry.aliases, entry.hub or ""]).lower()
        assert all(word in names for word in words), model_id


def test_choosing_a_model_fills_what_it_determines(qtbot):
    window = make_window(qtbot, "en", None)
    editor, page = _editor(window), window.pages[0]
    _choose(editor, "llama-3.1-8b")
    answers, entry = window.answers, find_model("llama-3.1-8b")
    assert answers.get("model.id") == "llama-3.1-8b" and answers.get("task") == "llm"
    for key in SHAPE:
        assert answers.get(f"model.{key}") == getattr(entry, key), key
    assert page.editors["model.layers"].input.text() == str(entry.layers)
    assert answers.get("model.name") == entry.name
    assert answers.profile is not None and answers.profile.model.id == "llama-3.1-8b"
    # a CNN after it: its FLOPs, and no layers or vocabulary left from the Llama
    _choose(editor, "resnet-50")
    resnet = find_model("resnet-50")
    assert answers.get("task") == resnet.task.value
    assert answers.get("model.flops_per_sample_gflops") == resnet.flops_per_sample_gflops
    assert answers.get("model.layers") is None and answers.get("model.vocab_size") is None
    assert editor.input.lineEdit().text().endswith("resnet-50")
    window.history.stack.undo()  # one step: back to the Llama
    assert answers.get("model.id") == "llama-3.1-8b"
    assert answers.get("model.layers") == entry.layers


def test_a_task_the_user_chose_stays(qtbot):
    window = make_window(qtbot, "en", None)
    window.answers.set("task", "nlp")
    _choose(_editor(window), "llama-3.1-8b")
    assert window.answers.get("task") == "nlp"
    assert window.answers.get("model.layers") == find_model("llama-3.1-8b").layers


def test_a_typed_name_is_read_as_the_catalog_reads_it(qtbot):
    window = make_window(qtbot, "en", None)
    editor = _editor(window)
    editor.input.lineEdit().setText("Qwen/Qwen2.5-7B-Instruct")
    editor.input.lineEdit().editingFinished.emit()
    assert window.answers.get("model.id") == "qwen2.5-7b"
    editor.input.lineEdit().setText("llama-3.1-8bb")
    editor.input.lineEdit().editingFinished.emit()
    message = editor.error_text()
    assert "unknown model" in message and "llama-3.1-8b" in message


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_save_writes_the_id_and_what_the_user_changed(qtbot, tmp_path, suffix):
    window = make_window(qtbot, "en", None)
    _choose(_editor(window), "llama-3.1-8b")
    window.answers.set("model.sequence_length", 4096)
    window.answers.set("model.name", "our llama")
    target = tmp_path / f"named{suffix}"
    assert window.document.save_to(target)
    text = target.read_text(encoding="utf-8")
    assert "llama-3.1-8b" in text and "our llama" in text and "4096" in text
    for key in SHAPE:
        assert key not in text, key  # the catalog gives them
    assert '"task"' not in text and "task:" not in text  # the model's own task
    assert load_profile(target) == window.answers.profile


def test_save_keeps_the_files_comments_and_an_override(qtbot, tmp_path):
    source = tmp_path / "mine.yaml"
    source.write_text("# our fine-tune\nmodel:\n  id: qwen2.5-7b  # the base model\n"
                      "training:\n  single_gpu_hours: 30\n", encoding="utf-8")
    window = make_window(qtbot, "en", None, argv=[str(source)])
    entry = find_model("qwen2.5-7b")
    assert window.answers.get("model.layers") == entry.layers  # filled from the catalog
    assert _editor(window).input.currentData() == "qwen2.5-7b"
    window.answers.set("model.params_millions", 7000)
    assert window.document.save_to(source)
    text = source.read_text(encoding="utf-8")
    assert "# our fine-tune" in text and "# the base model" in text
    assert "params_millions: 7000" in text
    assert "layers" not in text and "vocab_size" not in text
    again = load_profile(source)
    assert again == window.answers.profile and again.model.layers == entry.layers


def test_the_fields_a_model_fills_match_the_catalog_reader(qtbot):
    """What the wizard fills is what ``model: {id: ...}`` reads as, for every catalog model
    (the same values, none missed)."""
    window = make_window(qtbot, "en", None)
    editor = _editor(window)
    for entry in load_models():
        _choose(editor, entry.id)
        for key, value in entry_profile_fields(entry).items():
            assert window.answers.get(f"model.{key}") == value, (entry.id, key)


def test_picking_from_the_list_by_keyboard_fills_the_page_and_stays_on_it(qtbot):
    """Typing, Down and Enter pick the model (Enter there is not "next page")."""
    window = make_window(qtbot, "en", None)
    window.show()
    qtbot.waitExposed(window)
    editor = _editor(window)
    editor.input.setFocus()
    qtbot.keyClicks(editor.input.lineEdit(), "llama 3.1 8b")
    popup = editor.input.completer().popup()
    qtbot.waitUntil(popup.isVisible)
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert window.answers.get("model.id") == "llama-3.1-8b"
    assert window.answers.get("model.layers") == find_model("llama-3.1-8b").layers
    qtbot.keyClick(editor.input.lineEdit(), Qt.Key.Key_Return)
    assert window.stack.currentIndex() == 0
