"""gpu-advisor project: JSON and bilingual text output, exit codes."""

from __future__ import annotations

import json

from advisor.cli import main
from tests.support.paths import ROOT

ROOT = ROOT
EXAMPLE = str(ROOT / "examples" / "medium-model-4gpu-worth-it.yaml")
LARGE = str(ROOT / "examples" / "large-model-8plus-gpus-required.yaml")
KEYS = {"gpus", "speedup", "speedup_low", "speedup_high", "efficiency", "step_time_s",
        "bottleneck", "memory_per_gpu_gb", "fits", "nodes", "run_hours", "parallelism"}


def test_json_output(capsys):
    assert main(["project", EXAMPLE, "--gpus", "1,2,4", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert KEYS <= set(data)
    assert data["gpus"] == [1, 2, 4] and data["speedup"][0] == 1.0
    assert all(len(data[k]) == 3 for k in KEYS)


def test_text_output_in_both_languages(capsys):
    assert main(["--lang", "en", "project", LARGE, "--gpus", "1,8,16"]) == 0
    en = capsys.readouterr().out
    assert "speed-up" in en and "memory" in en and "note:" in en
    assert main(["--lang", "zh", "project", LARGE, "--gpus", "1,8,16"]) == 0
    zh = capsys.readouterr().out
    assert "加速比" in zh and "显存" in zh and "注：" in zh


def test_json_notes_follow_language(capsys):
    assert main(["--lang", "zh", "project", LARGE, "--format", "json", "--gpus", "1,2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "notes_zh" not in data and "显存" in data["notes"][0]


def test_bad_gpu_list_exits_2(capsys):
    assert main(["project", EXAMPLE, "--gpus", "1,x"]) == 2
    assert "--gpus" in capsys.readouterr().err
    assert main(["project", EXAMPLE, "--gpus", "0"]) == 2


def test_more_gpus_than_the_machine_projects_on_more_machines(capsys):
    # the issue's own example: "what if I had 16?" is answered, with the assumption stated
    assert main(["project", EXAMPLE, "--gpus", "1,2,4,8,16", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["gpus"] == [1, 2, 4, 8, 16] and all(s > 0 for s in out["speedup"])
    assert any("25 GbE" in note for note in out["notes"])


NEARLY = str(ROOT / "tests" / "profiles" / "verdict" / "llama8b-qlora-one-3060-nearly-holds.yaml")
AT_LIMIT = str(ROOT / "tests" / "profiles" / "verdict" / "owns-2x4090-compare-mode.yaml")


def test_counts_within_the_memory_estimates_spread_of_the_limit_are_named(capsys):
    """Issue 31: `project` says what `recommend` says of the memory at the card's limit."""
    assert main(["--lang", "en", "project", NEARLY, "--gpus", "1,2"]) == 0
    en = capsys.readouterr().out
    assert "Memory at the limit" in en and "1 GPU 103 % (may still fit)" in en
    assert main(["--lang", "zh", "project", NEARLY, "--gpus", "1,2"]) == 0
    assert "1 卡 103%（仍可能放得下）" in capsys.readouterr().out
    assert main(["--lang", "en", "project", AT_LIMIT, "--gpus", "1,2"]) == 0
    assert "2 GPUs 91 % (may still run out of memory)" in capsys.readouterr().out
    assert main(["project", NEARLY, "--gpus", "1,2", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["memory_at_limit"] == [True, False] and data["fits"][0] is False


def test_no_note_where_the_spread_was_not_measured_or_every_count_has_room(capsys):
    # a ResNet (the spread was measured on language models) and a 13B fine-tune with room
    assert main(["--lang", "en", "project", EXAMPLE, "--gpus", "1,2,4"]) == 0
    assert "Memory at the limit" not in capsys.readouterr().out
    roomy = str(ROOT / "tests" / "profiles" / "verdict" / "llm13b-h100-rented-day-5000.yaml")
    assert main(["project", roomy, "--format", "json", "--gpus", "16"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert not any(data["memory_at_limit"]) and all(data["fits"])
