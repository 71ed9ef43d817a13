"""The same workload on a better link (F25: PCIe vs NVLink, 30 % up to 2×; F08: NVLink
all-to-all or fast InfiniBand past 8 GPUs). Plain Python: the plots and the report share it.

Only a link these cards can have is drawn: cards without an NVLink connector (RTX 4090, L40S)
get no NVLink curve, cards with a bridge connector the bridge, SXM modules NVSwitch; an NVSwitch
server is already at the top inside, so only a faster network between its machines remains.
"""

from __future__ import annotations

from advisor.files.errors import InputError
from advisor.profile import InterLink, IntraLink, Profile
from advisor.profile.labels import label

_FASTEST_INTER = InterLink.infiniband_ndr
_PCIE = (IntraLink.pcie3, IntraLink.pcie4, IntraLink.pcie5)


def _card_nvlink(profile: Profile) -> str:
    """The catalog card's NVLink connector: "none", "bridge" or "sxm" ("none" when unknown)."""
    from advisor.catalog import resolve_gpu

    try:
        return resolve_gpu(profile.hardware.gpu, profile.hardware.intra_link).nvlink
    except (InputError, AttributeError):
        return "none"


def better_intra(profile: Profile) -> IntraLink | None:
    """The next faster link inside a machine that these cards can have; None at their top."""
    link, connector = profile.hardware.intra_link, _card_nvlink(profile)
    if connector == "bridge":
        return IntraLink.nvlink_bridge if link in _PCIE else None
    if connector == "sxm":
        return IntraLink.nvswitch if link != IntraLink.nvswitch else None
    return None  # no NVLink connector: PCIe is all these cards have


def better_link_profile(profile: Profile) -> Profile | None:
    """The profile with the next faster GPU link these cards can have (and InfiniBand NDR
    between machines when there are several); None when it already has the fastest."""
    hardware = profile.hardware
    intra = better_intra(profile)
    inter_better = hardware.nodes > 1 and hardware.inter_link != _FASTEST_INTER
    if intra is None and not inter_better:
        return None
    update: dict[str, object] = {"allreduce_busbw_gbs": None}  # a measured value is for the old link
    if intra is not None:
        update["intra_link"] = intra
    if inter_better:
        update["inter_link"] = _FASTEST_INTER
    return profile.model_copy(update={"hardware": hardware.model_copy(update=update)})


def better_link_name(profile: Profile, faster: Profile) -> str:
    """What changed, as "intra" and/or "inter" link values joined by "+" (the plots' key):
    "nvlink_bridge", "infiniband_ndr", "nvswitch+infiniband_ndr"."""
    parts = []
    if faster.hardware.intra_link != profile.hardware.intra_link:
        parts.append(faster.hardware.intra_link.value)
    if faster.hardware.inter_link != profile.hardware.inter_link:
        parts.append(faster.hardware.inter_link.value)
    return "+".join(parts)


def better_link_text(name: str | None, lang: str) -> str:
    """The short words for ``better_link_name`` ("NVLink bridge", "InfiniBand NDR",
    "NVSwitch + InfiniBand NDR": a network is between machines by its name); empty for none."""
    if not name:
        return ""
    words = [str(label("link" if part in {link.value for link in IntraLink} else "inter_link",
                       part, lang)) for part in name.split("+")]
    return " + ".join(words)
