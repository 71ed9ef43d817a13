"""``compare(profile)``: the user's setup beside other setups, each at every GPU count it can
have, on time per run and money a month; the Pareto front; the answers.

Every option is a whole profile (``advisor.compare.options``); its figures are those
``recommend`` gives for it, each distinct projection computed once per comparison
(``advisor.verdict.shared_projections``). Net values share one baseline, the user's setup at
its fewest GPUs that can do the month's runs (else that can run the job), so they can be
compared across options, and the answer names it; an option's own verdict measures against
one GPU of that option, or its fewest that do the month's runs, and says so (the
``net_value_base`` fact). The value of time comes from the user's profile
(``economics.time_value``, ``value_per_day``), as do the deadline and the monthly budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from advisor.catalog import Catalog, load_catalog
from advisor.catalog.price_age import PriceUse, stale_warnings
from advisor.compare.answers import answers as find_answers
from advisor.compare.answers import in_sentence, label_at
from advisor.compare.baseline import net_value_baseline
from advisor.compare.evaluate import Evaluated, evaluate, option_result, verdict_of
from advisor.compare.option import with_changes
from advisor.compare.options import Context, Option, default_options, setup_option
from advisor.compare.pareto import Candidate, dominators, front, tie
from advisor.compare.rent import INTERRUPTIBLE
from advisor.compare.result import Comparison, OptionResult, Point, PointRef
from advisor.compare.spec import parse_spec
from advisor.compare.text import round_count
from advisor.costs.inputs import choose_currency, choose_market, owned_cards
from advisor.costs.model import keeps_schedule, meets_deadline, time_value_per_month
from advisor.costs.money import money
from advisor.files.errors import InputError
from advisor.profile import Currency, EconomicsMode, InterLink, Market, Profile, TimeValue
from advisor.scaling.project import default_inter_link
from advisor.text.i18n import Text
from advisor.verdict.decision import buys_hardware, days_before_start, improves
from advisor.verdict.result import Candidate as PolicyCandidate
from advisor.verdict.shared_projections import sharing_projections


def options_for(profile: Profile, *, specs: Sequence[str] = (), setups: Sequence[str] = (),
                market: Market | str | None = None, catalog: Catalog | None = None
                ) -> list[Option]:
    """The options to compare: with no ``specs`` or ``setups``, every source's
    (``default_options``); with some, the user's setup, its alternatives and those named."""
    catalog = catalog or load_catalog()
    ctx = _context(profile, market, catalog)
    named = bool(specs or setups)
    out = default_options(profile, ctx, catalog_options=not named)
    by_id = {s.id: s for s in catalog.setups}
    for name in setups:
        setup = by_id.get(name)
        if setup is None:
            raise InputError.single(
                f"--setup {name!r}: no such ready setup; known: {', '.join(by_id)}",
                f"--setup {name!r}：没有这个现成配置；可选：{', '.join(by_id)}", path="--setup")
        out.append(setup_option(profile, ctx, setup))
    for i, text in enumerate(specs):
        out.append(parse_spec(text, profile, ctx, i))
    return out


def _context(profile: Profile, market: Market | str | None, catalog: Catalog) -> Context:
    where = choose_market(profile, market)
    _, given_in = choose_currency(profile, where, None)
    return Context(catalog, where, Currency(given_in))


