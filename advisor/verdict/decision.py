"""The answer a user acts on (issue 29): the best setup the advisor itself evaluated.

The rule base rates the workload and picks a GPU count (``recommendation.recommend_from``);
this policy then checks that pick against every candidate the recommendation evaluated — the
user's setup at each GPU count it projected, and each setup listed beside it (a setting
change, a change of method, rented larger cards, more machines) — and moves the answer when
the pick is one a user should never act on:

1. **Only runs that can happen.** A candidate is *runnable* when the model fits, its cost is
   known, one set of its hardware can do the month's runs (runs a month × hours a run within a
   month's 730 hours) and, where a deadline is set, the runs due finish before it. When the
   pick is not runnable and a candidate is, the answer moves to the best runnable one.
2. **Never dominated.** When a runnable candidate is no slower and no dearer per run (within
   ``TIE``, 1 %) and better by ``MARGIN`` (15 %) or more on one of the two — as fast for far
   less, far faster for as much, or both — the answer moves to the best of those that beat it
   so. Smaller differences are within what the figures can tell apart, and the rules' pick
   stands. A
   change of method (LoRA, QLoRA) trains something else: it is weighed first where nothing
   that keeps the method runs on the user's machine, but it never beats a pick that keeps it.
3. **Never far worse by the user's own criterion.** Where the user said what a day saved is
   worth, a runnable candidate whose run costs them ``MARGIN`` (15 %) or more less in money
   and time together (``score``) moves the answer too, though it costs more money a run or
   takes longer (reviews 7 and 8: 16 rented H100s at 11.8 days a run stood beside 32 at 6.0
   days for 2 % more, with a day worth $5,000; compare named the 32). Where time has no
   money value the article's table rates the counts, and only rule 2 moves the answer.

"The best" is the user's own criterion: the cost of a run plus the time it takes, valued at
what the user said a day saved is worth (the time alone counts nothing when they said none or
nothing); ties go to the faster. The pick the policy moves from, and why, is in the trace
(``RULE_ID``), as the count guard's step is.
"""

from __future__ import annotations

from advisor.costs.migration import days_before_first_run, purchase_days
from advisor.costs.model import keeps_schedule, meets_deadline
from advisor.files.records import record
from advisor.profile import Profile
from advisor.text.durations import duration, durations
from advisor.text.i18n import Text
from advisor.verdict.headline import recounted
from advisor.verdict.result import Candidate, Recommendation, SetupOption, TraceEntry

MARGIN = 0.15  # beaten by this much on time or on cost per run, no worse on the other
# A run the user timed on their card, moved to another card by the two cards' speed ratio,
# errs more than a projection on the card it was timed on: over 971 pairs of cards measured on
# the same model (benchmarks/card_ratio.py) the ratio is off by 18.5 % at the median, and
# over-states the faster card's advantage by more than 20 % in a third of them. Where one of
# two candidates is so moved and the other is not, the moved one is weighed at this much more
# time (and rent by the hour), so that the answer leaves the card the run was timed on only
# for a gain the ratio's usual error does not take back.
MOVED_CARD_ERROR = 0.20
TIE = 0.01  # within 1 %: the same time or cost (a run "0 % more")
RULE_ID = "policy.best_candidate"
SOURCES = ("F02", "F12", "F31")
EXPLANATION = Text(
    en="Not a rule of rules/*.yaml but the decision policy's step "
       "(advisor/verdict/decision.py): the answer is never a setup that another setup the "
       "advisor evaluated beats by 15 % or more on time or on cost per run while being no "
       "worse on the other, or by 15 % on a run's money and time together at what you said a "
       "day saved is worth, nor one that cannot do the month's runs or meet the deadline "
       "while another can.",
    zh="这不是 rules/*.yaml 里的规则，而是决策策略的一步（advisor/verdict/decision.py）：顾问评估过的"
       "另一个配置在单次时间或单次成本上好 15% 以上、另一项也不差时，或按你给省下一天定的价值、单次训练"
       "的钱和时间合计少 15% 以上时，不以原配置作答；做不完每月训练或赶不上截止时间的配置，在有别的配置"
       "做得到时也不作答。")


