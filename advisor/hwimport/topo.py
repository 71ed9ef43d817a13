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
from advisor.hwimport.model import PCIE_PATH_ORDER
from advisor.hwimport.pair_links import PairLinks
from advisor.hwimport.reading import MAX_GPUS, Reading, TopoReading

_MULTIWORD = (("GPU", "NUMA", "ID"), ("CPU", "Affinity"), ("NUMA", "Affinity"))
_TAIL_COLUMNS = frozenset({"CPU Affinity", "NUMA Affinity", "GPU NUMA ID"})
_GPU_LABEL = re.compile(r"^GPU(\d{1,4})$")
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
_INVALID = -1  # a cell that is no link: the row is read up to it


class _Cells:
    """The codes of the raw cells of one matrix (each distinct cell read once, with
    ``_link``): ``code`` the pair table's code (0 for ``X``, ``_INVALID`` for no link),
    ``fuzzy`` 1 for a cell read from its first letters, ``nv`` the codes of NVLink tokens."""

    def __init__(self, links: PairLinks) -> None:
        self.links = links
        self.code: dict[str, int] = {}
        self.fuzzy: dict[str, int] = {}
        self.nv: set[int] = set()
        self.any_fuzzy = False

    def learn(self, cells: list[str]) -> None:
        for cell in set(cells).difference(self.code):
            token, exact = _link(cell)
            code = _INVALID if token is None else 0 if token == "X" else self.links.code(token)
            if code is None:  # more distinct tokens than the table holds: not read
                code = _INVALID
            self.code[cell] = code
            self.fuzzy[cell] = 0 if exact or code == _INVALID else 1
            self.any_fuzzy = self.any_fuzzy or bool(self.fuzzy[cell])
            if code > 0 and token is not None and token[:2] == "NV":
                self.nv.add(code)


class _Header:
    """What the header line says: the device columns, which of them are GPUs (and at which
    position of the pair table), the NICs and the tail columns."""

    def __init__(self, toks: list[str], links: PairLinks) -> None:
        cut = next((i for i, t in enumerate(toks) if t in _TAIL_COLUMNS), len(toks))
        self.devices, self.tails = toks[:cut], toks[cut:]
        numbers = [int(m.group(1)) if (m := _GPU_LABEL.match(d)) else None
                   for d in self.devices]
        self.gpu_of = {d: n for d, n in zip(self.devices, numbers, strict=True)
                       if n is not None}
        self.device_set = set(self.devices)
        self.gpu_columns = sum(n is not None for n in numbers)
        self.nics = [d for d, n in zip(self.devices, numbers, strict=True) if n is None]
        # the first column of each GPU, in order, and its position in the pair table
        self.gpu_cols: list[int] = []
        seen: set[int] = set()
        for col, n in enumerate(numbers):
            if n is not None and n not in seen and links.position(n) is not None:
                seen.add(n)
                self.gpu_cols.append(col)
        self.positions = [links.position(numbers[c]) for c in self.gpu_cols]  # type: ignore[arg-type]
        # the usual header, GPU0..GPUn-1 first: a row's first n cells are the table's row
        self.plain = self.gpu_cols == list(range(len(self.gpu_cols))) and \
            self.positions == list(range(len(self.gpu_cols)))
        self.nic_cols = [col for col, n in enumerate(numbers) if n is None]
        self.nic_names = {col: self.devices[col] for col in self.nic_cols}


Row = tuple[int | None, int, bool, bytes, str | None, set[int]]


