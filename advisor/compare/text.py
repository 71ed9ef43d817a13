"""A comparison as plain text or Markdown, in English or Simplified Chinese.

Options are numbered; each shows the GPU counts that matter (on the front, the rule verdict's
own count, its smallest and largest), ``every_count`` shows all of them. The status column
says whether a point is on the Pareto front or which option and count dominate it.
"""

from __future__ import annotations

from advisor.compare.result import Comparison, OptionResult, Point, PointRef
from advisor.costs.money import money
from advisor.profile.labels import DEPLOYMENT
from advisor.text.i18n import Text, pick
from advisor.text.width import display_width, pad

NA = "—"
RATING = {"not_worth_it": ("not worth it", "不划算"), "optional": ("optional", "可选"),
          "worth_it": ("worth it", "划算"), "required": ("multi-GPU required", "必须上多卡")}
ANSWER = {"fastest": ("Fastest", "最快"), "cheapest": ("Cheapest a month", "每月最便宜"),
          "deadline": ("Meets the deadline, cheapest", "赶得上截止时间且最便宜"),
          "budget": ("Fastest within the budget", "预算内最快"),
          "net_value": ("Best net value", "净收益最高")}
# the answers' titles where a page names each answer on its own line (the PDF report, the
# plots' descriptions for screen readers)
ANSWER_TITLE = {"fastest": Text(en="Fastest", zh="最快"),
                "cheapest": Text(en="Cheapest a month", zh="每月最便宜"),
                "deadline": Text(en="Meets the deadline, cheapest", zh="赶得上截止时间且最便宜"),
                "budget": Text(en="Fastest within the monthly budget", zh="每月预算内最快"),
                "net_value": Text(en="Best net value", zh="净收益最高")}


def _numbers(result: Comparison) -> dict[str, int]:
    return {o.id: i for i, o in enumerate(result.options, start=1)}


def _ref(ref: PointRef | None, numbers: dict[str, int], lang: str) -> str:
    if ref is None:
        return NA
    return pick(lang, f"[{numbers[ref.option]}] at {ref.gpus}",
                f"[{numbers[ref.option]}] {ref.gpus} 卡")


def round_count(gpus: int, per_machine: int) -> bool:
    """A count a setup is built at, as ``scaling.default_gpu_counts`` projects it (issue 29:
    no odd cross-node counts): any count inside one machine, beyond it a power of two or whole
    machines (review 11: 3 cards of a 4-card workstation, faster and cheaper than 4 on its own
    costs page, was no candidate)."""
    per_machine = max(per_machine, 1)
    return gpus <= per_machine or gpus & (gpus - 1) == 0 or gpus % per_machine == 0


def answered_counts(result: Comparison, option: OptionResult) -> frozenset[int]:
    """The counts of ``option`` that answer one of the comparison's questions."""
    return frozenset(a.point.gpus for a in result.answers
                     if a.point is not None and a.point.option == option.id)


def shown_points(option: OptionResult, every_count: bool = False,
                 answers: frozenset[int] = frozenset()) -> list[Point]:
    """The handful of counts worth a row (issue 29): the option's verdict, the counts that
    answer a question (``answers``), and the smallest and largest of its counts on the front
    that a setup is built at; an option with none of those shows its verdict's count alone, or
    its largest built count that runs, or its first. ``every_count``: every count."""
    if every_count:
        return option.points
    verdict = option.verdict.gpus if option.verdict is not None else None
    front = [p.gpus for p in option.points
             if p.on_front and round_count(p.gpus, option.gpus_per_node)]
    keep = {g for g in (verdict, *answers) if g is not None}
    if front:
        keep |= {front[0], front[-1]}
    shown = [p for p in option.points if p.gpus in keep]
    built = [p for p in option.points if round_count(p.gpus, option.gpus_per_node)]
    # none of those: its largest count that runs, before a first count that may not (review
    # 10: an 8-GPU rental whose verdict rests on two machines read "1 GPU: does not fit")
    running = [p for p in built if p.fits and p.priced]
    return shown or running[-1:] or built[:1] or option.points[:1]


