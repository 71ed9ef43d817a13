"""Put imported hardware facts into a workload profile, and hand observations to the rules."""

from __future__ import annotations

from advisor.hwimport.model import HardwareDescription
from advisor.hwimport.names import catalog_id
from advisor.profile import HardwareSpec, IntraLink, Profile, Virtualization

_VIRT_TO_PROFILE = {"none": Virtualization.bare_metal, "passthrough": Virtualization.passthrough,
                    "vgpu": Virtualization.vgpu, "host_vgpu": Virtualization.vgpu}


def gpu_catalog_id(desc: HardwareDescription) -> str | None:
    """The one catalog id all named GPUs resolve to; None if mixed, cut or unknown."""
    ids = {catalog_id(g.name, g.memory_total_mib) for g in desc.gpus if g.name}
    if len(ids) != 1:
        return None
    return ids.pop()


def hardware_updates(desc: HardwareDescription) -> dict[str, object]:
    """The hardware fields the description can fill (only what it actually showed)."""
    updates: dict[str, object] = {}
    gpu = gpu_catalog_id(desc)
    if gpu:
        updates["gpu"] = gpu
    if desc.gpu_count:
        updates["gpus_per_node"] = max(1, min(64, desc.gpu_count))
    if desc.intra_link:
        updates["intra_link"] = IntraLink(desc.intra_link)
    if desc.virtualization:
        updates["virtualization"] = _VIRT_TO_PROFILE[desc.virtualization]
        vgpus = [g.vgpus for g in desc.gpus if g.vgpus]
        if desc.virtualization == "host_vgpu" and vgpus:
            updates["vgpus_per_physical_gpu"] = max(1, min(64, max(vgpus)))
    if desc.max_gpu_temp_c is not None and 0 <= desc.max_gpu_temp_c <= 130:
        updates["max_gpu_temp_c"] = desc.max_gpu_temp_c
    return updates


def apply_to_profile(desc: HardwareDescription, profile: Profile) -> Profile:
    """A copy of ``profile`` with the machine's facts filled in; other fields are kept."""
    data = profile.hardware.model_dump()
    data.update(hardware_updates(desc))
    hardware = HardwareSpec.model_validate(data)
    return profile.model_copy(update={"hardware": hardware})


def observation_ids(desc: HardwareDescription) -> list[str]:
    """Ids of the imported observations, for the rule base to raise as pitfalls."""
    return [o.id for o in desc.observations]
