"""gpu-advisor diagnose PROFILE|CSV: why a measured multi-GPU run scales as it does (F30).

Measurements come from the profile's ``measured`` section or a CSV (``gpus,throughput`` or
``gpus,step_time_s``, optional ``unit`` column); ``--dmon`` adds GPU logs taken during the
run; ``--profile`` describes the hardware and model when the input is a CSV. ``--pdf OUT.pdf``
also writes the recommendation report with this diagnosis in it (it needs a profile, for the
recommendation; the Qt renderer is imported only then, so the core stays free of Qt).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from advisor.catalog.profile_check import load_profile
from advisor.cli.money_options import add_money_arguments
from advisor.cli.pdf_target import check_pdf_target
from advisor.diagnosis import diagnose, from_measured_spec, read_gpu_logs, read_measurements_csv
from advisor.diagnosis.text_report import render_text
from advisor.files.errors import InputError
from advisor.files.json_text import dumps_strict
from advisor.profile.reading import load_profile_data, path_parts

PROFILE_SUFFIXES = (".yaml", ".yml", ".json")


def register(sub) -> None:
    p = sub.add_parser("diagnose", help="diagnose measured multi-GPU scaling (why only 1.8x?)",
                       description="Grade measured speed-up (F30), Karp-Flatt serial fraction, "
                                   "refit the projection and rank the suspects.")
    p.add_argument("input", metavar="PROFILE|CSV",
                   help="a profile with a 'measured' section, or a CSV of gpus,throughput")
    p.add_argument("--dmon", nargs="+", metavar="FILE", default=[],
                   help="nvidia-smi dmon / --query-gpu CSV / -q logs taken during the run")
    p.add_argument("--profile", metavar="PROFILE", default=None,
                   help="hardware and model of the run (when the input is a CSV)")
    p.add_argument("--scaling", choices=["weak", "strong"], default=None,
                   help="CSV only: weak = fixed batch per GPU (default), strong = fixed global "
                        "batch; matters for step times")
    p.add_argument("--up-to", type=int, default=None, metavar="N",
                   help="extrapolate to N GPUs (default: max(16, twice the largest measured))")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--lang", choices=["en", "zh"], default=argparse.SUPPRESS,
                   help="language of the output (default: from the system locale)")
    p.add_argument("--pdf", default=None, metavar="OUT.pdf",
                   help="also write the PDF report with this diagnosis (needs a profile: the "
                        "input or --profile)")
    add_money_arguments(p)  # the PDF's costs
    p.set_defaults(handler=run)


MAX_UP_TO = 4096  # the counts a diagnosis extrapolates to, at most (unless measured beyond)


def run(args) -> int:
    if args.pdf is not None:  # a place that cannot take the PDF fails before any work
        check_pdf_target(args.pdf, [args.input, args.profile, *args.dmon])
    source = Path(args.input)
    profile = None
    is_profile = a_profile(source)
    if is_profile:
        profile = load_profile(source)
        if profile.measured is None:
            raise InputError.single(
                "the profile has no 'measured' section: add measured: {points: [{gpus: 1, "
                "throughput: ...}, ...]} or give a CSV",
                "配置中没有 measured 部分：请添加 measured: {points: [{gpus: 1, throughput: ...}, "
                "...]}，或提供 CSV 文件", path="measured", source=str(source))
        if args.scaling is not None and args.scaling != profile.measured.scaling:
            # a profile says it in measured.scaling: the option is the CSV's (review 4: it
            # was taken silently and ignored)
            raise InputError.single(
                f"'{args.scaling}' is for a CSV's rows; this profile's measured.scaling says "
                f"{profile.measured.scaling}: change it there",
                f"'{args.scaling}' 只用于 CSV；此档案的 measured.scaling 为 "
                f"{profile.measured.scaling}：请在档案中修改", path="--scaling",
                source=str(source))
        if args.profile:  # the profile given holds the workload (a user review: --profile
            # took over its hardware and model without a word)
            raise InputError.single(
                "--profile is for a CSV's measurements; this profile holds its own workload: "
                "give one or the other",
                "--profile 只用于 CSV 测量数据；此档案已包含自己的任务配置：二者只给一个",
                path="--profile", source=str(source))
        series = from_measured_spec(profile.measured, source=str(source))
    else:
        series = read_measurements_csv(source, scaling=args.scaling or "weak")
    if args.profile:
        profile = load_profile(args.profile)
    # the extrapolation stops at 4,096 GPUs, or at the largest count measured beyond them
    top = max(MAX_UP_TO, series.gpus[-1])
    if args.up_to is not None and not series.gpus[-1] <= args.up_to <= top:
        raise InputError.single(
            f"must be between the largest measured count ({series.gpus[-1]}) and {top}",
            f"应在实测最大卡数（{series.gpus[-1]}）与 {top} 之间", path="--up-to")
    if args.pdf is not None and profile is None:
        raise InputError.single(
            "a PDF report needs a profile (hardware, model and money) for the recommendation: "
            "give a profile with a 'measured' section, or add --profile PROFILE to the CSV",
            "PDF 报告需要一份配置（硬件、模型和费用）来给出推荐：请提供带 measured 部分的配置，"
            "或为 CSV 加上 --profile PROFILE", path="--pdf", source=str(source))
    # --dmon, else the logs the profile's measured section keeps (the desktop app's page)
    logs = args.dmon or (profile.measured.logs if profile is not None and profile.measured
                         is not None else [])
    if not args.dmon and logs:  # the profile's: a missing one is named where the profile says it
        profile_file = source if is_profile else Path(args.profile)
        logs = [beside(log, profile_file) for log in logs]
        _logs_present(logs, profile_file)
    telemetry = read_gpu_logs(logs) if logs else None
    result = diagnose(series, profile, telemetry, up_to=args.up_to)
    if args.format == "json":
        print(dumps_strict(result.model_dump(mode="json")))
    else:
        print(render_text(result, args.lang), end="")
    if args.pdf is not None:  # "" too: an empty name is an error, not "no PDF"
        return _write_pdf(result, profile, args)
    return 0


_KEY_LINE = re.compile(r"^(---\s*$|[A-Za-z_][\w-]*\s*:(\s|$)|\{)")


def a_profile(source: Path) -> bool:
    """A profile (YAML or JSON) rather than a measurements CSV: by its name, else by its first
    line that is not blank or a comment, a key and a colon or a brace (a user review: Windows
    Notepad's "profile.yaml.txt" read as a CSV whose first column was 'schema_version: 1')."""
    if source.suffix.lower() in PROFILE_SUFFIXES:
        return True
    try:
        with source.open("rb") as f:
            head = f.read(4096).decode("utf-8-sig", errors="replace")
    except OSError:
        return False  # the CSV reader names what is wrong with the file
    for line in head.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return _KEY_LINE.match(stripped) is not None
    return False


def beside(log: str, profile_file: Path) -> str:
    """A log a profile names, found beside the profile where its path is relative and the file
    is there (a user review: looked up from the current folder only)."""
    path = Path(log)
    if path.is_absolute():
        return log
    there = profile_file.parent / path
    return str(there) if there.is_file() else log


def _logs_present(logs: list[str], profile_file: Path) -> None:
    """Each log a profile's ``measured.logs`` names is a file, else an error naming the
    profile, the field and its line (a review: "no-such-dmon.txt: file not found" alone)."""
    for i, log in enumerate(logs):
        if Path(log).is_file():
            continue
        try:
            _, index = load_profile_data(profile_file.read_text(encoding="utf-8"),
                                         source=str(profile_file))
        except (OSError, UnicodeError, InputError):
            index = None
        field = f"measured.logs[{i}]"
        raise InputError.single(f"{log}: file not found", f"{log}：找不到文件", path=field,
                                line=index.line_of(path_parts(field)) if index else None,
                                source=str(profile_file))


def _write_pdf(result, profile, args) -> int:
    # the recommendation (rules, costs) only for the report: a diagnosis alone needs neither
    from advisor.cli.commands.recommend import write_pdf
    from advisor.compare.weighed import recommend

    rec = recommend(profile, lang=args.lang, currency=args.currency, market=args.market)
    return write_pdf(rec, profile, args.pdf, args.lang, diagnosis=result)
