"""Atomic replace never writes through what it should not (issue 20, item 2): a device, a FIFO
or a link to one is refused naming the path; a read-only file is refused unless the caller
asks; an empty name is an error; a long name works; a killed write's temporary is cleaned."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from advisor.cli import main
from advisor.files.atomic import (
    ReadOnlyTarget,
    atomic_write_text,
    check_target,
    remove_stale_temporaries,
)
from advisor.files.errors import InputError
from advisor.profile import Profile
from advisor.profile.writing import save_profile
from tests.support.paths import EXAMPLES

MEDIUM = EXAMPLES / "medium-model-4gpu-worth-it.yaml"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_a_fifo_is_not_replaced(tmp_path):
    fifo = tmp_path / "out.pdf"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="is a pipe"):
        atomic_write_text(fifo, "x")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="no /dev/null")
def test_a_device_and_a_link_to_it_are_not_replaced(tmp_path):
    with pytest.raises(InputError, match="/dev/null: is a device, not a regular file: not "
                                         "replaced"):
        check_target("/dev/null")
    link = tmp_path / "report.pdf"
    link.symlink_to("/dev/null")
    with pytest.raises(InputError, match="is a device"):
        atomic_write_text(link, "x")
    assert link.is_symlink() and os.readlink(link) == "/dev/null"


def test_a_link_to_a_file_replaces_the_file_and_keeps_the_link(tmp_path):
    real = tmp_path / "real.yaml"
    real.write_text("old\n")
    link = tmp_path / "current.yaml"
    link.symlink_to(real)
    written = atomic_write_text(link, "new\n")
    assert written == real.resolve()
    assert link.is_symlink() and real.read_text() == "new\n"


def test_a_link_to_nothing_is_refused(tmp_path):
    link = tmp_path / "gone.yaml"
    link.symlink_to(tmp_path / "missing.yaml")
    with pytest.raises(InputError, match="link to a file that does not exist"):
        atomic_write_text(link, "x")
    assert not (tmp_path / "missing.yaml").exists()


def test_a_read_only_file_is_kept_unless_asked(tmp_path):
    path = tmp_path / "p.yaml"
    save_profile(Profile(), path)
    path.chmod(0o444)
    before = path.read_bytes()
    with pytest.raises(ReadOnlyTarget, match="is read-only: not replaced"):
        save_profile(Profile(model={"name": "changed"}), path)
    assert path.read_bytes() == before
    save_profile(Profile(model={"name": "changed"}), path, replace_read_only=True)
    assert "changed" in path.read_text() and not path.stat().st_mode & 0o222


def test_an_empty_name_is_an_error(tmp_path):
    with pytest.raises(InputError, match="no file name given"):
        atomic_write_text("", "x")


def test_a_255_character_name_fits_its_temporary(tmp_path):
    path = tmp_path / ("a" * 251 + ".pdf")
    atomic_write_text(path, "x")
    assert path.read_text() == "x"


def test_a_name_too_long_is_a_clear_error(tmp_path):
    with pytest.raises(InputError, match="the name is too long"):
        atomic_write_text(tmp_path / ("a" * 300 + ".pdf"), "x")


def test_a_killed_writes_temporary_is_removed_by_the_next_write(tmp_path):
    """A kill during fsync left ``.X.pdf.<random>.tmp`` (older versions) or
    ``.X.pdf.<pid>.<random>.tmp``: the next write to X removes those of dead processes."""
    target = tmp_path / "X.pdf"
    legacy = tmp_path / ".X.pdf.ab12cd34.tmp"
    dead = tmp_path / ".X.pdf.999999999.ab12cd34.tmp"
    alive = tmp_path / f".X.pdf.{os.getpid()}.zz12cd34.tmp"  # a write in flight: kept
    other = tmp_path / ".Y.pdf.999999999.ab12cd34.tmp"  # another file's: kept
    for leftover in (legacy, dead, alive, other):
        leftover.write_text("partial")
    old = time.time() - 120
    os.utime(legacy, (old, old))
    atomic_write_text(target, "report")
    assert target.read_text() == "report"
    assert not legacy.exists() and not dead.exists()
    assert alive.exists() and other.exists()
    assert remove_stale_temporaries(target) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([target.name, alive.name,
                                                                  other.name])


def test_cli_pdf_targets(tmp_path, capsys):
    """``--pdf ""`` wrote nothing and exited 0; ``--pdf`` of a read-only file replaced it."""
    assert main(["recommend", str(MEDIUM), "--pdf", ""]) == 2
    assert "no file name given" in capsys.readouterr().err
    locked = tmp_path / "locked.pdf"
    locked.write_bytes(b"%PDF-old")
    locked.chmod(0o444)
    assert main(["recommend", str(MEDIUM), "--pdf", str(locked)]) == 2
    assert f"{locked}: is read-only: not replaced" in capsys.readouterr().err
    assert locked.read_bytes() == b"%PDF-old"
    assert main(["recommend", str(MEDIUM), "--pdf", str(tmp_path / ("b" * 300 + ".pdf"))]) == 2
    assert "the name is too long" in capsys.readouterr().err


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="no /dev/null")
def test_cli_pdf_to_a_device_exits_2_naming_it(capsys):
    assert main(["diagnose", str(EXAMPLES / "measured-4gpu-only-1.8x-diagnose.yaml"), "--pdf",
                 "/dev/null"]) == 2
    assert "/dev/null: is a device, not a regular file: not replaced" in \
        capsys.readouterr().err
