"""``recommend(profile)``: projection + costs → facts → rules → a Recommendation that explains
every conclusion (the trace names each fired rule, its article facts and the values it read).

Three rule stages run on one fact set each: the *decide* rules choose the rating and the GPU
count; the *setup* rules, which also see the verdict, choose parallelism, framework and
deployment; the *findings* rules, which also see the setup, add pitfalls and advice. Conflicts
resolve by ``advisor.verdict.conflict_policy``. With measured points in the profile, the speed-ups are
the user's measurements (``advisor.verdict.measured_projection``), not the model's.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from advisor.costs.model import buy_vs_rent_at
from advisor.costs.result import CostReport
from advisor.profile import Profile
from advisor.scaling.project import machine_assumptions
from advisor.scaling.result import Projection
from advisor.text.i18n import Text
from advisor.verdict.beyond import NOTHING, Beyond
from advisor.verdict.conflict_policy import (
    SLOTS,
    Count,
    Decision,
    decide,
    decided_slots,
    final_overrides,
    merge_pitfalls,
    pick_advice,
    settle_count,
)
from advisor.verdict.count_guard import Lowered, as_fast_smaller, one_card_only
from advisor.verdict.decision import RULE_ID as POLICY_RULE
from advisor.verdict.decision import (
    Move,
    beats,
    better,
    candidates,
    chosen,
    day_value,
    improves,
    is_option,
    moved_rating,
    moved_said,
    outscores,
    policy_day_value,
    reason_against,
    reason_outscored,
    stands,
)
from advisor.verdict.engine import Firing, RuleEngine, default_engine
from advisor.verdict.facts import base_facts, setup_facts, verdict_facts
from advisor.verdict.headline import headline, joined, with_setup
from advisor.verdict.pipeline_fix import FIX
from advisor.verdict.resting import Resting, at_verdict, resting_on
from advisor.verdict.result import (
    Advice,
    Pitfall,
    Recommendation,
    SetupOption,
    TraceEntry,
    Verdict,
)
from advisor.verdict.setup_pricing import Pricing
from advisor.verdict.shared_costs import costs_shared
from advisor.verdict.shared_projections import sharing_projections
from advisor.verdict.summary import five_lines

HEADLINE_PITFALLS = ("not_enough_gpus", "time_value_not_given")


def _one_each(firings: list[Firing]) -> list[Firing]:
    """The first firing of each pitfall id (several rules may raise the same one)."""
    seen: set[str] = set()
    out = []
    for f in firings:
        if f.conclusion["pitfall"] not in seen:
            seen.add(f.conclusion["pitfall"])
            out.append(f)
    return out


class RuleBaseIncomplete(RuntimeError):
    """No rule decided a slot every recommendation needs (a gap in rules/, not user input)."""


def recommend(profile: Profile, *, gpus: list[int] | None = None, hardware: Any | None = None,
              lang: str | None = None, engine: RuleEngine | None = None,
              currency: str | None = None, market: str | None = None) -> Recommendation:
    """The full recommendation for ``profile``; ``gpus`` are the GPU counts to consider (one
    GPU is always added: every verdict is relative to it), ``hardware`` an imported
    ``HardwareDescription`` whose observations become pitfalls. ``market`` and ``currency``
    (default: the profile's) pick and show the prices; ``lang`` changes no number."""
    with sharing_projections():  # the setup change chosen is projected (and priced) once
        return recommend_resting(profile, gpus=gpus, hardware=hardware, lang=lang,
                                 engine=engine, currency=currency, market=market)[0]


def recommend_resting(profile: Profile, *, gpus: list[int] | None = None,
                      hardware: Any | None = None, lang: str | None = None,
                      engine: RuleEngine | None = None, currency: str | None = None,
                      market: str | None = None, card_first: bool = False
                      ) -> tuple[Recommendation, Resting]:
    """``recommend`` and what its figures rest on (``advisor.compare.weighed`` weighs the
    setups a comparison evaluates against it, and moves it through ``moved_to``);
    ``card_first``: ``resting_on``'s."""
    # F30: with measurements, their speed-ups (the same curve `project` and `costs` show)
    # F24: when nothing considered fits, machines like this one until it does
    rests = resting_on(profile, sorted(set(gpus) | {1}) if gpus else None, lang,
                       Pricing(currency, market), card_first=card_first)
    costs = costs_shared(rests.profile, rests.projection, lang=lang, currency=currency,
                         market=market)
    rec = recommend_from(rests.profile, rests.projection, costs, hardware=hardware,
                         engine=engine, larger=rests.larger, applied=rests.applied,
                         asked=rests.asked)
    rec = rec.model_copy(update={"setups": at_verdict(rests.options, rec)})
    return decided(rec, rests, profile, hardware=hardware, engine=engine, lang=lang,
                   currency=currency, market=market), rests


def moved_to(rec: Recommendation, move: Move, rests: Resting, pool: list, *,
             hardware: Any = None, engine: RuleEngine | None = None, lang: str | None = None,
             currency: str | None = None, market: str | None = None) -> Recommendation:
    """``rec`` moved by the decision policy to ``move.to``, a setup listed in ``rests``
    (``advisor.compare.weighed``: a setup a comparison evaluates), against ``pool``, every
    candidate weighed, which the recommendation then lists."""
    rec = _moved(rec, move, rests, hardware, engine, lang, currency, market, pool)
    rec = rec.model_copy(update={"candidates": pool})
    if rec.summary:
        rec.summary = five_lines(rec, rec.summary[0].text, rec.summary[1].text)
    return rec


def decided(rec: Recommendation, rests: Resting, profile: Profile, *, hardware: Any = None,
            engine: RuleEngine | None = None, lang: str | None = None,
            currency: str | None = None, market: str | None = None) -> Recommendation:
    """``rec`` (the rules' pick on what ``rests`` holds) after the decision policy (issue 29,
    ``advisor.verdict.decision``): moved to the candidate it must be, with every candidate
    evaluated listed. ``advisor.compare`` settles each option's verdict through this too."""
    pool = candidates(rec, profile, currency, market)
    move = better(rec, profile, pool)  # never an answer the advisor's own figures beat
    if move is not None:
        rec = _moved(rec, move, rests, hardware, engine, lang, currency, market, pool)
    rec = rec.model_copy(update={"candidates": pool})
    if rec.summary:  # with the setups listed now: the next step may be the change to set
        rec.summary = five_lines(rec, rec.summary[0].text, rec.summary[1].text)
    return rec


def _moved(rec: Recommendation, move: Move, rests: Resting, hardware: Any,
           engine: RuleEngine | None, lang: str | None, currency: str | None,
           market: str | None, pool: list | None = None) -> Recommendation:
    """The recommendation resting on the candidate the decision policy moved to: another
    count of the same setup, or a listed setup (its profile and projection)."""
    option = is_option(move, rec.setups)
    if option is None:
        moved = recommend_from(rests.profile, rests.projection, rec.costs, hardware=hardware,
                               engine=engine, larger=rests.larger, applied=rests.applied,
                               moved=move, asked=rests.asked)
        return moved.model_copy(update={"setups": at_verdict(rests.options, moved)})
    profile, projection = option.behind()
    costs = costs_shared(profile, projection, lang=lang, currency=currency, market=market)
    options = [o.model_copy(update={"applied": o.id == option.id}) for o in rests.options]
    applied = next(o for o in options if o.applied)
    # the rules choose the count on the setup moved to, as they would on it; the policy's
    # count only where theirs would again be one it must not answer with
    # what checkpointing would save on it (its machines beyond are the option's own counts)
    found = option.larger()
    larger = NOTHING if found is None else Beyond(None, found.gpus_checkpointing)
    own = recommend_from(profile, projection, costs, hardware=hardware, engine=engine,
                         larger=larger, applied=applied, asked=rests.asked)
    own = own.model_copy(update={"setups": at_verdict(options, own)})
    if stands(own, pool, profile):
        return _with_reason(own, move, pool, profile)
    moved = recommend_from(profile, projection, costs, hardware=hardware, engine=engine,
                           larger=larger, applied=applied, moved=move, asked=rests.asked)
    return moved.model_copy(update={"setups": at_verdict(options, moved)})


def _with_reason(rec: Recommendation, move: Move, pool: list,
                 profile: Profile | None = None) -> Recommendation:
    """``rec`` with the policy's step in its trace (it chose the setup; the rules chose the
    count on it) and its reason, against the answer as it stands, in the headline."""
    v = rec.verdict
    answer = chosen(rec, pool)
    per_day = day_value(rec) if profile is None else policy_day_value(rec, profile, pool)
    if answer is None:
        reason = move.reason
    elif move.from_ is not None and move.from_.runnable and not beats(answer, move.from_) \
            and outscores(answer, move.from_, per_day):  # by the user's criterion alone: say it
        reason = reason_outscored(move.from_, answer, rec.costs.currency, per_day)
    else:
        reason = reason_against(move.from_, answer, rec.costs.currency)
    if answer is not None and move.from_ is not None and move.from_.runnable and \
            improves(answer, move.from_, per_day):
        reason = moved_said(reason, move.from_, answer)
    verdict = v.model_copy(update={"headline": joined([v.headline, reason])})
    step = move.trace_entry().model_copy(update={"decided": [], "message": reason,
                                                  "conclusion": {"gpus": v.gpus}})
    rec = rec.model_copy(update={"verdict": verdict, "trace": [*rec.trace[:1], step,
                                                               *rec.trace[1:]]})
    if rec.summary:
        rec.summary = five_lines(rec, rec.summary[0].text, reason)
    return rec


def _projected_count(projection: Projection, wanted: int) -> int:
    """The largest projected GPU count not above ``wanted`` (the smallest one if none is);
    never a count where the model does not fit when one where it fits exists."""
    below = [n for n in projection.gpus if n <= wanted]
    n = max(below) if below else min(projection.gpus)
    fitting = [m for m, ok in zip(projection.gpus, projection.fits, strict=True) if ok]
    if fitting and n not in fitting:
        above = [m for m in fitting if m > n]
        n = min(above) if above else max(fitting)
    return n


def recommend_from(profile: Profile, projection: Projection, costs: CostReport, *,
                   hardware: Any | None = None, engine: RuleEngine | None = None,
                   larger: Beyond = NOTHING,
                   applied: SetupOption | None = None,
                   moved: Move | None = None, asked: Profile | None = None) -> Recommendation:
    """The recommendation from an existing projection and cost report. ``larger``: what
    ``advisor.verdict.beyond.extended`` found when nothing considered fitted (the projection then
    already holds the larger counts). ``applied``: the setup change ``profile`` already
    carries (``advisor.verdict.fits_here``), named first in the headline. ``moved``: the
    count the decision policy moved the answer to (``advisor.verdict.decision``), which
    replaces the rules' count as the count guard's does, with its reason. ``asked``: the
    profile as the user gave it, where ``profile`` carries a change (its own card's facts)."""
    engine = engine or default_engine()
    fit_beyond = larger.gpus
    base = base_facts(profile, projection, costs, hardware, fit_gpus_beyond=fit_beyond,
                      fit_gpus_checkpointing=larger.gpus_checkpointing,
                      considered=larger.considered,
                      setup_change=_change_kind(applied), asked=asked)
    decided = engine.evaluate(base, "decide")
    verdict = decide(decided, ("rating", "gpus"))
    if "rating" not in verdict.values:
        raise RuleBaseIncomplete("no rule decided the rating")
    rating = verdict.values["rating"]
    count = settle_count(verdict, decided, max(projection.gpus))
    wanted = count.gpus
    runnable = any(projection.fits)
    n, at = _projected_count(projection, wanted), projection
    lowered: Lowered | Move | None = as_fast_smaller(at, n) if runnable else None
    if moved is not None and moved.gpus in projection.gpus and \
            projection.fits[projection.at(moved.gpus)]:
        lowered, runnable = moved, True  # issue 29: the decision policy's candidate
        rating = moved_rating(rating, moved)
    if lowered is None and runnable and n == 1 < wanted and max(projection.gpus) == 1 and \
            rating in ("optional", "worth_it"):
        # one GPU is all this setup has (an offer's instance of one card): the count the rules
        # asked for cannot be had, and a rating of more GPUs would read "Optional (a second
        # GPU if you like): 1 GPU"
        lowered, rating = one_card_only(wanted), "not_worth_it"
    if lowered is not None:  # F02: the policy's last word, whatever rule asked for more
        n = wanted = lowered.gpus
    # F31: owning vs renting the setup recommended, not the cost model's best value (the
    # deployment rules and every presenter read this comparison)
    costs = buy_vs_rent_at(costs, profile, projection, n) if runnable else costs
    vfacts = verdict_facts(base, profile, at, costs, rating, n, wanted)
    configured = engine.evaluate(vfacts, "setup")
    setup = decide(configured, ("parallelism", "framework", "deployment"))
    missing = [s for s in ("parallelism", "framework", "deployment") if s not in setup.values]
    if missing:
        raise RuleBaseIncomplete(f"no rule decided {', '.join(missing)}")
    facts = setup_facts(vfacts, setup.values)
    found = engine.evaluate(facts, "findings")
    nodes = int(facts["verdict_nodes"])
    # Pitfalls the headline itself says: a shortfall of GPUs, and a rating that rests on the
    # article's valuation of time because the user has not given theirs (rules/README.md)
    short = [f for pitfall in HEADLINE_PITFALLS for f in found
             if f.conclusion.get("pitfall") == pitfall]
    quoted = _reasons(decided, verdict.winners.get("rating"), count, n, wanted,
                      lowered is not None)
    if moved is not None and lowered is moved:  # only the rules that rate as the answer does
        quoted = [f for f in quoted if f.conclusion.get("rating", rating) == rating
                  and f.conclusion.get("gpus", n) == n]
    if not runnable:  # nothing fits anywhere: only the memory wall speaks (F24)
        quoted = [f for f in decided if f.rule.is_veto and f.conclusion.get("veto")
                  == "memory_wall"][:1] or quoted
    elif _beyond_owned(costs, n):  # past the GPUs owned, what it adds to them comes first
        quoted = sorted(quoted, key=lambda f: "{net_value_base}" not in f.rule.message.en)
    reason = joined([f.rule.render(f.rule.message, facts) for f in quoted + _one_each(short)]
                     + ([lowered.reason] if lowered is not None else []))
    answer = with_setup(applied, headline(rating, n, nodes, setup.values, Text(en="", zh=""),
                                          runnable), n if runnable else None)
    answer = Text(en=answer.en.strip(), zh=answer.zh.strip())
    decisive = moved.reason if moved is not None and lowered is moved else reason
    result = Verdict(rating=rating, gpus=n, nodes=nodes, parallelism=setup.values["parallelism"],
                     framework=setup.values["framework"],
                     deployment=setup.values["deployment"],
                     headline=with_setup(applied, headline(rating, n, nodes, setup.values,
                                                             reason, runnable),
                                         n if runnable else None),
                     runnable=runnable)
    rated = _rerated(verdict, rating, quoted)
    overridden = {**final_overrides(decided, rated, count, wanted,
                                    [f.rule.id for f in quoted]), **setup.overridden}
    slots = {**decided_slots(rated, count), **decided_slots(setup, Count(n, ()))}
    _credit_slots(slots, overridden, quoted, rating, wanted)
    decide_trace = _trace(decided, "decide", overridden, base, _without_count(slots, lowered))
    if lowered is not None:  # after the rating's rule: the count's own step
        step = lowered.trace_entry()
        if rated.winners.get("rating") == POLICY_RULE:  # the move set the rating too
            step = step.model_copy(update={"conclusion": {**step.conclusion, "rating": rating},
                                           "decided": ["rating", *step.decided]})
        decide_trace.insert(0 if "rating" in step.decided else
                            int(bool(decide_trace) and "rating" in decide_trace[0].decided),
                            step)
    rec = Recommendation(verdict=result, projection=projection, costs=costs,
                         assumed=machine_assumptions(profile, n) if runnable else [],
                         pitfalls=_pitfalls(found, facts), advice=_advice(found, facts),
                         trace=decide_trace
                         + _trace(configured, "setup", overridden, facts, slots)
                         + _trace(found, "findings", overridden, facts, slots),
                         baseline_gpus=baseline_count(projection, costs))
    rec.summary = five_lines(rec, answer, decisive)
    return rec


def _beyond_owned(costs: CostReport, gpus: int) -> bool:
    """The answer goes past the GPUs the user owns and its net value is measured against them
    (``costs.model._owned_baseline``): the Why then says what it adds to them (review 10: a
    rental of 16 beside 8 owned said only that the model does not fit one GPU)."""
    owned = getattr(costs, "owned_gpus", 0)
    return owned > 1 and costs.baseline_gpus == owned and gpus > owned


def _rerated(verdict: Decision, rating: str, quoted: list[Firing]) -> Decision:
    """The rules' decision with the rating the policy's move gave (``moved_rating``): the
    quoted rule that rates so supplies it, else the policy's own step; the rule that rated
    otherwise is then overridden by it, never a winner the headline contradicts."""
    if verdict.values.get("rating") == rating:
        return verdict
    heir = next((f.rule.id for f in quoted if f.conclusion.get("rating") == rating),
                POLICY_RULE)
    return replace(verdict, values={**verdict.values, "rating": rating},
                   winners={**verdict.winners, "rating": heir})


def _change_kind(applied: SetupOption | None) -> str:
    """The ``setup_change`` fact: none, setting, method, rent, more_machines, pipeline,
    rent_offer (the job as configured at a rental offer), buy_setup (a ready setup bought)."""
    if applied is None:
        return "none"
    if applied.id == FIX.id:
        return "pipeline"
    return "setting" if applied.kind == "numerics" else applied.kind


def _without_count(slots: dict[str, list[str]], lowered: Lowered | Move | None
                   ) -> dict[str, list[str]]:
    """When the count guard chose the count, no rule is credited with it."""
    if lowered is None:
        return slots
    return {rule: [s for s in supplied if s != "gpus"] for rule, supplied in slots.items()}


def _credit_slots(slots: dict[str, list[str]], overridden: dict[str, str],
                  quoted: list[Firing], rating: str, gpus: int) -> None:
    """When the rule that ranked first for the rating or the count lost its other half (a table
    row's "4 GPUs" replaced by the cost model's 2, a "not worth it" beaten by the memory wall),
    the slot is credited to the quoted rule that concludes the same: the trace then shows as
    winning the rules the headline quotes, and no winner is marked overridden."""
    def agrees(f: Firing, slot: str) -> bool:
        c = f.conclusion
        if slot == "rating":
            return c.get("rating") == rating
        return any(int(c[k]) == gpus for k in ("gpus", "gpus_at_least") if k in c)

    for slot in ("rating", "gpus"):
        holder = next((rid for rid, held in slots.items() if slot in held), None)
        if holder is None or holder not in overridden:
            continue
        heir = next((f.rule.id for f in quoted if agrees(f, slot)), None)
        if heir is None and slot == "rating":
            # no quoted rule rates the same: the holder did supply the rating (its count was
            # replaced, which the count's holder shows), so it is not marked as beaten
            del overridden[holder]
            continue
        heir = heir or next((f.rule.id for f in quoted), None)
        slots[holder] = [held for held in slots[holder] if held != slot]
        if heir is not None:
            slots.setdefault(heir, []).append(slot)
            slots[heir].sort(key=SLOTS.index)


def baseline_count(projection: Projection, costs: CostReport) -> int | None:
    """The GPU count every net value is compared with: one GPU when it can run the job, else
    the smallest count considered that can (the cost model's baseline); None when none can."""
    given = getattr(costs, "baseline_gpus", None)  # the cost model's own, when it says
    if isinstance(given, int):
        return given
    if projection.single_gpu_fits:
        return 1
    return next((n for n, ok in zip(projection.gpus, projection.fits, strict=True) if ok), None)


def _reasons(decided: list[Firing], rating_rule: str | None, count, gpus: int,
             wanted: int, lowered: bool = False) -> list[Firing]:
    """The rules the headline quotes: the one that chose the rating and those that settled
    the count, leaving out any whose own count differs from the verdict's (a table row's
    "4 GPUs" must not follow a verdict of 3). A count above the hardware considered is kept
    when the verdict is capped there: the shortfall is then quoted after it. When the count
    guard ``lowered`` the count, its own sentence replaces those of the count's deciders."""
    by_id = {f.rule.id: f for f in decided}
    chosen = ([by_id[rating_rule]] if rating_rule in by_id else []) + \
        ([] if lowered else list(count.deciders))
    out: list[Firing] = []
    for f in chosen:
        if lowered and f.conclusion.get("gpus_at_most", gpus) != gpus:
            continue
        stated = f.conclusion.get("gpus")
        consistent = stated is None or int(stated) == gpus or (wanted > gpus
                                                              and int(stated) == wanted)
        if consistent and all(f.rule.id != o.rule.id for o in out):
            out.append(f)
    return out


def _pitfalls(found: list[Firing], facts: dict[str, Any]) -> list[Pitfall]:
    out = []
    for merged in merge_pitfalls(found):
        rules = [f.rule for f in merged.firings]
        sources = sorted({s for r in rules for s in r.sources})
        out.append(Pitfall(
            id=merged.id, severity=merged.severity,
            title=rules[0].render(rules[0].message, facts),
            detail=joined([r.render(r.why, facts) for r in rules]),
            remedy=joined([r.render(r.remedy, facts) for r in rules if r.remedy]),
            sources=sources))
    return out


def _advice(found: list[Firing], facts: dict[str, Any]) -> list[Advice]:
    return [Advice(id=f.conclusion["advice"], text=f.rule.render(f.rule.message, facts),
                   sources=list(f.rule.sources)) for f in pick_advice(found)]


def _trace(firings: list[Firing], stage: str, overridden: dict[str, str],
           facts: dict[str, Any], slots: dict[str, list[str]]) -> list[TraceEntry]:
    """One entry per fired rule, with its message filled from the stage's facts (the matched
    facts alone do not hold every value a message quotes). The rules that supplied the verdict
    come first, in slot order; then the others by id."""
    rank = {slot: i for i, slot in enumerate(SLOTS)}
    ordered = sorted(firings, key=lambda f: min((rank[s] for s in slots.get(f.rule.id, ())),
                                                default=len(SLOTS)))
    return [TraceEntry(rule=f.rule.id, sources=list(f.rule.sources), conclusion=f.conclusion,
                       facts=f.facts, stage=stage, overridden_by=overridden.get(f.rule.id),
                       message=f.rule.render(f.rule.message, facts),
                       decided=list(slots.get(f.rule.id, ())))
            for f in ordered]
