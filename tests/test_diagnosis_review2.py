"""Second-review defects of the diagnosis: the network between machines costs something even
when a loader cap binds, suspects show titles (not ids) in text, Chinese text is spaced and
its columns line up by display width."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from advisor.cli import main
from advisor.text.width import display_width
from tests.support.paths import ROOT

# the reviewer's /tmp/rv2/m.csv: a curve that levels off near 5x on one 8-GPU machine
LEVELLING = "gpus,throughput\n1,100\n2,190\n4,350\n8,500\n"
EXAMPLES = ROOT / "examples"


def _csv(tmp_path: Path, text: str = LEVELLING) -> Path:
    path = tmp_path / "m.csv"
    path.write_text(text, encoding="utf-8")
    return path


def _json(tmp_path, capsys, *args: str) -> dict:
    assert main(["diagnose", str(_csv(tmp_path)), "--format", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_second_machine_over_ethernet_costs_something(tmp_path, capsys):
    f = _json(tmp_path, capsys)["fit"]
    assert f["parameters"].get("loader_capacity")  # the loader cap binds here
    s8, s16 = f["speedup"][f["gpus"].index(8)], f["speedup"][f["gpus"].index(16)]
    assert s16 < 1.98 * s8  # 25 GbE all-reduce between the machines is not free (F08)
    assert s16 > s8
    hi8, hi16 = (f["speedup_high"][f["gpus"].index(n)] for n in (8, 16))
    assert hi16 <= 2.0 * hi8 + 1e-3  # two machines never more than double the band's top


def test_measured_example_two_machines_below_double(capsys):
    assert main(["diagnose", str(EXAMPLES / "measured-4gpu-only-1.8x-diagnose.yaml"),
                 "--format", "json"]) == 0
    f = json.loads(capsys.readouterr().out)["fit"]
    s4, s8 = f["speedup"][f["gpus"].index(4)], f["speedup"][f["gpus"].index(8)]
    assert s8 < 1.98 * s4


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_text_shows_suspect_titles_not_ids(tmp_path, capsys, lang):
    data = _json(tmp_path, capsys)
    ids = [s["id"] for s in data["suspects"]]
    assert "input_pipeline" in ids  # JSON keeps the ids
    assert main(["--lang", lang, "diagnose", str(_csv(tmp_path))]) == 0
    text = capsys.readouterr().out
    for sid in ids:
        assert f"[{sid}]" not in text
    assert data["suspects"][0]["title"][lang] in text


def test_zh_network_note_is_spaced(tmp_path, capsys):
    assert main(["--lang", "zh", "diagnose", str(_csv(tmp_path))]) == 0
    text = capsys.readouterr().out
    assert "经 25 GbE" in text and "经25" not in text


def _ends(line: str) -> list[int]:
    """Display columns where each cell (cells are separated by 2+ spaces) ends."""
    out = []
    for m in re.finditer(r"\S+(?: \S+)*", line):
        out.append(display_width(line[:m.end()]))
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_columns_line_up_by_display_width(tmp_path, capsys, lang):
    assert main(["--lang", lang, "diagnose", str(_csv(tmp_path))]) == 0
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
