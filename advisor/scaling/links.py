"""Achievable all-reduce bandwidth of the links in a profile (``resources/catalog/links.yaml``).

The catalog holds measured nccl-tests busbw per link type; a GPU's own NVLink speed (GPU
catalog) refines the NVLink tiers by the measured spec fraction, consumer cards lose PCIe
peer-to-peer, and a faster link type never gets less bandwidth than a slower one.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from advisor.catalog.gpus import GpuSpec
from advisor.files.builtin_data import load_builtin
from advisor.files.paths import resources_dir
from advisor.files.records import record
from advisor.profile import InterLink, IntraLink

INTRA_ORDER = [link.value for link in IntraLink]  # slowest first, as in the profile enum
INTER_ORDER = [link.value for link in InterLink if link != InterLink.none]
_PCIE_GEN = {"pcie3": 3, "pcie4": 4, "pcie5": 5}


@record
class LinkFigures:
    """Bandwidth and latency one profile's job sees."""

    busbw_intra_gbs: float  # for rings of up to 4 GPUs inside a node
    busbw_intra_pair_gbs: float  # for exactly 2 GPUs (an NVLink bridge joins pairs)
    busbw_inter_gbs: float  # per node: adapters x per-adapter busbw (0 without a network)
    latency_intra_s: float
    latency_inter_s: float
    multi_socket_pcie: bool  # PCIe rings of more than 4 GPUs cross CPU sockets
    source: str
    adapters_per_node: int = 0  # network adapters the machine's GPUs share (0: no network)


@cache
def load_links() -> dict[str, Any]:
    return load_builtin(resources_dir() / "catalog" / "links.yaml")


def _rule(name: str) -> float:
    return float(load_links()["rules"][name]["value"])


def _pcie_busbw(gen: int, consumer: bool) -> float:
    table = load_links()["intra"]
    gen = min(max(gen, 3), 5)
    bw = float(table[f"pcie{gen}"]["busbw_gbs"])
    return bw * (_rule("consumer_no_p2p_factor") if consumer else 1.0)


@record
class _CardLinks:
    """What the link rules read of a card (a GpuSpec has these too): a plain record, so the
    cached figures never build a catalog model."""

    pcie_gen: int | None
    is_consumer: bool
    nvlink: str
    nvlink_gbs_unidirectional: float | None


def _intra_raw(link: str, gpu: GpuSpec | _CardLinks) -> tuple[float, float]:
    """(busbw for up to 4 GPUs, busbw for a pair) of one link type before monotonic repair."""
    table = load_links()["intra"]
    gpu_gen = gpu.pcie_gen or 4
    consumer = gpu.is_consumer  # GeForce: no PCIe peer-to-peer, even with a bridge slot
    if link in _PCIE_GEN:  # the slot and the card: the older generation wins
        bw = _pcie_busbw(min(_PCIE_GEN[link], gpu_gen), consumer)
        return bw, bw
    pcie_fallback = _pcie_busbw(gpu_gen, consumer)
    spec = gpu.nvlink_gbs_unidirectional
    if link == "nvlink_bridge":
        pair = float(table[link]["busbw_gbs"])
        if spec and gpu.nvlink == "bridge":
            pair = _rule("spec_fraction") * spec
        # F25: a bridge joins two cards; rings over more GPUs run at PCIe speed.
        return max(pcie_fallback, 0.0), max(pair, pcie_fallback)
    bw = float(table[link]["busbw_gbs"])
    if spec and gpu.nvlink == "sxm":
        bw = _rule("spec_fraction") * spec * (1.0 if link == "nvswitch" else 0.9)
    return bw, bw


def link_figures(intra: IntraLink | str, inter: InterLink | str, gpu: GpuSpec,
                 gpus_per_node: int, measured_busbw_gbs: float | None = None) -> LinkFigures:
    """Busbw and latency for a profile's links; ``measured_busbw_gbs`` overrides intra-node."""
    return _link_figures(IntraLink(intra).value, InterLink(inter).value, gpu.pcie_gen,
                         gpu.is_consumer, gpu.nvlink, gpu.nvlink_gbs_unidirectional,
                         gpus_per_node, measured_busbw_gbs)


@lru_cache(maxsize=512)  # the projection must stay well under a millisecond
def _link_figures(intra_name: str, inter_name: str, pcie_gen: int | None, consumer: bool,
                  nvlink: str, nvlink_gbs: float | None, gpus_per_node: int,
                  measured_busbw_gbs: float | None) -> LinkFigures:
    gpu = _CardLinks(pcie_gen, consumer, nvlink, nvlink_gbs)
    table = load_links()
    # A faster link type never gets less than a slower one (monotonic repair).
    best, best_pair = 0.0, 0.0
    for name in INTRA_ORDER[: INTRA_ORDER.index(intra_name) + 1]:
        bw, pair = _intra_raw(name, gpu)
        best, best_pair = max(best, bw), max(best_pair, pair, bw)
    source = str(table["intra"][intra_name]["source"])
    if measured_busbw_gbs:
        best = best_pair = float(measured_busbw_gbs)
        source = "measured (profile)"
    inter_bw, inter_lat, adapters = 0.0, 0.0, 0
    if inter_name != "none":
        entry = table["inter"][inter_name]
        adapters = _adapters(entry, intra_name, gpus_per_node)
        inter_bw = float(entry["busbw_gbs"]) * adapters
        inter_lat = float(entry["latency_us"]) * 1e-6
    return LinkFigures(busbw_intra_gbs=best, busbw_intra_pair_gbs=best_pair,
                       busbw_inter_gbs=inter_bw,
                       latency_intra_s=float(table["intra"][intra_name]["latency_us"]) * 1e-6,
                       latency_inter_s=inter_lat,
                       multi_socket_pcie=intra_name in _PCIE_GEN or intra_name == "nvlink_bridge",
                       source=source, adapters_per_node=adapters)


def _adapters(entry: dict[str, Any], intra_name: str, gpus_per_node: int) -> int:
    """Network adapters per machine. DGX/HGX servers on InfiniBand/RoCE carry one per GPU
    (rail-optimised); an Ethernet port is the host's one network card, shared by all its GPUs,
    and a PCIe workstation has one adapter whatever the network (# F08)."""
    server = intra_name in ("nvlink", "nvswitch")
    if server and entry.get("adapters", "per_gpu_on_servers") == "per_gpu_on_servers":
        return int(min(gpus_per_node, _rule("server_nics_per_node_max")))
    return 1