def _row(line: str, s: str, head: _Header, cells_of: _Cells) -> Row | tuple[()]:
    """One matrix row: (GPU number or None for a NIC row, garbled cells, any NV# cell, the
    codes of its links to the GPU columns in table order, its path to the nearest NIC, NUMA
    ids), or ``_NOT_A_ROW``. Every step is a C-level pass over the row (split, map, bytes),
    not Python work per cell: a 2,048-GPU row has 2,048 cells."""
    toks = s.split()
    label = toks[0]
    if label not in head.device_set or len(toks) < 2:
        return _NOT_A_ROW
    i = head.gpu_of.get(label)  # this row's GPU number; None for a NIC row
    cells = toks[1:1 + len(head.devices)]
    try:
        codes = list(map(cells_of.code.__getitem__, cells))
    except KeyError:  # a cell not seen before in this matrix
        cells_of.learn(cells)
        codes = list(map(cells_of.code.__getitem__, cells))
    if _INVALID in codes:  # read up to the first cell that is no link
        cut = codes.index(_INVALID)
        codes, cells = codes[:cut], cells[:cut]
    fuzzy = sum(map(cells_of.fuzzy.__getitem__, cells)) if cells_of.any_fuzzy else 0
    nv = not cells_of.nv.isdisjoint(codes)
    if i is None:
        return None, fuzzy, nv, b"", None, set()
    if head.plain:
        gpu_codes = bytes(codes[:len(head.gpu_cols)])
    else:
        gpu_codes = bytes(codes[c] for c in head.gpu_cols if c < len(codes))
    nearest = None
    for col in head.nic_cols:  # a machine has a few NICs
        if col >= len(codes):
            break
        token = cells_of.links.token_of(codes[col])
        if token in PCIE_PATH_ORDER and (nearest is None or PCIE_PATH_ORDER.index(token) <
                                         PCIE_PATH_ORDER.index(nearest)):
            nearest = token
    numa: set[int] = set()
    if "NUMA Affinity" in head.tails and "\t" in line:
        parts = line.rstrip("\n").split("\t")
        at = 1 + len(head.devices) + head.tails.index("NUMA Affinity")
        if at < len(parts):
            numa = _numa_ids(parts[at])
    return i, fuzzy, nv, gpu_codes, nearest, numa


Memo = dict[tuple[str, ...], tuple[list[str], dict[str, tuple]]]


def parse_topo(lines: list[str], memo: Memo | None = None) -> Reading:
    """``memo``: header → (the pair table's tokens, {line: its ``_row``}), shared by the topo segments of one paste (a
    watch log of several commands cuts the same matrix into many segments)."""
    memo = {} if memo is None else memo
    reading = Reading(kind="topo")
    topo = reading.topo = TopoReading()
    head: _Header | None = None
    cells_of = _Cells(topo.links)
    nic_names: dict[str, str] = {}
    numa: set[int] = set()
    legend_nv = legend_pix_next = False
    fuzzy_cells = 0
    rows: dict[str, tuple] = {}  # line → its _row under this header
    tokens: list[str] = []
    for line in lines:
        s = line.strip()
        if legend_pix_next:  # the line after "PIX = ..." is "NV# = ..." only in `topo -m`
            legend_pix_next = False
            if not s.startswith("NV"):
                topo.pcie_only_view = topo.mode_known = not legend_nv
        if not s:
            continue
        if head is None:
            if "GPU0" in s or ("GPU" in s and "Affinity" in s):
                toks = _header_tokens(s)
                columns = sum(1 for t in toks if _GPU_LABEL.match(t))
                topo.links = PairLinks(min(columns, MAX_GPUS), MAX_GPUS)
                cells_of = _Cells(topo.links)
                # a memo's rows hold the codes of the table they were read into: a table for
                # the same header starts with the same codes (the memo keeps their tokens)
                tokens, rows = memo.setdefault(tuple(toks), ([], {}))
                for token in tokens:
                    topo.links.code(token)
                head = _Header(toks, topo.links)
                topo.gpu_columns = head.gpu_columns
                topo.nics = list(head.nics)
                reading.recognised = topo.gpu_columns > 0
            else:
                _mode_hint(s, topo)
            continue
        row = rows.get(line)
        if row is None:  # a matrix row, read once per distinct line (watch logs repeat them)
            row = rows[line] = _row(line, s, head, cells_of)
        if row:  # _NOT_A_ROW is empty
            i, fuzzy, nv, gpu_codes, nearest, numa_ids = row
            fuzzy_cells += fuzzy
            if nv:
                topo.mode_known = True
            if i is not None:
                p = topo.links.position(i)
                if p is not None:  # the first row naming a pair wins
                    topo.links.fill_row(p, gpu_codes)
                if nearest is not None:
                    topo.nic_paths[i] = nearest
                topo.gpu_rows.add(i)
                numa |= numa_ids
            continue
        if s.startswith("NV#") or (s.startswith("NV") and "NVLink" in s):
            legend_nv = True
            topo.mode_known, topo.pcie_only_view = True, False
        elif s.startswith("PIX") and "=" in s:
            legend_pix_next = True
        elif (m := _NIC_LEGEND.match(s)) and m.group(1) in head.device_set:
            nic_names[m.group(1)] = m.group(2)
        else:
            _mode_hint(s, topo)
    if head is not None:
        tokens[:] = topo.links.token_list()
    if any(t.startswith("NV") for t in topo.links.tokens()):
        topo.pcie_only_view, topo.mode_known = False, True
    topo.nics = [nic_names.get(n, n) for n in topo.nics]
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
