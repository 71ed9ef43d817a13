"""Human labels for what ``import-smi`` reads, in English and Simplified Chinese.

The JSON keeps the machine interface (``nvlink: "none"``, ``sw_power_cap``, ``no_nvlink``);
text for people quotes these labels instead. Link and virtualisation labels come from
``advisor.profile.labels`` (the wording the rules and reports use); the values only nvidia-smi has
(PCIe path codes, clocks-event reasons, observation ids) are labelled here. An unknown value
still prints, without underscores, so a new driver's reason is readable rather than lost.
"""

from __future__ import annotations

from collections.abc import Iterable

from advisor.profile.labels import label
from advisor.text.i18n import Text, pick

KIND = {
    "topo": Text(en="nvidia-smi topo -m", zh="nvidia-smi topo -m（拓扑）"),
    "query": Text(en="nvidia-smi -q", zh="nvidia-smi -q（详细查询）"),
    "dmon": Text(en="nvidia-smi dmon", zh="nvidia-smi dmon（逐秒监控）"),
    "csv": Text(en="nvidia-smi --query-gpu CSV", zh="nvidia-smi --query-gpu CSV 表"),
    "table": Text(en="nvidia-smi summary table", zh="nvidia-smi 概览表"),
    "list": Text(en="nvidia-smi -L (GPU list)", zh="nvidia-smi -L（显卡列表）"),
    "nvml": Text(en="NVML (this machine)", zh="NVML（本机）"),
}
NVLINK = {
    "full": Text(en="every GPU pair linked", zh="全互联"),
    "partial": Text(en="some GPU pairs linked", zh="部分"),
    "none": Text(en="none", zh="无"),
}
# `nvidia-smi topo -m` legend codes, best to worst; the code stays visible because users
# compare it with their own topo output.
PCIE_PATH = {
    "PIX": Text(en="PIX (one PCIe switch)", zh="PIX（同一个 PCIe 交换芯片）"),
    "PXB": Text(en="PXB (several PCIe switches)", zh="PXB（经过多级 PCIe 交换芯片）"),
    "PHB": Text(en="PHB (through the CPU's PCIe host bridge)",
                zh="PHB（经过 CPU 的 PCIe 主桥）"),
    "NODE": Text(en="NODE (between host bridges of one NUMA node)",
                 zh="NODE（同一 NUMA 节点内跨 PCIe 主桥）"),
    "SYS": Text(en="SYS (across CPU sockets)", zh="SYS（跨 CPU 插槽）"),
}
# hwimport's virtualisation values -> the profile's (whose labels advisor.profile.labels holds)
_VIRT_AS_PROFILE = {"none": "bare_metal", "passthrough": "passthrough", "vgpu": "vgpu"}
HOST_VGPU = Text(en="vGPU host (shares its GPUs with virtual machines)",
                 zh="vGPU 宿主机（显卡分给多台虚拟机）")
THROTTLE = {
    "gpu_idle": Text(en="idle", zh="空闲"),
    "applications_clocks_setting": Text(en="application clock setting", zh="应用时钟设置"),
    "sw_power_cap": Text(en="software power cap", zh="软件功耗上限"),
    "hw_slowdown": Text(en="hardware slowdown", zh="硬件降频"),
    "sync_boost": Text(en="sync boost", zh="同步加速"),
    "sw_thermal_slowdown": Text(en="software thermal slowdown", zh="软件过热降频"),
    "hw_thermal_slowdown": Text(en="hardware thermal slowdown", zh="硬件过热降频"),
    "hw_power_brake_slowdown": Text(en="hardware power brake", zh="硬件功耗刹车降频"),
    "display_clock_setting": Text(en="display clock setting", zh="显示时钟设置"),
    "power_violation": Text(en="power limit violation", zh="超出功耗限制"),
    "thermal_violation": Text(en="thermal limit violation", zh="超出温度限制"),
}
SEVERITY = {
    "info": Text(en="note", zh="提示"),
    "warning": Text(en="warning", zh="警告"),
    "critical": Text(en="critical", zh="严重"),
}
OBSERVATION_TITLE = {
    "thermal_throttling": Text(en="Thermal throttling", zh="过热降频"),
    "power_capped": Text(en="Clocks held by the power limit", zh="功耗受限降频"),
    "data_starvation": Text(en="GPUs waiting for data", zh="显卡在等数据"),
    "vgpu_sharing": Text(en="Shared vGPU", zh="vGPU 共享"),
    "pcie_link_downgraded": Text(en="PCIe link below its speed", zh="PCIe 链路降级"),
    "laggard_gpu": Text(en="One GPU lags behind", zh="有一张卡拖后腿"),
    "no_nvlink": Text(en="No NVLink", zh="没有 NVLink"),
}


def _readable(value: str) -> str:
    """A value no table knows, without its underscores (``new_reason`` → ``new reason``)."""
    return value.replace("_", " ")


def _from(table: dict[str, Text], value: str, lang: str) -> str:
    text = table.get(value)
    return text.get(lang) if text is not None else _readable(value)


def kind_label(kind: str, lang: str = "en") -> str:
    return _from(KIND, kind, lang)


def nvlink_label(state: str, lang: str = "en") -> str:
    return _from(NVLINK, state, lang)


def link_label(link: str, lang: str = "en") -> str:
    """``pcie4`` → "PCIe 4.0" (advisor.profile.labels, shared with the rules and reports)."""
    shown = label("link", link, lang)
    return _readable(shown) if shown == link else str(shown)


def pcie_path_label(path: str, lang: str = "en") -> str:
    return _from(PCIE_PATH, path, lang)


def virtualization_label(mode: str, lang: str = "en") -> str:
    if mode == "host_vgpu":
        return HOST_VGPU.get(lang)
    profile_value = _VIRT_AS_PROFILE.get(mode)
    if profile_value is None:
        return _readable(mode)
    return str(label("virtualization", profile_value, lang))


def reason_label(reason: str, lang: str = "en") -> str:
    return _from(THROTTLE, reason, lang)


def reasons_label(reasons: Iterable[str], lang: str = "en") -> str:
    """Several clocks-event reasons, joined in the language's list separator."""
    return pick(lang, ", ", "、").join(reason_label(r, lang) for r in reasons)


def reasons_text(reasons: Iterable[str]) -> Text:
    items = list(reasons)
    return Text(en=reasons_label(items, "en"), zh=reasons_label(items, "zh"))


def severity_label(severity: str, lang: str = "en") -> str:
    return _from(SEVERITY, severity, lang)


def observation_title(observation_id: str, lang: str = "en") -> str:
    text = OBSERVATION_TITLE.get(observation_id)
    return text.get(lang) if text is not None else _readable(observation_id).capitalize()