def candidates(rec: Recommendation, profile: Profile, currency: str | None = None,
               market: str | None = None) -> list[Candidate]:
    """Every setup the recommendation evaluated, with its time and cost per run: the GPU
    counts of the setup its figures rest on, then each listed setup at its count, and a
    setting change on the user's own machine at each of its own counts too."""
    proj, costs = rec.projection, rec.costs
    applied = next((o for o in rec.setups if o.applied), None)
    # the setup the figures rest on: the applied change's, else the profile itself, which is a
    # moved run where compare weighs an option on another card (``verdict_of``)
    resting_moved = moved_run(applied.behind()[0] if applied is not None else profile)
    out: list[Candidate] = []
    for i, n in enumerate(proj.gpus):
        cost = costs.cost_per_run[costs.gpus.index(n)] \
            if costs.mode_priced and n in costs.gpus else None
        side = costs.side_at(n)
        c = candidate_at(profile, "as_given" if applied is None else applied.id, n,
                       proj.nodes[i], proj.run_hours[i], cost, proj.fits[i],
                       deployment=side, currency=costs.currency,
                       first_days=days_before_start(profile, "yours", side, n, proj.nodes[i]),
                       moved=resting_moved)
        out.append(c if applied is None else c.model_copy(update={"kind": applied.kind}))
    for o in rec.setups:
        if o.applied:
            continue  # its counts are the ones above
        side = o.deployment or ("cloud" if o.kind in ("rent", "rent_offer") else None)
        c = candidate_at(profile, o.id, o.gpus, o.nodes, o.run_hours, o.cost_per_run,
                       o.kind != "host_memory", deployment=side, currency=costs.currency,
                       first_days=days_before_start(profile, o.kind, side, o.gpus, o.nodes),
                       moved=moved_run(o.behind()[0]))
        out.append(c.model_copy(update={"label": o.label, "kind": o.kind}))
        if o.kind in ("setting", "numerics", "method", "rent") and o.cost_per_run is not None:
            # a setting change or a change of method at each of the user's own counts (on a
            # one-GPU machine weighed with more of its cards, the card they have alone, F31);
            # rented larger cards at each count rented (one large-memory card among them,
            # where one holds the job)
            out += [x.model_copy(update={"label": recounted(o.label, x.gpus),
                                         "kind": o.kind})
                    for x in _other_counts(o, profile, currency, market,
                                         any_count=o.kind == "rent")]
    return with_budget(with_deadline(out))


def with_deadline(pool: list[Candidate]) -> list[Candidate]:
    """A deadline binds where a candidate meets it: one that misses it (``not_runnable``
    "deadline") runs only when none of ``pool`` meets it; the deadline is then said, not
    enforced, and the user's value of time chooses among the setups that miss it (a user
    review: with a 2-day deadline nothing met, the rules' 16 H100 at 13.3 days stood where 32
    finish in 6.7 days for $57 more a run, a day worth $5,000). Idempotent. (A candidate over
    the budget met the deadline: the budget is checked after it.)"""
    return _binds_where_kept(pool, "deadline", (None, "budget"))


def with_budget(pool: list[Candidate]) -> list[Candidate]:
    """The budget binds where a candidate keeps to it: one over it (``not_runnable`` "budget")
    runs only when none of ``pool`` is within it (then the budget is said, not enforced: the
    answer stays the best over it). Idempotent, and right for a pool joined from two."""
    return _binds_where_kept(pool, "budget", (None,))


def _binds_where_kept(pool: list[Candidate], limit: str,
                      kept: tuple[str | None, ...]) -> list[Candidate]:
    """``pool`` with the candidates that miss ``limit`` runnable only where none of it keeps
    to the limit (``not_runnable`` in ``kept``)."""
    if not any(c.not_runnable == limit for c in pool):
        return pool
    keeps = any(c.not_runnable in kept for c in pool)
    return [c.model_copy(update={"runnable": not keeps}) if c.not_runnable == limit else c
            for c in pool]


