"""A user review: an 8-GPU nvidia-smi table cut mid-row read "GPUs 3", and one with a GPU's
rows deleted "GPUs 7", with no word that the count may be short."""

from __future__ import annotations

from advisor.hwimport.importer import parse_text
from tests.support.paths import FIXTURES

SMI = FIXTURES / "nvidia-smi" / "smi"


def _eight_gpu_table() -> str:
    for path in sorted(SMI.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        desc = parse_text(text)
        if desc.gpu_count == 8 and not any("may be short" in w.en for w in desc.warnings):
            return text
    raise AssertionError("no whole 8-GPU table among the fixtures")


def _short(desc) -> list[str]:
    return [w.en for w in desc.warnings if "may be short" in w.en]


def test_a_whole_table_says_nothing():
    assert not _short(parse_text(_eight_gpu_table()))


def test_a_table_cut_inside_a_gpus_rows_says_the_count_may_be_short():
    text = _eight_gpu_table()
    lines = text.splitlines()
    third = next(i for i, line in enumerate(lines) if line.startswith("|   3  "))
    cut = "\n".join(lines[:third + 1]) + "\n"  # GPU 3's first line, then nothing
    desc = parse_text(cut)
    said = _short(desc)
    assert desc.gpu_count == 4 and said and "inside GPU 3's rows" in said[0]
    assert any("可能偏少" in w.zh for w in desc.warnings)


def test_a_gpu_missing_from_the_rows_is_named():
    lines = _eight_gpu_table().splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("|   1  "))
    del lines[first:first + 4]  # GPU 1's rows and the border under them
    desc = parse_text("\n".join(lines) + "\n")
    said = _short(desc)
    assert desc.gpu_count == 7 and said and "skips GPU 1" in said[0]


def test_outputs_without_a_gpu_fact_exit_2(tmp_path, capsys):
    """A --query-gpu header with no rows, or nvidia-smi's own failure, printed every field
    "unknown" and exited 0: a script went on with nothing."""
    from advisor.cli import main

    header = tmp_path / "q.csv"
    header.write_text("index, name, memory.total [MiB]\n", encoding="utf-8")
    failed = tmp_path / "failed.txt"
    failed.write_text("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA "
                      "driver. Make sure that the latest NVIDIA driver is installed and "
                      "running.\n", encoding="utf-8")
    for path in (header, failed):
        assert main(["--lang", "en", "import-smi", str(path)]) == 2
        assert "no GPU facts" in capsys.readouterr().err
    assert main(["--lang", "en", "import-smi", str(next(SMI.glob("*.txt")))]) == 0
