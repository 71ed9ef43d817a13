"""A language switch never changes a number, on any command that prints one: the same
profile gives the same figures with --lang en and --lang zh (the issue: $164 a month in
English, $78 in Chinese), and --market / --currency are accepted by every command that prints
money."""

from __future__ import annotations

import json

import pytest

from advisor.cli import build_parser, main
from tests.support.paths import ROOT

EXAMPLES = ROOT / "examples"
SMI_QUERY = ROOT / "tests" / "fixtures" / "nvidia-smi" / "query" / \
    "a40-10gpu-550-two-sw-power-cap-active.txt"
NO_CURRENCY = """schema_version: 1
task: image_classification
model: {name: ResNet-50, params_millions: 25.6}
training: {single_gpu_hours: 48, runs_per_month: 10, batch_per_gpu: 64, precision: amp}
hardware: {gpu: rtx4090, gpus_per_node: 4, intra_link: pcie4}
economics: {mode: compare, time_value: none}
"""


def numbers(data, path="") -> dict[str, float]:
    """Every number in a JSON document, by where it is (text is left out: it is translated)."""
    out: dict[str, float] = {}
    if isinstance(data, dict):
        for key, value in data.items():
            out.update(numbers(value, f"{path}.{key}"))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out.update(numbers(value, f"{path}[{i}]"))
    elif isinstance(data, bool) or data is None:
        out[path] = data
    elif isinstance(data, int | float):
        out[path] = data
    return out


def run_json(capsys, args: list[str], lang: str) -> dict:
    assert main(["--lang", lang, *args, "--format", "json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


@pytest.fixture
def profile(tmp_path):
    path = tmp_path / "no-currency.yaml"
    path.write_text(NO_CURRENCY, encoding="utf-8")
    return str(path)


COMMANDS = {
    "costs": lambda p: ["costs", p],
    "recommend": lambda p: ["recommend", p],
    "compare": lambda p: ["compare", p, "--option", "8x rtx4090 own", "--option",
                          "4x rtx4090 cloud"],
    "project": lambda p: ["project", p],
    "catalog": lambda p: ["catalog", "--section", "gpus"],
    "diagnose": lambda p: ["diagnose", str(EXAMPLES / "measured-4gpu-only-1.8x-diagnose.yaml")],
    "import-smi": lambda p: ["import-smi", str(SMI_QUERY)],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_same_numbers_in_both_languages(capsys, profile, command):
    args = COMMANDS[command](profile)
    english, chinese = (numbers(run_json(capsys, args, lang)) for lang in ("en", "zh"))
    assert english == chinese
    assert english  # there are numbers to compare


@pytest.mark.parametrize("command", ["costs", "recommend", "compare"])
def test_the_currency_of_a_profile_without_one_is_the_markets_in_every_language(
        capsys, profile, command):
    for lang in ("en", "zh"):
        data = run_json(capsys, COMMANDS[command](profile), lang)
        money = data["costs"] if command == "recommend" else data
        assert money["currency"] == "USD"  # the tests' market: US
    data = run_json(capsys, [*COMMANDS[command](profile), "--market", "CN"], "en")
    money = data["costs"] if command == "recommend" else data
    assert money["currency"] == "CNY" and money["market"] == "CN"


def test_every_command_that_prints_money_takes_market_and_currency():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name in ("costs", "recommend", "compare", "catalog", "diagnose"):
        options = sub.choices[name]._option_string_actions
        assert "--market" in options and "--currency" in options, name


def test_recommend_converts_with_currency(capsys, profile):
    usd = run_json(capsys, ["recommend", profile], "en")["costs"]
    cny = run_json(capsys, ["recommend", profile, "--currency", "CNY"], "en")["costs"]
    from advisor.catalog import load_catalog

    fx = load_catalog().fx_cny_per_usd
    assert cny["currency"] == "CNY" and cny["market"] == usd["market"] == "US"
    for a, b in zip(cny["cost_per_month"], usd["cost_per_month"], strict=True):
        assert a == pytest.approx(b * fx, rel=1e-9)