def _other_counts(o: SetupOption, profile: Profile, currency: str | None,
                market: str | None, any_count: bool = False) -> list[Candidate]:
    """A setting change or a change of method at each count of the user's own GPUs but its
    listed one (``any_count``: at each count its projection has)."""
    from advisor.verdict.shared_costs import costs_shared

    changed, proj = o.behind()
    if changed is None or proj is None:
        return []
    costs = costs_shared(changed, proj, currency=currency, market=market)
    out = []
    for i, n in enumerate(proj.gpus):
        if n == o.gpus or (n > profile.hardware.total_gpus and not any_count) \
                or not costs.mode_priced:
            continue
        out.append(candidate_at(profile, o.id, n, proj.nodes[i], proj.run_hours[i],
                              costs.cost_per_run[costs.gpus.index(n)], proj.fits[i],
                              deployment=costs.side_at(n), currency=costs.currency,
                              first_days=days_before_start(profile, o.kind, costs.side_at(n),
                                                           n, proj.nodes[i]),
                              moved=moved_run(changed)))
    return out


def monthly_budget(profile: Profile, currency: str | None) -> float | None:
    """``economics.monthly_budget`` in ``currency`` (None: no budget, or no currency known)."""
    budget = profile.economics.monthly_budget
    if budget is None or currency is None:
        return None
    from advisor.catalog import load_catalog
    from advisor.costs.inputs import choose_currency, choose_market

    _, given_in = choose_currency(profile, choose_market(profile, None), None)
    return load_catalog().convert(budget, given_in, currency)


def bought_beyond(kind: str, side: str | None, gpus: int, profile: Profile) -> bool:
    """A setup of ``kind`` at ``gpus`` needs hardware bought before it runs: a ready setup
    (``setup``, ``buy_setup``), or more of the user's cards than the profile describes, priced
    on the own side (the described hardware is theirs to run on, owned or about to be)."""
    if kind in ("setup", "buy_setup"):
        return True
    return side == "own" and gpus > profile.hardware.total_gpus


def days_before_start(profile: Profile, kind: str, side: str | None, gpus: int, nodes: int,
                      gpu: object = None, intra_link: object = None) -> float:
    """Days before ``gpus`` GPUs on ``nodes`` machines of a setup of ``kind`` can start the
    runs a deadline counts: the first move (F16, F32: ``days_before_first_run``, as the cost
    model counts it) and, bought beyond the hardware the profile describes, its delivery
    (``purchase_days`` of ``gpu``, the profile's card unless given)."""
    days = days_before_first_run(gpus, nodes,
                                 moved_before=profile.economics.moved_to_multi_gpu_before)
    if bought_beyond(kind, side, gpus, profile):
        hw = profile.hardware
        days += purchase_days(hw.gpu, hw.intra_link) if gpu is None else \
            purchase_days(gpu, intra_link)
    return days


def candidate_at(profile: Profile, setup: str, gpus: int, nodes: int, hours: float,
               cost: float | None, fits: bool, *, deployment: str | None = None,
               currency: str | None = None, first_days: float = 0.0,
               moved: bool = False) -> Candidate:
    """``setup`` at ``gpus`` as the policy weighs it. A deadline counts the days before its
    first run (``first_days``: ``days_before_start``), as the costs table and the comparison
    do (reviews 10 and 11: an answer "chosen for the deadline" that the costs page said
    missed it, a server bought "meeting" 12 hours)."""
    runs = profile.training.runs_per_month
    deadline = profile.economics.deadline_days
    keeps = keeps_schedule(runs, hours)
    meets = deadline is None or meets_deadline(runs, deadline, hours, first_days)
    why = None
    if not fits:
        why = "memory"
    elif cost is None:
        why = "unpriced"
    elif not keeps:
        why = "schedule"
    elif not meets:
        why = "deadline"
    else:  # the month's runs over the budget (review 5: an answer over it was named)
        budget = monthly_budget(profile, currency)
        if budget is not None and cost * runs > budget * (1 + 1e-9):
            why = "budget"
    return Candidate(setup=setup, gpus=gpus, nodes=nodes, run_hours=hours, cost_per_run=cost,
                     runnable=why is None, not_runnable=why, deployment=deployment, moved=moved)


