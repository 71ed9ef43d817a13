"""Sizes whose product passes 2^63 stay sizes (issue 35, class 13): a 10-million-token
sequence, 16 million sequences per GPU and a width of a million, every one within the
schema's bounds, wrapped around int64 to about -1.5e11 GB per GPU, and such a model "fit"."""

from __future__ import annotations

import math

import pytest

from advisor import project
from advisor.profile import Profile
from advisor.profile.workload import ModelSpec, TrainingSpec


def _maximum(model, name: str) -> int:
    """The schema's upper bound of a field (read from the model, not copied here)."""
    for meta in model.model_fields[name].metadata:
        if getattr(meta, "le", None) is not None:
            return int(meta.le)
    raise AssertionError(name)


def _at_the_maxima(parallelism: str) -> Profile:
    sequence = _maximum(ModelSpec, "sequence_length")
    hidden = _maximum(ModelSpec, "hidden_size")
    batch = _maximum(TrainingSpec, "batch_per_gpu")
    assert sequence * hidden * batch > 2**63  # the case: past int64
    return Profile.model_validate({
        "schema_version": 1, "task": "llm",
        "model": {"name": "wide", "params_millions": 7000, "layers": 32, "hidden_size": hidden,
                  "sequence_length": sequence, "attention_heads": 32},
        "training": {"dataset_tokens": 1e15, "global_batch": _maximum(TrainingSpec,
                                                                      "global_batch"),
                     "batch_per_gpu": batch, "precision": "bf16", "parallelism": parallelism},
        "hardware": {"gpu": "h100_sxm", "gpus_per_node": 8, "intra_link": "nvswitch"}})


@pytest.mark.parametrize("parallelism", ["fsdp", "zero3", "hsdp", "data", "pipeline"])
def test_a_model_at_the_schemas_maxima_needs_positive_finite_memory_and_fits_nowhere(
        parallelism):
    projection = project(_at_the_maxima(parallelism))
    assert all(math.isfinite(m) and m > 0 for m in projection.memory_per_gpu_gb)
    assert not any(projection.fits)
    # activations alone: a sequence of 10^7 tokens x 10^6 wide is 2e13 bytes per sample
    assert min(projection.memory_per_gpu_gb) > 1e4
