"""gpu-advisor import-smi FILE... | --detect: what nvidia-smi output (or NVML) says about a machine.

Several files merge into one description (e.g. `nvidia-smi -q` + `topo -m` + `dmon`). "-" reads
standard input. Text that is not nvidia-smi output exits with status 2.
"""

from __future__ import annotations

from advisor.files.errors import InputError
from advisor.files.json_text import dumps_strict
from advisor.hwimport import HardwareDescription, NvmlUnavailable, detect_machine, parse_files
from advisor.hwimport.display import observation_title, severity_label
from advisor.hwimport.summary_rows import summary_rows
from advisor.text.i18n import pick
from advisor.text.width import display_width, pad


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
    if args.detect and args.files:  # (a user review: "give … or --detect" when both were)
        raise InputError.single("give FILEs or --detect, not both",
                                "请给出文件或使用 --detect，二者不能同时使用")
    if not args.detect and not args.files:
        raise InputError.single("give one or more FILEs, or --detect",
                                "请给出一个或多个文件，或使用 --detect")
    if args.detect:
        try:
            desc = detect_machine()
        except NvmlUnavailable as exc:
            raise InputError.single(exc.message.en, exc.message.zh) from exc
    else:
        # read one file at a time as it is parsed, at most MAX_FILES and MAX_TOTAL_CHARS in
        # all (the others named in the description's notes)
        desc = parse_files(args.files)
        _something_read(desc)
    if args.format == "json":
        print(dumps_strict(desc.model_dump(mode="json")))
    else:
        print(render_text(desc, lang))
    return 0


def _something_read(desc: HardwareDescription) -> None:
    """Exit 2 where the files gave no fact of a GPU (a user review: a --query-gpu header with
    no rows, or nvidia-smi's own "couldn't communicate with the NVIDIA driver", printed every
    field "unknown" and exited 0, so a script carried on with nothing)."""
    facts = (desc.gpu_count, desc.driver_version, desc.nvlink, desc.intra_link,
             desc.worst_pcie_path, desc.rdma_nics, desc.virtualization, desc.max_gpu_temp_c)
    if desc.gpus or desc.gpu_names or any(f is not None for f in facts):
        return
    said = desc.warnings[:3]
    raise InputError.single(
        "no GPU facts in these outputs" + "".join(f"; {w.en}" for w in said),
        "这些输出里没有任何显卡信息" + "".join(f"；{w.zh}" for w in said))


def render_text(desc: HardwareDescription, lang: str = "en") -> str:
    """A short human summary of a description (the same facts as the JSON, with human labels
    where the JSON has ids and enum values)."""
    rows = summary_rows(desc, lang)
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
