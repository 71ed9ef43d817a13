"""Which kind of machine a profile's GPUs sit in: a workstation around PCIe cards, or a
data-centre server around an SXM baseboard (HGX/DGX class), with the PUE and network that go
with it (review 5)."""

from __future__ import annotations

from advisor.catalog import Catalog
from advisor.costs.money import money
from advisor.profile import InterLink, Profile
from advisor.profile.enums import RDMA_LINKS
from advisor.scaling.project import default_inter_link
from advisor.text.i18n import Text

# Links between machines whose fabric the catalog prices (400 Gb/s adapters and switches).
PRICED_FABRICS = RDMA_LINKS


def is_server_class(profile: Profile, spec) -> bool:
    """SXM cards sit on an HGX baseboard in a data-centre server (NVSwitch or NVLink board),
    never in a PC: such a machine is priced and powered as a server (review 5)."""
    return spec.nvlink == "sxm" or profile.hardware.intra_link.value == "nvswitch"


def server_class(profile: Profile, spec, catalog: Catalog, out: str, notes: list[Text],
                 tax_rate: float = 0.0) -> tuple[str, float, bool]:
    """(machine class, PUE, fabric priced) with a note for each default taken. Whether a
    setup spans several machines depends on its GPU count: the model notes the network."""
    eco, hw = profile.economics, profile.hardware
    if not is_server_class(profile, spec):
        return "workstation", eco.pue if eco.pue is not None else 1.0, False
    server = catalog.machine_overhead(hw.gpus_per_node, out, "sxm_server") * (1.0 + tax_rate)
    watts = catalog.system_power_w(hw.gpus_per_node, "sxm_server")
    notes.append(Text(
        en=f"machine: SXM/NVSwitch server (HGX/DGX class), {money(server, out)} a machine "
           f"without the GPUs and {watts:,.0f} W besides them (set "
           "economics.base_system_price to use your own price)",
        zh=f"整机：SXM/NVSwitch 服务器（HGX/DGX 级），不含显卡每台 {money(server, out)}，"
           f"显卡以外功耗 {watts:,.0f} W（可填写 economics.base_system_price 使用你自己的价格）"))
    pue = eco.pue
    if pue is None:  # never replaces a PUE the user wrote
        pue = catalog.server_pue.pue
        notes.append(Text(en=f"PUE: {pue:g}, a data centre's average (Uptime Institute); set "
                             "economics.pue for your site",
                          zh=f"PUE：{pue:g}，数据中心平均值（Uptime Institute）；可按你的机房"
                             "填写 economics.pue"))
    # the network named, or the InfiniBand such servers ship with that the projection assumes
    # for machines beyond the profile's when it names none (advisor.scaling.project)
    link = hw.inter_link if hw.inter_link != InterLink.none else default_inter_link(profile, spec)
    return "sxm_server", pue, link in PRICED_FABRICS