def moved_run(changed: Profile | None) -> bool:
    """``changed`` runs the user's timed run moved to another card (``Candidate.moved``)."""
    return changed is not None and changed.training.timed_card_gb is not None


def as_weighed(a: Candidate, b: Candidate) -> tuple[Candidate, Candidate]:
    """``a`` and ``b`` as the policy weighs them against each other: where exactly one of them
    runs the user's timed run moved to another card (``Candidate.moved``), that one at
    ``MOVED_CARD_ERROR`` more time, and as much more rent where it is rented by the hour."""
    if a.moved == b.moved:
        return a, b

    def slower(c: Candidate) -> Candidate:
        cost = c.cost_per_run
        if cost is not None and c.deployment == "cloud":
            cost *= 1.0 + MOVED_CARD_ERROR
        return c.model_copy(update={"run_hours": c.run_hours * (1.0 + MOVED_CARD_ERROR),
                                    "cost_per_run": cost})

    return (slower(a), b) if a.moved else (a, slower(b))


def beats(a: Candidate, b: Candidate, margin: float = MARGIN) -> bool:
    """``a`` is no slower and no dearer per run than ``b`` (within ``TIE``: what the figures
    call the same) and better by ``margin`` or more on at least one of the two: as fast for
    far less, or far faster for as much (a run moved to another card weighed as
    ``as_weighed`` says)."""
    if a.cost_per_run is None or b.cost_per_run is None:
        return False
    a, b = as_weighed(a, b)
    no_slower = a.run_hours <= (1 + TIE) * b.run_hours
    no_dearer = a.cost_per_run <= (1 + TIE) * b.cost_per_run + 1e-9
    faster = a.run_hours <= (1 - margin) * b.run_hours
    cheaper = a.cost_per_run <= (1 - margin) * b.cost_per_run + 1e-9
    return no_slower and no_dearer and (faster or cheaper or same_cards_rented_for_less(a, b))


BUYS = frozenset({"buy_setup"})  # a ready setup bought
BUYS_WHEN_OWN = frozenset({"more_machines", "more_cards"})  # more of the user's, owned


def buys_hardware(c: Candidate) -> bool:
    """``c`` needs hardware bought beyond the user's: a ready setup, or more machines or cards
    of theirs owned rather than rented."""
    return c.kind in BUYS or (c.kind in BUYS_WHEN_OWN and c.deployment != "cloud")


def outscores(a: Candidate, b: Candidate, per_day: float, margin: float = MARGIN) -> bool:
    """By the user's own criterion (``score``: a run's money plus its time at what a day saved
    is worth to them), ``a`` costs ``margin`` or more less than ``b``. Never where a day saved
    has no money value (``per_day`` 0: the time would count nothing, and faster would never
    pay), and never to hardware bought (review 9: an 8B QLoRA at $50,000 a day was sent to buy
    a $90k L40S server where renting, which the candidates do not hold at every count, costs a
    fraction; a purchase moves the answer only by beating it on both time and cost)."""
    if per_day <= 0.0 or a.cost_per_run is None or b.cost_per_run is None or \
            buys_hardware(a):
        return False
    a, b = as_weighed(a, b)
    return score(a, per_day)[0] <= (1.0 - margin) * score(b, per_day)[0]


def improves(a: Candidate, b: Candidate, per_day: float) -> bool:
    """``a`` beats ``b`` on both (``beats``) or by the user's criterion (``outscores``)."""
    return beats(a, b) or outscores(a, b, per_day)


def same_cards_rented_for_less(a: Candidate, b: Candidate) -> bool:
    """``a`` and ``b`` are one projection (the same time to the hour's millionth: the same
    cards at the same count) rented at two prices, ``a`` for ``TIE`` or more less: the margin
    guards against figures that may err, and here they err alike while the prices are what
    the offers say (reviews 3 and 5: a reservation $9k a run cheaper for the same 64 H100s
    was left unchosen, 8.5 % under the margin)."""
    if a.deployment != "cloud" or b.deployment != "cloud":
        return False
    same_time = abs(a.run_hours - b.run_hours) <= 1e-6 * max(b.run_hours, 1e-9)
    return same_time and a.cost_per_run <= (1 - TIE) * b.cost_per_run


