"""What the topology says about links inside the machine, and the profile's intra_link it implies.

`topo -m` shows "NV#" for a bonded set of # NVLinks between two GPUs. Through an NVSwitch every
pair shows the GPU's whole link count (NV6 on DGX-2, NV12 on A100, NV18 on H100), which no
direct wiring can give to every pair: a full mesh where (GPUs − 1) × # exceeds 18 links per GPU,
or any NV18, means a switch. Two cards with NVLink and nothing else are a bridge pair.
PCIe generation comes from the link's maximum (`-q`, CSV) or else from the catalog. # F25
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.catalog.gpus import load_gpus
from advisor.hwimport.model import PCIE_PATH_ORDER
from advisor.hwimport.names import catalog_id
from advisor.hwimport.reading import GpuReading, TopoReading

MAX_LINKS_PER_GPU = 18  # NVLink 4/5 (H100, B200); earlier generations have fewer


@dataclass
class LinkFacts:
    nvlink: str | None = None
    nvlink_pairs: list[tuple[int, int]] | None = None
    max_nv_links: int | None = None
    worst_pcie_path: str | None = None
    worst_nic_path: str | None = None
    nvswitch: bool = False
    bridge_pairs: bool = False
    nv_connected: bool = False  # every GPU reaches every other over NVLink hops


# The NVLink pairs a description lists: a machine has at most a few hundred; a 2,048-GPU
# matrix has 2 million, which say no more than "every pair" and cost 200 MB as a list.
MAX_LISTED_PAIRS = 10_000


def _is_nv(token: str) -> bool:
    return token.startswith("NV")


def _nv_count(token: str) -> int:
    # "NV#" of the legend, or a damaged token: a link of unknown width (1), never int()'s
    # 4,300-digit error
    return int(token[2:]) if token[2:].isdigit() and len(token) <= 5 else 1


def topo_links(topo: TopoReading, gpu_count: int,
               notes: list[tuple[str, str]] | None = None) -> LinkFacts:
    """What the topology says; each fact is read from the pair table in one pass or less,
    never pair by pair (a 2,048-GPU matrix has 2 million pairs)."""
    facts = LinkFacts()
    links = topo.links
    tokens = links.tokens()
    nv_tokens = [t for t in tokens if _is_nv(t)]
    counts = [_nv_count(t) for t in nv_tokens]
    pcie = [t for t in tokens if t in PCIE_PATH_ORDER]
    if pcie:
        facts.worst_pcie_path = max(pcie, key=PCIE_PATH_ORDER.index)
    # each GPU's closest RDMA NIC (GPUDirect RDMA wants PIX/PXB)
    nearest = [t for t in topo.nic_paths.values() if t in PCIE_PATH_ORDER]
    if nearest:
        facts.worst_nic_path = max(nearest, key=PCIE_PATH_ORDER.index)
    if topo.pcie_only_view:
        return facts  # -mp: NVLink not shown, cannot be judged
    nv_pairs = links.count(_is_nv)
    facts.nvlink_pairs = links.pairs(_is_nv, MAX_LISTED_PAIRS)
    if nv_pairs > MAX_LISTED_PAIRS and notes is not None:
        notes.append((f"{nv_pairs:,} GPU pairs are joined by NVLink; the description lists "
                      f"the first {MAX_LISTED_PAIRS:,} (nvlink_pairs)",
                      f"共有 {nv_pairs:,} 对显卡通过 NVLink 相连；描述中只列出前 "
                      f"{MAX_LISTED_PAIRS:,} 对（nvlink_pairs）"))
    facts.max_nv_links = max(counts) if counts else None
    if gpu_count < 2 or not links:
        facts.nvlink = None if gpu_count < 2 else facts.nvlink
        return facts
    if not nv_pairs:
        facts.nvlink = "none"
        return facts
    all_nv = nv_pairs == len(links) and len(links.gpus()) >= gpu_count
    facts.nvlink = "full" if all_nv else "partial"
    components = links.components(_is_nv)
    facts.nv_connected = len(components) == 1 and len(components[0]) == gpu_count
    if all_nv and (topo.switch_known or max(counts) >= MAX_LINKS_PER_GPU or
                   (gpu_count - 1) * min(counts) > MAX_LINKS_PER_GPU):
        facts.nvswitch = True
    facts.bridge_pairs = all(len(c) == 2 for c in components)
    return facts


def pcie_link(gen: int | None) -> str | None:
    if gen is None or gen < 1:
        return None
    return "pcie3" if gen <= 3 else "pcie4" if gen == 4 else "pcie5"


def _catalog_specs(gpus: list[GpuReading]):
    table = load_gpus()
    # a paste of many machines repeats the same few cards: look each (name, memory) up once
    ids = {catalog_id(name, mib) for name, mib in {(g.name, g.memory_total_mib) for g in gpus
                                                   if g.name}}
    ids.discard(None)
    return [table[i] for i in ids if i in table]


def intra_link(links: LinkFacts | None, gpus: list[GpuReading], gpu_count: int | None,
               notes: list[tuple[str, str]]) -> str | None:
    """The profile's intra_link implied by the output; None when nothing says it."""
    specs = _catalog_specs(gpus)
    sxm = bool(specs) and all(s.nvlink == "sxm" for s in specs)
    # A x1 "link" is a chip-to-chip attachment (GH200 C2C), not a PCIe slot.
    gens = [g.pcie_gen_max for g in gpus if g.pcie_gen_max and g.pcie_width_max != 1]
    pcie = pcie_link(min(gens)) if gens else (
        pcie_link(min(s.pcie_gen for s in specs if s.pcie_gen))
        if any(s.pcie_gen for s in specs) else None)
    if links is not None and links.nvlink in ("full", "partial") and specs and \
            all(s.nvlink == "none" for s in specs):
        names = ", ".join(sorted({s.name for s in specs}))
        notes.append((f"the topology shows NVLink, but {names} has none: the outputs seem to "
                      "come from different machines (import one machine's outputs at a time)",
                      f"拓扑显示有 NVLink，但 {names} 不支持 NVLink：这些输出似乎来自不同的机器"
                      "（请每次只导入同一台机器的输出）"))
    if links is not None and links.nvlink in ("full", "partial"):
        if links.nvswitch:
            return "nvswitch"
        if links.bridge_pairs and not sxm:
            if links.nvlink == "full":
                return "nvlink_bridge"
            notes.append(("NVLink bridges join pairs of cards only; traffic between pairs "
                          "crosses PCIe", "NVLink 桥只连接成对的显卡；对与对之间仍走 PCIe"))
            return pcie
        if links.nv_connected:
            return "nvlink"
        return pcie
    fabric = [g.fabric_state for g in gpus if g.fabric_state]
    if fabric and all(f.lower().startswith("completed") for f in fabric):
        return "nvswitch"  # the NVSwitch fabric manager registered these GPUs
    if links is not None and links.nvlink == "none":
        return pcie
    if sxm and gpu_count and gpu_count >= 2 and (links is None or links.nvlink is None):
        notes.append(("the link inside the machine was inferred from the GPU model (SXM "
                      "boards use NVLink); paste `nvidia-smi topo -m` to confirm",
                      "机内互联是按显卡型号推断的（SXM 板卡使用 NVLink）；"
                      "可粘贴 `nvidia-smi topo -m` 确认"))
        ids = {s.id for s in specs}
        if gpu_count >= 8 and ids & {"a100_sxm4_40gb", "a100_sxm4_80gb", "h100_sxm",
                                     "h200_sxm", "b200_sxm"}:
            return "nvswitch"  # 8-GPU HGX boards of these generations are NVSwitch-based
        return "nvlink"
    if links is None or links.nvlink is None:
        return pcie if not specs or not any(s.nvlink != "none" for s in specs) else None
    return pcie
