"""Which `nvidia-smi` output a text is, and where one output ends and the next begins.

A paste can hold several outputs (`-L` then the table, two grep fragments, a prompt between
them). Lines are classified with cheap string tests; runs of one kind become a segment, and the
neutral lines before a run (prompts, comments, blank lines) travel with it so a parser can read
hints such as ``topo -mp`` or ``--query-gpu=...`` from the command line.
"""

from __future__ import annotations

import re
from itertools import compress, groupby

LINK_TOKENS = frozenset({"X", "PIX", "PXB", "PHB", "NODE", "SYS", "SOC"})
# Column names `nvidia-smi dmon` (-s pucvmet, -o DT) and `pmon` print in their "# gpu ..." header,
# and the words of the units line under it ("# Idx W C C % % ...").
DMON_KEYS = frozenset({"gpu", "date", "time"})
DMON_COLUMNS = frozenset({
    "pwr", "gtemp", "mtemp", "temp", "sm", "mem", "enc", "dec", "jpg", "ofa", "mclk", "pclk",
    "pviol", "tviol", "fb", "bar1", "ccpm", "sbecc", "dbecc", "pci", "rxpci", "txpci", "pid",
    "type", "command", "nvlrx", "nvltx"})
DMON_UNITS = frozenset({"idx", "yyyymmdd", "hh:mm:ss", "w", "c", "%", "mhz", "mb", "kb", "gb",
                        "mb/s", "kb/s", "gb/s", "#", "c/g", "name", "bool", "errs", "count", "-"})
_GPU_BLOCK = re.compile(r"^GPU [0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f]\s*$")
_DATA_TOKEN = re.compile(r"^(?:-|[+-]?\d+(?:\.\d+)?|\d{8}|\d\d:\d\d:\d\d)$")
_LIST_LINE = re.compile(r"^GPU \d{1,9}: \S.*(?:\(UUID|\(S/N|NVIDIA|Tesla|GeForce|Quadro)")


def dmon_header(line: str) -> tuple[str, ...] | None:
    """The lower-cased column names of a `dmon`/`pmon` header line ("# gpu pwr gtemp ..."),
    or None. A Markdown heading or a code comment ("# GPU cluster notes") is not one: the
    names must start with gpu/Date/Time, include gpu, name a known metric, and be at least
    two-thirds known names (newer drivers add columns)."""
    s = line.strip()
    if s[:1] != "#":
        return None
    names = tuple(s[1:].lower().split())
    if len(names) < 2 or names[0] not in DMON_KEYS or "gpu" not in names:
        return None
    metrics = sum(1 for n in names if n in DMON_COLUMNS)
    known = metrics + sum(1 for n in names if n in DMON_KEYS)
    if metrics == 0 or 3 * known < 2 * len(names):
        return None
    return names


def is_dmon_units(line: str) -> bool:
    """The units line under a dmon header: "# Idx W C C % % % % MHz MHz" (or "#YYYYMMDD ...")."""
    s = line.strip()
    if s[:1] != "#":
        return False
    words = s[1:].lower().split()
    if len(words) < 2 or words[0] not in ("idx", "yyyymmdd"):
        return False
    return 3 * sum(1 for w in words if w in DMON_UNITS) >= 2 * len(words)


def is_link_token(token: str) -> bool:
    # NV1..NV18 on real boards: NV and a few digits, never a 5,000-digit run
    return token in LINK_TOKENS or (token[:2] == "NV" and 2 < len(token) <= 5
                                    and token[2:].isdigit())


def candidate_kinds(text: str) -> set[str]:
    """Kinds a text may contain, from substrings alone (no per-line work). Single-character
    gates first: they are memchr-fast, multi-character searches are not (``_has``)."""
    found: set[str] = set()
    if "|" in text and (_has(text, "NVIDIA-SMI") or _has(text, "GPU  Name") or
                        _has(text, "+---")):
        found.add("table")
    if ":" in text and (_has(text, " : ") or _has(text, " :\n") or _has(text, "NVSMI LOG")):
        found.add("query")
    if "0" in text and _has(text, "GPU0"):
        found.add("topo")
    if "#" in text and (_has(text, "# gpu") or _has(text, "#gpu") or _has(text, "# Idx") or
                        _has(text, "#Date")):
        found.add("dmon")
    if "(" in text and _has(text, "(UUID") or _has(text, "GPU 0: "):
        found.add("list")
    if "," in text and _has(text, ", "):
        found.add("csv")
    return found