def _status(p: Point, numbers: dict[str, int], lang: str) -> str:
    if not p.fits:
        return pick(lang, "does not fit", "显存放不下")
    if not p.priced:
        return pick(lang, "no price", "无价格")
    if p.keeps_schedule is False:  # issue 29: shown, never an answer
        return pick(lang, "cannot do the month's runs", "做不完每月的训练")
    if p.on_front:
        return pick(lang, "★ front", "★ 前沿")
    if p.same_as is not None:
        return pick(lang, f"same as {_ref(p.same_as, numbers, lang)}",
                    f"同 {_ref(p.same_as, numbers, lang)}")
    return pick(lang, f"dominated by {_ref(p.dominated_by, numbers, lang)}",
                f"劣于 {_ref(p.dominated_by, numbers, lang)}")


def _breakeven(p: Point, lang: str) -> str:
    if p.breakeven_hours_per_month is None:
        return NA
    return pick(lang, f"{p.breakeven_hours_per_month:,.0f} h/mo",
                f"每月 {p.breakeven_hours_per_month:,.0f} 小时")


def rows(result: Comparison, lang: str, every_count: bool = False) -> list[list[str]]:
    numbers = _numbers(result)
    cur = result.currency
    head = pick(lang, ["#", "option", "GPUs", "speed-up (band)", "h/run", "runs/mo (max)",
                       "cost/run", "cost/month", "own pays above", "status"],
                ["#", "选项", "卡数", "加速比（区间）", "小时/次", "每月可跑", "每次成本", "每月成本",
                 "自建回本线", "状态"])
    out = [head]
    for option in result.options:
        first = True
        for p in shown_points(option, every_count, answered_counts(result, option)):
            fits = p.fits
            out.append([
                f"[{numbers[option.id]}]" if first else "",
                _name(option, lang) if first else "",
                str(p.gpus),
                f"{p.speedup:.2f}x ({p.speedup_low:.2f}-{p.speedup_high:.2f})" if fits else NA,
                _hours_cell(p.run_hours),
                _runs_cell(p.runs_per_month_capacity) if fits else NA,
                money(p.cost_per_run, cur) if fits and p.priced else NA,
                money(p.cost_per_month, cur) if fits and p.priced else NA,
                _breakeven(p, lang) if fits else NA,
                _status(p, numbers, lang)])
            first = False
    return out


def _name(option: OptionResult, lang: str) -> str:
    """The option's name, with the setting change its figures carry (issue 29)."""
    if option.change is None:
        return option.label.get(lang)
    return f"{option.label.get(lang)} + {option.change.get(lang)}"


def _verdict_lines(result: Comparison, lang: str) -> list[str]:
    numbers = _numbers(result)
    out = []
    for option in result.options:
        v = option.verdict
        if v is None:
            continue
        rating = pick(lang, *RATING[v.rating]) if v.runnable else \
            pick(lang, "cannot run", "跑不了")
        where = DEPLOYMENT[v.deployment].get(lang)
        line = pick(lang, f"  [{numbers[option.id]}] {rating}: {v.gpus} GPU"
                          f"{'s' if v.gpus != 1 else ''}, {where}",
                    f"  [{numbers[option.id]}] {rating}：{v.gpus} 卡，{where}")
        on = _rests_on(v, lang)
        if on:  # a setup change or a setup beyond the option: say which (review 3, item 9)
            line += pick(lang, f", on: {on}", f"，基于：{on}")
        if v.dominated_by is not None:
            line += pick(lang, f" (dominated by {_ref(v.dominated_by, numbers, lang)}: not "
                               "recommended)",
                         f"（劣于 {_ref(v.dominated_by, numbers, lang)}：不推荐）")
        out.append(line)
    return out


def _hours_cell(hours: float) -> str:
    """Hours a run, never "0.0" for a run of minutes (review 5): two significant figures below
    a tenth of an hour."""
    return f"{hours:,.1f}" if hours >= 0.095 else f"{hours:.2g}"


