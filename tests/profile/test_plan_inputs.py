"""The inputs a large-model plan needs: the run's size instead of a measured time, the global
batch, tensor / pipeline degrees that divide the model, and activation checkpointing as
none / selective / full (older profiles' true / false still read)."""

from __future__ import annotations

import pytest

from advisor.profile import ActivationCheckpointing, Profile
from tests.support.profiles import problems

BASE = "schema_version: 1\ntask: llm\n"


def _training(**values) -> Profile:
    return Profile.model_validate({"schema_version": 1, "task": "llm",
                                   "model": {"params_millions": 7000, "hidden_size": 4096,
                                             "attention_heads": 32},
                                   "training": values})


@pytest.mark.parametrize("given, read", [(True, "full"), (False, "none"),
                                         ("selective", "selective"), ("full", "full")])
def test_checkpointing_reads_old_yes_no_and_the_three_modes(given, read):
    p = _training(single_gpu_hours=10, activation_checkpointing=given)
    assert p.training.activation_checkpointing == ActivationCheckpointing(read)
    assert Profile.model_validate(p.model_dump(mode="json")) == p  # saved as the mode


def test_an_unknown_checkpointing_mode_is_refused_with_its_choices():
    found = problems(BASE + "training: {single_gpu_hours: 5, activation_checkpointing: some}\n")
    assert any("activation_checkpointing" in p.path for p in found)


def test_a_run_planned_from_its_tokens_needs_no_measured_time():
    p = _training(dataset_tokens=2e12)
    assert p.training.planned_from_size and p.run_hours_one_gpu is None
    assert not _training(single_gpu_hours=3).training.planned_from_size
    assert _training(dataset_samples=1000, epochs=2).training.planned_from_size


def test_without_time_or_size_the_message_names_every_way_in_both_languages():
    found = problems(BASE + "training: {batch_per_gpu: 4}\n")
    text = " ".join(p.message_en for p in found)
    assert "dataset_tokens" in text and "single_gpu_hours" in text
    assert any("dataset_tokens" in p.message_zh and "计算量" in p.message_zh for p in found)


def test_tensor_parallel_must_divide_the_heads():
    found = problems(BASE + "model: {params_millions: 7000, hidden_size: 4096, "
                     "attention_heads: 32}\ntraining: {single_gpu_hours: 5, "
                     "tensor_parallel: 3}\n")
    # named at its own field and line, with both numbers (a user review: line 1, no values)
    assert any(p.path == "training.tensor_parallel" and p.line is not None
               and "3 must divide model.attention_heads (32)" in p.message_en for p in found)
    assert any("整除" in p.message_zh for p in found)
    _training(single_gpu_hours=5, tensor_parallel=8)  # 8 divides 32: fine


def test_heads_must_divide_the_width():
    found = problems(BASE + "model: {params_millions: 7000, hidden_size: 4096, "
                     "attention_heads: 30}\ntraining: {single_gpu_hours: 5}\n")
    assert any("attention_heads must divide hidden_size" in p.message_en for p in found)


@pytest.mark.parametrize("field, value", [("global_batch", 0), ("tensor_parallel", 0),
                                          ("pipeline_parallel", 0), ("dataset_tokens", -1),
                                          ("pipeline_interleave", 0)])
def test_new_counts_have_bounds(field, value):
    found = problems(BASE + f"training: {{single_gpu_hours: 5, {field}: {value}}}\n")
    assert any(field in p.path for p in found)
