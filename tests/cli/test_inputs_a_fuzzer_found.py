"""Inputs a fuzzing review of the CLI (2026-12-07) found ending badly: each one now ends with
exit 0, or exit 2 and a message naming the file, the field and the line in the user's
language, never "internal error" (exit 1) nor English inside a Chinese message."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from advisor.cli import main
from advisor.profile import TrainingSpec
from advisor.profile.field_meta import field_meta
from advisor.verdict.setting_changes import accumulation, batch_sizes
from tests.support.paths import EXAMPLES

MEDIUM = EXAMPLES / "medium-model-4gpu-worth-it.yaml"
MEASURED = EXAMPLES / "measured-4gpu-only-1.8x-diagnose.yaml"


def _edited(tmp_path: Path, source: Path, old: str, new: str, name: str = "p.yaml") -> Path:
    text = source.read_text(encoding="utf-8")
    assert re.search(old, text, flags=re.M), old
    out = tmp_path / name
    out.write_text(re.sub(old, new, text, count=1, flags=re.M), encoding="utf-8")
    return out


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, row in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if needle in row)


@pytest.mark.parametrize("command", ["recommend", "costs", "compare"])
def test_a_batch_too_large_to_split_within_the_accumulation_bound_still_gets_an_answer(
        tmp_path, capsys, command):
    """A batch of 630,785 split to one sample asked for 7,421 accumulation steps, past the
    field's 4,096: the rented setup's change failed validation and the answer stopped."""
    profile = _edited(tmp_path, MEDIUM, r"batch_per_gpu: \d+", "batch_per_gpu: 630785")
    assert main([command, str(profile), "--lang", "en"]) == 0
    assert "internal error" not in capsys.readouterr().err


def test_smaller_batches_never_ask_for_more_accumulation_steps_than_a_profile_may_say():
    from advisor.catalog.profile_check import load_profile

    bound = field_meta(TrainingSpec, "gradient_accumulation_steps")["le"]
    medium = load_profile(MEDIUM)
    for batch, steps in ((630_785, 1), (16_777_216, 1), (4096, 3), (8, 4096)):
        t = medium.training.model_copy(update={"batch_per_gpu": batch,
                                               "gradient_accumulation_steps": steps})
        profile = medium.model_copy(update={"training": t})
        for size in batch_sizes(profile):
            change = accumulation(profile, size)
            assert change.training["gradient_accumulation_steps"] <= bound
            change.apply(profile)  # validates
    t = medium.training.model_copy(update={"batch_per_gpu": 8,
                                           "gradient_accumulation_steps": bound})
    assert batch_sizes(medium.model_copy(update={"training": t})) == []


@pytest.mark.parametrize("lang, said", [("en", "must be ≥ 1.0, got 0.5"),
                                        ("zh", "必须 ≥ 1.0，实际为 0.5")])
def test_a_custom_gpu_the_catalog_could_not_take_is_refused_by_the_profile(tmp_path, capsys,
                                                                          lang, said):
    """A custom card of 0.5 GB passed the profile and failed deep in the catalog (exit 1)."""
    profile = _edited(tmp_path, MEDIUM, r"gpu: rtx4090",
                      "gpu: {name: Tiny, memory_gb: 0.5, tflops_fp16: 10, tflops_fp32: 5}")
    assert main(["validate", str(profile), "--lang", lang]) == 2
    err = capsys.readouterr().err
    line = _line_of(profile, "memory_gb: 0.5")
    assert f"{profile}:{line}: hardware.gpu.memory_gb: {said}" in err


def test_an_nvidia_smi_memory_size_no_card_has_is_left_out_not_divided(tmp_path, capsys):
    """A 320-digit MiB count overflowed a float division while the card's name was matched."""
    smi = tmp_path / "smi.txt"
    smi.write_text(
        "| NVIDIA-SMI 550.127.05             Driver Version: 550.127.05     CUDA Version: 12.4"
        "     |\n"
        "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. "
        "ECC |\n"
        "| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  "
        "Compute M. |\n"
        "|=========================================+========================+==============="
        "=======|\n"
        "|   0  NVIDIA GeForce RTX 4090        On  |   00000000:01:00.0 Off |                "
        "  Off |\n"
        f"|  0%   28C    P8             20W /  450W |       2MiB /  {'9' * 400}MiB |      0%"
        "      Default |\n", encoding="utf-8")
    assert main(["import-smi", str(smi), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "left out, as no GPU can report such values: memory size" in out
    assert main(["import-smi", str(smi), "--lang", "zh"]) == 0
    assert "已略去显卡不可能给出的读数：显存容量" in capsys.readouterr().out


def test_a_data_set_of_less_than_one_token_is_refused_and_no_run_reads_zero_minutes(
        tmp_path, capsys):
    from advisor.text.durations import duration

    plan = EXAMPLES / "plan-70b-pretraining-from-tokens.yaml"
    profile = _edited(tmp_path, plan, r"dataset_tokens: \S+", "dataset_tokens: 1.0e-300")
    assert main(["recommend", str(profile), "--lang", "en"]) == 2
    assert "training.dataset_tokens: must be ≥ 1.0" in capsys.readouterr().err
    assert duration(1e-6, "en") == "under 1 min" and duration(1e-6, "zh") == "不到 1 分钟"
    assert duration(0.01, "en") == "1 min"


@pytest.mark.parametrize("lang, said", [("en", "a number of 5000 digits is too long"),
                                        ("zh", "数字过长（5000 位）")])
def test_a_number_too_long_to_read_names_its_field_and_its_digits(tmp_path, capsys, lang, said):
    profile = _edited(tmp_path, MEDIUM, r"single_gpu_hours: \d+",
                      "single_gpu_hours: " + "9" * 5000)
    assert main(["validate", str(profile), "--lang", lang]) == 2
    line = _line_of(profile, "9" * 50)
    assert f"{profile}:{line}: training.single_gpu_hours: {said}" in capsys.readouterr().err
    flow = tmp_path / "flow.yaml"  # a flow mapping names the key inside it
    flow.write_text("schema_version: 1\nmodel: {name: x, shape: {a: 1}, params_millions: "
                    + "9" * 600 + "}\n", encoding="utf-8")
    assert main(["validate", str(flow), "--lang", lang]) == 2
    assert f"{flow}:2: model.params_millions: " in capsys.readouterr().err


@pytest.mark.parametrize("text, zh", [
    ("a: b: c\n", "这里不能有“键: 值”"),
    ("a:\n\tb: 1\n", "缩进只能用空格，不能用制表符"),
    ("a: \"x\nb\n", "文件意外结束"),
    ("a: b\na: c\n", "重复的键 'a'（第 1 行已有）"),
    ("a:\n  b: 1\n c: 2\n", "缩进不一致"),
    ("1: x\n", "键必须是文本，实际为 1"),
])
def test_yaml_s_own_complaints_read_in_chinese(tmp_path, capsys, text, zh):
    profile = tmp_path / "bad.yaml"
    profile.write_text(text, encoding="utf-8")
    assert main(["validate", str(profile), "--lang", "zh"]) == 2
    err = capsys.readouterr().err
    assert zh in err and not re.search(r"not allowed|cannot start|end of stream|duplicate key|"
                                       r"block end|Keys should be", err)


def test_a_value_cut_short_says_how_much_in_the_user_s_language(tmp_path, capsys):
    profile = _edited(tmp_path, MEDIUM, r"^task: .*$", "task: " + "x" * 5000)
    assert main(["validate", str(profile), "--lang", "zh"]) == 2
    err = capsys.readouterr().err
    assert "个字符）" in err and "characters)" not in err
    assert main(["validate", str(profile), "--lang", "en"]) == 2
    assert "characters)" in capsys.readouterr().err


@pytest.mark.parametrize("lang, said", [("en", "no-such-dmon.txt: file not found"),
                                        ("zh", "no-such-dmon.txt：找不到文件")])
def test_a_missing_log_a_profile_names_is_said_at_its_field_and_line(tmp_path, capsys, lang,
                                                                     said):
    text = MEASURED.read_text(encoding="utf-8")
    assert "logs:" not in text
    profile = tmp_path / "measured.yaml"
    profile.write_text(text.replace("  points:", "  logs: [no-such-dmon.txt]\n  points:", 1),
                       encoding="utf-8")
    assert main(["validate", str(profile)]) == 0
    capsys.readouterr()
    assert main(["diagnose", str(profile), "--lang", lang]) == 2
    line = _line_of(profile, "no-such-dmon.txt")
    assert f"{profile}:{line}: measured.logs[0]: {said}" in capsys.readouterr().err


def test_a_diagnosis_measured_beyond_4096_gpus_may_extrapolate_to_its_largest_count(
        tmp_path, capsys):
    csv = tmp_path / "m.csv"
    csv.write_text("gpus,throughput\n1,100\n8192,700000\n", encoding="utf-8")
    assert main(["diagnose", str(csv), "--up-to", "8192", "--lang", "en"]) == 0
    capsys.readouterr()
    assert main(["diagnose", str(csv), "--up-to", "4096", "--lang", "en"]) == 2
    assert "between the largest measured count (8192) and 8192" in capsys.readouterr().err


@pytest.mark.parametrize("spec", ["4x rtx 4090", "4 x rtx 4090", "rtx 4090 4x"])
def test_an_option_may_spell_the_card_with_its_number_apart(capsys, spec):
    assert main(["compare", str(MEDIUM), "--option", spec, "--lang", "en"]) == 0
    assert "4 × RTX 4090, own" in capsys.readouterr().out
    assert main(["compare", str(MEDIUM), "--option", "4x 4x rtx4090", "--lang", "en"]) == 2
    assert "'4x' is given twice" in capsys.readouterr().err
    assert main(["compare", str(MEDIUM), "--option", "4x 8x rtx4090", "--lang", "en"]) == 2
    assert "contradict each other" in capsys.readouterr().err


def test_an_unknown_catalog_gpu_is_said_of_the_option_not_of_a_profile(capsys):
    assert main(["catalog", "--gpu", "nope", "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("--gpu: unknown GPU 'nope'") and "hardware.gpu" not in err


@pytest.mark.parametrize("text, en, zh", [("[1]", "got a list", "实际为列表"),
                                          ("null", "got null", "实际为null"),
                                          ('"x"', "got text", "实际为文本")])
def test_a_model_config_that_is_not_an_object_is_said_in_words(tmp_path, capsys, text, en, zh):
    config = tmp_path / "config.json"
    config.write_text(text, encoding="utf-8")
    assert main(["import-model", str(config), "--lang", "en"]) == 2
    assert en in capsys.readouterr().err
    assert main(["import-model", str(config), "--lang", "zh"]) == 2
    err = capsys.readouterr().err
    assert zh in err and "NoneType" not in err and "list" not in err
