"""nvidia-smi outputs a hostile file or device can hold (issue 20, items 3, 4, 7, 13 and 14):
special files refused, thousands of GPU indices read in linear time up to a cap, numbers of
5,000 digits or 400 nines never crash a parser or hide a whole output, control characters in
what is printed escaped, UTF-16 read."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from advisor.cli import main
from advisor.hwimport import parse_text
from advisor.hwimport.reading import MAX_GPUS, Reading
from tests.support.paths import FIXTURES

SMI = FIXTURES / "nvidia-smi"
INVENTORY = (SMI / "dmon" / "csv-h200-8gpu-inventory-570.txt").read_text(encoding="utf-8")
TOPO = (SMI / "topo" / "a100-8gpu-nv12-4nic-legend.txt").read_text(encoding="utf-8")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_import_smi_refuses_a_fifo(tmp_path, capsys):
    fifo = tmp_path / "smi.txt"
    os.mkfifo(fifo)
    assert main(["import-smi", str(fifo)]) == 2
    assert "is a pipe (FIFO)" in capsys.readouterr().err


def test_one_inf_cell_does_not_make_a_csv_not_nvidia_smi_output():
    lines = INVENTORY.splitlines()
    cells = lines[2].split(", ")
    cells[2] = "9" * 400 + " MiB"  # read as a float it is infinite: int() raised
    lines[2] = ", ".join(cells)
    desc = parse_text("\n".join(lines) + "\n")
    assert len(desc.gpus) == 8
    assert desc.gpus[1].memory_total_mib is None and desc.gpus[0].memory_total_mib == 143771


def test_a_5000_digit_nvlink_count_is_no_crash(capsys, tmp_path):
    """``NV`` and 5,000 digits in topo -m: int() raised past Python's 4,300-digit limit."""
    text = re.sub(r"\bNV12\b", "NV" + "1" * 5000, TOPO, count=3)
    path = tmp_path / "topo.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["import-smi", str(path), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert "internal error" not in captured.err
    assert json.loads(captured.out)["max_nv_links"] == 12  # the damaged cells are not links


def test_a_hundred_thousand_gpu_indices_are_capped_and_linear():
    """100k GPU indices in a query CSV ran past 590 s (a pass over the rows per GPU)."""
    rows = "".join(f"{i}, NVIDIA H100 80GB HBM3, 81559 MiB, {i % 100} %\n"
                   for i in range(MAX_GPUS + 500))
    desc = parse_text("index, name, memory.total [MiB], utilization.gpu [%]\n" + rows)
    assert len(desc.gpus) == MAX_GPUS
    assert any(f"only the first {MAX_GPUS:,}" in w.en for w in desc.warnings)


def test_gpu_lookups_stay_linear_in_a_long_query_output():
    reading = Reading(kind="query")
    for i in range(MAX_GPUS + 10):
        assert reading.gpu_at(i).index == i
    assert len(reading.gpus) == MAX_GPUS  # the ten past the cap were not kept
    assert reading.gpu_at(7) is reading.gpus[7]


def test_control_and_bidi_characters_in_gpu_names_are_escaped(tmp_path, capsys):
    """An RTL override (U+202E) and ESC in a GPU name passed through import-smi."""
    lines = INVENTORY.splitlines()
    lines[1] = lines[1].replace("NVIDIA H200", "NVIDIA H200 \u202eevil\x1b[2J")
    path = tmp_path / "smi.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["import-smi", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\u202e" not in out and "\x1b" not in out
    assert main(["import-smi", str(path), "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert "\u202e" not in out and "\x1b" not in out
    json.loads(out, parse_constant=pytest.fail)


def test_utf16_saved_output_is_read(tmp_path, capsys):
    path = tmp_path / "smi.txt"
    path.write_bytes(INVENTORY.encode("utf-16"))
    assert main(["import-smi", str(path), "--format", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["gpus"]) == 8


def test_standard_input_is_read_with_the_cap(monkeypatch, capsys):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(INVENTORY.encode())))
    assert main(["import-smi", "-", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["sources"] == ["<stdin>"]


def test_a_log_past_the_cap_is_refused(tmp_path, capsys):
    from advisor.hwimport.importer import MAX_FILE_BYTES

    path = tmp_path / "huge.log"
    with open(path, "wb") as handle:  # sparse: no disk written
        handle.truncate(MAX_FILE_BYTES + 1)
    assert main(["import-smi", str(path)]) == 2
    assert "file is too large" in capsys.readouterr().err
    assert Path(path).stat().st_size == MAX_FILE_BYTES + 1


def test_readings_no_gpu_reports_are_left_out_and_said():
    """Review 4: a mangled log's 1e40 °C and -300 W were shown and read as evidence by the
    diagnosis ("GPU 0 reaches 1e40 °C"). Readings outside what a GPU reports are dropped,
    the sane ones kept, and a warning names them in both languages."""
    text = ("# gpu   pwr gtemp mtemp    sm   mem   enc   dec  mclk  pclk\n"
            "# Idx     W     C     C     %     %     %     %   MHz   MHz\n"
            "    0   -300   999      -    97     40      0      0   6250   1710\n"
            "    0    280    71      -   250     41      0      0   6250   1710\n"
            "    0    285    72      -    98     42      0      0   6250   1710\n")
    desc = parse_text(text, "dmon.txt")
    g = desc.gpus[0]
    assert g.temp_c == 72 and g.power_draw_w == 285
    assert g.sm_util_pct == pytest.approx((97 + 98) / 2)
    said = [w for w in desc.warnings if "no GPU can report such values" in w.en]
    assert said and "temperature" in said[0].en and "GPU utilisation" in said[0].en
    assert "温度" in said[0].zh
