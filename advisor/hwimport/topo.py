"""`nvidia-smi topo -m` / `topo -mp`: how GPUs reach each other and the RDMA NICs.

Cells are split on runs of whitespace, not on tabs, because web pastes turn tabs into spaces;
link cells are never empty, so the first N cells after a row label are the N device columns
(trailing affinity cells may be empty, a range, a list or garbage and are read only when tabs
survived). `topo -mp` prints PCIe paths only: it says nothing about NVLink (# F25).
"""

from __future__ import annotations

import re
from functools import lru_cache

from advisor.hwimport.detect import is_link_token
from advisor.hwimport.reading import Reading, TopoReading

_MULTIWORD = (("GPU", "NUMA", "ID"), ("CPU", "Affinity"), ("NUMA", "Affinity"))
_TAIL_COLUMNS = frozenset({"CPU Affinity", "NUMA Affinity", "GPU NUMA ID"})
_GPU_LABEL = re.compile(r"^GPU(\d{1,3})$")
_NIC_LEGEND = re.compile(r"^(NIC\d+)\s*:\s*(\S+)")
# A cell fused with its neighbour ("PH0-115") or clipped: read the link from its first letters.
_PREFIXES = (("NV", None), ("PIX", "PIX"), ("PXB", "PXB"), ("PHB", "PHB"), ("PH", "PHB"),
             ("PX", "PXB"), ("PI", "PIX"), ("NODE", "NODE"), ("NOD", "NODE"), ("SYS", "SYS"),
             ("SY", "SYS"), ("SOC", "SYS"))


def _header_tokens(line: str) -> list[str]:
    raw = line.split()
    out: list[str] = []
    i = 0
    while i < len(raw):
        for words in _MULTIWORD:
            if tuple(raw[i:i + len(words)]) == words:
                out.append(" ".join(words))
                i += len(words)
                break
        else:
            out.append(raw[i])
            i += 1
    return out


@lru_cache(maxsize=1024)
def _link(cell: str) -> tuple[str | None, bool]:
    """(normalised token, exact?) for one matrix cell (cached: a matrix repeats few cells)."""
    if cell == "SOC":  # pre-2016 name of SYS
        return "SYS", True
    if is_link_token(cell):
        return cell, True
    for prefix, token in _PREFIXES:
        if cell.startswith(prefix):
            if token is None:
                # NV1..NV18 on real boards; a run of digits beyond that is not a link count
                digits = re.match(r"NV(\d{1,3})(?!\d)", cell)
                return (f"NV{digits.group(1)}", False) if digits else (None, False)
            return token, False
    return None, False


def _numa_ids(value: str) -> set[int]:
    ids: set[int] = set()
    for part in value.split(","):
        bounds = part.strip().split("-")
        if len(bounds) == 2 and bounds[0].isdigit() and bounds[1].isdigit():
            lo, hi = int(bounds[0]), int(bounds[1])
            if 0 <= hi - lo < 1024:
                ids.update(range(lo, hi + 1))
        elif len(bounds) == 1 and bounds[0].isdigit():
            ids.add(int(bounds[0]))
    return ids


def _mode_hint(line: str, topo: TopoReading) -> None:
    low = line.lower()
    if "topo" not in low:
        return
    if re.search(r"(?:-mp\b|--matrix_pci\b)", low):
        topo.pcie_only_view, topo.mode_known = True, True
    elif re.search(r"(?:-m\b|--matrix\b)", low):
        topo.mode_known = True


_NOT_A_ROW = ()
Row = tuple[int | None, int, bool, list[tuple[tuple[int, str], str]],
            list[tuple[tuple[int, int], str]], set[int]]


def _row(line: str, s: str, devices: list[str], device_set: set[str], gpu_of: dict[str, int],
         gpu_at_column: list[int | None], tails: list[str]) -> Row | tuple[()]:
    """One matrix row under the header ``devices``: (GPU number or None for a NIC row, garbled
    cells, any NV# cell, GPU→NIC links, GPU pair links in column order, NUMA ids), or
    ``_NOT_A_ROW``."""
    toks = s.split()
    label = toks[0]
    if label not in device_set or len(toks) < 2:
        return _NOT_A_ROW
    i = gpu_of.get(label)  # this row's GPU number; None for a NIC row
    fuzzy, nv = 0, False
    nic_links: list[tuple[tuple[int, str], str]] = []
    links: list[tuple[tuple[int, int], str]] = []
    for col, cell in enumerate(toks[1:1 + len(devices)]):
        token, exact = _link(cell)
        if token is None:
            break
        fuzzy += not exact
        if i is not None and token != "X":
            j = gpu_at_column[col]
            if j is None:
                nic_links.append(((i, devices[col]), token))
            elif i != j:
                links.append(((min(i, j), max(i, j)), token))
        if token[:2] == "NV":
            nv = True
    numa: set[int] = set()
    if i is not None and "NUMA Affinity" in tails and "\t" in line:
        parts = line.rstrip("\n").split("\t")
        at = 1 + len(devices) + tails.index("NUMA Affinity")
        if at < len(parts):
            numa = _numa_ids(parts[at])
    return i, fuzzy, nv, nic_links, links, numa


