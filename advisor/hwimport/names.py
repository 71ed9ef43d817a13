"""From the name `nvidia-smi` prints to the advisor's GPU catalog id.

Drivers spell one product several ways ("Tesla V100-SXM2-32GB", "NVIDIA H100 80GB HBM3",
"A100-SXM4-40GB" without the "NVIDIA " prefix before driver 460) and tables cut names
("GeForce RTX 208..."). Only confident matches return an id; a cut name returns None.
"""

from __future__ import annotations

import re

from advisor.catalog.gpus import load_gpus

_PREFIX = re.compile(r"^(?:nvidia\s+)?(?:tesla\s+|geforce\s+|quadro\s+)?")


def _memory_gb(name: str, memory_mib: int | None) -> float | None:
    m = re.search(r"(\d+)\s*gb", name)
    if m:
        return float(m.group(1))
    if memory_mib:
        return memory_mib / 1024
    return None


def _candidate(name: str, memory_mib: int | None) -> str | None:
    n = _PREFIX.sub("", name.strip().lower())
    gb = _memory_gb(n, memory_mib)
    if re.search(r"\bgh200\b|\bh200 nvl\b|\bh100 nvl\b", n):
        return None
    if re.search(r"\bh100\b", n):
        if "pcie" in n:
            return "h100_pcie"
        if "hbm3" in n or "sxm" in n:
            return "h100_sxm"
        return None
    if re.search(r"\bh200\b", n):
        return "h200_sxm"
    if re.search(r"\bb200\b", n):
        return "b200_sxm"
    if re.search(r"\ba100\b|\ba100-", n):
        big = gb is not None and gb > 60
        if "pcie" in n:
            return "a100_pcie_80gb" if big else "a100_pcie_40gb"
        if "sxm" in n:
            return "a100_sxm4_80gb" if big else "a100_sxm4_40gb"
        return None
    if re.search(r"\bv100", n):
        if "sxm" in n:
            return "v100_sxm2_32gb" if gb is not None and gb > 20 else "v100_sxm2_16gb"
        if "pcie" in n or re.search(r"\bv100s\b", n):
            return "v100_pcie_32gb"
        return None
    exact = {
        "rtx 3090": "rtx3090", "rtx 4090": "rtx4090", "rtx 5090": "rtx5090",
        "rtx a6000": "rtx_a6000", "rtx 6000 ada generation": "rtx6000_ada",
        "l4": "l4", "l40s": "l40s", "t4": "t4",
    }
    if n in exact:
        return exact[n]
    if n.startswith("rtx 4060 ti") and (gb is not None and gb > 12):
        return "rtx4060ti_16gb"
    return None


def catalog_id(name: str | None, memory_mib: int | None = None) -> str | None:
    """The catalog id for a printed GPU name, or None when unsure or not in the catalog."""
    if not name or name.rstrip().endswith("...") or name.rstrip().endswith("…"):
        return None
    candidate = _candidate(name, memory_mib)
    if candidate is None:
        return None
    return candidate if candidate in load_gpus() else None
