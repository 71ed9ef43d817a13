"""gpu-advisor recommend PROFILE: the verdict, projection, costs, pitfalls, advice and trace.

``--format text | json | markdown``; ``--lang en | zh``; ``--pdf OUT.pdf`` also writes the
report through the Qt renderer (imported only then, so the core stays free of Qt), with the
rule appendix only when ``--appendix`` asks for it.
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys

from advisor.catalog.profile_check import load_profile
from advisor.cli.gpu_counts import parse_gpu_counts
from advisor.cli.interrupts import deferred_interrupt
from advisor.cli.money_options import add_money_arguments
from advisor.cli.pdf_target import check_pdf_target
from advisor.compare.weighed import recommend
from advisor.costs.money import money
from advisor.costs.text import stale_lines
from advisor.files.atomic import atomic_write_bytes
from advisor.files.json_text import dumps_strict
from advisor.profile.labels import conclusion_text
from advisor.text.durations import durations
from advisor.text.i18n import pick
from advisor.text.numbers import quantity
from advisor.verdict.result import Recommendation
from advisor.verdict.setup_text import HEADING, setup_line
from advisor.verdict.summary import render as summary_lines

NA = "—"  # not applicable: the same mark as the costs table (advisor.costs.text)
SEVERITY_LABEL = {"critical": ("critical", "严重"), "warning": ("warning", "警告"),
                  "info": ("info", "提示")}


def register(sub) -> None:
    p = sub.add_parser("recommend", help="recommend a setup for a profile")
    p.add_argument("profile", metavar="PROFILE")
    p.add_argument("--format", choices=["text", "json", "markdown"], default="text")
    p.add_argument("--lang", choices=["en", "zh"], default=argparse.SUPPRESS,
                   help="language of the output (default: from the system locale)")
    p.add_argument("--gpus", default=None, metavar="N,N,...",
                   help="GPU counts to consider (default: 1 up to the hardware's total)")
    p.add_argument("--pdf", default=None, metavar="OUT.pdf",
                   help="also write the PDF report to OUT.pdf")
    p.add_argument("--details", action="store_true",
                   help="text: after the five-line answer, everything behind it (figures, "
                        "setups, pitfalls, set-up advice, the rules that fired)")
    p.add_argument("--appendix", action="store_true",
                   help="with --pdf: add the appendix of every rule that fired and the "
                        "article facts it rests on")
    add_money_arguments(p)
    p.set_defaults(handler=run)


def run(args) -> int:
    lang = args.lang
    if args.pdf is not None:  # a place that cannot take the PDF fails before any work
        check_pdf_target(args.pdf, [args.profile])
    profile = load_profile(args.profile)
    rec = recommend(profile, gpus=parse_gpu_counts(args.gpus), lang=lang,
                    currency=args.currency, market=args.market)
    if args.pdf is not None:  # "" too: an empty name is an error, not "no PDF"
        # The PDF first: a place that cannot be written fails before anything is printed.
        # A profile with a `measured` section gets the diagnosis section too (F30).
        code = write_pdf(rec, profile, args.pdf, lang, appendix=args.appendix)
        if code:
            return code
    if args.format == "json":
        print(dumps_strict(rec.model_dump(mode="json")))
    elif args.format == "markdown":
        print(render_markdown(rec, lang))
    else:
        print(render_text(rec, lang, details=args.details))
    return 0


def write_pdf(rec: Recommendation, profile, path: str, lang: str, *, diagnosis=None,
              appendix: bool = False) -> int:
    """Write the PDF report (``ui.report.export``: drawn, then written unless Ctrl-C was
    pressed meanwhile); 2 when the report module is missing.
    ``appendix``: with the trace of every rule that fired."""
    with deferred_interrupt() as interrupted:  # Qt loads and draws: Ctrl-C waits for it
        try:
            export = importlib.import_module("ui.report.export")
            check_target, render = export.check_target, export.render_pdf_bytes
        except (ImportError, AttributeError) as exc:
            print(pick(lang, f"cannot write a PDF: the report module is not available ({exc})",
                       f"无法生成 PDF：报告模块不可用（{exc}）"), file=sys.stderr)
            return 2
        target = check_target(path)
        data, _ = render(rec, profile, lang, diagnosis=diagnosis, appendix=appendix)
    if interrupted:  # Ctrl-C asked to stop: the drawn report replaces nothing (a user review:
        # an existing PDF was replaced, "PDF written" beside status 130)
        print(pick(lang, f"interrupted: {path} not written", f"已中断：未写入 {path}"),
              file=sys.stderr)
        raise KeyboardInterrupt  # the command ends there, as Ctrl-C asked (status 130)
    atomic_write_bytes(target, data)
    print(pick(lang, f"PDF written: {path}", f"PDF 已写入：{path}"), file=sys.stderr)
    return 0


def _numbers(rec: Recommendation, lang: str) -> tuple[str | None, list[str]]:
    """Speed-up, run time and money at the recommended count (or, for a one-GPU verdict or one
    beyond the hardware considered, at the largest count considered, to show what was turned
    down or what the hardware gives): an introducing line (or None) and the figures."""
    v, pr, co = rec.verdict, rec.projection, rec.costs
    n = v.gpus if v.gpus > 1 or len(pr.gpus) == 1 else max(pr.gpus)
    if n not in pr.gpus:  # nothing considered fits: the verdict names a larger count
        n = max(pr.gpus)
    i = pr.at(n)
    fits = pr.fits[i]
    if not fits:
        intro = pick(lang, f"{n} GPUs, where the model does not fit (figures as if it did):",
                     f"{n} 卡（模型放不下，以下数字仅按放得下估算）：")
    else:
        intro = None if n == v.gpus else pick(lang, f"for comparison, {n} GPUs:",
                                               f"作为对比，{n} 卡：")
    first, then = durations(lang, pr.run_hours[0], pr.run_hours[i])  # one unit for both
    # the first count's time where it cannot hold the job is a card that could (the speed-ups'
    # reference), never a run the user can make
    held = ("", "") if pr.fits[0] or not fits else \
        (" (if one GPU held it)", "（假如单卡放得下）") if pr.gpus[0] == 1 else \
        (" (if they held it)", "（假如放得下）")
    lines = [pick(lang, f"speed-up at {gpus_en(n)}: {pr.speedup[i]:.2f}x "
                        f"({pr.speedup_low[i]:.2f}-{pr.speedup_high[i]:.2f}), "
                        f"efficiency {pr.efficiency[i]:.0%}",
                  f"{n} 卡加速比：{pr.speedup[i]:.2f} 倍（{pr.speedup_low[i]:.2f}–"
                  f"{pr.speedup_high[i]:.2f}），扩展效率 {pr.efficiency[i]:.0%}"),
             pick(lang, f"one run: {first} on {gpus_en(pr.gpus[0])}{held[0]}, {then} on {n}",
                  f"单次训练：{pr.gpus[0]} 卡 {first}{held[1]}，{n} 卡 {then}")
             if n != pr.gpus[0] else  # one count only (an offer renting one card)
             pick(lang, f"one run: {first} on {gpus_en(n)}", f"单次训练：{n} 卡 {first}")]
    if pr.layout and i < len(pr.layout):  # a large model: the split it runs, and how well
        rate = pr.tokens_per_s_per_gpu[i] if pr.tokens_per_s_per_gpu else None
        per = f", {quantity(rate or 0)} tokens/s per GPU" if rate else ""
        per_zh = f"，每卡 {quantity(rate or 0)} token/秒" if rate else ""
        lines.append(pick(lang, f"layout at {gpus_en(n)}: {pr.layout[i]} (MFU {pr.mfu[i]:.0%}"
                                f"{per})",
                          f"{n} 卡的切分方式：{pr.layout_zh[i]}（MFU {pr.mfu[i]:.0%}{per_zh}）"))
    if i < len(co.cost_per_run) and not co.mode_priced:
        lines.append(pick(lang, "cost per run: unknown - no cloud price for this GPU (set "
                                "economics.cloud_price_per_gpu_hour)",
                          "单次成本：未知——没有这款显卡的云报价（请填写 "
                          "economics.cloud_price_per_gpu_hour）"))
    elif i < len(co.cost_per_run):
        base = rec.baseline_gpus
        # a count that cannot run has no net value; the costs table prints the same dash
        value = co.net_value_per_month[i]  # as the costs table writes it (money: never "-$0")
        net = money(value, co.currency) if fits and base else NA  # never "-0" (review 5)
        vs_en = f" vs {gpus_en(base)}" if base else ""
        vs_zh = ("相对单卡的" if base == 1 else f"相对 {base} 卡的") if base else ""
        run = money(co.cost_per_run[i], co.currency) + _side_note(co, i, lang)
        if base == n == 1:  # one GPU against one GPU: no net value to state
            lines.append(pick(lang, f"cost per run: {run}", f"单次成本：{run}"))
        elif base == n and _fits_below(pr, n):  # the baseline is the fewest that keep the
            # schedule (costs.model._baseline): nothing smaller does the month's runs
            lines.append(pick(
                lang, f"cost per run: {run} (the fewest GPUs that can do the month's runs: no "
                      "smaller setup to compare with)",
                f"单次成本：{run}（这是能做完每月训练的最少卡数，没有更小的配置可比较）"))
        elif base == n:  # the smallest count that fits is the verdict: nothing to compare with
            lines.append(pick(
                lang, f"cost per run: {run} (the fewest GPUs that hold the model: no smaller "
                      "setup to compare with)",
                f"单次成本：{run}（这是放得下模型的最少卡数，没有更小的配置可比较）"))
        elif not co.time_value_given and fits and base:  # no value on time: the extra cost
            lines.append(_unvalued_line(co, i, n, base, lang))
        else:
            lines.append(pick(
                lang, f"cost per run: {run}; net value{vs_en}: "
                      + (f"{net}/month" if net != NA else net),
                f"单次成本：{run}；{vs_zh}净收益：" + (f"每月 {net}" if net != NA else net)))
        over = rec.over_yours_apart() if n == v.gpus else None
        if over is not None:
            value = money(over.net_value_per_month, co.currency)
            lines.append(pick(
                lang, f"net value over {over.against.en}: {value}/month (what `compare` "
                      "measures every setup against)",
                f"相对{over.against.zh}的净收益：每月 {value}（compare 比较各配置所用的基准）"))
        if not co.own_priced and co.mode != "cloud":
            lines.append(pick(lang, "own-hardware figures leave out the cards: no card price is "
                                    "known (set economics.gpu_price)",
                              "自建成本未计入显卡：没有显卡价格（请填写 economics.gpu_price）"))
        if not co.cloud_priced and co.mode != "own":
            lines.append(pick(lang, "cloud figures are missing: no cloud offer is known (set "
                                    "economics.cloud_price_per_gpu_hour)",
                              "缺少云上成本：没有云报价（请填写 economics.cloud_price_per_gpu_hour）"))
    # the machines and network the verdict's figures assume beyond the profile's (F08, F32)
    lines += [pick(lang, f"assumed: {t.en}", f"假设：{t.zh}") for t in rec.assumed]
    return intro, lines


def _unvalued_line(co, i: int, n: int, base: int, lang: str) -> str:
    """The money at count ``n`` when the profile has not said what a day saved is worth: no
    "net value" (it would count time as worth nothing, which nobody said), but what the count
    costs more than the baseline and what a day saved must be worth to pay for it (F02)."""
    cur = co.currency
    extra = co.cost_per_month[i] - (co.baseline_cost_per_month or 0.0)
    to_pay = co.day_value_to_pay(n)
    vs_en, vs_zh = gpus_en(base), ("单卡" if base == 1 else f"{base} 卡")
    if abs(extra) < 0.5:  # rounds to nothing: the same money a month
        money_en = f"costs the same a month as {vs_en}"
        money_zh = f"每月花费与{vs_zh}相同"
    elif extra < 0:
        money_en = f"costs {money(-extra, cur)}/month less than {vs_en}"
        money_zh = f"每月比{vs_zh}少花 {money(-extra, cur)}"
    else:
        money_en = f"costs {money(extra, cur)}/month more than {vs_en}"
        money_zh = f"每月比{vs_zh}多花 {money(extra, cur)}"
        if to_pay is not None:
            day = money(float(math.ceil(to_pay)), cur)
            money_en += (f"; pays for itself if a day saved is worth at least {day} (what a day "
                         "is worth is not said)")
            money_zh += f"；省下的一天至少值 {day} 才能回本（未说明省下一天值多少）"
    side = _side_note(co, i, lang)
    return pick(lang, f"cost per run: {money(co.cost_per_run[i], cur)}{side}; {money_en}",
                f"单次成本：{money(co.cost_per_run[i], cur)}{side}；{money_zh}")


def _side_note(co, i: int, lang: str) -> str:
    """Which side a count is priced on where the report picks the cheaper per count
    (compare mode): " (rented)" / "（租用）" (review 7: a break-even read as buying was the
    rental's)."""
    if co.mode != "compare" or i >= len(co.deployment):
        return ""
    side = co.deployment[i]
    return pick(lang, " (rented)" if side == "cloud" else " (owned)",
                "（租用）" if side == "cloud" else "（自建）")


def _fits_below(pr, n: int) -> bool:
    """Whether a count below ``n`` holds the model (then ``n`` is the baseline because it is
    the fewest that can do the month's runs, not the fewest that fit)."""
    if pr.single_gpu_fits and n > 1:
        return True
    return any(ok for g, ok in zip(pr.gpus, pr.fits, strict=True) if g < n)


def gpus_en(n: int) -> str:
    """``1 GPU``, ``2 GPUs``."""
    return f"{n} GPU" if n == 1 else f"{n} GPUs"


def render_text(rec: Recommendation, lang: str = "en", *, details: bool = True) -> str:
    """The five-line answer (issue 29); with ``details`` everything behind it: the headline
    in full, the figures, setups, pitfalls, set-up advice and the rules that fired."""
    v = rec.verdict
    short = summary_lines(rec.summary, lang)
    if not details:
        stale = [pick(lang, "Warning: some prices used are older than 12 months or undated "
                            "(--details lists them)",
                      "提醒：部分价格已超过 12 个月或没有日期（加 --details 查看）")] \
            if stale_lines(rec.costs, lang) else []
        return "\n".join([*short, "", pick(
            lang, "Details (figures, setups, pitfalls, set-up, the rules that fired): add "
                  "--details",
            "详情（数字、可行方案、注意事项、配置建议、触发的规则）：加 --details"), *stale])
    out = [*short, "", v.headline.get(lang), ""] if short else [v.headline.get(lang), ""]
    intro, lines = _numbers(rec, lang)
    out += ["  " + line for line in ([intro] if intro else []) + lines]
    if rec.setups:  # issue 17: the changes that fit here, before more machines
        out += ["", HEADING.get(lang) + pick(lang, ":", "：")]
        out += [f"  {k}. {setup_line(o, lang)}" for k, o in enumerate(rec.setups, 1)]
    if rec.pitfalls:
        out += ["", pick(lang, "Pitfalls:", "注意事项：")]
        for p in rec.pitfalls:
            sev = pick(lang, *SEVERITY_LABEL[p.severity])
            out.append(f"  [{sev}] {p.title.get(lang)} ({', '.join(p.sources)})")
            out.append("      " + pick(lang, "fix: ", "对策：") + p.remedy.get(lang))
    if rec.advice:
        out += ["", pick(lang, "Set-up:", "配置建议：")]
        out += [f"  - {a.text.get(lang)} ({', '.join(a.sources)})" for a in rec.advice]
    out += ["", pick(lang, "Why (rules that fired):", "依据（触发的规则）：")]
    for t in rec.trace:
        lost = pick(lang, f"  [overridden by {t.overridden_by}]",
                    f"  [被 {t.overridden_by} 覆盖]") if t.overridden_by else ""
        out.append(f"  {t.rule} [{', '.join(t.sources)}]{lost}")
    out += stale_lines(rec.costs, lang)  # catalog prices older than 12 months
    return "\n".join(out)


def render_markdown(rec: Recommendation, lang: str = "en") -> str:
    v = rec.verdict
    title = pick(lang, "GPU scaling recommendation", "多卡训练推荐报告")
    out = [f"# {title}", ""]
    if rec.summary:  # the answer in five lines, then everything behind it
        out += [f"- {line}" for line in summary_lines(rec.summary, lang)] + [""]
    out += [f"**{v.headline.get(lang)}**", ""]
    intro, lines = _numbers(rec, lang)
    out += [intro, ""] if intro else []  # a paragraph, not an empty bullet above its items
    out += [f"- {line}" for line in lines]
    if rec.setups:
        out += ["", "## " + HEADING.get(lang), ""]
        out += [f"{k}. {setup_line(o, lang)}" for k, o in enumerate(rec.setups, 1)]
    if rec.pitfalls:
        out += ["", "## " + pick(lang, "Pitfalls", "注意事项"), "",
                "| " + " | ".join(pick(lang, *h) for h in (
                    ("severity", "级别"), ("pitfall", "问题"), ("remedy", "对策"),
                    ("sources", "来源"))) + " |", "|---|---|---|---|"]
        for p in rec.pitfalls:
            out.append(f"| {pick(lang, *SEVERITY_LABEL[p.severity])} | {p.title.get(lang)} | "
                       f"{p.remedy.get(lang)} | {', '.join(p.sources)} |")
    if rec.advice:
        out += ["", "## " + pick(lang, "Set-up", "配置建议"), ""]
        out += [f"- {a.text.get(lang)} ({', '.join(a.sources)})" for a in rec.advice]
    out += stale_lines(rec.costs, lang, "- ")  # before the Why table, which ends the page
    out += ["", "## " + pick(lang, "Why", "依据"), "",
            "| " + pick(lang, "rule | sources | conclusion", "规则 | 来源 | 结论") + " |",
            "|---|---|---|"]
    for t in rec.trace:
        conclusion = conclusion_text(t.conclusion, lang)  # labels, never raw key=value
        if t.overridden_by:
            conclusion += pick(lang, f" (overridden by {t.overridden_by})",
                               f"（被 {t.overridden_by} 覆盖）")
        out.append(f"| `{t.rule}` | {', '.join(t.sources)} | {conclusion} |")
    return "\n".join(out)
