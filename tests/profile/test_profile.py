"""The workload profile: loading, saving, validation messages (each at its own field and line,
none spurious), metadata for generated forms."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from advisor.catalog.profile_check import load_profile, parse_profile_text
from advisor.files.errors import InputError
from advisor.profile import (
    EconomicsSpec,
    HardwareSpec,
    ModelSpec,
    Profile,
    TrainingSpec,
    field_meta,
)
from advisor.profile.writing import dump_profile, save_profile
from tests.support.paths import ROOT
from tests.support.profiles import HEAD, problems

ROOT = ROOT
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_loads(path: Path) -> None:
    profile = load_profile(path)
    assert profile.schema_version == 1
    if profile.training.planned_from_size:  # its one-GPU hours come from its FLOPs
        from advisor.scaling import project
        assert project(profile, [1]).run_hours_one_gpu > 0
    else:
        assert profile.run_hours_one_gpu > 0


def test_examples_cover_the_article_scenarios() -> None:
    names = {p.stem for p in EXAMPLES}
    # F17: four decision-table rows; F12: three value-of-time cases.
    assert {"baseline-sweeps-1gpu-not-worth-it", "small-dataset-validation-2gpu-optional",
            "medium-model-4gpu-worth-it", "large-model-8plus-gpus-required",
            "research-deadline-worth-it", "product-tuning-revenue-worth-it",
            "personal-learning-resnet-not-worth-it"} <= names


def test_runs_per_week_and_day_are_converted_to_months() -> None:
    weekly = TrainingSpec(single_gpu_hours=1, runs_per_week=3)
    daily = TrainingSpec(single_gpu_hours=1, runs_per_day=2)
    assert weekly.runs_per_month == pytest.approx(3 * 52 / 12)
    assert daily.runs_per_month == pytest.approx(2 * 365 / 12)


def test_run_length_from_throughput() -> None:
    spec = TrainingSpec(single_gpu_throughput=1000, dataset_samples=1_281_167, epochs=90)
    assert spec.run_hours_for(1.0) == pytest.approx(1_281_167 * 90 / 1000 / 3600)


def test_yaml_error_names_field_and_line() -> None:
    text = "schema_version: 1\nhardware:\n  gpu: rtx4090\n  nodes: 0\n"
    with pytest.raises(InputError) as info:
        parse_profile_text(text, source="p.yaml")
    problem = info.value.problems[0]
    assert problem.path == "hardware.nodes"
    assert problem.line == 4
    assert info.value.render("en") == "p.yaml:4: hardware.nodes: must be ≥ 1, got 0"
    assert "必须 ≥ 1" in info.value.render("zh")


def test_unknown_key_is_named() -> None:
    with pytest.raises(InputError) as info:
        parse_profile_text("schema_version: 1\ntraining:\n  single_gpu_hour: 3\n")
    rendered = info.value.render("en")
    assert "single_gpu_hour" in rendered and "unknown key" in rendered
    assert info.value.problems[0].line == 3


def test_several_problems_are_all_reported() -> None:
    text = "hardware:\n  nodes: 0\n  gpus_per_node: 0\nmodel:\n  params_millions: -1\n"
    with pytest.raises(InputError) as info:
        parse_profile_text(text)
    paths = {p.path for p in info.value.problems}
    assert {"hardware.nodes", "hardware.gpus_per_node", "model.params_millions"} <= paths


def test_custom_gpu_is_accepted() -> None:
    text = ("training: {single_gpu_hours: 24}\n"
            "hardware:\n  gpu: {name: My Card, memory_gb: 20, tflops_fp16: 100, "
            "tflops_fp32: 30}\n")
    profile = parse_profile_text(text)
    assert profile.hardware.gpu.name == "My Card"  # type: ignore[union-attr]


def test_gpu_aliases_resolve() -> None:
    profile = parse_profile_text("training: {single_gpu_hours: 24}\n"
                                 "hardware: {gpu: h100_sxm5, intra_link: nvswitch}\n")
    assert profile.hardware.gpu == "h100_sxm5"


def test_save_is_atomic_and_round_trips(tmp_path: Path) -> None:
    profile = load_profile(EXAMPLES[0])
    for name in ("out.yaml", "out.json"):
        target = tmp_path / name
        save_profile(profile, target)
        assert load_profile(target) == profile
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json", "out.yaml"]


def test_failed_save_leaves_the_old_file(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "keep.yaml"
    target.write_text("original\n")
    import advisor.files.atomic as atomic

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", broken_replace)
    with pytest.raises(InputError):
        save_profile(Profile(), target)
    assert target.read_text() == "original\n"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.yaml"]


def test_unwritable_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InputError) as info:
        save_profile(Profile(), tmp_path / "no" / "such" / "dir" / "p.yaml")
    assert "cannot write" in info.value.render("en")


def test_json_dump_is_plain_data() -> None:
    data = json.loads(dump_profile(Profile(), "json"))
    assert data["task"] == "image_classification"
    assert data["hardware"]["intra_link"] == "pcie4"


def test_yaml_dump_is_safe_yaml() -> None:
    text = dump_profile(Profile())
    assert "!!" not in text
    assert yaml.safe_load(text)["schema_version"] == 1


@pytest.mark.parametrize("model", [ModelSpec, TrainingSpec, HardwareSpec, EconomicsSpec])
def test_every_field_has_bilingual_metadata(model) -> None:
    for name in model.model_fields:
        info = field_meta(model, name)
        assert info["title"] and info["title_zh"], f"{model.__name__}.{name} lacks a title"
        assert info["help"] and info["help_zh"], f"{model.__name__}.{name} lacks help"
        assert info["title_zh"] != info["title"] or name in {"pue"}


def test_bounds_are_exposed_for_forms() -> None:
    info = field_meta(HardwareSpec, "nodes")
    assert info["ge"] == 1 and info["default"] == 1
    assert field_meta(TrainingSpec, "single_gpu_hours")["unit"] == "h"


def test_new_file_follows_the_umask(tmp_path: Path) -> None:
    import os

    old = os.umask(0o022)
    try:
        save_profile(Profile(), tmp_path / "new.yaml")
    finally:
        os.umask(old)
    assert (tmp_path / "new.yaml").stat().st_mode & 0o777 == 0o644


def test_a_custom_gpus_bad_number_has_no_must_be_text():
    text = HEAD + "hardware:\n  gpu: {name: x, memory_gb: 0, tflops_fp16: 10, tflops_fp32: 5}\n"
    found = problems(text)
    assert [(p.path, p.line) for p in found] == [("hardware.gpu.memory_gb", 4)]
    assert found[0].message_en == "must be ≥ 1.0, got 0"  # the catalog's bound (GpuSpec)


def test_a_name_that_is_not_text_still_says_so():
    found = problems(HEAD + "hardware: {gpu: [1, 2]}\n")
    assert any("must be text" in p.message_en for p in found)


@pytest.mark.parametrize("key", ["runs_per_week", "runs_per_day"])
def test_runs_per_period_is_reported_at_its_own_line(key):
    text = f"schema_version: 1\ntraining:\n  single_gpu_hours: 10\n  {key}: -2\n"
    [problem] = problems(text)
    assert (problem.path, problem.line) == (f"training.{key}", 4)
    assert problem.message_en == "must be between 0 and 10000, got -2"
    assert problem.message_zh == "必须在 0 到 10000 之间，实际为 -2"
    [typed] = problems(text.replace("-2", "often"))
    assert (typed.path, typed.line) == (f"training.{key}", 4)
    assert typed.message_en == "must be a number, got 'often'"


def test_two_run_periods_point_at_the_second():
    text = "schema_version: 1\ntraining:\n  single_gpu_hours: 10\n  runs_per_week: 1\n" \
           "  runs_per_day: 1\n"
    [problem] = problems(text)
    assert (problem.path, problem.line) == ("training.runs_per_day", 5)
    assert "runs_per_week, runs_per_day" in problem.message_zh
