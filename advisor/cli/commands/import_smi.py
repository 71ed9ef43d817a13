"""gpu-advisor import-smi FILE... | --detect: what nvidia-smi output (or NVML) says about a machine.

Several files merge into one description (e.g. `nvidia-smi -q` + `topo -m` + `dmon`). "-" reads
standard input. Text that is not nvidia-smi output exits with status 2.
"""

from __future__ import annotations

import json
import sys

from advisor.errors import InputError
from advisor.hwimport import HardwareDescription, NvmlUnavailable, detect_machine, parse_texts
from advisor.hwimport.display import (
    kind_label,
    link_label,
    nvlink_label,
    observation_title,
    pcie_path_label,
    reasons_label,
    severity_label,
    virtualization_label,
)
from advisor.hwimport.importer import read_file_text
from advisor.i18n import pick
from advisor.text_width import display_width, pad


def register(sub) -> None:
    p = sub.add_parser("import-smi", help="read nvidia-smi output files (or this machine via "
                                          "NVML) into a hardware description")
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="saved output of nvidia-smi, -q, -L, topo -m, dmon or --query-gpu CSV; "
                        "'-' reads standard input")
    p.add_argument("--detect", action="store_true",
                   help="read this machine's GPUs through NVML instead of files")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(handler=run)


def run(args) -> int:
    lang = getattr(args, "lang", "en") or "en"
    if args.detect == bool(args.files):
        raise InputError.single("give one or more FILEs, or --detect",
                                "请给出一个或多个文件，或使用 --detect")
    if args.detect:
        try:
            desc = detect_machine()
        except NvmlUnavailable as exc:
            raise InputError.single(exc.message.en, exc.message.zh) from exc
    else:
        texts = [(sys.stdin.read() if f == "-" else read_file_text(f), f) for f in args.files]
        desc = parse_texts(texts)
    if args.format == "json":
        print(json.dumps(desc.model_dump(mode="json"), indent=2, ensure_ascii=False))
    else:
        print(render_text(desc, lang))
    return 0


def _not_shown_note(desc: HardwareDescription, lang: str) -> str:
    if not desc.gpus_not_shown:
        return ""
    return pick(lang, f" ({len(desc.gpus)} of {desc.gpu_count} GPUs shown)",
                f"（显示了 {desc.gpu_count} 张中的 {len(desc.gpus)} 张）")


def _yes_no(value: bool | None, lang: str) -> str:
    if value is None:
        return pick(lang, "unknown", "未知")
    return pick(lang, "yes", "是") if value else pick(lang, "no", "否")


def render_text(desc: HardwareDescription, lang: str = "en") -> str:
    """A short human summary of a description (the same facts as the JSON, with human labels
    where the JSON has ids and enum values)."""
    unknown = pick(lang, "unknown", "未知")
    not_shown = pick(lang, "not shown by this output", "此输出未显示")
    sep = pick(lang, ", ", "、")
    names = sorted(set(desc.gpu_names))
    rows = [
        (pick(lang, "Read from", "来源"), sep.join(kind_label(k, lang) for k in desc.kinds)),
        (pick(lang, "GPUs", "显卡数"), str(desc.gpu_count) if desc.gpu_count else unknown),
        (pick(lang, "Model", "型号"), ", ".join(names) + _not_shown_note(desc, lang)
         if names else unknown),
        (pick(lang, "Memory per GPU", "单卡显存"),
         ", ".join(f"{m} MiB" for m in sorted(set(desc.gpu_memory_mib))) or unknown),
        (pick(lang, "Driver / CUDA", "驱动 / CUDA"),
         f"{desc.driver_version or unknown} / {desc.cuda_version or unknown}"),
        ("NVLink", nvlink_label(desc.nvlink, lang) if desc.nvlink else unknown),
        (pick(lang, "Link inside the machine", "机内互联"),
         link_label(desc.intra_link, lang) if desc.intra_link else unknown),
        (pick(lang, "Worst GPU-GPU PCIe path", "最差 GPU 间 PCIe 路径"),
         pcie_path_label(desc.worst_pcie_path, lang) if desc.worst_pcie_path else unknown),
        (pick(lang, "Worst GPU-to-nearest-NIC path", "GPU 到最近网卡的最差路径"),
         pcie_path_label(desc.worst_nic_path, lang) if desc.worst_nic_path else unknown),
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
        (pick(lang, "Mean GPU utilisation", "平均利用率"),
         f"{desc.mean_sm_util:.0f} %" if desc.mean_sm_util is not None else not_shown),
        (pick(lang, "PCIe width reduced", "PCIe 宽度降低"),
         _yes_no(desc.pcie_width_downgraded, lang)),
    ]
    width = max(display_width(k) for k, _ in rows)
    out = [f"{pad(k, width)}  {v}" for k, v in rows]
    if desc.observations:
        out.append("")
        out.append(pick(lang, "Observations:", "发现："))
        colon = pick(lang, ": ", "：")
        for o in desc.observations:
            out.append(f"  [{severity_label(o.severity, lang)}] "
                       f"{observation_title(o.id, lang)}{colon}{o.message.get(lang)}")
            out.extend(f"      - {e}" for e in o.evidence_in(lang))
    if desc.warnings:
        out.append("")
        out.append(pick(lang, "Notes:", "说明："))
        out.extend(f"  - {w.get(lang)}" for w in desc.warnings)
    return "\n".join(out)
