"""A changed training section inside one piece of work: validated once per distinct result,
each caller holding a section of its own that is what a fresh validation makes."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.catalog.profile_check import load_profile
from advisor.profile import ActivationCheckpointing, TrainingSpec
from advisor.verdict.changed_training import changed_training, validating_once
from advisor.verdict.shared_projections import sharing_projections

ROOT = Path(__file__).resolve().parents[2]
TRAINING = load_profile(ROOT / "examples" / "plan-7b-on-one-8xh100.yaml").training
FULL = {"activation_checkpointing": ActivationCheckpointing.full}


def _counting(monkeypatch) -> list[int]:
    calls = [0]
    validate = TrainingSpec.model_validate.__func__

    def counted(cls, *args, **kwargs):
        calls[0] += 1
        return validate(cls, *args, **kwargs)

    monkeypatch.setattr(TrainingSpec, "model_validate", classmethod(counted))
    return calls


def test_one_validation_per_distinct_section_each_caller_its_own(monkeypatch):
    fresh = TRAINING.model_validate({**TRAINING.model_dump(), **FULL})
    calls = _counting(monkeypatch)
    with sharing_projections():
        first, second = changed_training(TRAINING, FULL), changed_training(TRAINING, FULL)
        copy = TRAINING.model_copy()  # another object, the same fields: the same key
        third = changed_training(copy, FULL)
        other = changed_training(TRAINING, {"batch_per_gpu": 2})
    assert calls[0] == 2
    assert first is not second and second is not third
    for made in (first, second, third):
        assert type(made) is type(fresh) and made.model_dump() == fresh.model_dump()
    assert other.batch_per_gpu == 2 and other.activation_checkpointing == \
        TRAINING.activation_checkpointing


def test_outside_a_block_every_call_validates(monkeypatch):
    calls = _counting(monkeypatch)
    changed_training(TRAINING, FULL)
    changed_training(TRAINING, FULL)
    with validating_once():
        pass
    changed_training(TRAINING, FULL)
    assert calls[0] == 3


def test_a_section_that_fails_validation_raises_every_time():
    with validating_once():
        for _ in range(2):
            with pytest.raises(ValueError, match="batch_per_gpu"):
                changed_training(TRAINING, {"batch_per_gpu": 0})