def rivals(pool: list[Candidate], pick: Candidate) -> list[Candidate]:
    """The runnable candidates that may beat ``pick``: a change of method (what is trained
    changes) only rivals a pick that changes the method too."""
    return [c for c in pool if c.runnable and (pick.kind == "method" or c.kind != "method")]


def chosen(rec: Recommendation, pool: list[Candidate]) -> Candidate | None:
    """The candidate the recommendation answers with (None: it answers with none)."""
    if not rec.verdict.runnable:
        return None
    applied = next((o for o in rec.setups if o.applied), None)
    setup = "as_given" if applied is None else applied.id
    return next((c for c in pool if c.setup == setup and c.gpus == rec.verdict.gpus), None)


def score(c: Candidate, per_day: float) -> tuple[float, float]:
    """What a run costs the user: its money plus its time at what a day saved is worth to
    them (nothing when they said none or nothing); the faster first at equal cost."""
    return ((c.cost_per_run or 0.0) + per_day * c.run_hours / 24.0, c.run_hours)


def day_value(rec: Recommendation) -> float:
    """What a day saved is worth, in the report's currency (0: not counted as money)."""
    return float(rec.costs.priced_with.get("value_per_day", 0.0) or 0.0)


def budget_unkept(pool: list[Candidate]) -> bool:
    """A monthly budget no candidate of ``pool`` keeps to: some are over it and none runs
    within it (``with_budget`` then lets those over it run)."""
    return any(c.not_runnable == "budget" for c in pool) and \
        not any(c.not_runnable is None for c in pool)


def policy_day_value(rec: Recommendation, profile: Profile,
                     pool: list[Candidate] | None = None) -> float:
    """The value of a day the policy weighs moves with: ``day_value``, but none where a
    monthly budget is set and no candidate of ``pool`` (default: ``rec``'s) keeps to it:
    money binds there (review 9: an answer over every option's budget was moved to a dearer
    one for the time it saves). A budget some candidates keep to only rules out those over
    it (``with_budget``); among the rest the user's value of time still weighs (a user
    review: any budget, $100,000 a month included, sent a run of 4.9 h to 9.9 h to save $53
    a month against $1,175 of the user's time)."""
    if profile.economics.monthly_budget is not None and \
            budget_unkept(rec.candidates if pool is None else pool):
        return 0.0
    return day_value(rec)


@record
class Move:
    """Where the policy moves the answer: a candidate, the one it moves from, and why."""

    to: Candidate
    from_: Candidate | None
    reason: Text

    @property
    def gpus(self) -> int:
        return self.to.gpus

    def trace_entry(self) -> TraceEntry:
        """The step in the Why list; its message names the setups, moved from and to."""
        facts = {"from_gpus": self.from_.gpus} if self.from_ is not None else {}
        return TraceEntry(rule=RULE_ID, sources=list(SOURCES),
                          conclusion={"gpus": self.to.gpus}, facts=facts, stage="decide",
                          message=self.reason, decided=["gpus"])


def better(rec: Recommendation, profile: Profile, pool: list[Candidate] | None = None
           ) -> Move | None:
    """Where the answer must move, by the policy above (None: the rules' pick stands)."""
    pool = candidates(rec, profile) if pool is None else pool
    runnable = [c for c in pool if c.runnable]
    if not runnable:
        return None
    pick = chosen(rec, pool)
    applied = next((o for o in rec.setups if o.applied), None)
    if pick is not None and applied is not None:  # named with the change it rests on
        pick = pick.model_copy(update={"label": _at_count(applied.label, pick.gpus)})
    per_day = policy_day_value(rec, profile, pool)
    if pick is None or not pick.runnable:
        best = settled(runnable, pool, per_day)
        return Move(best, pick, reason_unrunnable(pick, profile))
    beating = [c for c in rivals(pool, pick) if improves(c, pick, per_day)]
    if not beating:
        return None
    best = settled(beating, pool, per_day)
    return Move(best, pick, reason_moved(pick, best, rec.costs.currency, per_day))


