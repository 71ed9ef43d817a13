"""The label/value rows people read about an imported machine, shared by ``import-smi``'s
text output and the wizard's Import dialog, so both say the same thing in both languages."""

from __future__ import annotations

from advisor.hwimport.display import (
    kind_label,
    link_label,
    nvlink_label,
    pcie_path_label,
    reasons_label,
    virtualization_label,
)
from advisor.hwimport.model import HardwareDescription
from advisor.text.i18n import pick


def _busy_mean(desc: HardwareDescription) -> float | None:
    busy = [g.busy_util_pct for g in desc.gpus if g.busy_util_pct is not None]
    return sum(busy) / len(busy) if busy else None


def _utilisation(desc: HardwareDescription, lang: str, not_shown: str) -> str:
    if desc.mean_sm_util is None:
        return not_shown
    text = f"{desc.mean_sm_util:.0f} %"
    busy = _busy_mean(desc)
    # A log that starts before training (ramp-up) drags the plain mean down; say what the GPUs
    # did while they were working, which is what data starvation is judged on (F28).
    if busy is not None and round(busy) != round(desc.mean_sm_util):
        text += pick(lang, f" ({busy:.0f} % while working)", f"（工作时 {busy:.0f}%）")
    return text


def summary_rows(desc: HardwareDescription, lang: str = "en") -> list[tuple[str, str]]:
    unknown = pick(lang, "unknown", "未知")
    not_shown = pick(lang, "not shown by this output", "此输出未显示")
    # One GPU has no GPU-to-GPU link: "unknown" would send people looking for one.
    one_gpu = pick(lang, "not applicable (one GPU)", "不适用（只有一张卡）")
    single = desc.gpu_count == 1
    sep = pick(lang, ", ", "、")
    names = sorted(set(desc.gpu_names))
    model = ", ".join(names)
    if model and desc.gpus_not_shown:
        model += pick(lang, f" ({len(desc.gpus)} of {desc.gpu_count} GPUs shown)",
                      f"（显示了 {desc.gpu_count} 张中的 {len(desc.gpus)} 张）")

    def known(value: str | None, labeller) -> str:
        if single:  # whatever the card could do, one GPU talks to no other
            return one_gpu
        return labeller(value, lang) if value else unknown

    if desc.pcie_width_downgraded is None:
        width = unknown
    else:
        width = pick(lang, "yes", "是") if desc.pcie_width_downgraded else pick(lang, "no", "否")
    return [
        (pick(lang, "Read from", "来源"), sep.join(kind_label(k, lang) for k in desc.kinds)),
        (pick(lang, "GPUs", "显卡数"), str(desc.gpu_count) if desc.gpu_count else unknown),
        (pick(lang, "Model", "型号"), model or unknown),
        (pick(lang, "Memory per GPU", "单卡显存"),
         ", ".join(f"{m} MiB" for m in sorted(set(desc.gpu_memory_mib))) or unknown),
        (pick(lang, "Driver / CUDA", "驱动 / CUDA"),
         f"{desc.driver_version or unknown} / {desc.cuda_version or unknown}"),
        ("NVLink", known(desc.nvlink, nvlink_label)),
        (pick(lang, "Link inside the machine", "机内互联"), known(desc.intra_link, link_label)),
        (pick(lang, "Worst GPU-GPU PCIe path", "最差 GPU 间 PCIe 路径"),
         known(desc.worst_pcie_path, pcie_path_label)),
        (pick(lang, "Worst GPU-to-nearest-NIC path", "GPU 到最近网卡的最差路径"),
         pcie_path_label(desc.worst_nic_path, lang) if desc.worst_nic_path
         else pick(lang, "not applicable (no RDMA NIC)", "不适用（没有 RDMA 网卡）")
         if desc.rdma_nics == [] else unknown),
        (pick(lang, "RDMA NICs", "RDMA 网卡"),
         sep.join(desc.rdma_nics) if desc.rdma_nics else (unknown if desc.rdma_nics is None
                                                            else pick(lang, "none", "无"))),
        (pick(lang, "Virtualisation", "虚拟化"),
         virtualization_label(desc.virtualization, lang) if desc.virtualization else unknown),
        (pick(lang, "Clock limits active", "生效的降频原因"),
         not_shown if desc.throttle_active is None
         else reasons_label(desc.throttle_active, lang) or pick(lang, "none", "无")),
        (pick(lang, "Hottest GPU", "最高温度"),
         f"{desc.max_gpu_temp_c:g} °C" if desc.max_gpu_temp_c is not None else not_shown),
        (pick(lang, "Mean GPU utilisation", "平均利用率"), _utilisation(desc, lang, not_shown)),
        (pick(lang, "PCIe width reduced", "PCIe 宽度降低"), width),
    ]