def _has(text: str, needle: str) -> bool:
    """``needle in text``, by one-character finds of its first character while that is rare
    (a `dmon` log has no "G", a -q no "#"): a multi-character search scans the whole paste,
    about 0.5 ms per MB each, a one-character find is memchr-fast."""
    first = needle[0]
    at = text.find(first)
    for _ in range(64):
        if at == -1 or text.startswith(needle, at):
            return at != -1
        at = text.find(first, at + 1)
    return text.find(needle, at) != -1


def classify_line(line: str) -> str | None:
    """The kind a single line belongs to, or None for neutral lines (blank, prompt, comment)."""
    s = line.strip()
    if not s:
        return None
    c = s[0]
    if c == "|" or (c == "+" and s[1:2] in ("-", "=")):
        return "table"
    if " : " in s or s[-1] == ":" and s.endswith(" :"):
        return "query"
    if "nvidia-smi" in s:
        return None  # the command line itself (a prompt); kept as context for the next run
    if c == "#":
        if dmon_header(s) is not None:
            return "dmon"
        if is_dmon_units(s):
            return "dmon-row"
        rest = s[1:].split()
        if len(rest) >= 3 and all(_DATA_TOKEN.match(t) for t in rest):
            return "dmon-row"
        return None
    toks = s.split(None, 3)
    if len(toks) >= 2:
        if is_link_token(toks[1]) and not s.startswith("GPU "):
            return "topo"
        if toks[0] == "GPU0" or (toks[0].startswith("GPU0") and "Affinity" in s):
            return "topo"
    if c == "G" and s.startswith("GPU "):
        if _LIST_LINE.match(s):
            return "list"
        if _GPU_BLOCK.match(s):
            return "query"
    if c == "M" and s.startswith("MIG ") and "Device" in s:
        return "list"
    if "GPU0" in s and ("Affinity" in s or "\t" in line):
        return "topo"
    if s in ("Legend:", "NIC Legend:") or (c in "XSNP" and " = " in s and len(s.split(None, 1)[0]) <= 4) \
            or (s.startswith("NIC") and ": " in s):
        return "topo-legend"
    if "NVSMI LOG" in s:
        return "query"
    if "," in s:
        return "csv"
    if len(toks) >= 3 and all(_DATA_TOKEN.match(t) for t in s.split()):
        return "dmon-row"
    return None


_FOLLOWERS = {"dmon-row": "dmon", "topo-legend": "topo"}


def split_segments(lines: list[str], candidates: set[str]) -> list[tuple[str, list[str]]]:
    """Consecutive runs of one kind, each with the neutral lines that came before it.

    Each distinct line is classified once (pasted logs repeat lines). Neutral lines change
    nothing, and neither does a line of the kind just seen except that the segment grows to
    it, so the loop below visits runs of one kind among the classified lines (found with
    C-level ``compress``/``groupby``), not lines."""
    if len(candidates) == 1:
        return [(next(iter(candidates)), lines)]
    kind_of = {line: classify_line(line) for line in dict.fromkeys(lines)}
    kinds = list(map(kind_of.__getitem__, lines))
    positions = list(compress(range(1, len(lines) + 1), kinds))  # 1-based, classified lines
    segments: list[tuple[str, list[str]]] = []
    current: str | None = None
    start = 0
    pending_from = 0  # first neutral line after the last classified one
    at = 0
    for kind, run in groupby(filter(None, kinds)):
        at += len(list(run))
        last = positions[at - 1]  # the run's last line
        if kind in _FOLLOWERS:
            follower_of = _FOLLOWERS[kind]
            if current == follower_of:
                pending_from = last
                continue
            if kind == "dmon-row":  # numbers with no dmon header: noheader CSV is comma'd
                continue
            kind = follower_of
        if kind != current:
            if current is not None:
                segments.append((current, lines[start:pending_from]))
                start = pending_from
            current = kind
        pending_from = last
    if current is not None:
        segments.append((current, lines[start:]))
    return segments