def compare(profile: Profile, options: Sequence[Option] | None = None, *,
            specs: Sequence[str] = (), setups: Sequence[str] = (),
            market: Market | str | None = None, currency: str | None = None,
            catalog: Catalog | None = None, verdicts: bool = True,
            answer: Any = None) -> Comparison:
    """The comparison of ``options`` (default: ``options_for(profile, ...)``) for the
    workload of ``profile``; ``verdicts``: also each option's rule verdict (the slow part:
    the rule engine runs once per option); ``answer``: ``recommend``'s for the same profile,
    market and currency, where the caller has it (else it is made here)."""
    catalog = catalog or load_catalog()
    where = choose_market(profile, market)
    out_currency, given_in = choose_currency(profile, where, currency)
    if options is None:
        options = options_for(profile, specs=specs, setups=setups, market=where,
                              catalog=catalog)
        # the catalog's setups beside the user's (named ones replace them: those only), and
        # the answer's own setup in every case (a user review: with alternatives named, "The
        # answer: rent A100 80GB PCIe" stood above a best net value that left it out)
        extra = _the_answers_setup(profile, options, currency, market, answer)
        if extra is not None:
            options = [*options, extra]
    with sharing_projections():  # options with the same hardware ask the same questions
        evaluated = [evaluate(o, catalog, out_currency) for o in options]
    results = [option_result(ev) for ev in evaluated]
    baseline = net_value_baseline(results, profile.training.runs_per_month,
                                  owned_cards(profile))
    _value_and_limits(profile, results, baseline, catalog, given_in, out_currency)
    refs = _front_and_dominance(results)
    if verdicts:
        yours = next((r for r in results if r.kind == "yours"), None)
        for ev, res in zip(evaluated, results, strict=True):
            res.verdict = verdict_of(ev, out_currency)
            if _elsewhere(ev, res.verdict.setup):
                continue  # it rests on a setup beyond the option: none of its points
            point, owner = res.point(res.verdict.gpus), res
            if point is None and yours is not None and res.verdict.gpus < ev.option.min_gpus:
                point, owner = yours.point(res.verdict.gpus), yours  # the user's setup below
            if point is not None and point.dominated_by is not None and \
                    _beaten_so(point, results, owner.moved):
                res.verdict.dominated_by = point.dominated_by
    labels = {r.id: r.labelled() for r in results}
    entries = _answerable(results)
    eco = profile.economics
    budget = None if eco.monthly_budget is None else \
        catalog.convert(eco.monthly_budget, given_in, out_currency)
    valued = eco.time_value not in (None, TimeValue.none) and (eco.value_per_day or 0) > 0
    meeting = None if eco.deadline_days is None else _answerable(results, True)
    found = find_answers(entries, labels, out_currency, deadline_days=eco.deadline_days,
                         budget=budget, valued=valued, meeting=meeting,
                         baseline=None if baseline is None else (baseline,
                                                                 _at(results, baseline)))
    if valued and answer is not None:
        # the value of a day the decision policy moves with (none under a monthly budget no
        # setup keeps to: decision.policy_day_value)
        unkept = budget is not None and not any(e[1].within_budget for e in entries)
        per_day = 0.0 if unkept else \
            catalog.convert(eco.value_per_day or 0.0, given_in, out_currency)
        found = _net_value_as_decided(found, results, labels, answer, per_day, out_currency)
    return Comparison(currency=out_currency, market=where.value, options=results, front=refs,
                      answers=found, baseline=baseline, notes=_notes(evaluated),
                      price_warnings=_stale(evaluated))


def _the_answers_setup(profile: Profile, options: Sequence[Option], currency: str | None,
                       market: Market | str | None, rec: Any = None) -> Option | None:
    """The setup ``recommend``'s answer rests on, as an option, where it is none of
    ``options`` (a rented larger card, the user's card with a setting change): the Compare
    page named "fastest" and "best net value" among setups the answer had beaten, its own not
    among them (review 6). None: the answer rests on the setup as given or on one listed."""
    from advisor.compare.weighed import recommend

    if rec is None:
        try:
            rec = recommend(profile, currency=currency, market=market)
        except (ValueError, KeyError):
            return None
    applied = next((o for o in rec.setups if o.applied), None)
    if applied is None:
        return None
    changed, _projection = applied.behind()
    if changed is None:
        return None
    hw = changed.hardware
    if applied.nodes > hw.nodes:  # more machines like the user's: the setup has them all
        link = hw.inter_link if hw.inter_link != InterLink.none else \
            default_inter_link(changed)
        changed = with_changes(changed, hardware={"nodes": applied.nodes, "inter_link": link},
                               economics=changed.economics.owning(hw.total_gpus).model_dump(
                                   include={"owned_gpus", "gpu_price"})
                               if changed.economics.owns_every_card else None,
                               keep_measured=True)
    # an option of its id holds it, but for more machines like the user's only with as many
    # machines (a user review: the answer's 4 machines, "more_machines", were taken for the
    # comparison's twice the machines, 2 of them, and compare named a setup worth ¥51,030 a
    # month less its best net value)
    if any(o.id == applied.id and (applied.kind != "more_machines"
                                   or o.profile.hardware.nodes == applied.nodes)
           for o in options):
        return None
    cloud = changed.economics.mode == EconomicsMode.cloud
    return Option("answer", "cloud" if cloud else "change",
                  Text(en=f"The answer's setup: {applied.label.en}",
                       zh=f"答案所用的配置：{applied.label.zh}"),
                  changed, "cloud" if cloud else "own")


