"""A corpus of broken profiles: each is refused with exit 2 and a message naming field or line,
in the user's language (a Chinese message lists the allowed choices in Chinese words)."""

from __future__ import annotations

import pytest

from advisor.cli import main
from tests.support.paths import TESTS

BROKEN = TESTS / "fixtures" / "broken_profiles"

# file -> text the English message must contain (field path, line, or the reason)
EXPECTED = {
    "wrong-type-hours.yaml": ":4: training.single_gpu_hours: must be a number",
    "negative-gpu-count.yaml": ":3: hardware.gpus_per_node: must be ≥ 1, got -4",
    "zero-nodes.yaml": ":3: hardware.nodes: must be ≥ 1, got 0",
    "unknown-key.yaml": ":3: modle: unknown key 'modle'",
    "nan-hours.yaml": ":3: training.single_gpu_hours: must be a finite number",
    "absurd-size.yaml": ":3: model.params_millions: must be ≤ 10000000",
    "truncated.yaml": "not valid YAML",
    "binary-garbage.yaml": "not a text file",
    "empty.yaml": "file is empty",
    "python-object-tag.yaml": ":2: YAML tags that construct objects are not allowed",
    "unknown-task.yaml": ":2: task: must be one of",
    "future-schema.yaml": ":1: schema_version: unsupported schema_version 7",
    "not-a-mapping.yaml": "expected a mapping",
    "nodes-without-network.yaml": "several machines need a network",
    "two-run-rates.yaml": "give only one of runs_per_week, runs_per_day",
    "no-run-length.yaml": "give single_gpu_hours, single_gpu_throughput with dataset_samples",
    "unknown-gpu.yaml": ":3: hardware.gpu: unknown GPU 'rtx9090'",
    "nan.json": "NaN is not allowed",
    "truncated.json": "not valid JSON",
    "duplicate-key.yaml": "duplicate key 'task'",
    "alias-bomb.yaml": ":1: YAML anchors and aliases (&name, *name) are not supported",
    "price-without-currency.yaml": "economics.currency: give the currency (CNY, USD or EUR)",
    "impossible-link.yaml": ":4: hardware.intra_link: NVIDIA GeForce RTX 4090 cannot use nvswitch",
    "sxm-on-pcie.yaml": ":4: hardware.intra_link: NVIDIA B200 SXM cannot use pcie4 (possible: nvlink, nvswitch)",
}


def test_corpus_and_expectations_match() -> None:
    assert {p.name for p in BROKEN.iterdir()} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_broken_file_is_refused_with_exit_2(name: str, capsys) -> None:
    before = (BROKEN / name).read_bytes()
    code = main(["--lang", "en", "validate", str(BROKEN / name)])
    err = capsys.readouterr().err
    assert code == 2
    assert EXPECTED[name] in err, err
    assert "Traceback" not in err
    assert (BROKEN / name).read_bytes() == before  # reading never rewrites


@pytest.mark.parametrize("name", ["zero-nodes.yaml", "empty.yaml", "unknown-key.yaml"])
def test_messages_in_chinese(name: str, capsys) -> None:
    assert main(["--lang", "zh", "validate", str(BROKEN / name)]) == 2
    err = capsys.readouterr().err
    assert any("\u4e00" <= ch <= "\u9fff" for ch in err), err


def test_missing_file_is_exit_2(capsys, tmp_path) -> None:
    assert main(["validate", str(tmp_path / "nope.yaml")]) == 2
    assert "file not found" in capsys.readouterr().err


def test_usage_error_is_exit_2(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["validate"])
    assert info.value.code == 2


@pytest.mark.parametrize("suffix,text", [
    (".json", "[" * 200_000 + "]" * 200_000),
    (".yaml", "[" * 200_000 + "]" * 200_000),
    (".json", '{"a":' * 100_000 + "1" + "}" * 100_000),
])
def test_deeply_nested_input_is_exit_2(suffix: str, text: str, tmp_path, capsys) -> None:
    path = tmp_path / f"deep{suffix}"
    path.write_text(text)
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and "Traceback" not in err


def test_saving_prices_records_their_currency(tmp_path, monkeypatch) -> None:
    from advisor.catalog.profile_check import load_profile
    from advisor.profile import Profile
    from advisor.profile.writing import save_profile

    # The market's currency (this computer's market: China here), whatever the language.
    monkeypatch.setenv("GPU_ADVISOR_LANG", "en")
    monkeypatch.setenv("GPU_ADVISOR_MARKET", "CN")
    profile = Profile.model_validate({"economics": {"gpu_price": 3500}})
    save_profile(profile, tmp_path / "p.yaml")
    assert load_profile(tmp_path / "p.yaml").economics.currency.value == "CNY"
    monkeypatch.setenv("GPU_ADVISOR_LANG", "zh")
    monkeypatch.setenv("GPU_ADVISOR_MARKET", "EU")
    save_profile(profile, tmp_path / "q.yaml")
    assert load_profile(tmp_path / "q.yaml").economics.currency.value == "EUR"


def test_an_unknown_choice_is_listed_in_chinese_words(tmp_path, capsys):
    from advisor.cli import main

    path = tmp_path / "p.yaml"
    path.write_text("schema_version: 1\ntask: llm\nmodel: {params_millions: 100}\n"
                    "training: {single_gpu_hours: 10}\nhardware: {gpu: rtx4090}\n"
                    "economics: {mode: rent}\n", encoding="utf-8")
    assert main(["--lang", "zh", "validate", str(path)]) == 2
    err = capsys.readouterr()
    text = err.err + err.out
    assert "p.yaml:6: economics.mode:" in text and "'cloud' 或 'compare' 之一" in text
    assert " or " not in text
