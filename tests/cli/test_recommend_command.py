"""gpu-advisor recommend PROFILE: text, JSON, Markdown, both languages, and the --pdf slot; the net
value named against its real baseline (never the count against itself), labels rather than raw
values in Chinese Markdown, and nothing printed before a PDF that cannot be written."""

from __future__ import annotations

import json
import re
import sys
import types
from pathlib import Path

from advisor.cli import main
from advisor.cli.commands.recommend import render_markdown, render_text
from advisor.profile import Profile
from advisor.verdict.result import Recommendation
from tests.support.paths import ROOT

ROOT = ROOT
MEDIUM = str(ROOT / "examples" / "medium-model-4gpu-worth-it.yaml")
LARGE = ROOT / "examples" / "large-model-8plus-gpus-required.yaml"


def test_json_is_a_recommendation(capsys):
    assert main(["recommend", MEDIUM, "--format", "json"]) == 0
    rec = Recommendation.model_validate(json.loads(capsys.readouterr().out))
    assert rec.verdict.rating == "worth_it" and rec.trace and rec.pitfalls


def test_text_in_chinese(capsys):
    assert main(["recommend", MEDIUM, "--lang", "zh", "--details"]) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[0]  # the same cards rented, 8 of them in one machine
    assert first.startswith("建议：租用 8 × ") and "划算：8 卡" in first
    assert "注意事项" in out and "F02" in out


def test_global_lang_option_also_works(capsys):
    assert main(["--lang", "zh", "recommend", MEDIUM]) == 0
    assert "划算" in capsys.readouterr().out


