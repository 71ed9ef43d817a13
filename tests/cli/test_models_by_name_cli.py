"""A profile that only names a catalog model (no size typed) is validated, projected, costed,
recommended, compared and exported as PDF in both languages (issue 32); `gpu-advisor catalog
--section models` lists the models with their source and date."""

from __future__ import annotations

import json

import pytest

from advisor.catalog.models import load_models
from advisor.cli import main
from tests.support.paths import ROOT
from tests.support.pdf import contains, pages_text

BY_NAME = ROOT / "tests" / "profiles" / "models" / "finetune-llama-3.1-8b-by-name.yaml"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_id_only_profile_is_validated_projected_costed_recommended_and_compared(capsys,
                                                                                    lang):
    assert main(["--lang", lang, "validate", str(BY_NAME)]) == 0
    assert "Llama 3.1 8B" in capsys.readouterr().out
    for command in ("project", "costs", "recommend", "compare"):
        assert main(["--lang", lang, command, str(BY_NAME)]) == 0, command
        out = capsys.readouterr().out
        assert out.strip(), command
    # the answer rests on the catalog's size: 8,030M parameters, not the default 25.6M (which
    # fits a 24 GB card as configured, with no setup change; 8,030M full fine-tuned does not)
    assert main(["--lang", lang, "recommend", "--details", str(BY_NAME)]) == 0
    out = capsys.readouterr().out
    assert "LoRA" in out and ("Setups that fit" in out or "能放下的方案" in out)


def test_the_json_answer_holds_the_catalog_model(capsys):
    assert main(["recommend", str(BY_NAME), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # 8 B parameters full fine-tuned do not fit one 24 GB card: several cards, or a change
    # applied (QLoRA on one card)
    applied = [o for o in data["setups"] if o["applied"]]
    assert data["verdict"]["gpus"] >= 2 or (applied and applied[0]["id"] != "as_given")


def test_an_id_only_profile_is_exported_as_pdf_in_chinese(capsys, tmp_path):
    target = tmp_path / "r.pdf"
    assert main(["--lang", "zh", "recommend", str(BY_NAME), "--pdf", str(target)]) == 0
    capsys.readouterr()
    contains(" ".join(pages_text(target)), "Llama 3.1 8B")


def test_an_unknown_id_exits_2_at_its_line(capsys, tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(BY_NAME.read_text(encoding="utf-8").replace("llama-3.1-8b", "lama-3.1-8b"),
                    encoding="utf-8")
    for lang, words in (("en", "unknown model 'lama-3.1-8b'; did you mean llama-3.1-8b"),
                        ("zh", "未知模型 'lama-3.1-8b'；是不是 llama-3.1-8b")):
        assert main(["--lang", lang, "recommend", str(path)]) == 2
        err = capsys.readouterr().err
        assert f"{path}:5: model.id: {words}" in err and "Traceback" not in err


def test_catalog_lists_the_models_with_source_and_date(capsys):
    assert main(["catalog", "--section", "models", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["markets"] == {}
    rows = {row["id"]: row for row in data["models"]}
    assert len(rows) == len(load_models()) >= 60
    llama = rows["llama-3.1-8b"]
    assert llama["source"].startswith("https://huggingface.co/meta-llama/Llama-3.1-8B")
    assert llama["as_of"] and llama["params_millions"] == 8030.3 and llama["kv_heads"] == 8
    assert rows["deepseek-v3"]["active_params_millions"] == 37000
    assert rows["resnet-50"]["flops_input"] == "224x224 image"


@pytest.mark.parametrize("lang, words", [
    ("en", ["Models by name", "llama-3.1-8b", "8.03 B", "32 × 4096, 32/8", "context 131,072",
            "deepseek-v3", "671 B", "37 B", "FLOPs at 224x224 image"]),
    ("zh", ["按名称选择的模型", "大语言模型", "上下文 131,072", "计算量对应输入：224x224 图像"])])
def test_catalog_models_in_text_in_both_languages(capsys, lang, words):
    assert main(["--lang", lang, "catalog", "--section", "models"]) == 0
    out = capsys.readouterr().out
    for word in words:
        assert word in out, word
    assert "huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json" in out
    assert "== Market" not in out and "== 市场" not in out


def test_catalog_all_ends_with_the_models(capsys):
    assert main(["catalog", "--market", "US", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["markets"]["US"]["gpus"] and len(data["models"]) == len(load_models())
