"""A cost report as plain text, in English or Simplified Chinese."""

from __future__ import annotations

from collections.abc import Sequence

from advisor.catalog import CatalogWarning
from advisor.costs.breakeven import HOURS_PER_MONTH
from advisor.costs.result import CostReport
from advisor.i18n import pick

_MODE = {"own": ("own hardware", "自建"), "cloud": ("cloud rental", "云上租用"),
         "compare": ("cheaper of own and cloud", "自建与租用取便宜者")}


def _money(value: float, currency: str) -> str:
    symbol = "¥" if currency == "CNY" else "$"
    sign = "-" if value < 0 else ""
    if abs(value) < 0.005:
        return f"{symbol}0"
    return f"{sign}{symbol}{abs(value):,.0f}" if abs(value) >= 100 else \
        f"{sign}{symbol}{abs(value):,.2f}"


def render_text(report: CostReport, lang: str = "en",
                warnings: Sequence[CatalogWarning] = ()) -> str:
    cur = report.currency
    mode_en, mode_zh = _MODE.get(report.mode, (report.mode, report.mode))
    lines = [pick(lang, f"Costs ({mode_en}, {cur})", f"成本（{mode_zh}，{cur}）"), ""]
    head = pick(lang,
                ["GPUs", "h/run", "cost/run", "cost/month", "time value/mo", "net value/mo"],
                ["卡数", "小时/次", "每次成本", "每月成本", "每月时间价值", "每月净收益"])
    rows = [head]
    fits = report.fits or [True] * len(report.gpus)
    for i, n in enumerate(report.gpus):
        rows.append([str(n) if fits[i] else f"{n}*", f"{report.run_hours[i]:.2f}", _money(report.cost_per_run[i], cur),
                     _money(report.cost_per_month[i], cur),
                     _money(report.time_saved_value_per_month[i], cur),
                     _money(report.net_value_per_month[i], cur)])
    widths = [max(_width(r[c]) for r in rows) for c in range(len(head))]
    for r in rows:
        lines.append("  ".join(_pad(cell, widths[c]) for c, cell in enumerate(r)))
    if not all(fits):
        lines.append(pick(lang, "* does not fit in GPU memory: never recommended",
                          "* 显存放不下：不会被推荐"))
    lines.append("")
    lines.append(pick(lang, f"Best value: {report.best_value_gpus} GPU(s)",
                      f"最划算：{report.best_value_gpus} 卡"))
    if report.deadline_gpus is not None:
        lines.append(pick(lang, f"Cheapest setup that meets the deadline: "
                                f"{report.deadline_gpus} GPU(s)",
                          f"能赶上截止时间的最便宜配置：{report.deadline_gpus} 卡"))
    lines.extend(_buy_vs_rent(report, lang))
    lines.extend(_prices(report, lang))
    if report.assumptions:
        lines.append("")
        lines.append(pick(lang, "Assumptions:", "假设："))
        notes = [t.get(lang) for t in report.assumption_texts] or report.assumptions
        lines.extend(f"  - {note}" for note in notes)
    if warnings:
        lines.append("")
        lines.append(pick(lang, "Catalog override problems:", "目录覆盖文件的问题："))
        lines.extend(f"  - {w.render(lang)}" for w in warnings)
    from advisor.catalog import override_path

    lines.append("")
    lines.append(pick(lang, f"Your own prices override the catalog from {override_path()}",
                      f"可在 {override_path()} 中用自己的价格覆盖目录"))
    return "\n".join(lines) + "\n"


def _buy_vs_rent(report: CostReport, lang: str) -> list[str]:
    bvr = report.buy_vs_rent
    out = [""]
    if not (report.own_priced and report.cloud_priced):
        out.append(pick(lang, "Buy vs rent: not compared (a price is missing).",
                        "买还是租：缺少价格，未比较。"))
        return out
    out.append(pick(lang, f"Buy vs rent ({bvr.gpus} GPU(s)):", f"买还是租（{bvr.gpus} 卡）："))
    if bvr.breakeven_months is None:
        out.append(pick(lang, "  at your usage, renting stays cheaper",
                        "  按你的用量，租用一直更便宜"))
    else:
        out.append(pick(lang, f"  owning pays off after {bvr.breakeven_months:.1f} months",
                        f"  自建在 {bvr.breakeven_months:.1f} 个月后回本"))
    if bvr.breakeven_hours_per_month is not None:
        h = bvr.breakeven_hours_per_month
        months = report.priced_with.get("horizon_months", 0)
        if h > HOURS_PER_MONTH:
            out.append(pick(lang, f"  even training around the clock, owning does not pay off "
                                  f"within {months:g} months",
                            f"  即使全天候训练，{months:g} 个月内自建也无法回本"))
            return out
        out.append(pick(lang, f"  over {months:g} months, owning wins above {h:,.0f} training "
                              "hours a month",
                        f"  按 {months:g} 个月计，每月训练超过 {h:,.0f} 小时则自建更划算"))
    return out


_PRICE_LABELS = {
    "gpu_price": ("GPU price (one card)", "显卡单价"),
    "machine_overhead_1gpu": ("one-GPU machine without the card", "单卡整机（不含显卡）"),
    "cloud_per_gpu_hour": ("cloud, per GPU-hour", "云上每卡时"),
    "electricity_per_kwh": ("electricity, per kWh", "电价（每度）"),
    "engineer_day_rate": ("engineer day rate", "工程师日薪"),
    "value_per_day": ("value of a day saved", "省下一天的价值"),
}


def _prices(report: CostReport, lang: str) -> list[str]:
    out = ["", pick(lang, "Prices used:", "使用的价格：")]
    for key, (en, zh) in _PRICE_LABELS.items():
        if key in report.priced_with:
            value = report.priced_with[key]
            text = _money(value, report.currency) if value >= 1 else \
                f"{value:.3f} {report.currency}"
            out.append(f"  {pick(lang, en + ':', zh + '：')} {text}")
    days = report.priced_with.get("migration_days")
    if days is not None:
        out.append(pick(lang, f"  one-off move to multi-GPU: {days:g} engineer-days",
                        f"  一次性多卡迁移：{days:g} 个工程师日"))
    return out


def _width(text: str) -> int:
    # CJK characters take two columns in a terminal.
    return sum(2 if ord(ch) > 0x2E80 else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))