def test_markdown(capsys):
    assert main(["recommend", MEDIUM, "--format", "markdown", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# GPU scaling recommendation") and "| `economics." in out


def test_gpu_counts_option(capsys):
    own = str(ROOT / "examples" / "product-tuning-revenue-worth-it.yaml")  # on its own cards
    assert main(["recommend", own, "--gpus", "1,2", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["projection"]["gpus"] == [1, 2]
    # an answer on a rented instance of one card is projected at the counts asked it has
    assert main(["recommend", MEDIUM, "--gpus", "1,2", "--format", "json"]) == 0
    assert set(json.loads(capsys.readouterr().out)["projection"]["gpus"]) <= {1, 2}
    assert main(["recommend", MEDIUM, "--gpus", "two"]) == 2


def test_bad_profile_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("task: poetry\n", encoding="utf-8")
    assert main(["recommend", str(bad)]) == 2
    assert "bad.yaml:1" in capsys.readouterr().err


def test_pdf_without_the_report_module_exits_2(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ui.report.export", None)  # import fails: missing
    assert main(["recommend", MEDIUM, "--pdf", "out.pdf", "--lang", "en"]) == 2
    assert "cannot write a PDF" in capsys.readouterr().err


def test_pdf_is_written_by_the_report_module(monkeypatch, tmp_path, capsys):
    calls = []
    fake = types.ModuleType("ui.report.export")
    fake.check_target = Path
    fake.render_pdf_bytes = lambda rec, profile, lang, diagnosis=None, appendix=False: \
        calls.append((rec, profile, lang, diagnosis, appendix)) or (b"%PDF-1.4 drawn", 1)
    monkeypatch.setitem(sys.modules, "ui.report.export", fake)
    target = tmp_path / "r.pdf"
    assert main(["recommend", MEDIUM, "--pdf", str(target), "--lang", "zh"]) == 0
    (rec, profile, lang, diagnosis, appendix), = calls
    assert isinstance(rec, Recommendation) and lang == "zh"
    assert target.read_bytes() == b"%PDF-1.4 drawn"
    assert diagnosis is None  # the report diagnoses a profile's `measured` section itself
    assert profile.model.name == "Faster R-CNN R50-FPN"
    assert appendix is False  # the rule trace only when asked for (--appendix)
    assert main(["recommend", MEDIUM, "--pdf", str(target), "--appendix"]) == 0
    assert calls[-1][4] is True


def test_pdf_of_a_profile_with_measurements_holds_the_diagnosis(tmp_path, capsys):
    """recommend --pdf: a profile with a `measured` section gets "Diagnosis of the measured run"
    (F30) without being asked."""
    import pypdf

    target = tmp_path / "r.pdf"
    example = str(ROOT / "examples" / "measured-4gpu-only-1.8x-diagnose.yaml")
    assert main(["recommend", example, "--pdf", str(target), "--lang", "en"]) == 0
    assert "PDF written" in capsys.readouterr().err
    text = " ".join(" ".join(page.extract_text().split()) for page in pypdf.PdfReader(target).pages)
    assert "Diagnosis of the measured run" in text and "Suspects, most likely first" in text


def test_a_model_that_fits_nowhere_considered_prints_in_every_format(capsys):
    """The verdict names a count beyond the hardware (machines like this one): the text shows
    the figures at that count, which the projection now holds, instead of failing."""
    seven_b = str(ROOT / "tests" / "profiles" / "verdict"
                  / "llm-7b-on-4x-rtx4090-checkpointed.yaml")
    for fmt in ("text", "markdown"):
        for lang in ("en", "zh"):
            assert main(["recommend", seven_b, "--format", fmt, "--lang", lang]) == 0
            assert capsys.readouterr().out
    assert main(["recommend", seven_b, "--format", "json"]) == 0
    rec = Recommendation.model_validate(json.loads(capsys.readouterr().out))
    v = rec.verdict
    assert v.rating == "required" and v.gpus > 4 and v.gpus in rec.projection.gpus
    assert main(["recommend", seven_b, "--lang", "en", "--details"]) == 0
    out = capsys.readouterr().out
    assert f"speed-up at {v.gpus} GPUs" in out
    assert "where the model does not fit" not in out


def test_net_value_names_the_real_baseline(recs, capsys) -> None:
    rec = recs["large-model-8plus-gpus-required"]
    # the 7B model fits from 2 A100s (tensor parallel, one sequence per micro-batch)
    assert rec.baseline_gpus == 2
    assert "net value vs 2 GPUs" in render_text(rec, "en")
    assert "net value vs 1 GPU" not in render_markdown(rec, "en")
    assert "相对 2 卡的净收益" in render_text(rec, "zh")
    assert main(["recommend", str(LARGE), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["baseline_gpus"] == 2
    assert "net value vs 1 GPU" in render_text(recs["medium-model-4gpu-worth-it"], "en")


def test_no_net_value_against_itself(capsys, tmp_path):
    """Review 5: "net value vs 8 GPUs: 0 USD/month" when 8 is the fewest that hold the model."""
    from advisor.cli import main

    path = tmp_path / "p.json"
    path.write_text(Profile.model_validate(dict(
        schema_version=1, task="llm",
        model=dict(name="30B", params_millions=29600, layers=48, hidden_size=7168,
                   sequence_length=4096),
        training=dict(single_gpu_hours=600, runs_per_month=3, batch_per_gpu=4,
                      precision="bf16", input_pipeline="tuned"),
        hardware=dict(gpu="h100_sxm", gpus_per_node=8, nodes=4, intra_link="nvswitch",
                      inter_link="ethernet_10g", cooling="server"),
        # at 2,000 a day the 8 GPUs that hold the model are the recommendation (at 10,000 a
        # cluster rented over InfiniBand saves ~3 days a run and pays for itself: then a net
        # value vs 8 is right)
        economics=dict(mode="cloud", currency="USD", time_value="revenue",
                       value_per_day=2000))).model_dump_json())
    assert main(["recommend", str(path), "--lang", "en", "--details"]) == 0
    out = capsys.readouterr().out
    rec_line = next(line for line in out.splitlines() if "cost per run" in line)
    assert "vs 8 GPUs" not in rec_line and "fewest GPUs that hold the model" in rec_line


RAW = re.compile(r"\w=\w|worth_it|no_nvlink|not_worth_it|=False|=True")


def test_zh_markdown_why_table_has_labels_not_raw_pairs(recs) -> None:
    for name in ("medium-model-4gpu-worth-it", "h100fsdp", "recsys"):
        md = render_markdown(recs[name], "zh")
        why = md.split("## 依据", 1)[1]
        for row in why.splitlines()[3:]:
            conclusion = row.rsplit("|", 2)[-2]
            assert not RAW.search(conclusion), (name, row)
    md = render_markdown(recs["medium-model-4gpu-worth-it"], "zh")
    assert "评级：划算，卡数：" in md and "问题：没有 NVLink，级别：提示" in md


def test_markdown_intro_is_not_an_empty_bullet(recs) -> None:
    md = render_markdown(recs["unrunnable-2t-8xh100"], "zh")
    lines = md.splitlines()
    intro = next(i for i, line in enumerate(lines) if "模型放不下" in line and "卡（" in line)
    assert not lines[intro].startswith("- ")
    assert lines[intro + 2].startswith("- ")


def test_pdf_to_an_unwritable_place_prints_nothing_and_says_why_in_chinese(capsys) -> None:
    code = main(["--lang", "zh", "recommend", str(MEDIUM), "--pdf", "/proc/x.pdf"])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""  # nothing printed before the failed write
    assert "No such file" not in err and "文件或文件夹不存在" in err


def test_the_answer_opens_with_five_lines_and_the_rest_is_behind_details(capsys) -> None:
    """Issue 29: do this, why, what it costs, the main risk, the next step; everything else
    (figures, setups, pitfalls, set-up, the rules) only with --details."""
    for lang, labels in (("en", ("Do: ", "Why: ", "Cost: ", "Main risk: ", "Next: ")),
                         ("zh", ("建议：", "原因：", "花费：", "主要风险：", "下一步："))):
        assert main(["recommend", MEDIUM, "--lang", lang]) == 0
        short = capsys.readouterr().out.splitlines()
        assert [line[:len(label)] for line, label in zip(short, labels, strict=False)] == \
            list(labels)
        assert len(short) <= 9 and "--details" in short[6]
        assert not any("F02" in line or "DataLoader" in line for line in short)
        assert main(["recommend", MEDIUM, "--lang", lang, "--details"]) == 0
        full = capsys.readouterr().out.splitlines()
        assert full[:5] == short[:5] and len(full) > 20
