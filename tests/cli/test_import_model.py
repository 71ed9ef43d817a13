"""gpu-advisor import-model CONFIG.json: a Hugging Face config.json read offline into a profile's
task and model section, its parameters counted from the shapes; a file that is no config, or
one missing a key the count needs, exits 2 naming the file and the key in both languages."""

from __future__ import annotations

import json

import pytest

from advisor.catalog.models import find_model
from advisor.catalog.profile_check import parse_profile_text
from advisor.cli import main
from advisor.files.yaml_lines import load_yaml_text
from tests.support.paths import ROOT

CONFIGS = ROOT / "tests" / "fixtures" / "hf_configs"
REST = ("training: {dataset_tokens: 1.0e+9, fine_tuning: true, precision: bf16}\n"
        "hardware: {gpu: h100_sxm, gpus_per_node: 8, intra_link: nvswitch}\n")


def imported(capsys, name: str, *extra: str) -> str:
    assert main(["import-model", str(CONFIGS / name), *extra]) == 0
    return capsys.readouterr().out


# config.json -> (catalog model of that shape, task, fields the section must hold)
CASES = {
    "llama-3.1-8b.json": ("llama-3.1-8b", "llm", {"name": "Llama-3.1-8B", "layers": 32,
                                                   "hidden_size": 4096, "kv_heads": 8}),
    "qwen3-30b-a3b.json": ("qwen3-30b-a3b", "llm", {"layers": 48, "kv_heads": 4}),
    "deepseek-v3.json": ("deepseek-v3", "llm", {"layers": 61, "vocab_size": 129280}),
    "gemma-3-4b.json": ("gemma-3-4b", "llm", {"layers": 34, "vocab_size": 262208}),
    "gpt2.json": ("gpt2", "llm", {"layers": 12, "sequence_length": 1024}),
    "bert-base-uncased.json": ("bert-base", "nlp", {"layers": 12, "sequence_length": 512}),
    "t5-base.json": ("t5-base", "nlp", {"layers": 24, "hidden_size": 768}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_config_becomes_a_model_section_that_reads_back(capsys, name):
    catalog_id, task, fields = CASES[name]
    out = imported(capsys, name)
    data, _ = load_yaml_text(out)
    assert data["task"] == task
    for key, value in fields.items():
        assert data["model"][key] == value, key
    # the count from the shapes agrees with the catalog's published size
    entry = find_model(catalog_id)
    assert data["model"]["params_millions"] == pytest.approx(entry.params_millions, rel=0.01)
    assert f"the catalog's {catalog_id} has this shape" in out
    # pasted into a profile, it is one
    profile = parse_profile_text(out + REST)
    assert profile.model.params_millions == data["model"]["params_millions"]


def test_a_mixture_of_experts_says_what_runs_for_each_token(capsys):
    out = imported(capsys, "qwen3-30b-a3b.json")
    assert "mixture of experts: 128 experts, 8 per token: 3,353 M of the 30,532 M" in out
    assert "head_dim 128" in out
    # the profile has the experts' fields (issue 32): they are in the model section
    assert "  moe_intermediate_size: 768\n" in out and "  experts_per_token: 8\n" in out
    assert parse_profile_text(out + REST).model.experts == 128
    data = json.loads(imported(capsys, "deepseek-v3.json", "--format", "json"))
    assert data["facts"]["experts"] == 256 and data["facts"]["shared_experts"] == 1
    assert data["facts"]["dense_layers"] == 3
    assert data["active_params_millions"] == pytest.approx(37000, rel=0.03)
    assert data["model"]["params_millions"] == pytest.approx(671000, rel=0.001)
    assert any("num_nextn_predict_layers" in n["en"] and n["zh"] for n in data["notes"])
    assert data["catalog_id"] == "deepseek-v3"


def test_a_multimodal_config_counts_its_vision_tower(capsys):
    data = json.loads(imported(capsys, "gemma-3-4b.json", "--format", "json"))
    assert data["facts"]["vision_params_millions"] == pytest.approx(419.8, abs=1)
    assert data["model"]["params_millions"] == pytest.approx(4300.1, rel=0.002)


def test_comments_in_chinese(capsys):
    assert main(["--lang", "zh", "import-model", str(CONFIGS / "qwen3-30b-a3b.json")]) == 0
    out = capsys.readouterr().out
    assert "按结构计算的参数量：30,532 M" in out and "混合专家：128 个专家" in out
    assert "模型库中的 qwen3-30b-a3b 结构相同" in out


def test_standard_input_and_the_name_from_the_file(capsys, monkeypatch, tmp_path):
    import io

    text = (CONFIGS / "gpt2.json").read_text(encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["import-model", "-"]) == 0
    out = capsys.readouterr().out
    assert "<stdin>" in out and "name: GPT2LMHeadModel" in out
    folder = tmp_path / "my-gpt"
    folder.mkdir()
    (folder / "config.json").write_text(text, encoding="utf-8")
    assert main(["import-model", str(folder / "config.json")]) == 0
    assert "name: my-gpt" in capsys.readouterr().out


@pytest.mark.parametrize("lang, words", [("en", "not valid JSON"), ("zh", "不是有效的 JSON")])
def test_bad_json_exits_2_with_the_file_and_line(capsys, lang, words):
    path = CONFIGS / "broken.json"
    assert main(["--lang", lang, "import-model", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:5:" in err and words in err and "Traceback" not in err


@pytest.mark.parametrize("lang, words", [("en", "num_hidden_layers: missing"),
                                         ("zh", "num_hidden_layers: 缺失")])
def test_a_missing_key_exits_2_naming_the_file_and_key(capsys, lang, words):
    path = CONFIGS / "missing-layers.json"
    assert main(["--lang", lang, "import-model", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}: ") and words in err


@pytest.mark.parametrize("text, key", [
    ('{"model_type": "llama", "num_hidden_layers": true, "hidden_size": 8}', "num_hidden_layers"),
    ('{"model_type": "gpt2", "n_layer": 12, "n_embd": -768, "n_head": 12}', "n_embd"),
    ('{"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64, '
     '"num_attention_heads": 4, "vocab_size": 100, "intermediate_size": 128, '
     '"tie_word_embeddings": "yes"}', "tie_word_embeddings"),
    ('{"text_config": {"model_type": "gemma3_text"}, "model_type": "gemma3"}',
     "text_config.num_hidden_layers"),
    ('{"vocab_size": 100}', "model_type"),
])
def test_a_wrong_value_names_its_key(capsys, tmp_path, text, key):
    path = tmp_path / "config.json"
    path.write_text(text, encoding="utf-8")
    assert main(["import-model", str(path)]) == 2
    assert f"{path}: {key}: " in capsys.readouterr().err


@pytest.mark.parametrize("content, words", [("[1, 2]", "expected a JSON object"),
                                            ("", "file is empty"),
                                            ('{"a": 1, "a": 2}', "duplicate key")])
def test_what_is_no_config_exits_2(capsys, tmp_path, content, words):
    path = tmp_path / "config.json"
    path.write_text(content, encoding="utf-8")
    assert main(["import-model", str(path)]) == 2
    assert words in capsys.readouterr().err


def test_a_huge_file_is_refused_before_it_is_read(capsys, tmp_path):
    path = tmp_path / "config.json"
    path.write_bytes(b"{" + b" " * 5_000_000 + b"}")
    assert main(["import-model", str(path)]) == 2
    assert "file is too large" in capsys.readouterr().err


def test_an_unknown_model_type_is_counted_as_a_decoder_and_said_so(capsys, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "newlm", "num_hidden_layers": 2,
                                "hidden_size": 64, "num_attention_heads": 4, "vocab_size": 100,
                                "intermediate_size": 128}), encoding="utf-8")
    assert main(["import-model", str(path)]) == 0
    out = capsys.readouterr().out
    assert "model_type 'newlm' is not one this version knows" in out
    data, _ = load_yaml_text(out)
    # 2 x (4 x 64^2 + 3 x 64 x 128 + 2 x 64) + 2 x 100 x 64 + 64
    assert data["model"]["params_millions"] == pytest.approx(0.1, abs=0.05)


def test_a_number_too_large_says_the_bound_it_breaks(capsys, tmp_path):
    """Review 4: 'must be a whole number from 1, got 1000000000000' named no upper bound."""
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64, '
                    '"num_attention_heads": 4, "vocab_size": 1000000000000, '
                    '"intermediate_size": 128}', encoding="utf-8")
    assert main(["import-model", str(path)]) == 2
    assert "vocab_size: must be a whole number from 1 to 1,000,000,000" in \
        capsys.readouterr().err
