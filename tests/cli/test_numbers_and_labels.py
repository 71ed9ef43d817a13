"""The CLI writes numbers as people do: thousands separators, never scientific notation, counts
in the plural with their decimals ("0.5 runs"); and bottlenecks by their labels in both
languages, never raw ids (the JSON keeps the ids)."""

from __future__ import annotations

import json

import pytest

from advisor.cli import main
from advisor.text.numbers import count_text, quantity
from tests.support.paths import ROOT
from tests.support.profiles import LLAMA_70B, write_file

TOKENS = """schema_version: 1
task: llm
model: {name: GPT-2 medium, params_millions: 350}
training: {single_gpu_hours: 20, runs_per_week: 2, batch_per_gpu: 8, precision: bf16}
hardware: {gpu: a100_sxm4_80gb, gpus_per_node: 8, intra_link: nvlink}
economics: {mode: own, currency: USD, time_value: none}
measured:
  unit: tokens/s
  points:
    - {gpus: 1, throughput: 30000}
    - {gpus: 2, throughput: 50000}
    - {gpus: 4, throughput: 70000}
    - {gpus: 8, throughput: 80000}
"""


@pytest.mark.parametrize(("value", "digits", "text"), [
    (30000, 4, "30,000"), (2000, 3, "2,000"), (1129.9, 3, "1,130"), (999.7, 3, "1,000"),
    (844.2, 3, "844"), (35.33, 4, "35.33"), (0.5027, 4, "0.5027"), (0.00012345, 3, "0.000123"),
    (0, 3, "0"), (float("nan"), 3, "—")])
def test_quantity_never_uses_scientific_notation(value, digits, text):
    assert quantity(value, digits) == text


@pytest.mark.parametrize(("value", "text"), [(1, "1 run"), (0, "0 runs"), (0.5, "0.5 runs"),
                                             (2.5, "2.5 runs"), (1200, "1,200 runs")])
def test_counts_take_the_plural_and_keep_their_decimals(value, text):
    assert count_text(value, "run") == text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_diagnose_prints_throughputs_with_separators(capsys, tmp_path, lang):
    path = write_file(tmp_path, "tokens.yaml", TOKENS)
    assert main(["diagnose", "--lang", lang, str(path)]) == 0
    out = capsys.readouterr().out
    for number in ("30,000", "50,000", "70,000", "80,000"):
        assert number in out
    assert "e+0" not in out


@pytest.mark.parametrize(("lang", "hours"), [("en", "2,000"), ("zh", "2,000")])
def test_project_prints_hours_and_labels_not_ids(capsys, tmp_path, lang, hours):
    path = write_file(tmp_path, "llama70b.yaml", LLAMA_70B)
    assert main(["project", "--lang", lang, str(path), "--gpus", "1,2,4,8"]) == 0
    out = capsys.readouterr().out
    assert hours in out and "e+0" not in out
    rows = out.splitlines()[1:5]
    assert all("_" not in row for row in rows)  # no raw ids such as input_pipeline
    assert ("memory" if lang == "en" else "显存") in rows[0]


def test_project_names_the_input_pipeline_in_words_and_json_keeps_ids(capsys):
    example = str(ROOT / "examples" / "baseline-sweeps-1gpu-not-worth-it.yaml")
    assert main(["project", "--lang", "en", example, "--format", "json"]) == 0
    assert "input_pipeline" in json.loads(capsys.readouterr().out)["bottleneck"]
    assert main(["project", "--lang", "en", example]) == 0
    out = capsys.readouterr().out
    assert "input_pipeline" not in out and "/ input pipeline" in out


def test_every_bottleneck_id_has_a_label_in_both_languages():
    from advisor.cli.commands.project import _word
    from advisor.profile.labels import BOTTLENECK

    for neck in ("compute", "communication", "input_pipeline", "memory", "synchronisation",
                 "pipeline_bubble", "alternating_training", "virtualization"):
        assert "_" not in _word(BOTTLENECK, neck, "en") and neck in BOTTLENECK
        assert _word(BOTTLENECK, neck, "zh") != neck
