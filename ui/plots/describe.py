"""What each plot shows, in words, for a screen reader (review D6): its key numbers as one
accessible description in the UI language.

A plot draws its numbers as a picture, which a screen reader cannot read; the tab's name
("Speed-up") says nothing of the curve. These sentences give the speed-up and its band at each
count, the recommended count, the cost at the answer's count, the break-even month and the
compare chart's front and answers. Every number is written the same way in both languages
(the language never changes a number); only the words around it differ.
"""

from __future__ import annotations

from typing import Any

from advisor.compare.text import ANSWER_TITLE
from advisor.costs.money import money
from advisor.text.i18n import Text, pick

_SPEEDUP = Text(en="Projected speed-up against one GPU: {points}.",
                zh="相对单卡的预计加速比：{points}。")
_POINT = Text(en="{gpus} {value}× (likely {low}–{high}×)", zh="{gpus} {value}×（可能 {low}–{high}×）")
_POINT_NO_FIT = Text(en="{gpus} does not fit in memory", zh="{gpus} 显存放不下")
_RECOMMENDED = Text(en="Recommended: {gpus}.", zh="推荐：{gpus}。")
_RECOMMENDED_BEYOND = Text(en="Recommended: {gpus}, beyond this chart.",
                           zh="推荐：{gpus}，超出本图范围。")
_NOTHING_RUNS = Text(en="No GPU count considered can run this job.",
                     zh="所考虑的GPU数量都无法运行此任务。")
_COST_AT = Text(en="Cost at {gpus}: {run} a run, {month} a month.",
                zh="{gpus}的费用：每次运行 {run}，每月 {month}。")
_COST_NO_FIT = Text(en="At {gpus} the model does not fit in memory.",
                    zh="{gpus}时显存放不下。")
_VALUE_AT = Text(en="Value of the time saved at {gpus}: {value} a month.",
                 zh="{gpus}节省的时间每月价值 {value}。")
_BEST = Text(en="Best value: {gpus}, {month} a month.", zh="最具性价比：{gpus}，每月 {month}。")
_CHEAPEST = Text(en="Cheapest: {gpus}, {month} a month (time not valued).",
                 zh="最便宜：{gpus}，每月 {month}（未计时间价值）。")
_UNPRICED = Text(en="No cloud price is known for this GPU, so renting it cannot be costed.",
                 zh="此GPU没有已知的云端价格，无法计算租用费用。")
_BVR = Text(en="Buy vs rent at {gpus} over {months} months: owning costs {own} in all, "
               "renting {cloud}.",
            zh="{gpus}买与租对比，{months} 个月：买共计 {own}，租共计 {cloud}。")
_BREAKEVEN = Text(en="Break-even at month {month}: owning is cheaper after it.",
                  zh="第 {month} 个月回本：此后买更划算。")
_NO_BREAKEVEN = Text(en="No break-even in this period.", zh="此期间内无法回本。")
_NOT_COMPARED = Text(en="Buy vs rent not compared: a price is missing.",
                     zh="未比较买与租：缺少价格。")
_COMPARE = Text(en="Time per run against cost per month, {options} options, {points} setups.",
                zh="每次运行时间与每月费用对比，{options} 个选项，{points} 个配置。")
_FRONT = Text(en="Pareto front: {points}.", zh="帕累托前沿：{points}。")
_FRONT_POINT = Text(en="{ref}: {hours} h a run, {month} a month",
                    zh="{ref}：每次运行 {hours} 小时，每月 {month}")
_ANSWER = Text(en="{title}: {ref}.", zh="{title}：{ref}。")
_NO_ANSWER = Text(en="{title}: none.", zh="{title}：无。")
_REF = Text(en="#{number} at {gpus}", zh="#{number} {gpus}")
_COMPARE_EMPTY = Text(en="No setup compared can run this job at a known price.",
                      zh="所对比的配置都无法以已知价格运行此任务。")


def gpus(count: int, lang: str) -> str:
    """"1 GPU" / "4 GPUs", "1 卡" / "4 卡": the count as a digit in both languages."""
    return pick(lang, f"{count} GPU" if count == 1 else f"{count} GPUs", f"{count} 卡")


def _join(parts: list[str], lang: str) -> str:
    return pick(lang, "; ", "；").join(parts)


def _sentences(parts: list[str], lang: str) -> str:
    return pick(lang, " ", "").join(p for p in parts if p)


def speedup_description(rec: Any, lang: str) -> str:
    """The speed-up and its band at every count drawn, and the recommended count."""
    projection = rec.projection
    fits = list(projection.fits)
    points = []
    for i, n in enumerate(projection.gpus):
        if len(fits) == len(projection.gpus) and not fits[i]:
            points.append(_POINT_NO_FIT.get(lang).format(gpus=gpus(n, lang)))
            continue
        points.append(_POINT.get(lang).format(
            gpus=gpus(n, lang), value=f"{projection.speedup[i]:.2f}",
            low=f"{projection.speedup_low[i]:.2f}", high=f"{projection.speedup_high[i]:.2f}"))
    parts = [_SPEEDUP.get(lang).format(points=_join(points, lang))]
    if not bool(getattr(rec.verdict, "runnable", True)):
        parts.append(_NOTHING_RUNS.get(lang))
    else:
        chosen = int(rec.verdict.gpus)
        beyond = bool(projection.gpus) and chosen > max(projection.gpus)
        parts.append((_RECOMMENDED_BEYOND if beyond else _RECOMMENDED).get(lang).format(
            gpus=gpus(chosen, lang)))
    return _sentences(parts, lang)