def _answerable(results: list[OptionResult], meeting_deadline: bool = False
                ) -> list[tuple[PointRef, Point]]:
    """The points an answer may name (issue 29: only runs that can happen): the Pareto front
    of the points one set of which does the month's runs, other setups' at the counts they
    are built at; every point that runs when none does (the answers then say so).
    ``meeting_deadline``: the front of those that meet the deadline alone (review 10: a point
    that misses it must not push one that meets it off the deadline's answer), spot offers
    left out (a user review: "Meets the deadline, cheapest: RunPod spot")."""
    # another setup at a count it is built at (its machines whole, or a power of two: not
    # "6 × H200" or "11 GPUs" of twice the machines, review 8); the user's own at any count
    # a deadline is never met by a run that can be stopped at any time (spot)
    runs = [(r.id, p) for r in results for p in r.points if p.fits and p.priced
            and (r.kind == "yours" or round_count(p.gpus, r.gpus_per_node))
            and (not meeting_deadline or (p.meets_deadline
                                          and r.id.rsplit(":", 1)[-1] not in INTERRUPTIBLE))]
    keeping = [(rid, p) for rid, p in runs if p.keeps_schedule] or runs
    candidates = [Candidate((rid, p.gpus), p.run_hours, p.cost_per_month) for rid, p in keeping]
    order = {r.id: i for i, r in enumerate(results)}
    kept: list[Candidate] = []  # exact twins: the option listed first answers for both
    for c in sorted(front(candidates), key=lambda c: (order[c.key[0]], c.key[1])):
        if not any(tie(k, c) for k in kept):
            kept.append(c)
    points = {(rid, p.gpus): p for rid, p in keeping}
    return [(PointRef(option=c.key[0], gpus=c.key[1]), points[c.key])
            for c in sorted(kept, key=lambda c: (c.hours, c.cost))]


def _elsewhere(ev: Evaluated, setup: str | None) -> bool:
    """The verdict rests on a setup other than the option's own figures (rented cards)."""
    applied = ev.rests.applied if ev.rests is not None else None
    return setup is not None and (applied is None or applied.id != setup)


def _answers_point(results: list[OptionResult], answer: Any) -> PointRef | None:
    """The point of ``results`` that is ``recommend``'s answer: its count, and its time and
    cost a run to a part in a million (the same projection and prices)."""
    v = getattr(answer, "verdict", None)
    if v is None or not v.runnable or v.gpus not in answer.projection.gpus:
        return None
    hours = answer.projection.run_hours[answer.projection.gpus.index(v.gpus)]
    costs = answer.costs
    cost = costs.cost_per_run[costs.gpus.index(v.gpus)] if v.gpus in costs.gpus else None
    for res in sorted(results, key=lambda r: r.kind not in ("yours", "answer")):
        p = res.point(v.gpus)
        if p is None or not (p.fits and p.priced) or abs(p.run_hours / hours - 1.0) > 1e-6:
            continue
        if cost is None or abs(p.cost_per_run - cost) <= 1e-6 * max(cost, 1.0):
            return PointRef(option=res.id, gpus=v.gpus)
    return None


