"""A one-GPU machine weighed against a machine with more of its cards (issue 29: "more of the
same cards" is a candidate).

A profile whose hardware is one machine with one GPU asks the question the product exists for
(will more GPUs help?) but names no larger setup: its figures alone would compare one GPU with
nothing and rate it "not worth it" or "worth it" against no alternative. The verdict weighs it
as a machine holding up to ``WIDER`` of the same cards (the article's sweet spot, F22; eight
for server cards, which come eight to a machine), on the link the card has; the card the user
has stays theirs (``economics.owned_gpus``), so buying covers only the cards and machine
beyond it (F10, F31).
"""

from __future__ import annotations

from advisor.catalog import load_catalog
from advisor.catalog.gpus import resolve_gpu
from advisor.costs.inputs import resolve_inputs
from advisor.files.errors import InputError
from advisor.profile import IntraLink, Profile

WIDER = 4  # a workstation's cards (F22)
WIDER_SERVER = 8  # SXM cards come eight to a server


def wider_machine(profile: Profile) -> Profile | None:
    """``profile`` on a machine with more of its cards, when its hardware is one machine with
    one GPU and measures nothing across GPUs (else None)."""
    hw = profile.hardware
    if hw.total_gpus != 1 or profile.measured is not None:
        return None
    try:
        spec = resolve_gpu(hw.gpu, hw.intra_link)
    except (InputError, ValueError, KeyError):
        return None
    server = spec.nvlink == "sxm"
    per = WIDER_SERVER if server else WIDER
    link = IntraLink.nvswitch if server else hw.intra_link
    hardware = hw.model_copy(update={"gpus_per_node": per, "intra_link": link})
    owned = resolve_inputs(profile, load_catalog()).owned_gpus  # as the costs count them
    economics = profile.economics.owning(owned)
    economics = economics.owning_machines_of(1)
    return profile.model_copy(update={"hardware": hardware, "economics": economics})


def in_a_smaller_machine(profile: Profile) -> bool:
    """The user's owned cards sit in machines smaller than the profile's (a machine weighed
    with more of their cards): the profile's machine is bought with the cards added."""
    per = profile.economics.owned_per_machine
    return per is not None and per < profile.hardware.gpus_per_node


__all__ = ["WIDER", "WIDER_SERVER", "in_a_smaller_machine", "wider_machine"]
