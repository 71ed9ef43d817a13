"""Human names for the profile's enum values in diagnosis text ("PCIe 4.0", not "PCIE4").

Links come from the project's shared table (``advisor.profile.labels``), so the diagnosis, the rules
and the report name a link alike; storage and the alternating tasks, which that table does
not cover, are named here. Unknown values fall back to the raw value with underscores as
spaces, never to an upper-cased identifier.
"""

from __future__ import annotations

from enum import Enum

from advisor.profile.labels import INTER_LINK, INTRA_LINK
from advisor.text.i18n import Text

_OWN: dict[str, Text] = {
    # storage the training data is read from
    "hdd": Text(en="hard-disk", zh="机械硬盘"),
    "sata_ssd": Text(en="SATA SSD", zh="SATA 固态硬盘"),
    "nvme": Text(en="NVMe", zh="NVMe"),
    "network": Text(en="network", zh="网络"),
    "ram": Text(en="in-memory", zh="内存"),
    # tasks that alternate sub-networks (F21)
    "gan": Text(en="a GAN", zh="GAN"),
    "reinforcement_learning": Text(en="reinforcement learning", zh="强化学习"),
}


def label(value: str | Enum) -> Text:
    """``Text`` naming an enum value for people, in English and Chinese."""
    raw = value.value if isinstance(value, Enum) else str(value)
    for table in (INTRA_LINK, INTER_LINK, _OWN):
        if raw in table:
            return table[raw]
    return Text(en=raw.replace("_", " "), zh=raw.replace("_", " "))
