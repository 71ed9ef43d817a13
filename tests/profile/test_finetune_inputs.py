"""The fine-tuning inputs (issue 17): the method with its LoRA rank and share, the optimizer,
offload and the machine's RAM; LoRA / QLoRA and offload only for transformer language models,
refused elsewhere in both languages; out-of-range values name their field."""

from __future__ import annotations

import pytest

from advisor.profile import Offload, Optimizer, Profile, TrainingMethod
from tests.support.profiles import problems


def test_the_defaults_are_full_training_without_offload():
    t = Profile().training
    assert t.method == TrainingMethod.full and t.offload == Offload.none
    assert t.optimizer == Optimizer.auto and t.lora_rank == 16 and t.lora_target_share == 1.0
    assert not t.is_fine_tuning and Profile().hardware.host_memory_gb is None


def test_lora_implies_fine_tuning_and_round_trips():
    p = Profile.model_validate({"task": "llm", "model": {"params_millions": 7000},
                                "training": {"single_gpu_hours": 5, "method": "qlora",
                                             "lora_rank": 64, "offload": "optimizer"},
                                "hardware": {"host_memory_gb": 256}})
    assert p.training.is_fine_tuning and p.training.method == TrainingMethod.qlora
    assert Profile.model_validate(p.model_dump(mode="json")) == p


@pytest.mark.parametrize("field, value, fragment_zh", [
    ("method", "lora", "LoRA 和 QLoRA 只适用于"), ("offload", "optimizer", "只适用于")])
def test_methods_and_offload_are_refused_for_a_vision_task(field, value, fragment_zh):
    found = problems("schema_version: 1\ntask: image_classification\n"
                     f"training: {{single_gpu_hours: 5, {field}: {value}}}\n")
    assert any(f"training.{field}" in p.message_en and "transformer" in p.message_en
               for p in found), [p.message_en for p in found]
    assert any(fragment_zh in p.message_zh for p in found)


@pytest.mark.parametrize("section, field, value", [
    ("training", "lora_rank", 0), ("training", "lora_target_share", 1.5),
    ("training", "lora_target_share", 0), ("hardware", "host_memory_gb", 0),
    ("training", "method", "dora"), ("training", "offload", "nvme")])
def test_out_of_range_values_name_their_field(section, field, value):
    found = problems(f"schema_version: 1\ntask: llm\n{section}: {{{field}: {value}}}\n"
                     + ("training: {single_gpu_hours: 5}\n" if section != "training" else ""))
    assert any(field in p.path for p in found), [(p.path, p.message_en) for p in found]
