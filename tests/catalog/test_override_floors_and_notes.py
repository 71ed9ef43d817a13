"""A user's catalog override is held to what a real card or price can be, and every command
that read a broken one says so (issue 35, class 15): a GPU of 1e-300 TFLOP/s gave runs of
10^300 hours printed as 300-digit numbers, and an invalid `fx` was dropped without a word
by `recommend` and `compare` although README promises a warning with file, entry and line."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from advisor.catalog import catalog_warnings, load_catalog, load_gpus
from advisor.cli import main
from tests.support.paths import EXAMPLES

MEDIUM = str(EXAMPLES / "medium-model-4gpu-worth-it.yaml")


def _write(text: str) -> Path:
    path = Path(os.environ["GPU_ADVISOR_CONFIG_DIR"]) / "catalog.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("entry, field", [
    ("gpus:\n  - {id: rtx3090, tflops_fp16_dense: 1e-300}", "tflops_fp16_dense"),
    ("gpus:\n  - {id: rtx3090, tflops_fp32: 1e-300}", "tflops_fp32"),
    ("gpus:\n  - {id: rtx3090, memory_gb: 1e-300}", "memory_gb"),
    ("gpus:\n  - {id: rtx3090, memory_bandwidth_gbs: 1e-300}", "memory_bandwidth_gbs"),
    ("gpus:\n  - {id: rtx3090, tdp_w: 1e-300}", "tdp_w"),
    ("gpus:\n  - {id: rtx3090, nvlink_gbs_unidirectional: 1e-300}",
     "nvlink_gbs_unidirectional"),
    ("cloud_offers:\n  - {id: lab, provider: lab, gpu: rtx4090, gpus_per_instance: 1, "
     "price_per_hour: 1e-300, currency: USD, source: x}", "price_per_hour"),
    ("electricity:\n  - {id: us_residential, price_per_kwh: 1e-300}", "price_per_kwh"),
    ("gpu_prices:\n  - {id: mine, gpu: rtx4090, price: 1e-300, currency: USD, source: x}",
     "price"),
    ("gpu_draw:\n  {fraction_of_tdp: 1e-300}", "fraction_of_tdp"),
])
def test_a_vanishing_override_is_refused_with_its_line(entry, field):
    path = _write(entry + "\n")
    text = "\n".join(w.render("en") for w in catalog_warnings())
    assert re.search(rf"{re.escape(str(path))}:2: \S+: {field}: must be ≥ [0-9.]+, got 1e-300",
                     text), text
    assert load_gpus()["rtx3090"].tflops_fp16_dense > 1  # the built-in card kept
    assert all(o.price_per_hour > 1e-3 for o in load_catalog().cloud_offers)


def test_a_card_of_1e_minus_300_tflops_gives_no_300_digit_run(capsys):
    _write("gpus:\n  - {id: rtx3090, tflops_fp16_dense: 1e-300, tflops_fp32: 1e-300}\n")
    assert main(["compare", MEDIUM]) == 0
    captured = capsys.readouterr()
    assert not re.search(r"\d[\d,]{30}", captured.out)  # 10^300 h printed in full before
    assert "tflops_fp16_dense: must be ≥ 0.1, got 1e-300" in captured.err


@pytest.mark.parametrize("command", [
    ["recommend"], ["recommend", "--format", "json"], ["recommend", "--format", "markdown"],
    ["compare"], ["compare", "--format", "markdown"]])
def test_an_invalid_exchange_rate_is_said_by_every_command_that_prices(command, capsys):
    path = _write("fx: {cny_per_usd: -1}\n")
    assert main([*command, MEDIUM, "--currency", "USD"]) == 0
    captured = capsys.readouterr()
    assert f"{path}:1: fx: cny_per_usd: must be > 0.1, got -1 (built-in catalog used)" \
        in captured.err
    assert main([*command, MEDIUM, "--currency", "USD", "--lang", "zh"]) == 0
    err = capsys.readouterr().err
    assert "目录覆盖文件的问题" in err and "（已使用内置目录）" in err


def test_commands_that_carry_the_problems_in_their_output_do_not_repeat_them(capsys):
    _write("fx: {cny_per_usd: -1}\n")
    assert main(["costs", MEDIUM]) == 0
    captured = capsys.readouterr()
    assert "fx: cny_per_usd" in captured.out and "fx: cny_per_usd" not in captured.err
    assert main(["compare", MEDIUM, "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert any("fx: cny_per_usd" in w for w in json.loads(captured.out)["catalog_warnings"])
    assert "fx: cny_per_usd" not in captured.err


def test_a_command_reading_only_gpus_says_only_their_problems(capsys):
    _write("fx: {cny_per_usd: -1}\ngpus:\n  - {id: rtx3090, tdp_w: 1e-300}\n")
    assert main(["validate", MEDIUM]) == 0
    err = capsys.readouterr().err
    assert "gpus[rtx3090]: tdp_w: must be ≥ 5.0, got 1e-300" in err and "fx:" not in err
