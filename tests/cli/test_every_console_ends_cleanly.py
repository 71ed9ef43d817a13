"""Issue 35, classes 5 and 6: every command ends cleanly on the consoles users have — standard
output in a legacy code page (what Python uses on Windows when output is redirected: cp1252,
GBK) and a standard output that cannot be written (a full disk)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import EXAMPLES

MEDIUM = str(EXAMPLES / "medium-model-4gpu-worth-it.yaml")
COMMANDS = [["--help"], ["--version"], ["recommend", MEDIUM, "--lang", "zh"],
            ["costs", MEDIUM, "--lang", "en"], ["compare", MEDIUM, "--lang", "zh"],
            ["catalog", "--lang", "en"]]


def _run(args: list[str], encoding: str | None = None, stdout=subprocess.PIPE):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    if encoding:
        env["PYTHONIOENCODING"] = encoding
    return subprocess.run([sys.executable, "-m", "advisor.cli", *args], env=env,
                          stdout=stdout, stderr=subprocess.PIPE, timeout=120, check=False)


@pytest.mark.parametrize("encoding", ["cp1252", "gbk"])
@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0].lstrip("-"))
def test_a_legacy_code_page_prints_instead_of_crashing(encoding, args):
    done = _run(args, encoding)
    assert done.returncode == 0, done.stderr.decode(encoding, "replace")[-400:]
    assert b"Traceback" not in done.stderr and done.stdout.strip()
    done.stdout.decode(encoding)  # all of it in the console's code page


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("args", [["--version"], ["costs", MEDIUM, "--lang", "en"]],
                         ids=lambda a: a[0].lstrip("-"))
def test_a_full_disk_is_said_not_an_internal_error(args):
    with open("/dev/full", "w") as full:
        done = _run(args, stdout=full)
    err = done.stderr.decode()
    assert done.returncode == 1 and "cannot write the output" in err
    assert "Traceback" not in err and "internal error" not in err


def test_a_price_in_yuan_keeps_its_sign_on_a_chinese_windows_console():
    """Review 4: GBK has no "¥" (U+00A5): every price read "?1.24". It has the full-width
    "￥", which the console then shows; "≤" reads "<=" on a Western code page."""
    done = _run(["recommend", MEDIUM, "--lang", "zh"], "gbk")
    text = done.stdout.decode("gbk")
    assert "￥" in text and "?1" not in text
    from advisor.cli import FALLBACKS, _fallback

    exc = UnicodeEncodeError("cp1252", "≤ 5 ★ 语", 0, 1, "no")
    assert _fallback(exc) == ("<=", 1)
    assert FALLBACKS["¥"][0].encode("gbk")
    assert _fallback(UnicodeEncodeError("ascii", "语", 0, 1, "no")) == ("?", 1)


@pytest.mark.skipif(not Path("/bin/bash").exists(), reason="needs bash")
def test_bad_input_is_status_2_even_when_nobody_reads_the_message(tmp_path):
    """Review 4: with standard error gone (``2>&1 | true``) a bad profile exited 0."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("a:\tb\n")
    done = subprocess.run(f'"{sys.executable}" -m advisor.cli validate "{bad}" 2>&1 | true; '
                          'exit ${PIPESTATUS[0]}', shell=True, executable="/bin/bash",
                          timeout=120, check=False)
    assert done.returncode == 2


@pytest.mark.skipif(not Path("/bin/bash").exists(), reason="needs bash")
def test_a_closed_standard_output_is_said_not_lost():
    done = subprocess.run(f'"{sys.executable}" -m advisor.cli recommend "{MEDIUM}" >&-',
                          shell=True, executable="/bin/bash", stderr=subprocess.PIPE,
                          timeout=120, check=False)
    assert done.returncode == 1
    assert b"standard output is closed" in done.stderr and b"Traceback" not in done.stderr
    done = subprocess.run(f'"{sys.executable}" -m advisor.cli --lang zh schema >&-',
                          shell=True, executable="/bin/bash", stderr=subprocess.PIPE,
                          timeout=120, check=False)  # in the language asked for
    assert done.returncode == 1 and "标准输出已关闭" in done.stderr.decode("utf-8")


@pytest.mark.skipif(not Path("/bin/bash").exists(), reason="needs bash")
def test_with_standard_output_closed_bad_input_is_2_and_the_pdf_is_written(tmp_path):
    """A user review: with standard output closed (pythonw, a scheduled task) every command
    exited 1 before reading anything: bad input was not status 2 and --pdf wrote nothing."""
    done = subprocess.run(f'"{sys.executable}" -m advisor.cli recommend "{tmp_path}/no.yaml" '
                          '>&-', shell=True, executable="/bin/bash", stderr=subprocess.PIPE,
                          timeout=120, check=False)
    assert done.returncode == 2 and b"not found" in done.stderr
    pdf = tmp_path / "r.pdf"
    done = subprocess.run(f'"{sys.executable}" -m advisor.cli recommend "{MEDIUM}" '
                          f'--pdf "{pdf}" >&-', shell=True, executable="/bin/bash",
                          stderr=subprocess.PIPE, timeout=180, check=False)
    assert done.returncode == 0 and pdf.read_bytes()[:5] == b"%PDF-"
    assert b"standard output is closed" in done.stderr and b"Traceback" not in done.stderr