def _net_value_as_decided(found: list, results: list[OptionResult], labels: dict[str, Text],
                          answer: Any, per_day: float, currency: str) -> list:
    """The best net value's answer held to ``recommend``'s (issue 29: one decision in every
    command): where the point with the most net value costs the user less than 15 % less in a
    run's money and time than the answer's (``decision.outscores``: within what the figures
    tell apart), the answer's point is named, and the other with what it gives more."""
    i = next((k for k, a in enumerate(found) if a.key == "net_value" and a.point), None)
    mine = _answers_point(results, answer)
    if i is None or mine is None or mine == found[i].point:
        return found
    best_ref = found[i].point
    best, point = _at(results, best_ref), _at(results, mine)
    theirs = _policy_candidate(results, best_ref, best)
    spot = best_ref.option.rsplit(":", 1)[-1] in INTERRUPTIBLE  # no answer rests on one
    if point.net_value_per_month is None or best.net_value_per_month is None or \
            (improves(theirs, point_candidate(mine.option, point, _moved(results, mine)),
                      per_day) and not spot):
        return found
    more = money(best.net_value_per_month - point.net_value_per_month, currency)
    other, this = label_at(best_ref, labels), label_at(mine, labels)
    other = Text(en=in_sentence(other.en), zh=other.zh)
    value = money(point.net_value_per_month, currency)
    head = Text(en=f"{this.en}: {point.run_hours:,.1f} h a run, "
                   f"{money(point.cost_per_month, currency)} a month (recommend's answer, {value} "
                   "a month of net value",
                zh=f"{this.zh}：每次 {point.run_hours:,.1f} 小时，每月 "
                   f"{money(point.cost_per_month, currency)}（recommend 的答案，每月净收益 {value}")
    if best.net_value_per_month <= point.net_value_per_month:  # never "gives -$6,124 more"
        why = Text(en=f"{head.en})", zh=f"{head.zh}）")
    else:
        if spot:
            because = Text(en="but a spot run can be stopped at any time",
                           zh="但竞价实例随时可能被收回，训练会中断")
        elif per_day <= 0.0:  # a monthly budget none keeps to: money first
            because = Text(en="with a monthly budget no setup keeps to, the answer weighs "
                              "money first",
                           zh="没有配置能守住每月预算，答案先看花多少钱")
        elif buys_hardware(theirs):
            because = Text(en="by buying hardware, which the answer takes only where it is "
                              "both faster and cheaper a run",
                           zh="但要购买硬件；只有单次既更快又更便宜时，答案才会选择购买")
        else:
            because = Text(en="less than 15 % of a run's money and time: closer than the "
                              "figures can tell apart",
                           zh="但单次训练的钱和时间合计相差不到 15%，在数字能分辨的范围内")
        why = Text(en=f"{head.en}; {other.en} gives {more} a month more, {because.en})",
                   zh=f"{head.zh}；{other.zh}每月多 {more}，{because.zh}）")
    return [*found[:i], found[i].model_copy(update={"point": mine, "why": why}), *found[i + 1:]]


def _policy_candidate(results: list[OptionResult], ref: PointRef, point: Point
                      ) -> PolicyCandidate:
    """``point`` as the decision policy sees it: a ready setup or more of the user's owned is
    hardware bought (``decision.buys_hardware``)."""
    res = next(r for r in results if r.id == ref.option)
    kind = {"setup": "buy_setup", "more": "more_machines"}.get(res.kind)
    # the side the point is priced on: more machines in compare mode may be rented
    return point_candidate(ref.option, point, res.moved).model_copy(update={"kind": kind})


def _moved(results: list[OptionResult], ref: PointRef) -> bool:
    return next(r for r in results if r.id == ref.option).moved


def _at(results: list[OptionResult], ref: PointRef):
    point = next(r for r in results if r.id == ref.option).point(ref.gpus)
    assert point is not None
    return point


def _value_and_limits(profile: Profile, results: list[OptionResult], baseline: PointRef | None,
                      catalog: Catalog, given_in: str, currency: str) -> None:
    """Time value and net value against the baseline, the deadline and the budget, per point
    (F02, F12: the same functions the cost model uses)."""
    eco, training = profile.economics, profile.training
    per_day = 0.0
    if eco.time_value not in (None, TimeValue.none) and eco.value_per_day:
        per_day = catalog.convert(eco.value_per_day, given_in, currency)
    budget = None if eco.monthly_budget is None else \
        catalog.convert(eco.monthly_budget, given_in, currency)
    base_hours = profile.run_hours_one_gpu  # the throughput converted by its unit
    base_cost = 0.0
    if baseline is not None:
        base_point = _at(results, baseline)
        base_hours, base_cost = base_point.run_hours, base_point.cost_per_month
    for res in results:
        for p in res.points:
            if not (p.fits and p.priced):
                continue
            p.keeps_schedule = keeps_schedule(training.runs_per_month, p.run_hours)
            if eco.deadline_days is not None:
                days = days_before_start(profile, res.kind, p.deployment, p.gpus, p.nodes,
                                         res.gpu, res.intra_link)
                p.meets_deadline = meets_deadline(training.runs_per_month, eco.deadline_days,
                                                  p.run_hours, days)
            if budget is not None:
                p.within_budget = p.cost_per_month <= budget * (1 + 1e-9)
            if per_day > 0 and baseline is not None:
                value = time_value_per_month(training.runs_per_month, base_hours, p.run_hours,
                                             per_day)
                p.time_value_per_month = value
                p.net_value_per_month = value - (p.cost_per_month - base_cost)


