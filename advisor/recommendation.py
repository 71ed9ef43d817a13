"""``recommend(profile)``: projection + costs → facts → rules → a Recommendation that explains
every conclusion (the trace names each fired rule, its article facts and the values it read).

Two rule stages run on one fact set each: the *decide* rules choose the rating and the GPU
count; the *findings* rules, which also see the verdict, choose parallelism, framework and
deployment and add pitfalls and advice. Conflicts resolve by ``advisor.rulebase.policy``.
"""

from __future__ import annotations

from typing import Any

from advisor.costs import estimate_costs
from advisor.costs.result import CostReport
from advisor.engine import Firing, RuleEngine, default_engine
from advisor.facts import base_facts, verdict_facts
from advisor.i18n import Text
from advisor.profile import Profile
from advisor.recommendation_model import Advice, Pitfall, Recommendation, TraceEntry, Verdict
from advisor.rulebase.policy import decide, merge_pitfalls, pick_advice
from advisor.scaling import project
from advisor.scaling.result import Projection

RATING_LABEL = {  # the article's own words (glossary)
    "not_worth_it": Text(en="Not worth it", zh="不划算"),
    "optional": Text(en="Optional (a second GPU if you like)", zh="可选（2卡看心情）"),
    "worth_it": Text(en="Worth it", zh="划算"),
    "required": Text(en="Multi-GPU required", zh="必须上多卡"),
}
PARALLELISM_LABEL = {
    "data": Text(en="data parallel", zh="数据并行"),
    "zero": Text(en="ZeRO sharded data parallel", zh="ZeRO 分片数据并行"),
    "fsdp": Text(en="FSDP sharded data parallel", zh="FSDP 分片数据并行"),
    "tensor": Text(en="tensor (model) parallel", zh="模型并行（张量并行）"),
    "pipeline": Text(en="pipeline parallel", zh="流水线并行"),
    "hybrid": Text(en="hybrid parallel", zh="混合并行"),
}
FRAMEWORK_LABEL = {"ddp": "PyTorch DDP", "fsdp": "PyTorch FSDP", "deepspeed": "DeepSpeed",
                   "horovod": "Horovod", "none": ""}
DEPLOYMENT_LABEL = {
    "own": Text(en="own hardware", zh="自建"),
    "cloud": Text(en="cloud rental", zh="云实例租用"),
    "either": Text(en="own or rent", zh="自建或租用皆可"),
}


class RuleBaseIncomplete(RuntimeError):
    """No rule decided a slot every recommendation needs (a gap in rules/, not user input)."""


def recommend(profile: Profile, *, gpus: list[int] | None = None, hardware: Any | None = None,
              lang: str | None = None, engine: RuleEngine | None = None) -> Recommendation:
    """The full recommendation for ``profile``; ``gpus`` are the GPU counts to consider (one
    GPU is always added: every verdict is relative to it), ``hardware`` an imported
    ``HardwareDescription`` whose observations become pitfalls."""
    projection = project(profile, sorted(set(gpus) | {1}) if gpus else None)
    costs = estimate_costs(profile, projection, lang=lang)
    return recommend_from(profile, projection, costs, hardware=hardware, engine=engine)


def _projected_count(projection: Projection, wanted: int) -> int:
    """The largest projected GPU count not above ``wanted`` (the smallest one if none is)."""
    below = [n for n in projection.gpus if n <= wanted]
    return max(below) if below else min(projection.gpus)


