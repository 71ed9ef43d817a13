"""Issue 31, cause 2 and "done when": the output states which memory it reports (what PyTorch
allocates plus the CUDA context) and how it reads in nvidia-smi (MiB, with the allocator's
reserve), in both languages; a card's nominal GB are GiB (``card_memory.capacity_gb``), and the
usable memory is a share of those bytes, the same in every path."""

from __future__ import annotations

import re

import pytest

from advisor.profile import Profile
from advisor.scaling import project
from advisor.scaling.card_memory import ALLOCATOR_RESERVE, MIB, capacity_gb, usable_gb
from advisor.scaling.parameters import load_params


def _profile(task: str, model: dict, gpu: str) -> Profile:
    return Profile.model_validate({
        "task": task, "model": model,
        "training": {"single_gpu_hours": 10, "batch_per_gpu": 8, "precision": "bf16"},
        "hardware": {"gpu": gpu, "gpus_per_node": 4, "intra_link": "pcie4"},
        "economics": {"mode": "cloud", "currency": "USD"}})


def test_an_80_gb_card_holds_80_gib():
    assert capacity_gb(80) == pytest.approx(85.899, abs=1e-3)
    assert usable_gb(80, load_params()) == pytest.approx(80 * 2 ** 30 / 1e9
                                                         * load_params().memory_usable_fraction)


@pytest.mark.parametrize("task,model", [
    ("image_classification", {"name": "ResNet-50", "params_millions": 25.6}),
    ("llm", {"name": "7B", "params_millions": 6740, "layers": 32, "hidden_size": 4096,
             "attention_heads": 32, "sequence_length": 2048})])
def test_every_projection_says_which_memory_it_reports_in_both_languages(task, model):
    proj = project(_profile(task, model, "a100_sxm4_80gb"))
    en = [n for n in proj.notes if "nvidia-smi" in n]
    zh = [n for n in proj.notes_zh if "nvidia-smi" in n]
    assert len(en) == 1 and len(zh) == 1
    assert "PyTorch allocates" in en[0] and "85.9 GB" in en[0]
    assert "PyTorch 峰值分配量" in zh[0] and "85.9 GB" in zh[0]
    shown = next(m for m, ok in zip(proj.memory_per_gpu_gb, proj.fits, strict=True) if ok)
    mib = f"{shown * 1e9 * ALLOCATOR_RESERVE / MIB:,.0f}"
    assert abs(float(mib.replace(",", "")) - float(
        en[0].split(" MiB there")[0].rsplit(" ", 1)[-1].replace(",", ""))) <= 20
    # the same figures in both languages
    figures = re.compile(r"\d[\d,]*(?:\.\d+)?")
    assert set(figures.findall(en[0])) == set(figures.findall(zh[0]))
    assert proj.usable_memory_gb == pytest.approx(usable_gb(80, load_params()), abs=0.01)