def settled(first: list[Candidate], pool: list[Candidate], per_day: float) -> Candidate:
    """The best of ``first`` by the user's criterion, or where a candidate of ``pool`` that
    may rival it beats it, the best of those, and so on until none does: the answer moved to
    is never itself beaten."""
    best = min(first, key=lambda c: score(c, per_day))
    seen = [best]
    while True:
        beating = [c for c in rivals(pool, best) if improves(c, best, per_day)]
        if not beating:
            return best
        best = min(beating, key=lambda c: score(c, per_day))
        if any(best is c for c in seen):  # a circle within the ties: stop where it closes
            return best
        seen.append(best)


def reason_moved(pick: Candidate, best: Candidate, currency: str,
                 per_day: float = 0.0) -> Text:
    """Why the answer moved from a runnable ``pick`` to ``best``: by how much it beats it, by
    what a run costs the user in money and time, or (the best reached from one that does)
    both in their figures."""
    if beats(best, pick):
        why = reason_beaten(pick, best)
    elif outscores(best, pick, per_day):
        why = reason_outscored(pick, best, currency, per_day)
    else:
        return reason_against(pick, best, currency)
    return moved_said(why, pick, best)


MOVED_PICK = Text(
    en="that setup's time is your timed run moved to its card by the two cards' speed ratio, "
       "which misses by about {err:.0%} (published pairs of cards): weighed at {err:.0%} more "
       "time, it loses",
    zh="那个配置的时间是把你实测的训练按两张卡的速度比换算过去的，这种换算通常差约 {err:.0%}"
       "（已发表的成对显卡实测）：多算 {err:.0%} 的时间后它不占优")
MOVED_BEST = Text(
    en="its time is your timed run moved to its card by the two cards' speed ratio, which "
       "misses by about {err:.0%} (published pairs of cards): it wins with {err:.0%} more time "
       "as well",
    zh="它的时间是把你实测的训练按两张卡的速度比换算过去的，这种换算通常差约 {err:.0%}"
       "（已发表的成对显卡实测）：多算 {err:.0%} 的时间也仍然占优")


def moved_said(why: Text, pick: Candidate, best: Candidate) -> Text:
    """``why`` (one sentence) with what a run moved to another card is weighed at, where one
    of the two is, in the same sentence (the answer's "Why" line is its first)."""
    if pick.moved == best.moved:
        return why
    note = (MOVED_PICK if pick.moved else MOVED_BEST).format(err=MOVED_CARD_ERROR)
    return Text(en=f"{why.en.rstrip().rstrip('.')}; {note.en}.",
                zh=f"{why.zh.rstrip().rstrip('。')}；{note.zh}。")


def reason_outscored(pick: Candidate, best: Candidate, currency: str, per_day: float) -> Text:
    """Both setups' time and money a run, and what a run costs the user in both at their
    value of a day (``score``)."""
    from advisor.costs.money import money

    was_en, now_en = durations("en", pick.run_hours, best.run_hours)
    was_zh, now_zh = durations("zh", pick.run_hours, best.run_hours)
    was_c, now_c = (money(c.cost_per_run or 0.0, currency) for c in (pick, best))
    day = money(per_day, currency)
    was_s, now_s = (money(score(c, per_day)[0], currency) for c in (pick, best))
    return Text(
        en=f"Chosen over {_with_detail_en(pick, f'{was_en} and {was_c} a run')}: {now_en} and {now_c} "
           f"a run; with a day saved worth {day} to you, a run costs {now_s} in money and time "
           f"against {was_s}.",
        zh=f"选它而不选{_with_detail_zh(pick, f'每次 {was_zh}、{was_c}')}：每次 {now_zh}、{now_c}；按你"
           f"给省下一天定的 {day}，每次训练的钱和时间合计 {now_s}，未选的那个为 {was_s}。")


def _hours(h: float, lang: str = "en") -> str:
    return duration(h, lang)


