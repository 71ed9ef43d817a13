"""A cost report as plain text, in English or Simplified Chinese."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from advisor.catalog import CatalogWarning, override_path
from advisor.costs.breakeven import breakeven_month_limit
from advisor.costs.money import gpus_text, money, unit_price
from advisor.costs.result import CostReport
from advisor.text.i18n import pick
from advisor.text.width import display_width, pad

_MODE = {"own": ("own hardware", "自建"), "cloud": ("cloud rental", "云实例租用"),
         "compare": ("cheaper of own and cloud", "自建与云实例租用取便宜者")}
NOT_APPLICABLE = "—"  # a value for a GPU count that cannot run the job
_money = money


def _mark(report: CostReport, i: int) -> str:
    """"†" for a count that fits but cannot happen as planned: it cannot do the month's runs
    on one set of it, or misses the deadline (review 10: such rows carried the best net
    value unmarked)."""
    late = bool(report.meets_deadline) and not report.meets_deadline[i]
    short = bool(report.keeps_schedule) and not report.keeps_schedule[i]
    return "†" if late or short else ""


def render_text(report: CostReport, lang: str = "en",
                warnings: Sequence[CatalogWarning] = ()) -> str:
    cur = report.currency
    mode_en, mode_zh = _MODE.get(report.mode, (report.mode, report.mode))
    lines = [pick(lang, f"Costs ({mode_en}, {cur})", f"成本（{mode_zh}，{cur}）"), ""]
    head = pick(lang,
                ["GPUs", "h/run", "cost/run", "cost/month", "time value/mo", "net value/mo"],
                ["卡数", "小时/次", "每次成本", "每月成本", "每月时间价值", "每月净收益"])
    # Compare mode prices each count on the cheaper side: say which (review 5, item 2).
    sides = report.deployment if report.mode == "compare" and \
        len(report.deployment) == len(report.gpus) else []
    if sides:
        head = [*head[:2], pick(lang, "as", "按"), *head[2:]]
    rows = [head]
    fits = report.fits or [True] * len(report.gpus)
    # The signed value (negative: time lost) is what the net value adds up from (item 13).
    values = report.time_value_per_month \
        if len(report.time_value_per_month) == len(report.gpus) \
        else report.time_saved_value_per_month
    for i, n in enumerate(report.gpus):
        # A count that does not fit cannot run: its time and net value do not apply.
        time_value, net = (_money(values[i], cur),
                           _money(report.net_value_per_month[i], cur)) if fits[i] else \
            (NOT_APPLICABLE, NOT_APPLICABLE)
        priced = report.mode_priced  # renting with no cloud price: no cost to show
        side = [_SIDE[sides[i]][lang == "zh"]] if sides else []
        rows.append([f"{n}*" if not fits[i] else f"{n}{_mark(report, i)}",
                     f"{report.run_hours[i]:.2f}", *side,
                     _money(report.cost_per_run[i], cur) if priced else NOT_APPLICABLE,
                     _money(report.cost_per_month[i], cur) if priced else NOT_APPLICABLE,
                     time_value, net if priced else NOT_APPLICABLE])
    widths = [max(display_width(r[c]) for r in rows) for c in range(len(head))]
    for r in rows:
        lines.append("  ".join(pad(cell, widths[c]) for c, cell in enumerate(r)))
    if not all(fits):
        lines.append(pick(lang, f"* does not fit in GPU memory: cannot run, never recommended "
                                f"({NOT_APPLICABLE} = not applicable)",
                          f"* 显存放不下：无法运行，不会被推荐（{NOT_APPLICABLE} 表示不适用）"))
    if any(_mark(report, i) for i, ok in enumerate(fits) if ok):
        lines.append(pick(
            lang, "† cannot happen as planned: one set of it does not do the month's runs in "
                  "730 hours, or misses the deadline (the first move counted); never the best "
                  "value while a count can",
            "† 按计划无法实现：一套硬件在一个月的 730 小时内做不完每月的训练，或赶不上截止时间"
            "（计入首次迁移）；只要有卡数能做到，就不会是性价比最高的"))
    lines.extend(_table_notes(report, lang, values, fits, bool(sides)))
    lines.append("")
    if not report.mode_priced:
        lines.append(pick(lang, "Best value: unknown (no cloud price for this GPU)",
                          "性价比最高：未知（没有这款显卡的云报价）"))
    elif report.best_value_gpus is None:  # review 2, item 1: no row that cannot run is "best"
        lines.append(pick(lang, "Best value: none (no GPU count here can run this job)",
                          "性价比最高：无（这里没有任何卡数能运行此任务）"))
    elif all(_mark(report, i) for i, ok in enumerate(fits) if ok):  # review 11
        lines.append(pick(lang, f"Best value: {gpus_text(report.best_value_gpus, lang)}, though "
                                "no count here can happen as planned (†)",
                          f"性价比最高：{gpus_text(report.best_value_gpus, lang)}，"
                          "但这里没有任何卡数能按计划实现（†）"))
    else:
        lines.append(pick(lang, f"Best value: {gpus_text(report.best_value_gpus, lang)}",
                          f"性价比最高：{gpus_text(report.best_value_gpus, lang)}"))
    if report.deadline_gpus is not None:
        lines.append(pick(lang, f"Cheapest setup that meets the deadline: "
                                f"{gpus_text(report.deadline_gpus, lang)}",
                          f"能赶上截止时间的最便宜配置：{gpus_text(report.deadline_gpus, lang)}"))
    lines.extend(_buy_vs_rent(report, lang))
    lines.extend(_prices(report, lang))
    if report.assumptions:
        lines.append("")
        lines.append(pick(lang, "Assumptions:", "假设："))
        notes = [t.get(lang) for t in report.assumption_texts] or report.assumptions
        lines.extend(f"  - {note}" for note in notes)
    lines.extend(stale_lines(report, lang))
    if warnings:
        lines.append("")
        lines.append(pick(lang, "Catalog override problems:", "目录覆盖文件的问题："))
        lines.extend(f"  - {w.render(lang)}" for w in warnings)
    lines.extend(_override_hint(lang, warnings))
    return "\n".join(lines) + "\n"


_SIDE = {"own": ("own", "自建"), "cloud": ("cloud", "租用")}


def stale_lines(report: CostReport, lang: str, bullet: str = "  - ") -> list[str]:
    """The warning that catalog prices used are older than 12 months (or undated)."""
    if not report.price_warnings:
        return []
    return ["", pick(lang, "Warning: prices older than 12 months (check them):",
                     "提醒：以下价格已超过 12 个月（请核实）："),
            *(bullet + w.get(lang) for w in report.price_warnings)]


def _table_notes(report: CostReport, lang: str, values: Sequence[float],
                 fits: Sequence[bool], sides: bool) -> list[str]:
    """How the columns add up, when it is not plain: a negative time value (slower than the
    baseline), and which side each row is priced on in compare mode."""
    out = []
    if sides:
        out.append(pick(lang, "as: the side each row is priced on, the cheaper of owning and "
                              "renting at that count",
                        "按：每行按哪一方计价，即该卡数下自建与租用中更便宜者"))
    lost = any(v < 0 and ok for v, ok in zip(values, fits, strict=False))
    base = report.baseline_cost_per_month
    if lost and base is not None and report.mode_priced:
        out.append(pick(
            lang, f"net value/mo = time value/mo - (cost/month - {_money(base, report.currency)}"
                  ", the baseline's); a negative time value is time lost: slower than the "
                  "baseline",
            f"每月净收益 = 每月时间价值 -（每月成本 - 基准的 {_money(base, report.currency)}）；"
            "时间价值为负表示比基准更慢、损失了时间"))
    return out


def _override_hint(lang: str, warnings: Sequence[CatalogWarning],
                   path: Path | None = None) -> list[str]:
    """Where the user's own prices go: a hint when there is no file yet, a note when it was
    read without problems; nothing when it had problems (the warnings above say so)."""
    if warnings:
        return []
    path = path or override_path()
    if path.is_file():
        return ["", pick(lang, f"Your own prices from {path} override the catalog.",
                         f"已用 {path} 中你自己的价格覆盖目录。")]
    return ["", pick(lang, f"To use your own prices, put them in {path}.",
                     f"如需使用自己的价格，请写入 {path}。")]


def _buy_vs_rent(report: CostReport, lang: str) -> list[str]:
    bvr = report.buy_vs_rent
    out = [""]
    if report.best_value_gpus is None or bvr.gpus < 1:
        out.append(pick(lang, "Buy vs rent: not compared (no GPU count here can run this job).",
                        "自建还是云实例租用：未比较（这里没有任何卡数能运行此任务）。"))
        return out
    if not (report.own_priced and report.cloud_priced):
        out.append(pick(lang, "Buy vs rent: not compared (a price is missing).",
                        "自建还是云实例租用：缺少价格，未比较。"))
        return out
    gpus = gpus_text(bvr.gpus, lang)
    out.append(pick(lang, f"Buy vs rent ({gpus}):", f"自建还是云实例租用（{gpus}）："))
    months = report.priced_with.get("horizon_months", 0)
    if bvr.breakeven_months is None:
        limit = breakeven_month_limit(months) if months > 0 else 0
        out.append(pick(lang, f"  at your usage, owning does not pay off within {limit:g} months:"
                              " renting stays cheaper",
                        f"  按你的用量，自建在 {limit:g} 个月内无法回本：云实例租用更便宜"))
    elif bvr.breakeven_months < 0.05:  # cards already owned (price 0): nothing to pay back
        out.append(pick(lang, "  owning costs nothing up front here (the hardware is already "
                              "paid for): it is cheaper from the first month",
                        "  这里自建没有前期投入（硬件已经买好）：从第一个月起就更便宜"))
    else:
        out.append(pick(lang, f"  at your usage, owning pays off after "
                              f"{bvr.breakeven_months:.1f} months",
                        f"  按你的用量，自建 {bvr.breakeven_months:.1f} 个月后回本"))
    if bvr.breakeven_months is not None and bvr.breakeven_months < 0.05:
        return out  # nothing to pay back: no hours threshold to state
    if bvr.breakeven_hours_per_month is None:
        # None: owning would need more hours than a month has (or costs more per hour).
        out.append(pick(lang, f"  even training around the clock, owning does not pay off "
                              f"within {months:g} months",
                        f"  即使全天候训练，{months:g} 个月内自建也无法回本"))
    else:
        h = bvr.breakeven_hours_per_month
        out.append(pick(lang, f"  over {months:g} months, owning wins above {h:,.0f} training "
                              "hours a month",
                        f"  按 {months:g} 个月计，每月训练超过 {h:,.0f} 小时则自建更划算"))
    return out


_PRICE_LABELS = {
    "gpu_price": ("GPU price (one card)", "显卡单价"),
    "machine_overhead_1gpu": ("one-GPU machine without the card", "单卡整机（不含显卡）"),
    "server_machine": ("one SXM server without the GPUs", "一台 SXM 服务器（不含显卡）"),
    "cloud_per_gpu_hour": ("cloud, per GPU-hour", "云实例租用（每卡时）"),
    "electricity_per_kwh": ("electricity, per kWh", "电费（每度）"),
    "engineer_day_rate": ("engineer day rate", "工程师日薪"),
    "value_per_day": ("value of a day saved", "省下一天的价值"),
}


def _prices(report: CostReport, lang: str) -> list[str]:
    out = ["", pick(lang, "Prices used:", "使用的价格：")]
    for key, (en, zh) in _PRICE_LABELS.items():
        if key == "machine_overhead_1gpu" and "server_machine" in report.priced_with:
            continue  # a server-class machine: its own price says it better
        if key in report.priced_with:
            text = unit_price(report.priced_with[key], report.currency)
            if key == "value_per_day" and report.priced_with[key] == 0:
                text += pick(lang, " (time saved is not counted as money)",
                             "（省下的时间不计为金钱）")
            out.append(f"  {pick(lang, en + ':', zh + '：')}{pick(lang, ' ', '')}{text}")
    days = report.priced_with.get("migration_days")
    if days is not None:
        extra = report.priced_with.get("migration_extra_days_machines", 0.0) or 0.0
        machines = extra > 0 and any(m > 0 for m in _several_machines(report))
        more_en = f" ({days + extra:g} on several machines)" if machines else ""
        more_zh = f"（多台机器 {days + extra:g} 个）" if machines else ""
        out.append(pick(lang, f"  one-off move to multi-GPU: {days:g} engineer-days{more_en}",
                        f"  一次性多卡迁移：{days:g} 个工程师日{more_zh}"))
    return out


def _several_machines(report: CostReport) -> list[float]:
    """For each count, what its move costs beyond the one-machine move's (positive where the
    count spans several machines and so pays the extra days, review 8: "2 engineer-days" was
    printed beside $1,800, three days' pay)."""
    base = report.priced_with.get("migration_days", 0.0) * \
        report.priced_with.get("engineer_day_rate", 0.0)
    runs = max(report.priced_with.get("runs_per_month", 0.0)
               * report.priced_with.get("horizon_months", 0.0), 1.0)
    return [m * runs - base - 1e-6 * max(base, 1.0) for m in report.migration_cost_per_run]