def _front_and_dominance(results: list[OptionResult]) -> list[PointRef]:
    candidates = [Candidate((r.id, p.gpus), p.run_hours, p.cost_per_month)
                  for r in results for p in r.points if p.fits and p.priced]
    on_front = front(candidates)
    beaten = dominators(candidates, on_front)
    # Exact ties on the front (the same machine reached two ways): the option listed first
    # stands for both; the other says which point it equals.
    order = {r.id: i for i, r in enumerate(results)}
    kept: list[Candidate] = []
    same: dict[tuple[str, int], Candidate] = {}
    for c in sorted(on_front, key=lambda c: (order[c.key[0]], c.key[1])):
        twin = next((k for k in kept if tie(k, c)), None)
        if twin is None:
            kept.append(c)
        else:
            same[c.key] = twin
    on_front = [c for c in on_front if c.key not in same]
    front_keys = {c.key for c in on_front}
    for r in results:
        for p in r.points:
            key = (r.id, p.gpus)
            p.on_front = key in front_keys
            if key in beaten:
                winner = beaten[key]
                winner = same.get(winner.key, winner)  # the twin that stands for it
                p.dominated_by = PointRef(option=winner.key[0], gpus=winner.key[1])
            if key in same:
                p.same_as = PointRef(option=same[key].key[0], gpus=same[key].key[1])
        runnable = [p for p in r.points if p.fits and p.priced]
        r.dominated = bool(runnable) and all(p.dominated_by is not None
                                             and p.dominated_by.option != r.id
                                             for p in runnable)
    return [PointRef(option=c.key[0], gpus=c.key[1]) for c in on_front]


def _notes(evaluated: list[Evaluated]) -> list[Text]:
    out: list[Text] = []
    no_card = [ev.option.label for ev in evaluated
               if ev.costs.mode == "own" and not all(
                   ev.costs.own_priced_at(i) for i, n in enumerate(ev.costs.gpus)
                   if n >= ev.option.min_gpus)]
    no_offer = [ev.option.label for ev in evaluated
                if ev.costs.mode == "cloud" and not ev.costs.cloud_priced]
    for missing, field_name, labels in (("card", "economics.gpu_price", no_card),
                                        ("cloud", "economics.cloud_price_per_gpu_hour",
                                         no_offer)):
        if not labels:
            continue
        what_en = "no card price" if missing == "card" else "renting has no price"
        what_zh = "没有显卡价格" if missing == "card" else "没有租用价格"
        out.append(Text(en=f"not on the chart ({what_en}; set {field_name}): "
                           + "; ".join(t.en for t in labels),
                        zh=f"未画在图上（{what_zh}；请填写 {field_name}）："
                           + "；".join(t.zh for t in labels)))
    never = [ev.option.label for ev in evaluated if not any(ev.projection.fits)]
    if never:
        out.append(Text(en="the model fits none of its GPU counts: " +
                           "; ".join(t.en for t in never),
                        zh="模型在这些选项的任何卡数下都放不下：" + "；".join(t.zh for t in never)))
    return out


def _stale(evaluated: list[Evaluated]) -> list[Text]:
    uses = [PriceUse(Text(en=u["what"] or "", zh=u["what_zh"] or ""), u["entry"] or "",
                     u["as_of"]) for ev in evaluated for u in ev.costs.prices_used]
    return stale_warnings(uses)


def _beaten_so(point: Point, results: list, moved: bool = False) -> bool:
    """Whether the point that dominates ``point`` beats it as the decision policy counts it
    (``advisor.verdict.decision.beats``: no worse on either within 1 %, 15 % better on one),
    so a verdict is called "not recommended" only where ``recommend`` would not answer with
    it (a point 10 % cheaper at the same hours is on the front's other side, not a reason)."""
    from advisor.verdict.decision import beats

    ref = point.dominated_by
    if ref.option.rsplit(":", 1)[-1] in INTERRUPTIBLE:
        return False  # a spot run can be stopped at any time: recommend never rests on one
    winner = next((p for r in results if r.id == ref.option for p in r.points
                   if p.gpus == ref.gpus), None)
    if winner is None or winner.cost_per_run is None or point.cost_per_run is None:
        return True
    return beats(point_candidate(ref.option, winner, _moved(results, ref)),
                 point_candidate("point", point, moved))


def point_candidate(setup: str, point: Point, moved: bool = False) -> PolicyCandidate:
    """``point`` of the option ``setup`` as a decision-policy candidate (its time and cost per
    run; ``moved``: the option's ``OptionResult.moved``), to weigh with ``decision.beats``."""
    return PolicyCandidate(setup=setup, gpus=point.gpus, nodes=point.nodes,
                           run_hours=point.run_hours, cost_per_run=point.cost_per_run,
                           runnable=True, deployment=point.deployment, moved=moved)