def reason_beaten(pick: Candidate, best: Candidate) -> Text:
    saved_t = 1 - best.run_hours / pick.run_hours
    saved_c = 1 - (best.cost_per_run or 0.0) / (pick.cost_per_run or 1.0)
    head_en = f"Chosen over {_with_detail_en(pick, f'{_hours(pick.run_hours)} a run')}"
    per_run_zh = "每次 " + _hours(pick.run_hours, "zh")
    head_zh = f"选它而不选{_with_detail_zh(pick, per_run_zh)}"
    if saved_t >= MARGIN and saved_c >= MARGIN:
        return Text(en=f"{head_en}, which it beats by {saved_t:.0%} on time and {saved_c:.0%} "
                       "on cost per run.",
                    zh=f"{head_zh}：单次时间少 {saved_t:.0%}，单次成本低 {saved_c:.0%}。")
    if saved_c >= MARGIN or same_cards_rented_for_less(best, pick):  # as fast, cheaper
        return Text(en=f"{head_en}: as fast, for {saved_c:.0%} less a run.",
                    zh=f"{head_zh}：一样快，单次成本低 {saved_c:.0%}。")
    return Text(en=f"{head_en}: {saved_t:.0%} less time a run for the same cost.",
                zh=f"{head_zh}：成本相同，单次时间少 {saved_t:.0%}。")


CANNOT_RUN_AS_CONFIGURED = Text(en="Chosen because the setup as configured cannot run this job.",
                                zh="选它是因为按现有配置跑不了这个任务。")


def reason_unrunnable(pick: Candidate | None, profile: Profile) -> Text:
    if pick is None:
        return CANNOT_RUN_AS_CONFIGURED
    runs = profile.training.runs_per_month
    if pick.not_runnable == "schedule":
        unit = "run" if runs == 1 else "runs"
        return Text(
            en=f"Chosen over {_count_en(pick)}: at {_hours(pick.run_hours)} a run, "
               f"{runs:g} {unit} a month take more than the month's 730 hours.",
            zh=f"选它而不选{_count_zh(pick)}：后者每次 {_hours(pick.run_hours, 'zh')}，每月 {runs:g} 次训练"
               "超过一个月的 730 小时。")
    if pick.not_runnable == "memory":
        return Text(en=f"Chosen over {_count_en(pick)}, which does not fit in GPU memory.",
                    zh=f"选它而不选{_count_zh(pick)}：后者显存放不下。")
    if pick.not_runnable == "budget":
        from advisor.costs.inputs import choose_currency, choose_market
        from advisor.costs.money import money

        _, given_in = choose_currency(profile, choose_market(profile, None), None)
        budget = money(profile.economics.monthly_budget or 0.0, given_in)  # as the user wrote it
        return Text(en=f"Chosen over {_count_en(pick)}, whose runs cost more a month than the "
                       f"budget of {budget}.",
                    zh=f"选它而不选{_count_zh(pick)}：后者每月的训练费用超过 {budget} 的预算。")
    if pick.not_runnable == "deadline":
        days = profile.economics.deadline_days or 0.0
        return Text(en=f"Chosen over {_count_en(pick)}, which misses the {days:g}-day deadline.",
                    zh=f"选它而不选{_count_zh(pick)}：后者赶不上 {days:g} 天的截止时间。")
    return Text(en=f"Chosen over {_count_en(pick)}, which cannot be priced or run here.",
                zh=f"选它而不选{_count_zh(pick)}：后者在这里无法计价或运行。")


def _at_count(label: Text, gpus: int) -> Text:
    return Text(en=f"{label.en} on {'1 GPU' if gpus == 1 else f'{gpus} GPUs'}",
                zh=f"{label.zh}，{'单卡' if gpus == 1 else f'{gpus} 卡'}")


