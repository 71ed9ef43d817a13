"""Everything the command line prints passes one guard (issue 20, item 13): control and bidi
characters from a profile, a CSV or nvidia-smi output are escaped, so a model name cannot
retitle the terminal or clear it, and ``--format json`` stays valid, strict JSON."""

from __future__ import annotations

import json

import pytest

from advisor.cli import main
from advisor.text.safe import escape, shown, strip
from tests.support.paths import EXAMPLES

MEDIUM = (EXAMPLES / "medium-model-4gpu-worth-it.yaml").read_text(encoding="utf-8")
MEASURED = (EXAMPLES / "measured-4gpu-only-1.8x-diagnose.yaml").read_text(encoding="utf-8")
# YAML escapes for ESC ] 0 ; ... BEL, ESC [ 2 J, an RTL override and a C1 control
HOSTILE = r'"\e]0;pwned\a\e[2Jtxt.exe\u202e\x85"'
UNSAFE = ("\x1b", "\x07", "\u202e", "\x85")


def _profile(tmp_path, text: str) -> str:
    path = tmp_path / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_validate_prints_the_model_name_escaped(tmp_path, capsys):
    path = _profile(tmp_path, MEDIUM.replace("name: Faster R-CNN R50-FPN", f"name: {HOSTILE}"))
    assert main(["validate", path]) == 0
    out = capsys.readouterr().out
    assert not any(ch in out for ch in UNSAFE)
    assert r"\u001b]0;pwned\u0007\u001b[2Jtxt.exe\u202e\u0085" in out


def test_diagnose_prints_the_unit_escaped(tmp_path, capsys):
    path = _profile(tmp_path, MEASURED.replace("unit: images/s", r'unit: "img\e[31m/s\u202e"'))
    for fmt in ("text", "json"):
        assert main(["diagnose", path, "--format", fmt]) == 0
        out = capsys.readouterr().out
        assert not any(ch in out for ch in UNSAFE), fmt
    assert json.loads(out, parse_constant=pytest.fail)["measured"]["unit"] == \
        "img\x1b[31m/s\u202e"  # escaped on screen, the same text to a JSON reader


@pytest.mark.parametrize("command", [["recommend", "--format", "json"],
                                     ["recommend", "--format", "markdown"],
                                     ["recommend"], ["project", "--format", "json"],
                                     ["costs", "--format", "json"], ["costs"]])
def test_every_command_escapes_what_it_echoes(command, tmp_path, capsys):
    path = _profile(tmp_path, MEDIUM.replace("name: Faster R-CNN R50-FPN", f"name: {HOSTILE}"))
    assert main([command[0], path, *command[1:]]) == 0
    out = capsys.readouterr().out
    assert not any(ch in out for ch in UNSAFE)
    if "json" in command:
        json.loads(out, parse_constant=pytest.fail)


def test_error_messages_are_escaped_too(tmp_path, capsys):
    path = _profile(tmp_path, MEDIUM.replace("gpu: rtx4090", r'gpu: "rtx\e]0;x\a"'))
    assert main(["validate", path]) == 2
    err = capsys.readouterr().err
    assert "unknown GPU" in err and "\x1b" not in err and "\x07" not in err


def test_the_helpers():
    assert escape("a\tb\nc\x1b\u202e\r") == "a\tb\nc\\u001b\\u202e\\u000d"
    assert strip("a\x00b\x1b[2J\u202ec\nd") == "ab[2Jc d"
    assert shown("x" * 500).startswith("'" + "x" * 80) and "(+420 characters)" in shown("x" * 500)