def _runs_cell(runs: float) -> str:
    """Runs a month one set can do; "> 9,999" past that (review 5: a bare "9,999.0" read as a
    figure)."""
    return f"{runs:,.1f}" if runs < 9999 else "> 9,999"


def _rests_on(v, lang: str) -> str | None:
    """The setup an option's verdict rests on when it is not the option as it is, as its
    headline names it ("Rent 8 × A100 80GB PCIe (80 GB)", "With LoRA …"): an option that
    cannot run as given read "worth it: 8 GPUs, cloud rental" with no word of which GPUs."""
    if v.setup is None:
        return None
    text = v.headline.get(lang)
    mark = " — " if lang != "zh" else "——"
    return text.split(mark, 1)[0].strip() if mark in text else None


def _answer_lines(result: Comparison, lang: str) -> list[str]:
    numbers = _numbers(result)
    out = []
    for a in result.answers:
        title = pick(lang, *ANSWER[a.key])
        where = f"[{numbers[a.point.option]}] " if a.point else ""
        out.append(f"  {title}{pick(lang, ': ', '：')}{where}{a.why.get(lang)}")
    return out


def _header(result: Comparison, lang: str) -> list[str]:
    points = sum(len(o.points) for o in result.options)
    return [pick(lang, f"Compare setups (market {result.market}, {result.currency}): "
                       f"{len(result.options)} options, {points} setups",
                 f"配置对比（市场 {result.market}，{result.currency}）：{len(result.options)} "
                 f"个选项，{points} 种配置"),
            pick(lang, "Time per run against cost per month; ★ = on the Pareto front (nothing "
                       "is both faster and cheaper).",
                 "每次训练时间对比每月成本；★ = 在帕累托前沿上（没有既更快又更便宜的选项）。")]


def render_text(result: Comparison, lang: str = "en", every_count: bool = False) -> str:
    table = rows(result, lang, every_count)
    widths = [max(display_width(r[c]) for r in table) for c in range(len(table[0]))]
    lines = [*_header(result, lang), ""]
    lines += ["  ".join(pad(cell, widths[c]) for c, cell in enumerate(r)).rstrip()
              for r in table]
    lines += ["", pick(lang, "Answers:", "结论："), *_answer_lines(result, lang)]
    verdicts = _verdict_lines(result, lang)
    if verdicts:
        lines += ["", pick(lang, "Each option's verdict (the same rules as recommend):",
                           "各选项的结论（与 recommend 相同的规则）："), *verdicts]
    lines += _tail(result, lang, "  - ")
    return "\n".join(lines) + "\n"


def _tail(result: Comparison, lang: str, bullet: str) -> list[str]:
    out: list[str] = []
    # each said once (one offer may back two options: the machine as the user's, and twice it)
    notes = list(dict.fromkeys([n.get(lang) for o in result.options for n in o.notes]
                               + [n.get(lang) for n in result.notes]))
    if notes:
        out += ["", pick(lang, "Notes:", "说明："), *(bullet + n for n in notes)]
    if result.price_warnings:
        out += ["", pick(lang, "Warning: prices older than 12 months (check them):",
                         "提醒：以下价格已超过 12 个月（请核实）："),
                *(bullet + w.get(lang) for w in result.price_warnings)]
    return out


def render_markdown(result: Comparison, lang: str = "en", every_count: bool = False) -> str:
    table = rows(result, lang, every_count)
    head, body = table[0], table[1:]
    out = ["# " + pick(lang, "Setups compared", "配置对比"), "", *_header(result, lang), "",
           "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(cell.replace("|", "\\|") for cell in r) + " |" for r in body]
    out += ["", "## " + pick(lang, "Answers", "结论"), ""]
    out += ["- " + line.strip() for line in _answer_lines(result, lang)]
    verdicts = _verdict_lines(result, lang)
    if verdicts:
        out += ["", "## " + pick(lang, "Each option's verdict", "各选项的结论"), ""]
        out += ["- " + line.strip() for line in verdicts]
    out += _tail(result, lang, "- ")
    return "\n".join(out) + "\n"
