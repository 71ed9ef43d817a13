"""Users can override and add GPUs from catalog.yaml in their config folder, validated like
profiles; a broken entry is reported with file, entry and line, and the built-in GPU is kept."""

from __future__ import annotations

import os
from pathlib import Path

from advisor.catalog import catalog_warnings, load_gpus, resolve_gpu
from advisor.catalog.profile_check import parse_profile_text

OVERRIDE = """\
gpus:
  - {id: rtx4090, tdp_w: 400, source: "power-limited card"}
  - id: rtx3050
    name: GeForce RTX 3050 8GB
    class: consumer
    memory_gb: 12
    tflops_fp16_dense: 25.5
    tflops_fp32: 12.7
    tdp_w: 170
    pcie_gen: 4
  - {id: t4, memory_gb: -16}
  - {id: l4, tdp_watts: 70}
"""


def _write(text: str) -> Path:
    path = Path(os.environ["GPU_ADVISOR_CONFIG_DIR"]) / "catalog.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_user_gpus_override_and_add() -> None:
    path = _write(OVERRIDE)
    gpus = load_gpus()
    assert gpus["rtx4090"].tdp_w == 400 and gpus["rtx4090"].memory_gb == 24
    assert gpus["rtx4090"].source == "power-limited card"
    added = resolve_gpu("rtx3050")
    assert added.memory_gb == 12 and added.source.startswith("user override")
    assert gpus["t4"].memory_gb == 16 and gpus["l4"].tdp_w == 72  # broken entries: built-in kept
    warnings = {w.entry: w for w in catalog_warnings()}
    assert warnings["gpus[t4]"].line == 11 and "memory_gb" in warnings["gpus[t4]"].render("en")
    assert "tdp_watts" in warnings["gpus[l4]"].render("en")
    assert str(path) in warnings["gpus[l4]"].render("zh")
    profile = parse_profile_text("training: {single_gpu_hours: 24}\n"
                                 "hardware: {gpu: rtx3050, gpus_per_node: 2}\n")
    assert profile.hardware.gpu == "rtx3050"


def test_no_override_file_means_the_built_in_gpus() -> None:
    assert "rtx3050" not in load_gpus()
    assert load_gpus()["rtx4090"].tdp_w == 450
    assert not [w for w in catalog_warnings() if w.entry.startswith("gpus")]


def test_a_broken_file_keeps_every_built_in_gpu() -> None:
    _write("gpus: {not: a list\n")
    assert load_gpus()["rtx4090"].tdp_w == 450
    assert catalog_warnings()  # the file is reported once, by the catalog loader


def test_one_piece_of_work_reads_one_state_of_the_override_file() -> None:
    """Inside ``one_override_state`` (a comparison, a recommendation) the file is read as it
    was when the work began; an edit counts from the next piece of work on."""
    import threading

    from advisor.catalog.override_location import one_override_state

    with one_override_state():
        assert load_gpus()["rtx4090"].tdp_w == 450
        _write(OVERRIDE)
        assert load_gpus()["rtx4090"].tdp_w == 450  # the state the work began with
        seen = []  # another thread (the wizard's worker) is not held to this one's state
        worker = threading.Thread(target=lambda: seen.append(load_gpus()["rtx4090"].tdp_w))
        worker.start()
        worker.join()
        assert seen == [400]
    assert load_gpus()["rtx4090"].tdp_w == 400
