"""What an imported ``nvidia-smi`` / NVML reading says about a machine (the output contract).

``HardwareDescription`` is what ``gpu-advisor import-smi --format json`` prints and what the
import dialog hands to the wizard. Fields are ``None`` when the pasted output cannot tell.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from advisor.files.model_defaults import empty_list
from advisor.text.i18n import Text

Kind = Literal["topo", "query", "dmon", "csv", "table", "list", "nvml"]
NvlinkState = Literal["full", "partial", "none"]
PciePath = Literal["PIX", "PXB", "PHB", "NODE", "SYS"]
VirtMode = Literal["none", "passthrough", "vgpu", "host_vgpu"]
Severity = Literal["info", "warning", "critical"]
ObservationId = Literal["thermal_throttling", "power_capped", "data_starvation", "vgpu_sharing",
                        "pcie_link_downgraded", "laggard_gpu", "no_nvlink"]
IntraLinkValue = Literal["pcie3", "pcie4", "pcie5", "nvlink_bridge", "nvlink", "nvswitch"]

# Best (shortest) to worst PCIe path between two devices, as `nvidia-smi topo -m` orders them.
PCIE_PATH_ORDER: tuple[str, ...] = ("PIX", "PXB", "PHB", "NODE", "SYS")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Observation(_Model):
    """Something in the output worth acting on; the rule base turns ids into pitfalls."""

    id: ObservationId
    severity: Severity
    message: Text
    # The raw facts (ids and values as the output named them): the JSON interface.
    evidence: list[str] = Field(default_factory=empty_list)
    sources: list[str] = Field(default_factory=empty_list)  # article fact ids, e.g. ["F27"]
    # The same evidence in sentences for people, in both languages (not part of the JSON).
    _evidence_text: list[Text] = PrivateAttr(default_factory=list)

    @classmethod
    def with_evidence(cls, id: str, severity: str, message: Text,
                      evidence: list[tuple[str, Text]], sources: list[str]) -> Observation:
        """An observation whose evidence items are (raw JSON string, human sentences)."""
        obs = cls(id=id, severity=severity, message=message,  # type: ignore[arg-type]
                  evidence=[raw for raw, _ in evidence], sources=sources)
        obs._evidence_text = [text for _, text in evidence]
        return obs

    def evidence_in(self, lang: str) -> list[str]:
        """The evidence to show a person in ``lang``; the raw strings when the sentences were
        lost (an observation read back from JSON)."""
        if len(self._evidence_text) == len(self.evidence):
            return [t.get(lang) for t in self._evidence_text]
        return list(self.evidence)


class GpuFacts(_Model):
    """One GPU as the output showed it (index order; values from several kinds merged)."""

    index: int | None = None
    name: str | None = None
    bus_id: str | None = None
    uuid: str | None = None
    memory_total_mib: int | None = None
    memory_used_mib: int | None = None
    sm_util_pct: float | None = None  # mean over all samples seen
    busy_util_pct: float | None = None  # mean while working (ramp-up and idle tail dropped)
    util_samples: int = 0
    mem_util_pct: float | None = None
    temp_c: float | None = None  # highest seen
    slowdown_temp_c: float | None = None
    power_draw_w: float | None = None  # highest seen
    power_limit_w: float | None = None
    pstate: str | None = None
    sm_clock_mhz: float | None = None  # median of samples
    # Clocks-event ("throttle") reasons active; None when this output does not show them
    # (topo, -L, the table), [] when it shows them and none is active.
    throttle_active: list[str] | None = None
    pcie_gen_current: int | None = None
    pcie_gen_max: int | None = None
    pcie_width_current: int | None = None
    pcie_width_max: int | None = None
    virtualization: VirtMode | None = None
    vgpus: int | None = None  # vGPUs running on this physical GPU (vGPU host)
    mig_devices: int | None = None
    mig_enabled: bool | None = None
    fabric_state: str | None = None
    encoder_util_pct: float | None = None


class HardwareDescription(_Model):
    """The facts read from one or more pasted outputs, merged.

    GPU lists: ``gpus`` has one entry per GPU the outputs show, in index order;
    ``gpu_names`` and ``gpu_memory_mib`` list the name / memory of those of them whose output
    shows it, in the same order — never padded to ``gpu_count``. When an output counts GPUs it
    does not show (``nvidia-smi -q -i 0`` prints "Attached GPUs : 4" and one GPU block),
    ``gpus_not_shown`` says how many, and a warning says so: the other GPUs' model is not
    guessed from the one shown.
    """

    kind: Kind | Literal["merged"]
    kinds: list[Kind]
    sources: list[str] = Field(default_factory=empty_list)
    driver_version: str | None = None
    cuda_version: str | None = None
    gpu_count: int | None = None
    gpus_not_shown: int | None = None  # counted (gpu_count) but not shown; None: count unknown
    gpu_names: list[str] = Field(default_factory=empty_list)
    gpu_memory_mib: list[int] = Field(default_factory=empty_list)
    gpus: list[GpuFacts] = Field(default_factory=empty_list)
    nvlink: NvlinkState | None = None
    nvlink_pairs: list[tuple[int, int]] | None = None
    max_nv_links: int | None = None
    rdma_nics: list[str] | None = None
    numa_nodes: int | None = None
    worst_pcie_path: PciePath | None = None  # between two GPUs (None: every pair on NVLink)
    worst_nic_path: PciePath | None = None  # from a GPU to its nearest RDMA NIC, worst GPU
    intra_link: IntraLinkValue | None = None
    virtualization: VirtMode | None = None
    throttle_active: list[str] | None = None  # None: no output given shows clocks-event reasons
    max_gpu_temp_c: float | None = None
    pcie_width_downgraded: bool | None = None
    pcie_gen_max: int | None = None
    pcie_width_max: int | None = None
    pcie_width_current: int | None = None
    mean_sm_util: float | None = None
    sm_util_per_gpu: list[float | None] = Field(default_factory=empty_list)
    observations: list[Observation] = Field(default_factory=empty_list)
    warnings: list[Text] = Field(default_factory=empty_list)

    def observation_ids(self) -> list[str]:
        return [o.id for o in self.observations]
