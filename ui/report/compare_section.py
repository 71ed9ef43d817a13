"""Setups compared (``advisor.compare``): the chart of the wizard's compare page (time per run
against cost per month, the Pareto front drawn), a table of every option at the GPU count its
rule verdict picks, what dominates each dominated one, the answers, and the prices older than
a year. Every number is the comparison's own."""

from __future__ import annotations

from typing import Any

from advisor.compare.text import ANSWER_TITLE
from advisor.text.i18n import Text
from ui.report.formatting import esc, figure, hours, money, table
from ui.report.plot_images import PlotImage

H = Text(en="Setups compared", zh="配置对比")
INTRO = Text(en="Market {market}, prices in {currency}: your setup beside {count} other "
                "options (more of the same cards, the same GPUs rented, ready setups, your "
                "profile's alternatives), each at every GPU count it can have and priced as "
                "the recommendation prices yours. ★ = on the Pareto front: no option is both "
                "faster and cheaper.",
             zh="市场 {market}，价格以 {currency} 计：你的配置与另外 {count} 个选项（同款卡加量、租用同款卡、"
                "现成配置、配置文件中的备选方案）并列，每个选项覆盖它可能的所有卡数，计价方式与推荐报告相同。"
                "★ = 在帕累托前沿上：没有既更快又更便宜的选项。")
CAPTION = Text(en="Time per run against cost per month (log scales); labels: option number · "
                  "GPUs; the dashed line joins the Pareto front.",
               zh="每次训练时间对比每月成本（对数坐标）；标注为“选项编号·卡数”；虚线连接帕累托前沿。")
HEAD = Text(en="#|Option|GPUs (its verdict)|Time per run|Cost per month|Status",
            zh="#|选项|卡数（该选项的结论）|每次训练时间|每月成本|状态")
ANSWERS = Text(en="What the comparison answers", zh="对比的结论")
ANSWER = ANSWER_TITLE
FRONT = Text(en="★ on the front", zh="★ 前沿")
SAME = Text(en="same as {ref}", zh="同 {ref}")
DOMINATED = Text(en="dominated by {ref}", zh="劣于 {ref}")
NO_FIT = Text(en="does not fit", zh="显存放不下")
NO_PRICE = Text(en="no price", zh="无价格")
AT = Text(en="[{n}] at {gpus}", zh="[{n}] {gpus} 卡")
OLD = Text(en="Prices older than 12 months (check them)", zh="超过 12 个月的价格（请核实）")


def _ref(result: Any, ref: Any, lang: str) -> str:
    number_of = {o.id: i for i, o in enumerate(result.options, start=1)}
    return AT.get(lang).format(n=number_of[ref.option], gpus=ref.gpus)


def _status(result: Any, p: Any, lang: str) -> str:
    if not p.fits:
        return NO_FIT.get(lang)
    if not p.priced:
        return NO_PRICE.get(lang)
    if p.on_front:
        return FRONT.get(lang)
    if p.same_as is not None:
        return SAME.get(lang).format(ref=_ref(result, p.same_as, lang))
    if p.dominated_by is not None:
        return DOMINATED.get(lang).format(ref=_ref(result, p.dominated_by, lang))
    return "—"


def _point(option: Any) -> Any:
    """The option's point the table shows: the count its verdict picks, else its cheapest on
    the front, else its first."""
    if option.verdict is not None and option.point(option.verdict.gpus) is not None:
        return option.point(option.verdict.gpus)
    front = [p for p in option.points if p.on_front]
    return min(front, key=lambda p: p.cost_per_month) if front else option.points[0]


def _intro(result: Any, lang: str) -> str:
    return INTRO.get(lang).format(market=result.market, currency=result.currency,
                                  count=len(result.options) - 1)


def compare_html(result: Any | None, lang: str, images: dict[str, PlotImage]) -> str:
    if result is None:
        return ""
    cur = result.currency
    rows = []
    for n, option in enumerate(result.options, start=1):
        p = _point(option)
        ok = p.fits and p.priced
        cells = [str(n), esc(option.label.get(lang)), str(p.gpus),
                 esc(hours(p.run_hours, lang)),
                 esc(money(p.cost_per_month, cur)) if ok else "—",
                 esc(_status(result, p, lang))]
        rows.append([f"<b>{c}</b>" for c in cells] if p.on_front else cells)
    answers = "".join(f"<li><b>{esc(ANSWER[a.key].get(lang))}</b>"
                      f"{'：' if lang == 'zh' else ': '}{esc(a.why.get(lang))}</li>"
                      for a in result.answers)
    parts = [f'<h2 class="pagebreak">{esc(H.get(lang))}</h2>',
             f"<p>{esc(_intro(result, lang))}</p>",
             figure(images.get("compare"), CAPTION.get(lang)),
             table([esc(h) for h in HEAD.get(lang).split("|")], rows, numeric_from=2),
             f"<h3>{esc(ANSWERS.get(lang))}</h3><ul>{answers}</ul>"]
    if result.price_warnings:
        items = "".join(f"<li>{esc(w.get(lang))}</li>" for w in result.price_warnings)
        parts.append(f"<h3>{esc(OLD.get(lang))}</h3><ul>{items}</ul>")
    return "".join(parts)
