"""Review 3: a catalog date written in words ('early 2026') read half in English in the
Chinese output ('AutoDL（约数），early 2026'); it reads as a Chinese reader writes it, the
English untouched, an ISO date the same in both."""

from __future__ import annotations

import pytest

from advisor.catalog.entries import date_zh, dated_text
from advisor.cli import main


@pytest.mark.parametrize("as_of, zh", [("early 2026", "2026 年初"), ("mid 2025", "2025 年中"),
                                       ("Late 2024", "2024 年底"), ("Q3 2025", "2025 年第三季度"),
                                       ("2026-11-09", "2026-11-09"), ("2026", "2026")])
def test_a_date_in_words_reads_in_chinese(as_of, zh):
    assert date_zh(as_of) == zh
    text = dated_text(as_of, "high")
    assert text.en.startswith(as_of) and text.zh.startswith(zh)


def test_the_catalog_command_writes_no_english_date_in_chinese(capsys):
    assert main(["--lang", "zh", "catalog"]) == 0
    out = capsys.readouterr().out
    assert "early 20" not in out and "late 20" not in out and "mid 20" not in out
