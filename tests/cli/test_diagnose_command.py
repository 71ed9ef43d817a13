"""``gpu-advisor diagnose``: JSON shape, text in both languages (suspects by their titles, a
capacity cap worded per machine, Chinese spaced and its columns aligned by display width, with
no characters terminals draw at an ambiguous width), input errors exit 2."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest
import yaml

from advisor.cli import main
from advisor.text.width import display_width
from tests.support.diagnosis import LEVELLING, diagnose_json, levelling_csv
from tests.support.paths import ROOT, TESTS

FIXTURES = TESTS / "fixtures" / "diagnosis"
EXAMPLES = ROOT / "examples"


def _csv(tmp_path: Path, text: str = "gpus,throughput,unit\n1,100,images/s\n2,170,images/s\n"
                                      "4,180,images/s\n") -> Path:
    path = tmp_path / "measured.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_json_shape(tmp_path, capsys):
    rc = main(["diagnose", str(_csv(tmp_path)), "--dmon",
               str(FIXTURES / "dmon-4gpu-starved-input-pipeline.txt"), "--format", "json"])
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    assert {"measured", "grade", "fit", "suspects"} <= set(data)
    m = data["measured"]
    assert {"gpus", "speedup", "efficiency", "karp_flatt"} <= set(m)
    assert m["gpus"] == [1, 2, 4] and m["speedup"] == [1.0, 1.7, 1.8]
    assert m["karp_flatt"][0] is None and abs(m["karp_flatt"][2] - 0.4074) < 1e-3
    assert data["grade"]["level"] == "poor" and data["grade"]["gpus"] == 4
    f = data["fit"]
    assert {"parameters", "gpus", "speedup", "speedup_low", "speedup_high"} <= set(f)
    assert f["gpus"] == [1, 2, 4, 8, 16]
    assert len(f["speedup"]) == len(f["speedup_low"]) == len(f["speedup_high"]) == 5
    assert all(lo <= s <= hi for lo, s, hi in zip(f["speedup_low"], f["speedup"],
                                                  f["speedup_high"], strict=True))
    s = data["suspects"][0]
    assert {"id", "score", "evidence", "remedy"} <= set(s)
    assert s["id"] == "input_pipeline"
    assert s["remedy"]["en"] and s["remedy"]["zh"] and s["evidence"][0]["zh"]


def test_profile_with_measured_section_and_up_to(tmp_path, capsys):
    data = yaml.safe_load((EXAMPLES / "medium-model-4gpu-worth-it.yaml").read_text("utf-8"))
    data["measured"] = {"unit": "images/s", "points": [
        {"gpus": 1, "throughput": 400}, {"gpus": 2, "throughput": 760},
        {"gpus": 4, "throughput": 1100}]}
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert main(["diagnose", str(path), "--up-to", "32", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fit"]["gpus"][-1] == 32
    assert out["grade"]["level"] == "normal"
    assert out["sources"] == [str(path)]


def test_text_in_chinese(tmp_path, capsys):
    assert main(["--lang", "zh", "diagnose", str(_csv(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert "实测扩展性" in out and "可能原因" in out and "偏低" in out


def test_csv_error_exits_2_with_file_and_line(tmp_path, capsys):
    path = _csv(tmp_path, "gpus,throughput\n1,100\n2,fast\n")
    assert main(["diagnose", str(path)]) == 2
    assert f"{path}:3:" in capsys.readouterr().err


def test_profile_without_measurements_exits_2(capsys):
    assert main(["diagnose", str(EXAMPLES / "medium-model-4gpu-worth-it.yaml")]) == 2
    assert "measured" in capsys.readouterr().err


def test_unreadable_gpu_log_exits_2(tmp_path, capsys):
    junk = tmp_path / "junk.txt"
    junk.write_text("hello, this is not nvidia-smi\n", encoding="utf-8")
    assert main(["diagnose", str(_csv(tmp_path)), "--dmon", str(junk)]) == 2
    assert capsys.readouterr().err.strip()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_text_shows_suspect_titles_not_ids(tmp_path, capsys, lang):
    data = diagnose_json(tmp_path, capsys)
    ids = [s["id"] for s in data["suspects"]]
    assert "input_pipeline" in ids  # JSON keeps the ids
    assert main(["--lang", lang, "diagnose", str(levelling_csv(tmp_path))]) == 0
    text = capsys.readouterr().out
    for sid in ids:
        assert f"[{sid}]" not in text
    assert data["suspects"][0]["title"][lang] in text


def test_zh_network_note_is_spaced(tmp_path, capsys):
    assert main(["--lang", "zh", "diagnose", str(levelling_csv(tmp_path))]) == 0
    text = capsys.readouterr().out
    assert "经 25 GbE" in text and "经25" not in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_capacity_cap_is_worded_per_machine(tmp_path, capsys, lang):
    path = tmp_path / "m.csv"
    path.write_text(LEVELLING, encoding="utf-8")
    assert main(["--lang", lang, "diagnose", str(path), "--format", "json"]) == 0
    fit = json.loads(capsys.readouterr().out)["fit"]
    assert fit["plateau"]
    assert fit["speedup"][fit["gpus"].index(16)] > fit["speedup"][fit["gpus"].index(8)]
    assert main(["--lang", lang, "diagnose", str(path)]) == 0
    text = capsys.readouterr().out
    assert ("within one machine" in text.lower()) if lang == "en" else ("在一台机器内" in text)
    assert ("its own data loader" in text) if lang == "en" else ("自己的数据加载" in text)


def _ends(line: str) -> list[int]:
    """Display columns where each cell (cells are separated by 2+ spaces) ends."""
    out = []
    for m in re.finditer(r"\S+(?: \S+)*", line):
        out.append(display_width(line[:m.end()]))
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_columns_line_up_by_display_width(tmp_path, capsys, lang):
    assert main(["--lang", lang, "diagnose", str(levelling_csv(tmp_path))]) == 0
    lines = capsys.readouterr().out.splitlines()
    # measured table: the header's right-aligned cells end where the numbers end
    head = next(i for i, line in enumerate(lines)
                if ("Karp–Flatt" in line or "Karp-Flatt" in line) and "%" not in line)
    for row in lines[head + 1:head + 5]:
        assert _ends(row)[:5] == _ends(lines[head])[:5], (lines[head], row)
    # fitted table: GPUs, fitted and Amdahl columns
    word = "拟合值" if lang == "zh" else "fitted"
    head = next(i for i, line in enumerate(lines) if word in line and "(" not in line)
    h = _ends(lines[head])
    for row in lines[head + 1:head + 6]:
        e = _ends(row)
        assert (e[0], e[1], e[3]) == (h[0], h[1], h[3]), (lines[head], row)


def test_zh_fit_table_has_no_ambiguous_width_characters(tmp_path, capsys):
    path = tmp_path / "m.csv"
    path.write_text(LEVELLING, encoding="utf-8")
    assert main(["--lang", "zh", "diagnose", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    for word in ("拟合值", "吞吐"):
        head = next(i for i, line in enumerate(lines) if word in line and "（" not in line)
        for row in lines[head:head + 5]:
            wide = [ch for ch in row if unicodedata.east_asian_width(ch) == "A"]
            assert not wide, (row, wide)
