"""The fast paths of the nvidia-smi import give what the plain paths gave.

Speed work on `advisor.hwimport` (benchmarks/README.md, "nvidia-smi import speed") replaced
line-by-line work with whole-text and per-distinct-line work. Each fast path is checked here
against the plain version it replaced (kept below as the reference), on the recorded outputs,
their concatenations and seeded random edits; the benchmark's pastes, built smaller, must still
give the facts the plain code gave.
"""

from __future__ import annotations

import random
import re

import pytest

from advisor.hwimport import dmon, parse_text
from advisor.hwimport.cleanup import (
    _ANSI_RESIDUE,
    _drop_fences,
    _find,
    _remove,
    _split_at_quotes,
    _strip_escapes,
    clean_text,
)
from advisor.hwimport.detect import _FOLLOWERS, _has, classify_line, split_segments
from advisor.hwimport.query import parse_query
from advisor.hwimport.topo import parse_topo
from benchmarks.hwimport_speed import CASES, one_megabyte
from tests.support.paths import TESTS

FIXTURES = TESTS / "fixtures" / "nvidia-smi"
TEXTS = {p.relative_to(FIXTURES).as_posix(): p.read_text(encoding="utf-8")
         for p in sorted(FIXTURES.rglob("*.txt"))}
# The plain patterns the byte-level helpers replaced.
ONE_ALTERNATION = re.compile(
    rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\[[0-9]{1,3}(?:;[0-9]{1,3})*m")
FENCE_LINE = re.compile(rb"\n[ \t]*(?:```|~~~)[^\n]*")


def _pieces(rng: random.Random, alphabet: list[bytes], most: int) -> bytes:
    return b"".join(rng.choice(alphabet) for _ in range(rng.randint(0, most)))


def test_escape_stripping_is_the_one_alternation_pass():
    rng = random.Random(1)
    alphabet = [b"\x1b", b"[", b"0", b"12", b"1234", b";", b"m", b"K", b"(", b")", b"A", b"?",
                b"x", b"\n", b" "]
    samples = [_pieces(rng, alphabet, 24) for _ in range(6000)]
    samples += [_pieces(rng, [*alphabet, b"[0m", b"\x1b[1m"], 3000) for _ in range(30)]
    samples += [t.encode() for t in TEXTS.values() if "\x1b" in t or "[0m" in t]
    for raw in samples:  # the long ones: more "[" and ESC than the one-byte finds take
        assert _strip_escapes(raw) == ONE_ALTERNATION.sub(b"", raw), raw
        assert _remove(raw, b"[", _ANSI_RESIDUE) == _ANSI_RESIDUE.sub(b"", raw), raw


def test_quote_marks_are_split_as_bytes_split_does():
    rng = random.Random(5)
    alphabet = [b">", b"\n", b"\n>", b"> ", b"x", b" ", b">>"]
    for n in range(4000):
        raw = _pieces(rng, alphabet, 700 if n % 50 == 0 else 15)
        assert _split_at_quotes(raw) == raw.split(b"\n>"), raw


def test_fence_lines_are_emptied_as_the_line_start_regex_did():
    rng = random.Random(2)
    alphabet = [b"`", b"``", b"```", b"````", b"~", b"~~~", b" ", b"\t", b"\n", b"x", b"\n\n"]
    for _ in range(6000):
        raw = _pieces(rng, alphabet, 16)
        assert _drop_fences(raw) == FENCE_LINE.sub(b"\n", b"\n" + raw)[1:], raw


def test_first_character_finds_are_substring_tests():
    rng = random.Random(3)
    alphabet = [b"`", b"```", b"|", b"||", b"\\", b"\\|", b"~~~", b" ", b"\n", b"x"]
    for n in range(3000):
        raw = _pieces(rng, alphabet, 300 if n % 5 == 0 else 12)  # > 64 first-byte hits too
        for needle in (b"```", b"||", b"\\|", b"~~~"):
            start = rng.randint(0, len(raw))
            assert _find(raw, needle, start) == raw.find(needle, start), (raw, needle, start)
    alphabet_str = ["G", "GPU", "GPU0", " ", ":", " : ", "\n", "#", "# gpu", ", ", "x", "中"]
    for n in range(3000):
        text = "".join(rng.choice(alphabet_str) for _ in range(300 if n % 5 == 0 else 12))
        for needle in ("GPU0", " : ", " :\n", "# gpu", ", ", "GPU 0: "):
            assert _has(text, needle) == (needle in text), (text, needle)


def _line_by_line_segments(lines: list[str]) -> list[tuple[str, list[str]]]:
    """The segmenting loop before runs: one iteration per line."""
    kinds = [classify_line(line) for line in lines]
    segments: list[tuple[str, list[str]]] = []
    current: str | None = None
    start = pending_from = 0
    for i, kind in enumerate(kinds, 1):
        if kind is None:
            continue
        if kind in _FOLLOWERS:
            if current == _FOLLOWERS[kind]:
                pending_from = i
                continue
            if kind == "dmon-row":
                continue
            kind = _FOLLOWERS[kind]
        if kind != current:
            if current is not None:
                segments.append((current, lines[start:pending_from]))
                start = pending_from
            current = kind
        pending_from = i
    if current is not None:
        segments.append((current, lines[start:]))
    return segments


def test_run_based_segmenting_matches_the_line_by_line_loop():
    rng = random.Random(4)
    names = sorted(TEXTS)
    pastes = list(TEXTS.values())
    pastes += [TEXTS[a] + "\n" + TEXTS[b] for a in names for b in rng.sample(names, 6)]
    neutral = ["", "$ nvidia-smi", "# notes", "user@host:~$ nvidia-smi topo -m", "    "]
    for _ in range(150):
        lines = "\n".join(rng.sample(pastes[:len(names)], 4)).split("\n")
        for _ in range(rng.randint(0, 30)):  # cut, repeated and neutral lines
            at = rng.randrange(len(lines))
            lines.insert(at, rng.choice([*neutral, lines[at]]) if rng.random() < 0.7 else "")
        pastes.append("\n".join(lines[rng.randrange(len(lines)):]))
    for text in pastes:
        lines = clean_text(text).split("\n")
        assert split_segments(lines, set()) == _line_by_line_segments(lines)


def _dmon_pastes() -> list[str]:
    pastes = [t for name, t in TEXTS.items() if name.startswith("dmon/dmon")]
    first = pastes[0]
    pastes += [first + "\n\n\n", first.replace("\n", "\n\n", 5), first + "\n   0   12\n",
               first + "\n" + first.splitlines()[-1] + " 7", first.replace(" 0 ", " \0 ", 3),
               first.replace("\n", "\n\0\n", 1), first * 3]
    fs, head = CASES["dmon log (4 GPUs, -s pucm)"]
    return [*pastes, one_megabyte(fs, 60_000, head)]


@pytest.mark.parametrize("text", _dmon_pastes())
def test_one_split_dmon_blocks_read_as_per_line_splits(text, monkeypatch):
    lines = text.split("\n")
    fast = dmon.parse_dmon(lines)
    monkeypatch.setattr(dmon, "_regular_block", lambda block, width: None)
    assert vars(fast) == vars(dmon.parse_dmon(lines))


def test_regular_block_takes_only_lines_of_exactly_one_row():
    row = "    0    31    34"
    assert dmon._regular_block([row, row, "", "  "], 3) == ["0", "31", "34", "\0",
                                                             "0", "31", "34"]
    assert dmon._regular_block([row, "", row], 3) is None  # a blank line inside
    assert dmon._regular_block([row, "    1    30"], 3) is None  # a short row
    assert dmon._regular_block([row + " \0", "1 2"], 3) is None  # NUL where rows meet
    assert dmon._regular_block(["", " "], 3) is None


@pytest.mark.parametrize("kind, parser", [("query", parse_query), ("topo", parse_topo)])
def test_memo_shared_by_the_segments_of_a_paste_changes_nothing(kind, parser):
    texts = [t for name, t in TEXTS.items() if name.startswith(kind + "/")]
    memo: dict = {}
    for text in texts + texts[::-1]:  # the memo already holds these lines the second time
        lines = text.split("\n")
        assert repr(vars(parser(lines, memo))) == repr(vars(parser(lines)))


REASONS = """GPU 00000000:01:00.0
    Product Name                          : NVIDIA H100 80GB HBM3
    Clocks Event Reasons
        Idle                              : Active

        SW Power Cap                      : Not Active
    Sparse Operation Mode                 : Default
        HW Slowdown                       : Active
    Clocks Event Reasons
        HW Power Brake Slowdown           : Active
    Temperature
        GPU Current Temp                  : 71 C
"""


def test_a_reasons_section_ends_at_the_first_line_not_indented_under_it():
    gpu = parse_query(REASONS.split("\n")).gpus[0]
    # "HW Slowdown" comes after an unread key at the heading's depth closed the section
    assert gpu.throttle == {"gpu_idle", "hw_power_brake_slowdown"}
    assert gpu.throttle_shown and gpu.temp_c == [71.0] and gpu.name == "NVIDIA H100 80GB HBM3"


# Facts the plain code (before the fast paths) gave for the benchmark's pastes, built smaller:
# (GPU count, kinds, driver, NVLink, hottest GPU, mean SM %, throttle reasons, warnings,
# observations).
BEFORE = {
    "dmon log (4 GPUs, -s pucm)": (4, ("dmon",), None, None, 35.0, 0.0, None, 0, ()),
    "dmon log (1 GPU, training)": (1, ("dmon",), None, None, 42.0, 78.24, None, 0,
                                   ("data_starvation",)),
    "--query-gpu CSV loop (-l 5)": (1, ("csv",), None, None, None, 91.55, None, 0, ()),
    "-q of 8 GPUs, pasted repeatedly": (8, ("query",), "565.57.01", None, 31.0, 0.0,
                                        ("gpu_idle",), 0, ()),
    # the paste is cut at 150,000 characters inside a GPU's rows: said since (a user review)
    "nvidia-smi tables (8 GPUs), watch log": (8, ("table",), "550.127.05", None, 28.0, 0.0,
                                              None, 1, ()),
    "-L of many machines": (8, ("list",), None, None, None, None, None, 1, ()),
    "mixed: every fixture, concatenated": (
        25, ("csv", "dmon", "list", "table", "query", "topo"), "595.91.07", "none", 81.0, 2.56,
        # 8 warnings: the 7 of the old parsers and "different GPU models: different machines"
        ("gpu_idle", "hw_power_brake_slowdown", "hw_slowdown", "sw_power_cap"), 8,
        ("data_starvation", "laggard_gpu", "no_nvlink", "pcie_link_downgraded", "power_capped",
         "vgpu_sharing")),
}


@pytest.mark.parametrize("name", list(BEFORE))
def test_benchmark_pastes_give_the_facts_they_gave_before(name):
    files, head = CASES[name]
    d = parse_text(one_megabyte(files, 700_000 if name.startswith("mixed") else 150_000, head))
    facts = (d.gpu_count, tuple(d.kinds), d.driver_version, d.nvlink, d.max_gpu_temp_c,
             None if d.mean_sm_util is None else round(d.mean_sm_util, 2),
             None if d.throttle_active is None else tuple(d.throttle_active), len(d.warnings),
             tuple(sorted(d.observation_ids())))
    assert facts == BEFORE[name]
