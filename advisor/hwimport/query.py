"""`nvidia-smi -q` (and `-a`, `-q -d ...`, grep'd pieces of it).

Nesting is read from indentation, never from the column of the colon: the key column is 36,
42 or 55 characters wide depending on the driver, and pasted fragments are often de-indented.
Keys are matched under their section, with the renames across drivers ("Clocks Throttle
Reasons" → "Clocks Event Reasons", "Power Readings" → "GPU Power Readings", "Gpu" → "GPU").
"""

from __future__ import annotations

import re
from itertools import compress, count

from advisor.hwimport.query_fields import Handler, field_handler
from advisor.hwimport.reading import GpuReading, Reading, as_int, norm_bus_id, to_float
from advisor.hwimport.throttle import is_active, reason_name

_GPU_BLOCK = re.compile(r"^GPU ([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f])\s*$")
_INDEX_FLAG = re.compile(r"(?:\s-i\s*|--id[= ])(\d+)\b")
_REASON_SECTIONS = frozenset({"clocks throttle reasons", "clocks event reasons",
                              "clocks_throttle_reasons", "clocks_event_reasons"})
# Keys and headings only `nvidia-smi -q` prints: one of them makes a text recognisably -q.
_SIGNATURE = frozenset({
    "nvsmi log", "attached gpus", "driver version", "cuda version", "product name",
    "product brand", "product architecture", "persistence mode", "gpu uuid", "vbios version",
    "performance state", "clocks throttle reasons", "clocks event reasons", "sw power cap",
    "hw slowdown", "hw thermal slowdown", "hw power brake slowdown", "sw thermal slowdown",
    "fb memory usage", "bar1 memory usage", "gpu current temp", "gpu shutdown temp",
    "gpu slowdown temp", "gpu t.limit temp", "power readings", "gpu power readings",
    "average power draw", "instantaneous power draw", "power draw", "current power limit",
    "enforced power limit", "gpu link info", "pcie generation", "link width",
    "gpu virtualization mode", "virtualization mode", "host vgpu mode", "compute mode",
    "ecc mode", "retired pages", "remapped rows", "max clocks", "applications clocks",
    "multigpu board", "minor number", "gsp firmware version", "accounting mode",
})


# Keys `field_handler` reads; any other key line is skipped without tracking its section.
_WANTED = frozenset({
    "product name", "bus id", "gpu uuid", "total", "used", "gpu", "memory", "encoder",
    "performance state", "gpu current temp", "gpu slowdown temp", "power draw",
    "average power draw", "enforced power limit", "current power limit", "power limit", "max",
    "current", "virtualization mode", "multigpu board", "state", "sm", "active vgpus",
    "driver version", "cuda version", "attached gpus", "attached vgpus",
})


# What a line of -q is, worked out once per distinct line (see ``_split``). Key lines (with
# " :") have codes up to _TOP_KEY; a "Clocks ... Reasons" section reads any of them.
_BLANK, _UNREAD, _SIGNATURE_KEY, _WANTED_KEY, _TOP_KEY, _HEADING, _GPU_LINE, _COMMAND = \
    range(-1, 7)
_READ = frozenset({_SIGNATURE_KEY, _WANTED_KEY, _TOP_KEY, _HEADING, _GPU_LINE, _COMMAND})
_SKIPPED = (_BLANK,)
_TOP_LEVEL = frozenset({"driver version", "cuda version", "attached gpus", "attached vgpus"})
_UNKNOWN = object()


