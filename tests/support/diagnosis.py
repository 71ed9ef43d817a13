"""A measured curve the diagnosis and CLI tests share, and ``gpu-advisor diagnose`` on it."""

from __future__ import annotations

import json
from pathlib import Path

from advisor.cli import main

# A curve that levels off near 5x on one 8-GPU machine (a data-loader cap binds).
LEVELLING = "gpus,throughput\n1,100\n2,190\n4,350\n8,500\n"


def levelling_csv(tmp_path: Path, text: str = LEVELLING) -> Path:
    path = tmp_path / "m.csv"
    path.write_text(text, encoding="utf-8")
    return path


def diagnose_json(tmp_path, capsys, *args: str) -> dict:
    """``gpu-advisor diagnose`` of the levelling curve as JSON (``args`` added)."""
    assert main(["diagnose", str(levelling_csv(tmp_path)), "--format", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)
