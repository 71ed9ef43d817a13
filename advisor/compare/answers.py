"""What the comparison answers, each from the Pareto front of the points that can do the
month's runs (issue 29; a dominated point, or one that cannot keep the schedule, is never an
answer): the cheapest setup that meets the deadline, the fastest within the monthly budget,
the best net value when time has a value, and the fastest and the cheapest of all.

Ties go to the other axis (the cheapest of equally fast, the fastest of equally cheap), so an
answer is never a point another one beats on both. The fastest is the fastest that pays for
itself (its time saved worth its extra cost), never the fastest at any price."""

from __future__ import annotations

from collections.abc import Sequence

from advisor.compare.result import Answer, Point, PointRef
from advisor.costs.money import money
from advisor.text.i18n import Text
from advisor.verdict.headline import recounted

Entry = tuple[PointRef, Point]


def _label(entry: Entry, labels: dict[str, Text]) -> Text:
    return label_at(entry[0], labels)


def label_at(ref: PointRef, labels: dict[str, Text]) -> Text:
    """"<option> at N GPUs", "<option>，N 卡"; a rental's label at the point's count."""
    name = recounted(labels[ref.option], ref.gpus)
    gpus_en = "1 GPU" if ref.gpus == 1 else f"{ref.gpus} GPUs"
    gpus_zh = "单卡" if ref.gpus == 1 else f"{ref.gpus} 卡"
    return Text(en=f"{name.en} at {gpus_en}", zh=f"{name.zh}，{gpus_zh}")


def answers(front: Sequence[Entry], labels: dict[str, Text], currency: str, *,
            deadline_days: float | None, budget: float | None, valued: bool,
            baseline: Entry | None = None,
            meeting: Sequence[Entry] | None = None) -> list[Answer]:
    """``baseline``: what the net values are measured against (the comparison's baseline,
    the user's setup at its fewest GPUs that can run the job), named in the net value's
    answer, as each option's own verdict names its own (one GPU of that option).
    ``meeting``: the front of the points that meet the deadline (default: those of
    ``front``), where the deadline's answer is sought."""
    out: list[Answer] = []
    if not front:
        none = Text(en="no option can run this job at a known price",
                    zh="没有哪个选项能以已知价格运行此任务")
        return [Answer(key="fastest", point=None, why=none),
                Answer(key="cheapest", point=None, why=none)]
    if all(e[1].keeps_schedule is False for e in front):  # issue 29: say so, never imply it
        none = Text(en="no option can do the month's runs on one set of its hardware",
                    zh="没有哪个选项能用一套硬件做完每月的训练")
        return [Answer(key="fastest", point=None, why=none),
                Answer(key="cheapest", point=None, why=none)]
    cheapest = min(front, key=lambda e: (e[1].cost_per_month, e[1].run_hours))
    out.append(_fastest(front, labels, currency, valued, deadline_days is not None,
                        _against(baseline, labels)))
    out.append(Answer(key="cheapest", point=cheapest[0], why=_says(
        cheapest, labels, currency, "the cheapest a month", "每月最便宜")))
    if deadline_days is not None:
        meeting = [e for e in (front if meeting is None else meeting) if e[1].meets_deadline]
        if meeting:
            best = min(meeting, key=lambda e: (e[1].cost_per_month, e[1].run_hours))
            out.append(Answer(key="deadline", point=best[0], why=_says(
                best, labels, currency, f"the cheapest that meets the {deadline_days:g}-day "
                                        "deadline", f"能赶上 {deadline_days:g} 天截止时间的最便宜配置")))
        else:
            out.append(Answer(key="deadline", point=None, why=Text(
                en=f"no option finishes the runs due before the {deadline_days:g}-day deadline",
                zh=f"没有哪个选项能在 {deadline_days:g} 天的截止时间前完成应跑的训练")))
    if budget is not None:
        # with a deadline, what meets it too (as recommend weighs the budget: a user review
        # found "Fastest within the budget" at a setup that misses the deadline)
        within = [e for e in front if e[1].within_budget
                  and (deadline_days is None or e[1].meets_deadline)]
        if within:
            best = min(within, key=lambda e: (e[1].run_hours, e[1].cost_per_month))
            out.append(Answer(key="budget", point=best[0], why=_says(
                best, labels, currency, f"the fastest within {money(budget, currency)} a month",
                f"每月 {money(budget, currency)} 预算内最快")))
        elif deadline_days is not None:
            out.append(Answer(key="budget", point=None, why=Text(
                en=f"no option that meets the {deadline_days:g}-day deadline costs "
                   f"{money(budget, currency)} a month or less",
                zh=f"能赶上 {deadline_days:g} 天截止时间的选项中，没有哪个每月花费不超过 "
                   f"{money(budget, currency)}")))
        else:
            out.append(Answer(key="budget", point=None, why=Text(
                en=f"no option costs {money(budget, currency)} a month or less",
                zh=f"没有哪个选项每月花费不超过 {money(budget, currency)}")))
    if valued:
        # with a deadline, only what meets it (its net value counts days saved that a run
        # past the deadline never gives: a 25.6-day run was "best" against 20 days)
        scored = [e for e in front if e[1].net_value_per_month is not None]
        # ... where one does: with none, the user's value of time still chooses (as the
        # answer does, decision.with_deadline: a user review found no best net value at all);
        # and within the monthly budget where one keeps to it (it named $346 against $150)
        meeting_too = [e for e in scored if e[1].meets_deadline is not False]
        if deadline_days is not None and meeting_too:
            scored = meeting_too
        within_too = [e for e in scored if e[1].within_budget is not False]
        if budget is not None and within_too:
            scored = within_too
        if scored:
            best = max(scored, key=lambda e: (round(e[1].net_value_per_month or 0.0, 6),
                                              -e[1].cost_per_month))
            value = money(best[1].net_value_per_month or 0.0, currency)
            base = _against(baseline, labels)
            out.append(Answer(key="net_value", point=best[0], why=_says(
                best, labels, currency, f"the best net value ({value} a month over {base.en}: "
                                        "time saved less the extra cost)",
                f"净收益最高（相对{base.zh}，每月 {value}：省下时间的价值减去多花的钱）")))
    return out


