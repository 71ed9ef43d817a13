"""Which `nvidia-smi` output a text is, and where one output ends and the next begins.

A paste can hold several outputs (`-L` then the table, two grep fragments, a prompt between
them). Lines are classified with cheap string tests; runs of one kind become a segment, and the
neutral lines before a run (prompts, comments, blank lines) travel with it so a parser can read
hints such as ``topo -mp`` or ``--query-gpu=...`` from the command line.
"""

from __future__ import annotations

import re

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
_LIST_LINE = re.compile(r"^GPU \d{1,4}: \S.*(?:\(UUID|\(S/N|NVIDIA|Tesla|GeForce|Quadro)")


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
    return token in LINK_TOKENS or (token[:2] == "NV" and token[2:].isdigit())


def candidate_kinds(text: str) -> set[str]:
    """Kinds a text may contain, from substrings alone (no per-line work). Single-character
    gates first: they are memchr-fast, multi-character searches are not."""
    found: set[str] = set()
    if "|" in text and ("NVIDIA-SMI" in text or "GPU  Name" in text or "+---" in text):
        found.add("table")
    if ":" in text and (" : " in text or " :\n" in text or "NVSMI LOG" in text):
        found.add("query")
    if "0" in text and "GPU0" in text:
        found.add("topo")
    if "#" in text and ("# gpu" in text or "#gpu" in text or "# Idx" in text or "#Date" in text):
        found.add("dmon")
    if "(" in text and "(UUID" in text or "GPU 0: " in text:
        found.add("list")
    if "," in text and ", " in text:
        found.add("csv")
    return found


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

    Each distinct line is classified once (pasted logs repeat lines) and the kinds are looked
    up with ``map``: the loop below does no string work."""
    if len(candidates) == 1:
        return [(next(iter(candidates)), lines)]
    kind_of = {line: classify_line(line) for line in dict.fromkeys(lines)}
    segments: list[tuple[str, list[str]]] = []
    current: str | None = None
    start = 0
    pending_from = 0  # first neutral line after the last classified one
    for i, kind in enumerate(map(kind_of.__getitem__, lines), 1):
        if kind is None:
            continue
        if kind in _FOLLOWERS:
            follower_of = _FOLLOWERS[kind]
            if current == follower_of:
                pending_from = i
                continue
            if kind == "dmon-row":  # numbers with no dmon header: noheader CSV is comma'd
                continue
            kind = follower_of
        if kind != current:
            if current is not None:
                segments.append((current, lines[start:pending_from]))
                start = pending_from
            current = kind
        pending_from = i
    if current is not None:
        segments.append((current, lines[start:]))
    return segments
