"""gpu-advisor project PROFILE [--gpus 1,2,4,8] --format json|text: the speed-up curve."""

from __future__ import annotations

from advisor.catalog.profile_check import load_profile
from advisor.cli.gpu_counts import parse_gpu_counts
from advisor.files.json_text import dumps_strict
from advisor.profile.labels import BOTTLENECK
from advisor.scaling.parameters import ScalingParams, load_params
from advisor.text.i18n import Text, pick
from advisor.text.numbers import quantity
from advisor.verdict.memory_limit import counts_at_limit, estimate_applies

FIELDS = ("gpus", "nodes", "speedup", "speedup_low", "speedup_high", "efficiency", "step_time_s",
          "run_hours", "bottleneck", "memory_per_gpu_gb", "fits", "parallelism",
          "samples_per_s_per_gpu", "tokens_per_s_per_gpu", "tflops_per_gpu", "mfu", "layout",
          "memory_margin_gb")

# Short names: the column is narrow (advisor.profile.labels.PARALLELISM has the long ones).
PARALLELISM_SHORT = {
    "data": Text(en="data", zh="数据并行"), "zero": Text(en="ZeRO", zh="ZeRO"),
    "fsdp": Text(en="FSDP", zh="FSDP"), "tensor": Text(en="tensor", zh="张量并行"),
    "pipeline": Text(en="pipeline", zh="流水线并行"), "hybrid": Text(en="hybrid", zh="混合并行"),
}


def _word(table: dict[str, Text], value: str, lang: str) -> str:
    """The label of an id in text output (the id itself when new); --format json keeps ids."""
    return table[value].get(lang) if value in table else value


def register(sub) -> None:
    p = sub.add_parser("project", help="project the speed-up of 1...N GPUs for a profile")
    p.add_argument("profile", metavar="PROFILE")
    p.add_argument("--gpus", default=None,
                   help="GPU counts, comma-separated (default: 1..N up to 16 GPUs, "
                        "else powers of two and the total)")
    p.add_argument("--format", choices=["json", "text"], default="text")
    p.set_defaults(handler=run)


def run(args) -> int:
    from advisor.verdict.beyond import considered
    from advisor.verdict.projection_for import projection_for

    profile = load_profile(args.profile)
    # the same curve `recommend` uses: measured speed-ups win over the model's (F30); by
    # default its counts too (more machines like this one when nothing fits them, F24)
    gpus = parse_gpu_counts(args.gpus)
    result = projection_for(profile, gpus) if gpus else considered(profile)[0]
    p = load_params() if estimate_applies(profile) else None  # where the spread was measured
    if args.format == "json":
        data = result.model_dump()
        at = {n for n, _, _ in counts_at_limit(result, p)} if p is not None else set()
        data["memory_at_limit"] = [n in at for n in result.gpus]
        data["notes"] = result.notes_zh if args.lang == "zh" else result.notes
        data.pop("notes_zh", None)
        print(dumps_strict(data))
        return 0
    print(render_text(result, args.lang, p))
    return 0


def limit_note(result, lang: str, p: ScalingParams) -> str | None:
    """One line for the counts whose memory is within the measured spread of the usable
    memory (advisor/verdict/memory_limit.py): it may run out of memory, or may still fit."""
    rows = counts_at_limit(result, p)
    if not rows:
        return None
    over = f"{100 * p.memory_peak_over_estimate:.0f}"
    under = f"{100 * p.memory_peak_under_estimate:.1f}"
    en = "; ".join(f"{n} GPU{'' if n == 1 else 's'} {100 * share:.0f} % "
                   + ("(may still run out of memory)" if fits else "(may still fit)")
                   for n, share, fits in rows)
    zh = "；".join(f"{n} 卡 {100 * share:.0f}%" + ("（仍可能显存不足）" if fits else "（仍可能放得下）")
                  for n, share, fits in rows)
    return pick(lang, f"Memory at the limit: planned over usable at {en}; in 8 of 10 published "
                      f"fine-tuning runs the measured peak lies between {under} % below and "
                      f"{over} % above the estimate.",
                f"显存接近上限：计划占用/可用显存为 {zh}；在已发表的微调实测中，十次有八次实测峰值落在估算值的 "
                f"-{under}% 到 +{over}% 之间。")


def render_text(result, lang: str, p: ScalingParams | None = None) -> str:
    zh = lang == "zh"
    head = pick(lang, f"{'GPUs':>5} {'nodes':>5} {'speed-up':>9} {'low-high':>13} {'eff.':>5} "
                      f"{'step s':>9} {'run h':>8} {'mem GB':>7} {'fits':>4}  parallelism / "
                      "bottleneck",
                f"{'卡数':>4} {'机器':>4} {'加速比':>7} {'区间':>12} {'效率':>4} {'每步秒':>8} "
                f"{'单次小时':>6} {'显存GB':>6} {'放得下':>3}  并行方式 / 瓶颈")
    lines = [head]
    throughput = _throughput_lines(result, lang)
    for i, n in enumerate(result.gpus):
        par = result.parallelism[i]
        neck = result.bottleneck[i]
        fits = pick(lang, "yes" if result.fits[i] else "no", "是" if result.fits[i] else "否")
        band = f"{result.speedup_low[i]:.2f}-{result.speedup_high[i]:.2f}"
        lines.append(
            f"{n:>5} {result.nodes[i]:>5} {result.speedup[i]:>8.2f}x {band:>13} "
            f"{result.efficiency[i]:>5.0%} {quantity(result.step_time_s[i], 4):>9} "
            f"{quantity(result.run_hours[i]):>8} {result.memory_per_gpu_gb[i]:>7,.1f} "
            f"{fits:>4}  {_word(PARALLELISM_SHORT, par, lang)} / "
            f"{_word(BOTTLENECK, neck, lang)}")
    lines += throughput
    notes = list(result.notes_zh if zh else result.notes)
    limit = limit_note(result, lang, p) if p is not None else None
    if limit is not None:
        notes.append(limit)
    for note in notes:
        lines.append(("注：" if zh else "note: ") + note)
    return "\n".join(lines)


def _throughput_lines(result, lang: str) -> list[str]:
    """Per count: absolute throughput per GPU, TFLOP/s and MFU, and the layout when the
    projection searched one (large transformers); the usable memory and its margin."""
    if not result.samples_per_s_per_gpu:
        return []
    zh = lang == "zh"
    tokens = any(t is not None for t in result.tokens_per_s_per_gpu)
    unit = pick(lang, "tokens/s" if tokens else "samples/s", "token/秒" if tokens else "样本/秒")
    lines = [pick(lang, f"per GPU ({unit}, model TFLOP/s, MFU, memory margin of "
                        f"{quantity(result.usable_memory_gb or 0)} GB usable)",
                  f"每卡（{unit}、模型 TFLOP/s、MFU、可用 {quantity(result.usable_memory_gb or 0)}"
                  " GB 显存的余量）")]
    for i, n in enumerate(result.gpus):
        rate = result.tokens_per_s_per_gpu[i] if tokens else result.samples_per_s_per_gpu[i]
        margin = result.memory_margin_gb[i] if result.memory_margin_gb else None
        row = (f"{n:>5} {quantity(rate or 0, 4):>9} {quantity(result.tflops_per_gpu[i]):>7} "
               f"{result.mfu[i]:>5.0%} {'' if margin is None else quantity(margin):>8}")
        if result.layout:
            row += "  " + (result.layout_zh[i] if zh else result.layout[i])
        lines.append(row)
    return lines