def _count_en(c: Candidate) -> str:
    if c.label is not None:
        return c.label.en
    n = "1 GPU" if c.gpus == 1 else f"{c.gpus} GPUs"
    if c.setup == "as_given":  # priced rented where that costs less (compare mode): say so
        return f"your setup rented at {n}" if c.deployment == "cloud" else f"your setup at {n}"
    # a count of the setup the figures rest on: where it runs, when the costs say
    # (a review: "Chosen over 2 GPUs" named no one's GPUs)
    return {"cloud": f"{n} rented", "own": f"{n} on your own hardware"}.get(c.deployment or "",
                                                                             n)


def _with_detail_en(c: Candidate, detail: str) -> str:
    """``c`` named with ``detail`` in one pair of brackets: "rent 8 × A100 (80 GB; 46 min and
    $23.48 a run)", never "(80 GB) (46 min …)"."""
    name = _count_en(c)
    return f"{name[:-1]}; {detail})" if name.endswith(")") else f"{name} ({detail})"


def _with_detail_zh(c: Candidate, detail: str) -> str:
    """``c`` named with ``detail`` in one pair of brackets: "你的配置（单卡，每次 1.5 小时）",
    never "你的配置（单卡）（每次 1.5 小时）" (review 10)."""
    name = _count_zh(c)
    return f"{name[:-1]}，{detail}）" if name.endswith("）") else f"{name}（{detail}）"


def _count_zh(c: Candidate) -> str:
    if c.label is not None:
        return c.label.zh
    n = "单卡" if c.gpus == 1 else f"{c.gpus} 卡"
    if c.setup == "as_given":
        return f"你的配置（租用，{n}）" if c.deployment == "cloud" else f"你的配置（{n}）"
    return {"cloud": f"租用 {n}", "own": f"自建 {n}"}.get(c.deployment or "", n)


def is_option(move: Move, options: list[SetupOption]) -> SetupOption | None:
    """The listed setup the move goes to (None: a count of the setup the figures rest on)."""
    applied = next((o for o in options if o.applied), None)
    if applied is not None and move.to.setup == applied.id:
        return None
    return next((o for o in options if o.id == move.to.setup), None)


def moved_rating(rating: str, move: Move) -> str:
    """The rating that goes with a count the policy moved to: several GPUs are required when
    the pick could not keep the schedule or the deadline, and worth it when they beat it (a
    job that needs them stays required); one GPU that beats a larger pick, or one larger
    card that holds what the user's cards cannot, means more GPUs are not worth it."""
    gpus = move.gpus
    if gpus > 1 and move.from_ is not None and move.from_.not_runnable in ("schedule",
                                                                           "deadline"):
        return "required"
    if gpus > 1 and rating in ("not_worth_it", "optional"):
        return "worth_it"
    if gpus == 1:  # one card holds it: more GPUs are not what it needs
        return "not_worth_it"
    return rating


def stands(rec: Recommendation, pool: list[Candidate], profile: Profile | None = None) -> bool:
    """Whether ``rec``'s answer may stand against ``pool``: it is one of the candidates, it
    can run, and none that may rival it beats it by the margin on both or by the user's
    criterion (``profile``: the one whose budget the policy keeps to)."""
    pick = chosen(rec, pool)
    if pick is None or not pick.runnable:
        return False
    per_day = day_value(rec) if profile is None else policy_day_value(rec, profile, pool)
    return not any(improves(c, pick, per_day) for c in rivals(pool, pick))


def reason_against(pick: Candidate | None, answer: Candidate, currency: str) -> Text:
    """Why the answer stands where the rules' pick did not, in the figures of both."""
    from advisor.costs.money import money

    if pick is None:
        return CANNOT_RUN_AS_CONFIGURED
    cost = "—" if pick.cost_per_run is None else money(pick.cost_per_run, currency)
    mine = "—" if answer.cost_per_run is None else money(answer.cost_per_run, currency)
    was_en, now_en = durations("en", pick.run_hours, answer.run_hours)
    was_zh, now_zh = durations("zh", pick.run_hours, answer.run_hours)
    return Text(
        en=f"Chosen over {_with_detail_en(pick, f'{was_en} and {cost} a run')}: {now_en} and {mine} "
           "a run.",
        zh=f"选它而不选{_with_detail_zh(pick, f'每次 {was_zh}、{cost}')}：每次 {now_zh}、{mine}。")
