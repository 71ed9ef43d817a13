"""The YAML 1.1 check looks only at the fields that can hold a number: every other field of
every model read from YAML passes any value unlooked-at, and would have before."""

from __future__ import annotations

from pathlib import Path

import pytest

import advisor.catalog  # noqa: F401  (the models read from YAML, to list them)
import advisor.profile  # noqa: F401
from advisor.catalog.profile_check import load_profile
from advisor.files.number_fields import NoYaml11Numbers, _number_fields, _yaml11_in
from advisor.files.yaml_lines import Yaml11Scalar
from advisor.profile import TrainingSpec

ROOT = Path(__file__).resolve().parents[2]


def _models() -> list[type[NoYaml11Numbers]]:
    seen, todo = [], [NoYaml11Numbers]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in seen:
                seen.append(sub)
                todo.append(sub)
    return seen


TEXT = Yaml11Scalar("010", "8")
VALUES = (TEXT, [TEXT], {"a": TEXT})


def test_every_field_left_unchecked_could_never_be_refused():
    models = _models()
    assert len(models) > 10  # the profile sections and the catalog entries
    for model in models:
        for name, field in model.model_fields.items():
            refused = any(_yaml11_in(v, field.annotation) is not None for v in VALUES)
            assert refused == (name in _number_fields(model)), (model.__name__, name)


def test_a_number_field_still_refuses_yaml11_text():
    data = load_profile(ROOT / "examples" / "plan-7b-on-one-8xh100.yaml").training.model_dump()
    assert "dataset_tokens" in _number_fields(TrainingSpec)
    assert "precision" not in _number_fields(TrainingSpec)
    assert TrainingSpec.model_validate(data).model_dump() == data
    with pytest.raises(ValueError, match="plain number, got 010: YAML 1.1 reads it as 8"):
        TrainingSpec.model_validate({**data, "dataset_tokens": TEXT})