def parse_topo(lines: list[str], memo: dict[tuple[str, ...], dict[str, tuple]] | None = None
               ) -> Reading:
    """``memo``: header → {line: its ``_row``}, shared by the topo segments of one paste (a
    watch log of several commands cuts the same matrix into many segments)."""
    memo = {} if memo is None else memo
    reading = Reading(kind="topo")
    topo = reading.topo = TopoReading()
    devices: list[str] = []
    device_set: set[str] = set()
    gpu_at_column: list[int | None] = []  # GPU number of each device column, None for a NIC
    gpu_of: dict[str, int] = {}
    tails: list[str] = []
    nic_names: dict[str, str] = {}
    numa: set[int] = set()
    legend_nv = legend_pix_next = False
    fuzzy_cells = 0
    rows: dict[str, tuple] = {}  # line → its _row under this header
    for line in lines:
        s = line.strip()
        if legend_pix_next:  # the line after "PIX = ..." is "NV# = ..." only in `topo -m`
            legend_pix_next = False
            if not s.startswith("NV"):
                topo.pcie_only_view = topo.mode_known = not legend_nv
        if not s:
            continue
        if not devices:
            if "GPU0" in s or ("GPU" in s and "Affinity" in s):
                toks = _header_tokens(s)
                rows = memo.setdefault(tuple(toks), {})
                devices = [t for t in toks if t not in _TAIL_COLUMNS]
                cut = next((i for i, t in enumerate(toks) if t in _TAIL_COLUMNS), len(toks))
                devices, tails = toks[:cut], toks[cut:]
                gpu_at_column = [int(m.group(1)) if (m := _GPU_LABEL.match(d)) else None
                                 for d in devices]
                gpu_of = {d: n for d, n in zip(devices, gpu_at_column, strict=True)
                          if n is not None}
                device_set = set(devices)
                topo.gpu_columns = sum(n is not None for n in gpu_at_column)
                topo.nics = [d for d, n in zip(devices, gpu_at_column, strict=True) if n is None]
                reading.recognised = topo.gpu_columns > 0
            else:
                _mode_hint(s, topo)
            continue
        row = rows.get(line)
        if row is None:  # a matrix row, read once per distinct line (watch logs repeat them)
            row = rows[line] = _row(line, s, devices, device_set, gpu_of, gpu_at_column,
                                    tails)
        if row:  # _NOT_A_ROW is empty
            i, fuzzy, nv, nic_links, links, numa_ids = row
            fuzzy_cells += fuzzy
            if nv:
                topo.mode_known = True
            topo.nic_links.update(nic_links)
            for pair, token in links:
                topo.links.setdefault(pair, token)  # the first row naming a pair wins
            if i is not None:
                topo.gpu_rows.add(i)
                numa |= numa_ids
            continue
        if s.startswith("NV#") or (s.startswith("NV") and "NVLink" in s):
            legend_nv = True
            topo.mode_known, topo.pcie_only_view = True, False
        elif s.startswith("PIX") and "=" in s:
            legend_pix_next = True
        elif (m := _NIC_LEGEND.match(s)) and m.group(1) in devices:
            nic_names[m.group(1)] = m.group(2)
        else:
            _mode_hint(s, topo)
    if any(t.startswith("NV") for t in topo.links.values()):
        topo.pcie_only_view, topo.mode_known = False, True
    topo.nics = [nic_names.get(n, n) for n in topo.nics]
    topo.nic_links = {(g, nic_names.get(n, n)): t for (g, n), t in topo.nic_links.items()}
    if len(numa) > 0:
        topo.numa_affinities = {str(n) for n in numa}
    reading.declared_gpu_count = max(topo.gpu_columns, len(topo.gpu_rows)) or None
    for index in sorted(set(range(topo.gpu_columns)) | topo.gpu_rows):
        reading.gpu_at(index)
    if fuzzy_cells:
        reading.warn(f"{fuzzy_cells} garbled topology cell(s) were read from their first letters",
                     f"{fuzzy_cells} 个拓扑单元格字迹不全，按开头字母识别")
    if topo.gpu_columns and len(topo.gpu_rows) < topo.gpu_columns:
        reading.warn(f"the topology matrix is cut off: {len(topo.gpu_rows)} of "
                     f"{topo.gpu_columns} GPU rows; links were read from the rows present",
                     f"拓扑矩阵不完整：{topo.gpu_columns} 行 GPU 只有 {len(topo.gpu_rows)} 行；"
                     "按已有的行读取互联")
    return reading
