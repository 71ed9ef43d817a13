"""The same workload on a better link (F25: PCIe vs NVLink, 30 % up to 2×; F08: NVLink
all-to-all or fast InfiniBand past 8 GPUs). Plain Python: the plots and the report share it."""

from __future__ import annotations

from advisor.profile import InterLink, IntraLink, Profile

# Next step up inside a machine; NVSwitch is the top, so it has no better link.
_BETTER_INTRA: dict[IntraLink, IntraLink] = {
    IntraLink.pcie3: IntraLink.nvlink,
    IntraLink.pcie4: IntraLink.nvlink,
    IntraLink.pcie5: IntraLink.nvlink,
    IntraLink.nvlink_bridge: IntraLink.nvlink,
    IntraLink.nvlink: IntraLink.nvswitch,
}
_FASTEST_INTER = InterLink.infiniband_ndr


def better_link_profile(profile: Profile) -> Profile | None:
    """The profile with the next faster GPU link (and InfiniBand NDR between machines when
    there are several); None when it already has the fastest."""
    hardware = profile.hardware
    intra = _BETTER_INTRA.get(hardware.intra_link)
    inter_better = hardware.nodes > 1 and hardware.inter_link != _FASTEST_INTER
    if intra is None and not inter_better:
        return None
    update: dict[str, object] = {"allreduce_busbw_gbs": None}  # a measured value is for the old link
    if intra is not None:
        update["intra_link"] = intra
    if inter_better:
        update["inter_link"] = _FASTEST_INTER
    return profile.model_copy(update={"hardware": hardware.model_copy(update=update)})