def _at(costs: Any, count: int) -> int | None:
    return costs.gpus.index(count) if count in costs.gpus else None


def _runs(costs: Any, index: int) -> bool:
    fits = list(getattr(costs, "fits", []) or [])
    return not (len(fits) == len(costs.gpus) and not fits[index])


def cost_description(rec: Any, lang: str) -> str:
    """The cost a run and a month at the recommended count, the value of the time saved there,
    and the best-value (or cheapest) count with its cost a month."""
    costs, cur = rec.costs, rec.costs.currency
    if not getattr(costs, "mode_priced", True):
        return _UNPRICED.get(lang)
    parts = []
    chosen = int(rec.verdict.gpus)
    index = _at(costs, chosen)
    if index is not None and bool(getattr(rec.verdict, "runnable", True)):
        if _runs(costs, index):
            parts.append(_COST_AT.get(lang).format(
                gpus=gpus(chosen, lang), run=money(costs.cost_per_run[index], cur),
                month=money(costs.cost_per_month[index], cur)))
            saved = list(getattr(costs, "time_saved_value_per_month", []) or [])
            if index < len(saved) and saved[index] > 0:
                parts.append(_VALUE_AT.get(lang).format(gpus=gpus(chosen, lang),
                                                        value=money(saved[index], cur)))
        else:
            parts.append(_COST_NO_FIT.get(lang).format(gpus=gpus(chosen, lang)))
    best = costs.best_value_gpus
    at = _at(costs, best) if best else None
    if at is not None and _runs(costs, at):
        marker = _BEST if getattr(costs, "time_value_given", True) else _CHEAPEST
        parts.append(marker.get(lang).format(gpus=gpus(best, lang),
                                             month=money(costs.cost_per_month[at], cur)))
    if not parts:
        parts.append(_NOTHING_RUNS.get(lang))
    return _sentences(parts, lang)


def buy_vs_rent_description(rec: Any, lang: str) -> str:
    """Owning against renting at the compared count: the totals at the end of the period and
    the break-even month, or that there is none."""
    from ui.plots.buy_vs_rent import compared

    costs = rec.costs
    bvr = costs.buy_vs_rent
    if not bvr.gpus:
        return _NOTHING_RUNS.get(lang)
    if not compared(costs):
        return _NOT_COMPARED.get(lang)
    parts = []
    if bvr.months and bvr.own_cumulative and bvr.cloud_cumulative:
        parts.append(_BVR.get(lang).format(
            gpus=gpus(bvr.gpus, lang), months=f"{float(bvr.months[-1]):g}",
            own=money(bvr.own_cumulative[-1], costs.currency),
            cloud=money(bvr.cloud_cumulative[-1], costs.currency)))
    if bvr.breakeven_months is not None:
        parts.append(_BREAKEVEN.get(lang).format(month=f"{float(bvr.breakeven_months):.1f}"))
    else:
        parts.append(_NO_BREAKEVEN.get(lang))
    return _sentences(parts, lang)


def compare_description(result: Any, lang: str) -> str:
    """The compare chart: how many options and setups, the front's points (time a run, cost a
    month) and each answer's point."""
    from ui.plots.compare import plotted

    points = plotted(result)
    if not points:
        return _COMPARE_EMPTY.get(lang)
    parts = [_COMPARE.get(lang).format(options=len(result.options), points=len(points))]
    front = sorted((p.run_hours, option_id, p) for option_id, p in points if p.on_front)
    parts.append(_FRONT.get(lang).format(points=_join([
        _FRONT_POINT.get(lang).format(ref=_ref(result, option_id, p.gpus, lang),
                                      hours=f"{p.run_hours:,.1f}",
                                      month=money(p.cost_per_month, result.currency))
        for _, option_id, p in front], lang)))
    for answer in result.answers:
        title = ANSWER_TITLE.get(answer.key)
        if title is None:
            continue
        if answer.point is None:
            parts.append(_NO_ANSWER.get(lang).format(title=title.get(lang)))
        else:
            parts.append(_ANSWER.get(lang).format(
                title=title.get(lang),
                ref=_ref(result, answer.point.option, answer.point.gpus, lang)))
    return _sentences(parts, lang)


def _ref(result: Any, option_id: str, count: int, lang: str) -> str:
    """"#3 at 4 GPUs": the option's number as the table's "#" column and the chart's labels
    write it, the count as a digit in both languages."""
    number = next(i for i, o in enumerate(result.options, start=1) if o.id == option_id)
    return _REF.get(lang).format(number=number, gpus=gpus(count, lang))
