"""Issue 35: inputs a hostile tester found that crashed or answered on defaults now end
cleanly: exit 0 with an answer, or exit 2 naming the file, field and line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import advisor
from advisor.catalog.profile_check import load_profile
from advisor.cli import main
from tests.support.paths import EXAMPLES

MEDIUM = EXAMPLES / "medium-model-4gpu-worth-it.yaml"


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "p.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_run_moved_to_a_much_slower_card_is_compared_not_refused(tmp_path, capsys):
    # 90,000 h on a T4 is about 113,000 h on some option's card: beyond what a user may type,
    # not beyond what the same run takes there (class 1)
    path = _write(tmp_path, "schema_version: 1\ntask: llm\n"
                  "model: {name: tiny, params_millions: 125, layers: 12, hidden_size: 768, "
                  "sequence_length: 1024}\n"
                  "training: {single_gpu_hours: 90000, runs_per_month: 0.01}\n"
                  "hardware: {gpu: t4, gpus_per_node: 4}\n"
                  "economics: {mode: cloud, currency: USD}\n")
    assert main(["compare", str(path), "--lang", "en"]) == 0
    assert "Compare setups" in capsys.readouterr().out


@pytest.mark.parametrize("value", ["5e-324", "1e-300", "0.0005"])
def test_a_vanishing_parameter_count_is_refused(tmp_path, capsys, value):
    path = _write(tmp_path, "schema_version: 1\nmodel: {name: m, params_millions: "
                  f"{value}}}\ntraining: {{single_gpu_hours: 10}}\n")
    for command in ("recommend", "project", "costs", "compare"):
        assert main([command, str(path), "--lang", "en"]) == 2
        err = capsys.readouterr().err
        assert f"{path}:2: model.params_millions: must be ≥ 0.001" in err


def test_true_is_not_a_number(tmp_path, capsys):
    path = _write(tmp_path, "schema_version: 1\ntraining: {single_gpu_hours: 10}\n"
                  "hardware: {gpu: rtx4090, gpus_per_node: true}\n")
    assert main(["recommend", str(path), "--lang", "zh"]) == 2
    assert f"{path}:3: hardware.gpus_per_node: 必须是数值" in capsys.readouterr().err


def test_a_profile_of_defaults_alone_is_refused(tmp_path, capsys):
    path = _write(tmp_path, "schema_version: 1\n")
    assert main(["recommend", str(path), "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert f"{path}:1: training: missing: give single_gpu_hours" in err


@pytest.mark.parametrize("spec", ["4x rtx4090 own cloud", "4x rtx4090 pcie4 pcie5",
                                  "4x 8x rtx4090"])
def test_contradictory_option_words_are_refused(capsys, spec):
    assert main(["compare", str(MEDIUM), "--option", spec, "--lang", "en"]) == 2
    assert "contradict each other" in capsys.readouterr().err


def test_the_public_compare_works_every_time():
    profile = load_profile(MEDIUM)
    first = advisor.compare(profile)
    again = advisor.compare(profile)
    advisor.recommend(profile)
    after = advisor.compare(profile)
    assert first.model_dump_json() == again.model_dump_json() == after.model_dump_json()


@pytest.mark.parametrize(("line", "value", "tag"), [
    ("training: {single_gpu_hours: !!int abc}", "abc", "int"),
    ("training: {single_gpu_hours: 10, fine_tuning: !!bool maybe}", "maybe", "bool"),
    ("training: {single_gpu_hours: 10}\nmodel: {name: !!timestamp x}", "x", "timestamp"),
    ("training: {single_gpu_hours: 10}\nmodel: {name: 2023-02-29}", "2023-02-29", "timestamp"),
    ("training: {single_gpu_hours: 10}\nmodel: {name: 2024-01-01 25:00:00}",
     "2024-01-01 25:00:00", "timestamp"),
])
def test_a_value_its_tag_cannot_hold_names_its_line(tmp_path, capsys, line, value, tag):
    path = _write(tmp_path, f"schema_version: 1\n{line}\n")
    assert main(["recommend", str(path), "--lang", "en"]) == 2
    at = 1 + line.count("\n") + 1
    assert f"{path}:{at}: {value!r} cannot be read as {tag}" in capsys.readouterr().err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (POSIX)")
def test_a_fifo_or_endless_device_in_the_cache_is_rebuilt_not_read(tmp_path):
    """Issue 35, class 9: the compiled-data cache is read only when it is a regular file of a
    sane size; a FIFO in its place blocked every command, a link to /dev/zero grew without
    end."""
    from advisor.files import builtin_data

    source = tmp_path / "source.yaml"
    source.write_text("a: 1\n", encoding="utf-8")
    env = {"GPU_ADVISOR_CACHE_DIR": str(tmp_path / "cache")}
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        built = builtin_data.compiled("probe", [source], lambda: {"a": 1}, ["files"])
        stored = next((tmp_path / "cache").glob("probe-*.pickle"))
        stored.unlink()
        os.mkfifo(stored)  # a reader would wait for a writer forever
        assert builtin_data.compiled("probe", [source], lambda: {"a": 1}, ["files"]) == built
        stored.unlink(missing_ok=True)
        if Path("/dev/zero").exists():
            stored.symlink_to("/dev/zero")
            assert builtin_data.compiled("probe", [source], lambda: {"a": 1}, ["files"]) == built
