"""The cooling the cards really have (F27).

A profile's cooling defaults to open-air, what GeForce cards ship with. Workstation cards (RTX
A6000, RTX 6000 Ada) ship only with blowers, data-centre cards only with passive heat sinks in
a server's airflow: for them "open-air" cannot be what is in the case, so it reads as the
card's usual cooling (``GpuSpec.default_cooling``). Any other choice stands as the user made it.
"""

from __future__ import annotations

from advisor.catalog.gpu_spec import GpuSpec

_NO_FANS_OF_THEIR_OWN = ("workstation", "datacenter")  # never sold with open-air coolers


def fitted_cooling(spec: GpuSpec, cooling: str) -> str:
    """``cooling`` (a profile.Cooling value), or the card's usual one when open-air is not a
    cooler this card is sold with."""
    if cooling == "open_air" and spec.gpu_class in _NO_FANS_OF_THEIR_OWN:
        return spec.default_cooling
    return cooling