def recommend_from(profile: Profile, projection: Projection, costs: CostReport, *,
                   hardware: Any | None = None,
                   engine: RuleEngine | None = None) -> Recommendation:
    """The recommendation from an existing projection and cost report."""
    engine = engine or default_engine()
    base = base_facts(profile, projection, costs, hardware)
    decided = engine.evaluate(base, "decide")
    verdict = decide(decided, ("rating", "gpus"))
    if "rating" not in verdict.values:
        raise RuleBaseIncomplete("no rule decided the rating")
    rating = verdict.values["rating"]
    wanted = max(int(verdict.values.get("gpus", 1)), verdict.gpus_at_least)
    n = _projected_count(projection, wanted)
    facts = verdict_facts(base, profile, projection, costs, rating, n, wanted)
    found = engine.evaluate(facts, "findings")
    setup = decide(found, ("parallelism", "framework", "deployment"))
    missing = [s for s in ("parallelism", "framework", "deployment") if s not in setup.values]
    if missing:
        raise RuleBaseIncomplete(f"no rule decided {', '.join(missing)}")
    nodes = int(facts["verdict_nodes"])
    # The headline gives the reason for the rating and, when another rule chose the count,
    # that rule's reason too.
    reasons = [next(f.rule for f in decided if f.rule.id == verdict.winners[slot])
               for slot in ("rating", "gpus") if slot in verdict.winners]
    if len(reasons) == 2 and reasons[0].id == reasons[1].id:
        reasons.pop()
    reason = _joined([r.render(r.message, facts) for r in reasons])
    result = Verdict(rating=rating, gpus=n, nodes=nodes, parallelism=setup.values["parallelism"],
                     framework=setup.values["framework"],
                     deployment=setup.values["deployment"],
                     headline=_headline(rating, n, nodes, setup.values, reason))
    overridden = {**verdict.overridden, **setup.overridden}
    return Recommendation(verdict=result, projection=projection, costs=costs,
                          pitfalls=_pitfalls(found, facts), advice=_advice(found, facts),
                          trace=_trace(decided, "decide", overridden, base)
                          + _trace(found, "findings", overridden, facts))


def _headline(rating: str, gpus: int, nodes: int, setup: dict[str, str], reason: Text) -> Text:
    label = RATING_LABEL[rating]
    machines_en = f" on {nodes} machines" if nodes > 1 else ""
    machines_zh = f"（{nodes} 台机器）" if nodes > 1 else ""
    if gpus == 1:
        how_en, how_zh = "1 GPU", "单卡"
    else:
        par, fw = PARALLELISM_LABEL[setup["parallelism"]], FRAMEWORK_LABEL[setup["framework"]]
        with_fw = f" with {fw}" if fw else ""
        how_en = f"{gpus} GPUs{machines_en}, {par.en}{with_fw}"
        how_zh = f"{gpus} 卡{machines_zh}，{par.zh}" + (f"（{fw}）" if fw else "")
    where = DEPLOYMENT_LABEL[setup["deployment"]]
    return Text(en=f"{label.en}: {how_en}; {where.en}. {reason.en}",
                zh=f"{label.zh}：{how_zh}；{where.zh}。{reason.zh}")


def _joined(texts: list[Text]) -> Text:
    en: list[str] = []
    zh: list[str] = []
    for text in texts:
        if text.en not in en:
            en.append(text.en)
        if text.zh not in zh:
            zh.append(text.zh)
    return Text(en=" ".join(en), zh="".join(zh) if all(_ends_zh(z) for z in zh) else " ".join(zh))


def _ends_zh(text: str) -> bool:
    return text.endswith(("。", "）", "？", "！"))


def _pitfalls(found: list[Firing], facts: dict[str, Any]) -> list[Pitfall]:
    out = []
    for merged in merge_pitfalls(found):
        rules = [f.rule for f in merged.firings]
        sources = sorted({s for r in rules for s in r.sources})
        out.append(Pitfall(
            id=merged.id, severity=merged.severity,
            title=rules[0].render(rules[0].message, facts),
            detail=_joined([r.render(r.why, facts) for r in rules]),
            remedy=_joined([r.render(r.remedy, facts) for r in rules if r.remedy]),
            sources=sources))
    return out


def _advice(found: list[Firing], facts: dict[str, Any]) -> list[Advice]:
    return [Advice(id=f.conclusion["advice"], text=f.rule.render(f.rule.message, facts),
                   sources=list(f.rule.sources)) for f in pick_advice(found)]


def _trace(firings: list[Firing], stage: str, overridden: dict[str, str],
           facts: dict[str, Any]) -> list[TraceEntry]:
    """One entry per fired rule, with its message filled from the stage's facts (the matched
    facts alone do not hold every value a message quotes)."""
    return [TraceEntry(rule=f.rule.id, sources=list(f.rule.sources), conclusion=f.conclusion,
                       facts=f.facts, stage=stage, overridden_by=overridden.get(f.rule.id),
                       message=f.rule.render(f.rule.message, facts))
            for f in firings]
