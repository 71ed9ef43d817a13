"""One reading guard for every file the program opens (issue 20, items 3 and 14): only a
regular file is read, never more than a cap, never blocking; ``-`` is standard input; UTF-16
is read. Each case is the reproduction from the issue, through the command that hung or grew."""

from __future__ import annotations

import io
import os
import sys
import threading
from pathlib import Path

import pytest

from advisor.cli import main
from advisor.files.errors import InputError
from advisor.files.reading import MAX_TEXT_BYTES, decode_text, read_file_bytes, read_text_file
from tests.support.paths import EXAMPLES

MEDIUM = EXAMPLES / "medium-model-4gpu-worth-it.yaml"
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
needs_dev = pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")


def _within(seconds: float, fn, *args):
    """fn(*args) in a thread: a reader that blocks fails the test instead of hanging it."""
    result: dict = {}

    def run() -> None:
        try:
            result["value"] = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            result["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"{fn.__name__}{args} blocked"
    if "error" in result:
        raise result["error"]
    return result.get("value")


@needs_fifo
@pytest.mark.parametrize("command", [["validate"], ["recommend"], ["import-smi"],
                                     ["diagnose"]])
def test_a_fifo_is_refused_not_waited_on(command, tmp_path, capsys):
    fifo = tmp_path / "profile.yaml"
    os.mkfifo(fifo)
    code = _within(20, main, [*command, str(fifo)])
    assert code == 2
    assert f"{fifo}: is a pipe (FIFO), not a regular file" in capsys.readouterr().err


@needs_dev
@pytest.mark.parametrize("command", [["validate"], ["import-smi"], ["diagnose"],
                                     ["recommend"]])
def test_dev_zero_is_refused_before_reading(command, capsys):
    assert _within(20, main, [*command, "/dev/zero"]) == 2
    assert "/dev/zero: is a device, not a regular file" in capsys.readouterr().err


@needs_dev
def test_a_device_log_for_diagnose_is_refused(capsys):
    code = _within(20, main, ["diagnose", str(EXAMPLES / "measured-4gpu-only-1.8x-diagnose.yaml"),
                              "--dmon", "/dev/urandom"])
    assert code == 2
    assert "/dev/urandom: is a device" in capsys.readouterr().err


@needs_dev
def test_a_link_to_a_device_is_refused(tmp_path, capsys):
    link = tmp_path / "profile.yaml"
    link.symlink_to("/dev/zero")
    assert main(["validate", str(link)]) == 2
    assert "is a device" in capsys.readouterr().err


def test_a_link_to_a_profile_is_read(tmp_path, capsys):
    link = tmp_path / "current.yaml"
    link.symlink_to(MEDIUM)
    assert main(["validate", str(link)]) == 0
    assert "ok" in capsys.readouterr().out


def test_a_folder_is_named(tmp_path, capsys):
    assert main(["validate", str(tmp_path)]) == 2
    assert "is a folder, not a file" in capsys.readouterr().err


def test_the_cap_holds_when_the_size_is_not_known(tmp_path):
    """A file that grows while it is read, or reports no size (procfs), is read to the cap
    and no further."""
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (MAX_TEXT_BYTES + 1))
    with pytest.raises(InputError, match="file is too large"):
        read_file_bytes(big)
    assert read_file_bytes(big, max_bytes=MAX_TEXT_BYTES + 1)[:1] == b"#"


def test_validate_dash_reads_standard_input(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(MEDIUM.read_bytes())))
    assert main(["validate", "-"]) == 0
    assert "-: ok (object_detection" in capsys.readouterr().out


def test_standard_input_is_capped(monkeypatch, capsys):
    endless = io.TextIOWrapper(io.BytesIO(b"a: 1\n" * (MAX_TEXT_BYTES // 4)))
    monkeypatch.setattr(sys, "stdin", endless)
    assert main(["validate", "-"]) == 2
    assert "<stdin>: file is too large" in capsys.readouterr().err


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_profiles_are_read(encoding, tmp_path, capsys):
    """Notepad and PowerShell write UTF-16: it was refused as "binary data"."""
    path = tmp_path / "utf16.yaml"
    path.write_bytes(MEDIUM.read_text(encoding="utf-8").encode(encoding))
    assert main(["validate", str(path)]) == 0, capsys.readouterr().err


def test_binary_and_bad_utf8_are_named():
    with pytest.raises(InputError, match="binary data"):
        decode_text(b"\x89PNG\r\n\x1a\n\x00\x00", "x")
    with pytest.raises(InputError, match=r"not UTF-8 text \(byte 3\)"):
        decode_text(b"abc\xff", "x")
    assert decode_text(b"abc\xff\x00", "x", lenient=True) == "abc\ufffd"


def test_missing_file_and_unreadable_file(tmp_path):
    with pytest.raises(InputError, match="file not found"):
        read_text_file(tmp_path / "nope.yaml")
    locked = tmp_path / "locked.yaml"
    locked.write_text("a: 1\n")
    locked.chmod(0)
    try:
        if os.access(locked, os.R_OK):
            pytest.skip("running as root: a 000 file is readable")
        with pytest.raises(InputError, match="cannot read: permission denied"):
            read_text_file(locked)
    finally:
        locked.chmod(0o600)