def parse_query(lines: list[str], memo: dict[str, tuple] | None = None) -> Reading:
    """``memo``: line → ``_split(line)``, shared by the -q segments of one paste (a watch log
    cuts -q into several segments that repeat the same lines)."""
    reading = Reading(kind="query")
    stack: list[tuple[int, str]] = []
    gpu: GpuReading | None = None
    implicit_seen: set[tuple[str, str]] | None = None  # keys of a GPU with no header line
    index_flag: int | None = None
    # GPU blocks repeat most lines verbatim: each distinct line is split once
    split_of = {} if memo is None else memo
    split_of.update({line: _split(line) for line in set(lines).difference(split_of)})
    # The lines read outside a reasons section, found without a Python-level loop: more than
    # half of -q is keys nobody reads (clocks, ECC, processes...).
    read_of = {line: entry for line, entry in split_of.items() if entry[0] in _READ}
    read = compress(count(), map(read_of.__contains__, lines))
    resume = 0  # first line after the last reasons section
    handlers: dict[tuple[str, str], Handler | None] = {}  # (section, key) → what it sets
    for at in read:
        if at < resume:
            continue
        code, indent, key, value, extra, number = read_of[lines[at]]
        if code == _SIGNATURE_KEY:
            reading.recognised = True
            continue
        if code >= _GPU_LINE:
            if code == _GPU_LINE:
                gpu = GpuReading(bus_id=extra)
                reading.gpus.append(gpu)
                implicit_seen, stack = None, []
                reading.recognised = True
            elif extra is not None:  # a command line with -i N
                index_flag = extra
            continue
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if code == _HEADING:
            stack.append((indent, key))
            if extra is None:  # most headings: neither a signature nor a reasons section
                continue
            signature, reasons = extra
            if signature:
                reading.recognised = True
            if reasons:
                if gpu is not None and implicit_seen is not None and \
                        ("reasons", "") in implicit_seen:
                    gpu = None  # a second reasons block in a fragment: the next GPU
                if gpu is not None and implicit_seen is not None:
                    implicit_seen.add(("reasons", ""))
                resume, gpu, implicit_seen = _read_reasons(reading, lines, split_of, at, indent,
                                                           gpu, implicit_seen)
            continue
        if extra:  # a wanted key that only -q prints
            reading.recognised = True
        parent = stack[-1][1] if stack else ""
        if code == _TOP_KEY:
            if key == "driver version":
                if not parent:
                    reading.driver_version = value or None
                    continue
            elif key == "cuda version":
                if not parent:
                    reading.cuda_version = value if value and value[0].isdigit() else None
                    continue
            else:
                reading.declared_gpu_count = as_int(number)
                continue
        if not value:
            continue
        if gpu is None or implicit_seen is not None and (parent, key) in implicit_seen:
            # a GPU with no "GPU 0000:..." line exists only in fragments; after the
            # "Attached GPUs" header, wait for the real block
            if reading.declared_gpu_count is not None or not _is_gpu_key(parent, key):
                continue
            gpu = _implicit_gpu(reading)
            implicit_seen = set()
        if implicit_seen is not None:
            implicit_seen.add((parent, key))
        handler = handlers.get((parent, key), _UNKNOWN)
        if handler is _UNKNOWN:
            handler = handlers[(parent, key)] = field_handler(parent, key)
        if handler is not None:
            handler(gpu, value, number)
    _finish(reading, index_flag)
    return reading


def _read_reasons(reading: Reading, lines: list[str], split_of: dict[str, tuple], at: int,
                  indent: int, gpu: GpuReading | None,
                  implicit_seen: set[tuple[str, str]] | None
                  ) -> tuple[int, GpuReading | None, set[tuple[str, str]] | None]:
    """The "Clocks ... Reasons" section opened at line ``at``: every key line indented deeper
    than the heading, up to the first other line (returned, with the GPU read into)."""
    end = at + 1
    while end < len(lines):
        entry = split_of[lines[end]]
        if entry[0] != _BLANK:
            if entry[0] > _TOP_KEY or entry[1] <= indent:
                break
            if gpu is None:
                gpu = _implicit_gpu(reading)
                implicit_seen = {("reasons", "")}
            active = is_active(entry[3])
            if active is not None:
                gpu.throttle_shown = True
            if active:
                gpu.throttle.add(reason_name(entry[2]))
        end += 1
    return end, gpu, implicit_seen


