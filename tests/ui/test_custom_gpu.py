"""A GPU that is not in the catalog can be entered in the wizard (issue 19, item 6): "Custom
GPU…" starts it from the chosen card's specs, its fields show and validate like any other,
the results are computed for it, and a file with a custom GPU opens with its fields shown."""

from __future__ import annotations

from advisor.catalog import load_gpus
from advisor.profile import CustomGpu
from advisor.profile.writing import save_profile
from tests.support.ui import make_window, projection_recommend, wait_results


def _hardware(window):
    return next(p for p in window.pages if p.page.key == "hardware")


def _choose_custom(qtbot, window):
    editor = _hardware(window).editors["hardware.gpu"]
    index = editor.input.count() - 1 if isinstance(editor._values[-1], dict) else \
        next(i for i, v in enumerate(editor._values) if not isinstance(v, str | dict))
    editor.input.setCurrentIndex(index)
    editor.input.activated.emit(index)
    return editor


def test_custom_gpu_starts_from_the_chosen_card_and_shows_its_fields(qtbot):
    window = make_window(qtbot, "en", projection_recommend)
    window.show()
    wait_results(qtbot, window)
    page = _hardware(window)
    box = page._custom_gpu_boxes[0]
    assert box.isHidden()  # a catalog card: no fields of its own
    editor = _choose_custom(qtbot, window)
    gpu = window.answers.profile.hardware.gpu
    card = load_gpus()["rtx4090"]  # the default card the custom one starts from
    assert isinstance(gpu, CustomGpu) and gpu.memory_gb == card.memory_gb
    assert gpu.tflops_fp16 == card.tflops_fp16_dense and gpu.tdp_w == card.tdp_w
    assert not box.isHidden()
    assert page.editors["hardware.gpu.memory_gb"].input.text() == "24"
    assert editor.input.currentText() == f"{card.name} (custom)"


def test_custom_gpu_fields_edit_validate_and_compute(qtbot):
    window = make_window(qtbot, "en", projection_recommend)
    window.show()
    wait_results(qtbot, window)
    _choose_custom(qtbot, window)
    page = _hardware(window)
    memory = page.editors["hardware.gpu.memory_gb"]
    memory.input.setText("-3")
    memory.input.textEdited.emit("-3")
    assert "hardware.gpu.memory_gb" in window.answers.all_problems()
    assert memory.error_text()  # at the field, like any other answer
    with qtbot.waitSignal(window.resultsShown, timeout=5000):
        memory.input.setText("48")
        memory.input.textEdited.emit("48")
    name = page.editors["hardware.gpu.name"]
    name.input.setText("Lab card")
    name.input.textEdited.emit("Lab card")
    assert page.editors["hardware.gpu"].input.currentText() == "Lab card (custom)"
    qtbot.waitUntil(lambda: window.results.profile.hardware.gpu.name == "Lab card",
                    timeout=5000)
    assert window.results.profile.hardware.gpu.memory_gb == 48


def test_back_to_a_catalog_card_hides_the_fields(qtbot):
    window = make_window(qtbot, "en", projection_recommend)
    _choose_custom(qtbot, window)
    editor = _hardware(window).editors["hardware.gpu"]
    index = editor._values.index("rtx3090")
    editor.input.setCurrentIndex(index)
    editor.input.activated.emit(index)
    assert window.answers.profile.hardware.gpu == "rtx3090"
    assert _hardware(window)._custom_gpu_boxes[0].isHidden()


def test_a_file_with_a_custom_gpu_opens_with_its_fields(qtbot, tmp_path):
    from advisor.profile import Profile

    profile = Profile.model_validate({"hardware": {"gpu": {
        "name": "Prototype", "memory_gb": 32, "tflops_fp16": 120, "tflops_fp32": 40}}})
    path = tmp_path / "custom.yaml"
    save_profile(profile, path)
    window = make_window(qtbot, "zh", projection_recommend, argv=[str(path)])
    page = _hardware(window)
    assert not page._custom_gpu_boxes[0].isHidden()
    assert page.editors["hardware.gpu.name"].input.text() == "Prototype"
    assert page.editors["hardware.gpu"].input.currentText() == "Prototype（自定义）"
    memory = page.editors["hardware.gpu.memory_gb"]
    assert memory.label.text() == f"显存(&{memory.mnemonic})"  # its Alt+letter (issue 34)
    window.hub.set_language("en")