def _fastest(front: Sequence[Entry], labels: dict[str, Text], currency: str,
             valued: bool, deadline: bool = False, base: Text | None = None) -> Answer:
    """The fastest setup worth acting on (issue 29: never a million a month for a run the
    user values at nothing): the fastest whose time saved pays for its extra cost, when a day
    saved has a value; with none, no answer (the budget's answer is the fastest within it)."""
    if not valued and deadline:  # the deadline's answer is the one that counts time
        return Answer(key="fastest", point=None, why=Text(
            en="none: beyond meeting the deadline, time saved counts as nothing in this "
               "profile (set economics.value_per_day to value each day saved)",
            zh="无：除了赶上截止时间，此配置中省下的时间不计价值（设置 economics.value_per_day "
               "为每省一天定价）"))
    if not valued:
        return Answer(key="fastest", point=None, why=Text(
            en="none: time saved counts as nothing in this profile, so being faster pays for "
               "nothing (set economics.value_per_day, or economics.monthly_budget for the "
               "fastest within a budget)",
            zh="无：此配置中省下的时间不计价值，更快并不划算（设置 economics.value_per_day，"
               "或设置 economics.monthly_budget 查看预算内最快的配置）"))
    paying = [e for e in front if (e[1].net_value_per_month or 0.0) >= 0.0
              and e[1].net_value_per_month is not None]
    if not paying:
        return Answer(key="fastest", point=None, why=Text(
            en="none: no setup faster than the baseline saves time worth its extra cost",
            zh="无：没有哪个比基准更快的配置，省下的时间值得多花的钱"))
    best = min(paying, key=lambda e: (e[1].run_hours, e[1].cost_per_month))
    base = base or Text(en="the baseline", zh="基准配置")
    return Answer(key="fastest", point=best[0], why=_says(
        best, labels, currency, f"the fastest whose time saved over {base.en} pays for its "
                                "extra cost",
        f"相对{base.zh}，省下时间的价值足以抵消多花的钱的配置中最快的"))


def in_sentence(label: str) -> str:
    """An option's label inside a sentence: "your setup", "twice the machines", "rent 8 × ..."
    (a capital kept where the next letter is one too: "HGX")."""
    return label[0].lower() + label[1:] if label[1:2].islower() else label


def _against(entry: Entry | None, labels: dict[str, Text]) -> Text:
    """What net values are measured against, inside a sentence: "your setup (4 × RTX 4090,
    own) at 1 GPU", "你的配置（4 × RTX 4090，自建）的单卡"."""
    if entry is None:
        return Text(en="the baseline", zh="基准配置")
    return against(entry[0], labels[entry[0].option])


def against(ref: PointRef, name: Text) -> Text:
    """``name`` at ``ref``'s count inside a sentence: "your setup (4 × RTX 4090, own) at 1
    GPU", "你的配置（4 × RTX 4090，自建）的单卡"."""
    gpus_en = "1 GPU" if ref.gpus == 1 else f"{ref.gpus} GPUs"
    gpus_zh = "单卡" if ref.gpus == 1 else f" {ref.gpus} 卡"
    return Text(en=f"{in_sentence(name.en)} at {gpus_en}", zh=f"{name.zh}的{gpus_zh}")


def _says(entry: Entry, labels: dict[str, Text], currency: str, en: str, zh: str) -> Text:
    """"<option> at N GPUs: 7.8 h a run, ¥16,708 a month (<why>)"."""
    name = _label(entry, labels)
    p = entry[1]
    return Text(en=f"{name.en}: {p.run_hours:,.1f} h a run, "
                   f"{money(p.cost_per_month, currency)} a month ({en})",
                zh=f"{name.zh}：每次 {p.run_hours:,.1f} 小时，每月 "
                   f"{money(p.cost_per_month, currency)}（{zh}）")