def _split(line: str) -> tuple:
    """(code, indentation, lower-case key (the whole line if no " :"), stripped value, extra,
    number) for one line, or ``_SKIPPED`` for lines to skip. ``extra``: the normalised bus id of a GPU
    block line, the ``-i`` index of a command line, (is a signature, opens a reasons section)
    for a heading, "is a signature" for a wanted key. ``number``: ``to_float(value)`` of a
    wanted key. _UNREAD: a "key : value" line that matters only inside a "Clocks ... Reasons"
    section (most lines of `-q`)."""
    s = line.lstrip()
    if not s:
        return _SKIPPED
    indent = len(line) - len(s)
    s = s.rstrip()
    if s[0] == "#" or s in ("--", "...", "…"):
        return _SKIPPED
    if "\t" in s:  # tab-padded keys in some pastes
        s = s.replace("\t", " ")
    key, sep, value = s.partition(" :")
    key = key.rstrip().lower()
    value = value.strip()
    if sep:
        if key in _WANTED:
            code = _TOP_KEY if key in _TOP_LEVEL else _WANTED_KEY
            return code, indent, key, value, key in _SIGNATURE, to_float(value)
        code = _SIGNATURE_KEY if key in _SIGNATURE else _UNREAD
        return code, indent, key, value, None, None
    if s[0] == "G" and (m := _GPU_BLOCK.match(s)):
        return _GPU_LINE, indent, key, value, norm_bus_id(m.group(1)), None
    if "nvidia-smi" in s:
        m = _INDEX_FLAG.search(s)
        return _COMMAND, indent, key, value, int(m.group(1)) if m else None, None
    signature = key in _SIGNATURE or key.strip("= ") == "nvsmi log"
    reasons = key in _REASON_SECTIONS
    return _HEADING, indent, key, value, (signature, reasons) if signature or reasons else None, \
        None


def _implicit_gpu(reading: Reading) -> GpuReading:
    gpu = GpuReading()
    reading.gpus.append(gpu)
    return gpu


def _is_gpu_key(parent: str, key: str) -> bool:
    if parent in ("vgpu driver capability", "") and key not in _SIGNATURE:
        return False
    return True


def _finish(reading: Reading, index_flag: int | None) -> None:
    by_bus: dict[str, GpuReading] = {}
    unique: list[GpuReading] = []
    for gpu in reading.gpus:  # the same -q pasted twice shows each GPU twice
        if gpu.bus_id is not None and gpu.bus_id in by_bus:
            by_bus[gpu.bus_id].absorb(gpu)
            continue
        if gpu.bus_id is not None:
            by_bus[gpu.bus_id] = gpu
        unique.append(gpu)
    reading.gpus = unique
    explicit = [g for g in reading.gpus if g.bus_id is not None]
    declared = reading.declared_gpu_count
    if not reading.gpus:
        return
    if len(explicit) == len(reading.gpus) and (declared is None or declared == len(explicit)):
        for i, gpu in enumerate(reading.gpus):  # -q lists GPUs in index (PCI bus) order
            gpu.index = i
    elif len(reading.gpus) == 1 and index_flag is not None:
        reading.gpus[0].index = index_flag
    if declared is None and not explicit:
        reading.count_is_fragment = True
        reading.warn("a fragment of `nvidia-smi -q` without the GPU header: the number of GPUs "
                     "is not known from it",
                     "这是 `nvidia-smi -q` 的片段，缺少 GPU 标题行：无法据此得知显卡数量")
    elif declared is not None and len(reading.gpus) < declared:
        reading.warn(f"`nvidia-smi -q` shows {len(reading.gpus)} of {declared} attached GPUs "
                     "(run with -i, or cut short)",
                     f"`nvidia-smi -q` 只显示了 {declared} 张显卡中的 {len(reading.gpus)} 张"
                     "（使用了 -i 或输出被截断）")
