"""Review 4: ``--pdf`` never replaces a file the command reads (the profile, a measurement
CSV, a log; named directly, by another path or through a link) nor an existing file that is
not a PDF; it exits 2 naming the file, in the user's language, and the file is kept."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from advisor.cli import main
from advisor.cli.pdf_target import check_pdf_target
from advisor.files.errors import InputError
from tests.support.paths import EXAMPLES

PROFILE = EXAMPLES / "medium-model-4gpu-worth-it.yaml"


@pytest.fixture
def profile(tmp_path: Path) -> Path:
    copy = tmp_path / "p.yaml"
    shutil.copy(PROFILE, copy)
    return copy


def _kept(path: Path) -> None:
    assert path.read_bytes() == PROFILE.read_bytes()


@pytest.mark.parametrize("target", ["p.yaml", "./sub/../p.yaml", "link.pdf"])
def test_the_profile_read_is_never_the_pdf(profile, target, monkeypatch, capsys):
    monkeypatch.chdir(profile.parent)
    (profile.parent / "sub").mkdir()
    os.symlink("p.yaml", profile.parent / "link.pdf")
    assert main(["recommend", "p.yaml", "--pdf", target]) == 2
    err = capsys.readouterr().err
    assert target in err and "the file this command reads" in err
    _kept(profile)


def test_the_refusal_speaks_chinese(profile, monkeypatch, capsys):
    monkeypatch.chdir(profile.parent)
    assert main(["--lang", "zh", "recommend", "p.yaml", "--pdf", "p.yaml"]) == 2
    assert "是本命令读取的文件" in capsys.readouterr().err
    _kept(profile)


def test_a_file_that_is_not_a_pdf_is_not_replaced(profile, tmp_path, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    assert main(["recommend", str(profile), "--pdf", str(notes)]) == 2
    assert "is not a PDF" in capsys.readouterr().err
    assert notes.read_text() == "my notes\n"


def test_a_measurement_file_diagnosed_is_not_replaced(tmp_path, capsys):
    csv = tmp_path / "m.csv"
    csv.write_text("gpus,throughput\n1,100\n2,180\n4,300\n")
    assert main(["diagnose", str(csv), "--profile", str(PROFILE), "--pdf", str(csv)]) == 2
    assert "the file this command reads" in capsys.readouterr().err
    assert csv.read_text().startswith("gpus,throughput")


def test_an_earlier_report_or_a_new_name_may_be_written(tmp_path, profile):
    old = tmp_path / "report.pdf"
    old.write_bytes(b"%PDF-1.4\n%...\n")
    assert check_pdf_target(str(old), [str(profile)]) == old
    assert check_pdf_target(str(tmp_path / "new.pdf"), [str(profile)]) == tmp_path / "new.pdf"
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    assert check_pdf_target(str(empty), [str(profile)]) == empty
    with pytest.raises(InputError):
        check_pdf_target(str(profile), [str(profile)])
