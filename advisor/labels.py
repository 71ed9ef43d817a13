"""Human labels for the profile's enum values, in English and Simplified Chinese.

Rule messages, reports and the wizard quote links, virtualisation and cooling by these labels,
never by their raw values (``pcie4`` reads "PCIe 4.0"). ``label(fact, value, lang)`` returns
the value itself when no label is known, so a new enum value still prints.
"""

from __future__ import annotations

from advisor.i18n import Text

INTRA_LINK = {
    "pcie3": Text(en="PCIe 3.0", zh="PCIe 3.0"),
    "pcie4": Text(en="PCIe 4.0", zh="PCIe 4.0"),
    "pcie5": Text(en="PCIe 5.0", zh="PCIe 5.0"),
    "nvlink_bridge": Text(en="NVLink bridge", zh="NVLink 桥接"),
    "nvlink": Text(en="NVLink", zh="NVLink"),
    "nvswitch": Text(en="NVSwitch", zh="NVSwitch"),
}
INTER_LINK = {
    "none": Text(en="no network (one machine)", zh="无网络（单机）"),
    "ethernet_10g": Text(en="10 GbE Ethernet", zh="10 GbE 以太网"),
    "ethernet_25g": Text(en="25 GbE Ethernet", zh="25 GbE 以太网"),
    "ethernet_100g": Text(en="100 GbE Ethernet", zh="100 GbE 以太网"),
    "roce": Text(en="RoCE", zh="RoCE"),
    "infiniband_edr": Text(en="InfiniBand EDR", zh="InfiniBand EDR"),
    "infiniband_hdr": Text(en="InfiniBand HDR", zh="InfiniBand HDR"),
    "infiniband_ndr": Text(en="InfiniBand NDR", zh="InfiniBand NDR"),
}
VIRTUALIZATION = {
    "bare_metal": Text(en="bare metal", zh="裸金属"),
    "passthrough": Text(en="full pass-through", zh="整卡直通"),
    "vgpu": Text(en="NVIDIA vGPU", zh="NVIDIA vGPU"),
    "unknown": Text(en="unknown virtualisation", zh="虚拟化方式未知"),
}
COOLING = {
    "open_air": Text(en="open-air fans", zh="开放式风扇"),
    "blower": Text(en="blower", zh="涡轮散热"),
    "server": Text(en="server airflow", zh="服务器风道"),
    "liquid": Text(en="liquid cooling", zh="水冷"),
}
PARALLELISM = {
    "data": Text(en="data parallel", zh="数据并行"),
    "zero": Text(en="ZeRO sharded data parallel", zh="ZeRO 分片数据并行"),
    "fsdp": Text(en="FSDP sharded data parallel", zh="FSDP 分片数据并行"),
    "tensor": Text(en="tensor (model) parallel", zh="模型并行（张量并行）"),
    "pipeline": Text(en="pipeline parallel", zh="流水线并行"),
    "hybrid": Text(en="hybrid parallel", zh="混合并行"),
}

# fact name (advisor.facts) -> its label table
BY_FACT: dict[str, dict[str, Text]] = {
    "link": INTRA_LINK,
    "inter_link": INTER_LINK,
    "virtualization": VIRTUALIZATION,
    "cooling": COOLING,
    "verdict_projected_parallelism": PARALLELISM,
    "verdict_parallelism": PARALLELISM,
    "user_parallelism": PARALLELISM,
}


def label(fact: str, value: object, lang: str = "en") -> object:
    """The human label of ``value`` for ``fact`` in ``lang``; other values unchanged."""
    table = BY_FACT.get(fact)
    if table is None or not isinstance(value, str) or value not in table:
        return value
    return table[value].get(lang)
