"""Join readings of one machine (several kinds, several files) GPU by GPU.

A GPU is the same GPU when its PCI bus id matches, else its UUID, else its index; pieces with
none of these (grep'd fragments) line up by position. Topology is kept from the first reading
that has it; later topology readings fill pairs it did not show.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from advisor.hwimport.reading import GpuReading, Reading, TopoReading
from advisor.text.i18n import Text


@dataclass
class Merged:
    kinds: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    gpus: list[GpuReading] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)  # GPU count each complete reading implies
    driver_version: str | None = None
    cuda_version: str | None = None
    topo: TopoReading | None = None
    warnings: list[Text] = field(default_factory=list)


class _GpuIndex:
    """The merged GPUs by bus id, UUID and index: each GPU of a reading is matched by a
    lookup, not a scan of all merged GPUs (quadratic for an output of thousands of GPUs)."""

    def __init__(self) -> None:
        self.bus: dict[str, GpuReading] = {}
        self.uuid: dict[str, GpuReading] = {}
        self.index: dict[int, list[GpuReading]] = {}

    def add(self, g: GpuReading) -> None:
        if g.bus_id:
            self.bus.setdefault(g.bus_id, g)
        if g.uuid:
            self.uuid.setdefault(g.uuid, g)
        if g.index is not None:
            same = self.index.setdefault(g.index, [])
            if not any(m is g for m in same):
                same.append(g)

    def find(self, g: GpuReading) -> GpuReading | None:
        if g.bus_id and g.bus_id in self.bus:
            return self.bus[g.bus_id]
        if g.uuid and not g.uuid.upper().startswith("GPU-XXXX") and g.uuid in self.uuid:
            return self.uuid[g.uuid]
        if g.index is not None:
            for m in self.index.get(g.index, ()):
                if not (m.bus_id and g.bus_id and m.bus_id != g.bus_id):
                    return m
        return None


def _model(name: str) -> str:
    """A GPU name without vendor words and punctuation, for comparing outputs."""
    n = name.lower().replace("nvidia", "").replace("geforce", "").replace("tesla", "")
    return "".join(ch for ch in n if ch.isalnum())


def _different_machines(readings: list[Reading], merged: Merged) -> None:
    """Outputs whose GPU models share nothing come from different machines (review 4: a topo
    of an 8×H100 server and a table of a 1×H200 VM read as one 8×H200 machine)."""
    named = [(r.source or r.kind, {_model(g.name) for g in r.gpus if g.name})
             for r in readings]
    named = [(src, models) for src, models in named if models]
    for i, (src_a, a) in enumerate(named):
        for src_b, b in named[i + 1:]:
            # a table cuts long names ("GeForce RTX 208..."): a prefix is the same model
            if not any(x.startswith(y) or y.startswith(x) for x in a for y in b):
                merged.warnings.append(Text(
                    en=f"{src_a} and {src_b} show different GPU models: they seem to come "
                       "from different machines, and this description mixes them (import "
                       "the outputs of one machine at a time)",
                    zh=f"{src_a} 与 {src_b} 显示的显卡型号不同：看起来来自不同的机器，"
                       "合并后的描述混合了两者（请每次只导入同一台机器的输出）"))
                return


def merge_readings(readings: list[Reading]) -> Merged:
    merged = Merged()
    index = _GpuIndex()
    for r in readings:
        if r.kind not in merged.kinds:
            merged.kinds.append(r.kind)
        if r.source and r.source not in merged.sources:
            merged.sources.append(r.source)
        merged.driver_version = merged.driver_version or r.driver_version
        merged.cuda_version = merged.cuda_version or r.cuda_version
        for w in r.warnings:
            if w not in merged.warnings:
                merged.warnings.append(w)
        if r.topo is not None:
            if merged.topo is None:
                merged.topo = r.topo
            else:
                merged.topo.links.merge_from(r.topo.links)
                merged.topo.gpu_rows |= r.topo.gpu_rows
                merged.topo.gpu_columns = max(merged.topo.gpu_columns, r.topo.gpu_columns)
                merged.topo.nics += [n for n in r.topo.nics if n not in merged.topo.nics]
                merged.topo.nics_shown = merged.topo.nics_shown or r.topo.nics_shown
        unmatched = 0
        for g in r.gpus:
            target = index.find(g)
            if target is None and g.bus_id is None and g.uuid is None and g.index is None:
                target = merged.gpus[unmatched] if unmatched < len(merged.gpus) else None
                unmatched += 1
            if target is None:
                merged.gpus.append(g)
                index.add(g)
            else:
                target.absorb(g, new_series=True)
                index.add(target)  # it may have gained a bus id or UUID
        if not r.count_is_fragment and (r.gpus or r.declared_gpu_count is not None):
            merged.counts.append(max(len(r.gpus), r.declared_gpu_count or 0))
    _different_machines(readings, merged)
    if len(set(merged.counts)) > 1:
        merged.warnings.append(Text(
            en=f"the outputs disagree on the number of GPUs ({sorted(set(merged.counts))}): "
               "part of an output may be missing, or they come from different machines; the "
               "largest was used",
            zh=f"各输出显示的显卡数量不一致（{sorted(set(merged.counts))}）：可能某个输出不完整，"
               "或来自不同的机器；采用最大值"))
    merged.gpus.sort(key=lambda g: (g.index is None, g.index if g.index is not None else 0))
    return merged
