"""What to set in a profile's hardware to run a setup on other cards or machines: the fields
that name the setup, and each field of the machine that differs from the profile asked about
(the link inside it, the machines and the network between them), so the Set line followed as a
recipe gives a profile that loads and stands for the figures (a review: "Set hardware.gpu:
h20, gpus_per_node: 8" on a PCIe profile kept ``intra_link: pcie4``, which an H20 cannot use;
"Set hardware.nodes: 2" on a profile of one machine left it without the network the figures
assumed, and the profile was refused: several machines need one)."""

from __future__ import annotations

from advisor.profile import HardwareSpec
from advisor.text.i18n import Text

FIELDS = ("gpu", "gpus_per_node", "nodes", "intra_link", "inter_link")


def hardware_set(asked: HardwareSpec, setup: HardwareSpec,
                 always: tuple[str, ...] = ("gpu", "gpus_per_node")) -> Text:
    """"hardware.gpu: h20, gpus_per_node: 8, intra_link: nvswitch" in both languages: the
    ``always`` fields of ``setup``, and every other of ``FIELDS`` where it differs from
    ``asked`` (the network between machines only where there are several)."""
    said = []
    for name in FIELDS:
        value, was = getattr(setup, name), getattr(asked, name)
        if name == "inter_link" and setup.nodes <= 1:
            continue
        if name in always or value != was:
            said.append(f"{name}: {getattr(value, 'value', value)}")
    return Text(en="hardware." + ", ".join(said), zh="hardware." + "，".join(said))
