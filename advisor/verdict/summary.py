"""The answer in five lines (issue 29): do this, why, what it costs, the main risk, the next
step. Every presenter opens with them (the CLI's default output, the wizard's verdict card,
the PDF's first page); the rest follows behind them (``--details``, the wizard's tabs, the
PDF's later pages). Made from the Recommendation alone, in both languages: the language
never changes a number."""

from __future__ import annotations

import re

from advisor.costs.money import gpus_text, money
from advisor.text.durations import duration
from advisor.text.i18n import Text
from advisor.verdict.result import Recommendation, SummaryLine

LABELS = {
    "do": Text(en="Do", zh="建议"),
    "why": Text(en="Why", zh="原因"),
    "cost": Text(en="Cost", zh="花费"),
    "risk": Text(en="Main risk", zh="主要风险"),
    "next": Text(en="Next", zh="下一步"),
}
KEYS = tuple(LABELS)
_SEVERITY = {"critical": 0, "warning": 1, "info": 2}
# says what the figures rest on, which the "do" line says (a critical one, a change of
# method, is a risk all the same)
NOT_RISKS = frozenset({"setup_change"})
# pitfalls that say the run may not happen at all: the main risk before others as grave
RUN_RISKS = frozenset({"memory_at_limit", "memory_near_fit", "memory_wall", "activation_memory",
                       "diffusion_memory"})


def five_lines(rec: Recommendation, answer: Text, why: Text) -> list[SummaryLine]:
    """The five lines of ``rec``: ``answer`` (what to do, the headline's first sentence) and
    ``why`` (the reason that decided it)."""
    return [SummaryLine(key="do", text=answer), SummaryLine(key="why", text=_first(why)),
            SummaryLine(key="cost", text=_cost(rec)), SummaryLine(key="risk", text=_risk(rec)),
            SummaryLine(key="next", text=_next(rec))]


def render(lines: list[SummaryLine], lang: str) -> list[str]:
    """"Do: …" one per line, labels in the language asked for."""
    colon = "：" if lang == "zh" else ": "
    return [f"{LABELS[line.key].get(lang)}{colon}{line.text.get(lang)}" for line in lines]


_EN_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9`(])")
_NOT_AN_END = ("et al.", "e.g.", "i.e.", "vs.", "approx.", "cf.")


def _first_en(text: str) -> str:
    """The first sentence: up to the first full stop that ends one (not "et al.")."""
    text = text.strip()
    for match in _EN_END.finditer(text):
        head = text[:match.start()]
        if not head.endswith(_NOT_AN_END):
            return head
    return text


def _first(text: Text) -> Text:
    """The first sentence of each language."""
    en = _first_en(text.en)
    zh = text.zh.strip()
    cut = zh.find("。")
    return Text(en=en, zh=zh[:cut + 1] if cut >= 0 else zh)


def _cost(rec: Recommendation) -> Text:
    v, pr, co = rec.verdict, rec.projection, rec.costs
    if not v.runnable or v.gpus not in pr.gpus:
        return Text(en="nothing to pay for: no setup evaluated can run it",
                    zh="无从花费：评估过的配置都跑不了")
    i = pr.at(v.gpus)
    hours_en, hours_zh = duration(pr.run_hours[i], "en"), duration(pr.run_hours[i], "zh")
    on_en, on_zh = gpus_text(v.gpus, "en"), gpus_text(v.gpus, "zh")
    if not co.mode_priced or v.gpus not in co.gpus:
        return Text(en=f"{hours_en} a run on {on_en}; no price known",
                    zh=f"{on_zh}每次 {hours_zh}；没有已知价格")
    k = co.gpus.index(v.gpus)
    run, month = money(co.cost_per_run[k], co.currency), money(co.cost_per_month[k], co.currency)
    side = co.deployment[k] if co.deployment and k < len(co.deployment) else co.mode
    how = Text(en="owned", zh="自建") if side == "own" else Text(en="rented", zh="租用")
    bought = co.capex[k] if side == "own" and k < len(co.capex) else 0.0
    if bought > 0:  # what is bought beyond what the user owns (issue 29: owned is sunk)
        spent = money(bought, co.currency)
        how = Text(en=f"own, buying {spent} of hardware", zh=f"自建，需购置 {spent} 的硬件")
    return Text(en=f"{hours_en} a run on {on_en} ({how.en}); {run} a run, {month} a month",
                zh=f"{on_zh}（{how.zh}）每次 {hours_zh}；每次 {run}，每月 {month}")


def _top(rec: Recommendation):
    """The gravest pitfall; of equal severity, one that may stop the run itself (out of
    memory) before one about its money (a review: "the move is charged at the default day
    rate" read as the main risk of a plan at 97 % of its card's memory)."""
    risks = [p for p in rec.pitfalls if p.id not in NOT_RISKS or p.severity == "critical"]
    return min(risks, key=lambda p: (_SEVERITY[p.severity], p.id not in RUN_RISKS)) \
        if risks else None


def _risk(rec: Recommendation) -> Text:
    top = _top(rec)
    if top is None:
        return Text(en="none found", zh="未发现")
    return top.title


def _next(rec: Recommendation) -> Text:
    applied = next((o for o in rec.setups if o.applied), None)
    if applied is not None and applied.kind in ("setting", "numerics", "method"):
        return Text(en=f"set {applied.change.en} in the profile, then train",
                    zh=f"在配置中设置 {applied.change.zh}，然后开始训练")
    top = _top(rec)
    if top is not None and top.remedy.en:
        return _first(top.remedy)
    return Text(en="run `gpu-advisor compare` to see the setups beside it",
                zh="运行 `gpu-advisor compare` 查看其他配置")
