"""Profiles the tests write or build: a profile's first lines and the problems its check
reports, a profile text written to a test's folder, a 70B fine-tune too large for its machine,
and the profile shape the projection tests vary."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.catalog.profile_check import parse_profile_text
from advisor.files.errors import InputError
from advisor.profile import Profile

HEAD = "schema_version: 1\ntraining: {single_gpu_hours: 20}\n"


def problems(text: str):
    """The problems the profile check reports for ``text`` (it must report some)."""
    with pytest.raises(InputError) as err:
        parse_profile_text(text)
    return err.value.problems


def write_file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# A 70B full fine-tune on 8 x RTX 4090: no count of these cards in one machine holds it.
LLAMA_70B = """schema_version: 1
task: llm
model: {name: Llama-2 70B full fine-tune, params_millions: 70000, layers: 80,
        hidden_size: 8192, sequence_length: 4096}
training: {single_gpu_hours: 2000, runs_per_month: 1, batch_per_gpu: 1, precision: bf16,
           input_pipeline: tuned}
hardware: {gpu: rtx4090, gpus_per_node: 8, intra_link: pcie4}
economics: {mode: compare, currency: CNY, time_value: deadline, value_per_day: 3000}
"""

ECONOMICS = {"mode": "cloud", "currency": "USD", "time_value": "revenue", "value_per_day": 300}


def scaling_profile(task: str, model: dict, training: dict, hardware: dict) -> Profile:
    """A profile of these parts, rented at $300 a day of revenue."""
    return Profile.model_validate({"schema_version": 1, "task": task, "model": model,
                                   "training": training, "hardware": hardware,
                                   "economics": ECONOMICS})
