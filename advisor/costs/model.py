"""Cost per run and per month for each GPU count, and the value of the time saved (F02).

For every N the projection covers: wall time and GPU-hours of one run; energy (each GPU's draw
plus the machine's, times PUE) and its price; the cloud bill; owned hardware spread over the
runs in the horizon, at most those one set of it can finish (``setup.SetupCost.runs_fit``);
the one-off move to multi-GPU spread over the runs in the horizon
(F13–F16); and the time saved × the value of a day (F12). Net value compares each N with one
GPU (or with the smallest N that fits, when one GPU cannot hold the model).
"""

from __future__ import annotations

import math

from advisor.catalog import Catalog, load_catalog
from advisor.catalog.price_age import stale_warnings
from advisor.costs.breakeven import HOURS_PER_MONTH, buy_vs_rent_curves
from advisor.costs.inputs import CostInputs, resolve_inputs
from advisor.costs.money import money
from advisor.costs.result import BuyVsRent, CostReport
from advisor.costs.setup import SetupCost, hardware_notes, setup_cost
from advisor.profile import Market, Profile
from advisor.scaling.result import Projection
from advisor.text.i18n import Text, system_lang

DAYS_PER_MONTH = 365.0 / 12.0


def _effective_mode(inp: CostInputs) -> tuple[str, list[Text]]:
    """The mode the report is costed in. A side without a price is never an error: its
    figures leave the unknown price out (``own_priced`` / ``cloud_priced`` False) and the
    notes from ``resolve_inputs`` name the field to fill in."""
    own_ok, cloud_ok = inp.gpu_price is not None, inp.cloud_per_gpu_hour is not None
    if inp.mode == "compare" and own_ok != cloud_ok:
        mode = "own" if own_ok else "cloud"
        return mode, [Text(en=f"compare mode: only {mode} can be priced",
                           zh=f"比较模式：只能计算{'自建' if mode == 'own' else '云实例租用'}成本")]
    return inp.mode, []


def estimate_costs(profile: Profile, projection: Projection, *, lang: str | None = None,
                   currency: str | None = None, catalog: Catalog | None = None,
                   market: Market | str | None = None) -> CostReport:
    """Costs and value of every GPU count in ``projection`` for ``profile``.

    Market: ``market`` if given, else the profile's (``advisor.profile.market``). Currency:
    ``currency`` if given, else the profile's, else the market's. ``lang`` only chooses the
    language of ``assumptions`` (both languages are in ``assumption_texts``): no number
    depends on it."""
    lang = lang or system_lang()
    catalog = catalog or load_catalog()
    inp = resolve_inputs(profile, catalog, currency=currency, market=market)
    mode, notes = _effective_mode(inp)
    notes = inp.notes + notes
    horizon, runs_pm = inp.horizon_months, inp.runs_per_month
    # Runs that share the hardware and the one-off move (F16 vs F17: spread over the horizon).
    runs_in_horizon = max(runs_pm * horizon, 1.0)
    if runs_pm * horizon < 1.0:
        notes.append(Text(en="fewer than one run in the horizon: per-run costs assume one run",
                          zh="规划周期内不足一次训练：按一次计算单次成本"))

    setups = [setup_cost(inp, n, projection.nodes[i], projection.run_hours[i])
              for i, n in enumerate(projection.gpus)]
    rows = [_per_run_and_month(s, mode, horizon, runs_pm, runs_in_horizon) for s in setups]
    own_run, cloud_run, mig_run, cost_run, cost_month, chosen = (
        list(col) for col in zip(*rows, strict=True))
    notes.extend(hardware_notes(inp, setups, runs_pm, horizon, mode, projection.fits))
    notes.extend(_migration_note(setups, horizon, inp.currency))
    # the days before each count's first run (the move: F16, F32)
    first = [inp.days_before_first_run(s.gpus, s.machines) for s in setups]

    # Net value is measured against one GPU; when one GPU was not projected it is costed
    # here, and when it cannot hold the job, against the smallest count that can; an answer
    # beyond the GPUs the user owns, against those (``_owned_baseline``).
    fits = list(projection.fits)
    said: list[Text] = []
    base_hours, base_month, base_gpus = _baseline(profile, projection, inp, setups,
                                                  cost_month, mode, runs_in_horizon, said)
    values = _values(inp, setups, fits, cost_month, base_hours, base_month)
    best = _best(inp, projection, setups, fits, values[2], cost_month, first)
    owned = None if base_gpus == 1 or best is None else \
        _owned_baseline(projection, inp, setups, runs_pm)
    if owned is not None and projection.gpus[best] > projection.gpus[owned]:
        base_hours, base_month = setups[owned].run_hours, cost_month[owned]
        base_gpus = projection.gpus[owned]
        said = [Text(en=f"value is compared with your {base_gpus} owned GPUs",
                     zh=f"价值与你已有的 {base_gpus} 卡相比")]
        values = _values(inp, setups, fits, cost_month, base_hours, base_month)
        best = _best(inp, projection, setups, fits, values[2], cost_month, first)
    notes.extend(said)
    saved_value, signed_value, net_value, days_saved = values
    deadline = _deadline_gpus(inp, projection, cost_month, fits, first)
    curves = _buy_vs_rent(inp, setups[best] if best is not None else None, runs_pm, horizon)
    if best is None:
        notes.append(Text(
            en="no GPU count costed here can hold this job in memory: there is no best value "
               "and no buy-vs-rent comparison (the rows show costs only)",
            zh="这里计算的卡数都放不下此任务：没有性价比最高的卡数，也不比较购买与租用"
               "（表中只列出成本）"))
    if deadline is None and inp.deadline_days is not None:
        notes.append(Text(en="no GPU count finishes the planned runs before the deadline",
                          zh="没有任何卡数能在截止前完成计划的训练"))
    return CostReport(
        currency=inp.currency, mode=mode, gpus=list(projection.gpus),
        run_hours=[s.run_hours for s in setups],
        gpu_hours_per_run=[s.gpus * s.run_hours for s in setups],
        energy_kwh_per_run=[s.energy_kwh_per_run for s in setups],
        energy_cost_per_run=[s.energy_cost_per_run for s in setups],
        cloud_cost_per_run=cloud_run, own_cost_per_run=own_run,
        migration_cost_per_run=mig_run, cost_per_run=cost_run, cost_per_month=cost_month,
        time_saved_value_per_month=saved_value, net_value_per_month=net_value,
        time_value_per_month=signed_value, baseline_cost_per_month=base_month,
        baseline_gpus=base_gpus,
        keeps_schedule=[keeps_schedule(runs_pm, s.run_hours) for s in setups],
        meets_deadline=[] if inp.deadline_days is None else [
            meets_deadline(runs_pm, inp.deadline_days, s.run_hours, days)
            for s, days in zip(setups, first, strict=True)],
        deployment=chosen, runs_fit_in_horizon=[s.runs_fit(horizon) for s in setups],
        time_value_given=profile.economics.time_value is not None,
        days_saved_per_month=days_saved, horizon_months=horizon,
        best_value_gpus=None if best is None else projection.gpus[best],
        deadline_gpus=deadline, buy_vs_rent=curves,
        assumptions=[t.get(lang) for t in notes], assumption_texts=notes,
        own_priced=inp.gpu_price is not None, cloud_priced=inp.cloud_per_gpu_hour is not None,
        owned_gpus=inp.owned_gpus,
        capex=[s.capex for s in setups], power_w=[s.power_w for s in setups],
        priced_with=inp.priced_with(), fits=fits, market=inp.market,
        price_warnings=stale_warnings(inp.uses), prices_used=_used(inp))


def _used(inp: CostInputs) -> list[dict[str, str | None]]:
    """The catalog entries behind the figures, each once: what, id, date."""
    seen: dict[str, dict[str, str | None]] = {}
    for use in inp.uses:
        seen.setdefault(use.entry, {"what": use.what.en, "what_zh": use.what.zh,
                                    "entry": use.entry, "as_of": use.as_of})
    return list(seen.values())


def keeps_schedule(runs_per_month: float, run_hours: float) -> bool:
    """Whether one set of hardware does a month's runs in a month's 730 hours."""
    return runs_per_month * run_hours <= HOURS_PER_MONTH * (1 + 1e-9)


def meets_deadline(runs_per_month: float, deadline_days: float, run_hours: float,
                   setup_days: float = 0.0) -> bool:
    """Whether the runs due before the deadline (at least one) finish in time, one after
    another on one set of hardware, after ``setup_days`` before the first can start
    (``migration.days_before_first_run``)."""
    runs_due = max(1.0, runs_per_month * deadline_days / DAYS_PER_MONTH)
    return runs_due * run_hours <= (deadline_days - setup_days) * 24.0 + 1e-9


def buy_vs_rent_at(report: CostReport, profile: Profile, projection: Projection, gpus: int, *,
                   catalog: Catalog | None = None) -> CostReport:
    """``report`` with its buy-vs-rent comparison for ``gpus`` GPUs instead of the best-value
    count: the recommendation compares owning and renting the setup it recommends (F31). The
    report is unchanged when ``gpus`` is already compared, not projected, or does not fit."""
    if gpus == report.buy_vs_rent.gpus or gpus not in projection.gpus \
            or not projection.fits[projection.gpus.index(gpus)]:
        return report
    catalog = catalog or load_catalog()
    inp = resolve_inputs(profile, catalog, currency=report.currency)
    i = projection.gpus.index(gpus)
    setup = setup_cost(inp, gpus, projection.nodes[i], projection.run_hours[i])
    curves = _buy_vs_rent(inp, setup, inp.runs_per_month, inp.horizon_months)
    return report.model_copy(update={"buy_vs_rent": curves})


def time_value_per_month(runs_per_month: float, base_hours: float, run_hours: float,
                         value_per_day: float) -> float:
    """F12/F02: a day's value per 24 wall-clock hours saved (negative: lost) a month.

    The runs of one month cannot save (or lose) more calendar time than the month has, however
    long they would take on the baseline (a 2000-hour run twice a month does not save 137 days
    a month): the days counted bend smoothly towards a month above half a month
    (``bounded_days``). A hard cap would give every count that saves more than a month the
    same value, and the cheapest of them would win although a larger one clears more of the
    backlog (review 4)."""
    return days_saved_per_month(runs_per_month, base_hours, run_hours) * value_per_day


def days_saved_per_month(runs_per_month: float, base_hours: float, run_hours: float) -> float:
    """The calendar days a month's runs save (negative: lose) against the baseline: what the
    value of a day multiplies. Where both do the month's runs (``keeps_schedule``) every day
    counts in full, at most a month, so the best count by net value is the best by a run's
    money plus its time (``verdict.decision.score``, reviews 7 and 8: a bend there valued the
    4 days 128 GPUs save over 64 at half); else bounded as ``bounded_days``."""
    days = runs_per_month * (base_hours - run_hours) / 24.0
    if keeps_schedule(runs_per_month, base_hours) and keeps_schedule(runs_per_month, run_hours):
        return days
    return bounded_days(days)


def bounded_days(days: float) -> float:
    """``days`` unchanged up to half a month; beyond it, rising ever more slowly towards a
    month (continuous, with slope 1 at the knee, and strictly increasing: more saved is never
    worth less)."""
    knee = DAYS_PER_MONTH / 2.0
    size = abs(days)
    if size <= knee:
        return days
    bent = knee + knee * (1.0 - math.exp(-(size - knee) / knee))
    return math.copysign(bent, days)


def _buy_vs_rent(inp: CostInputs, s: SetupCost | None, runs_pm: float,
                 horizon: float) -> BuyVsRent:
    """Owning vs renting the best-value setup; with no setup that can run, an empty
    comparison for no GPUs (``gpus`` 0, no crossing)."""
    if s is None:
        months = [float(m) for m in range(0, math.ceil(horizon) + 1)]
        zeros = [0.0] * len(months)
        return BuyVsRent(gpus=0, months=months, own_cumulative=zeros,
                         cloud_cumulative=list(zeros), breakeven_months=None,
                         breakeven_hours_per_month=None)
    own_per_hour = s.power_w / 1000.0 * inp.pue * inp.electricity_per_kwh
    cloud_per_hour = 0.0 if inp.cloud_per_gpu_hour is None \
        else s.gpus * inp.cloud_per_used_hour(s.run_hours)
    # One set of hardware does at most a month's 730 hours of runs: the comparison is for the
    # runs it can do (renting the same runs), not for a schedule it cannot keep.
    runs_done = min(runs_pm, runs_pm / max(s.busy_fraction(runs_pm), 1e-12))
    return buy_vs_rent_curves(
        s.gpus, s.capex, s.energy_cost_per_run * runs_done, s.cloud_cost_per_run * runs_done,
        horizon, cloud_per_hour, own_per_hour,
        priced=inp.gpu_price is not None and inp.cloud_per_gpu_hour is not None)


def _migration_note(setups: list[SetupCost], horizon: float, currency: str) -> list[Text]:
    """Where the costs per run and per month hold the one-off move to multi-GPU, and how it is
    spread: the jump in cost from one GPU to two is mostly that move (a chart or a table
    shows it unlabelled otherwise)."""
    moved = [s for s in setups if s.migration_total > 0.0]
    if not moved:
        return []
    first = min(moved, key=lambda s: s.gpus)
    total = money(first.migration_total, currency)
    month = money(first.migration_total / horizon, currency)
    more = any(s.migration_total > first.migration_total * (1 + 1e-9) for s in moved)
    en_more = "; several machines take more days" if more else ""
    zh_more = "；多台机器需要更多天数" if more else ""
    return [Text(en=f"from {first.gpus} GPUs the costs per run and per month include the "
                    f"one-off move to multi-GPU ({total}), spread over the {horizon:g} months "
                    f"of the horizon ({month} a month){en_more}",
                 zh=f"从 {first.gpus} 卡起，每次和每月成本包含一次性多卡迁移费用（{total}），"
                    f"分摊到规划周期的 {horizon:g} 个月（每月 {month}）{zh_more}")]


def _per_run_and_month(s: SetupCost, mode: str, horizon: float, runs_pm: float,
                       runs_in_horizon: float
                       ) -> tuple[float, float, float, float, float, str]:
    """(own, cloud, migration, chosen cost) per run, the chosen cost per month and the
    deployment chosen ("own" or "cloud").

    Owned hardware busy longer than a month's 730 hours per month of runs cannot keep the
    schedule: its purchase is spread over the runs it can do in the horizon (review 5, item
    2), which is the price of the planned runs on as many such sets as they need, pro rata.
    Compare mode picks the cheaper side per count, and says which (``deployment``)."""
    busy = max(1.0, s.busy_fraction(runs_pm))
    own_run = s.capex / min(runs_in_horizon, s.runs_fit(horizon)) + s.energy_cost_per_run
    own_month = s.capex / horizon * busy + s.energy_cost_per_run * runs_pm
    cloud_month = s.cloud_cost_per_run * runs_pm
    mig_run = s.migration_total / runs_in_horizon
    if mode == "own" or (mode == "compare" and own_month <= cloud_month):
        chosen, chosen_run, chosen_month = "own", own_run, own_month
    else:
        chosen, chosen_run, chosen_month = "cloud", s.cloud_cost_per_run, cloud_month
    return (own_run, s.cloud_cost_per_run, mig_run, chosen_run + mig_run,
            chosen_month + s.migration_total / horizon, chosen)


def _values(inp: CostInputs, setups: list[SetupCost], fits: list[bool], cost_month: list[float],
            base_hours: float, base_month: float
            ) -> tuple[list[float], list[float], list[float], list[float]]:
    """(time saved's value, its signed value, net value, days saved) a month of every count
    against the baseline's hours and cost a month."""
    runs_pm = inp.runs_per_month
    saved_value, signed_value, net_value, days_saved = [], [], [], []
    for i, s in enumerate(setups):
        if not fits[i]:
            # A setup that cannot run saves nothing and costs nothing comparable: 0.0 here,
            # "—" wherever it is shown (``fits`` marks it).
            saved_value.append(0.0)
            signed_value.append(0.0)
            net_value.append(0.0)
            days_saved.append(0.0)
            continue
        days_saved.append(days_saved_per_month(runs_pm, base_hours, s.run_hours))
        value = time_value_per_month(runs_pm, base_hours, s.run_hours, inp.value_per_day)
        # The saved value is never negative: a slower setup saves nothing. The signed value
        # (negative: time lost) is what the net value adds to the extra cost (review 5,
        # item 13: a table showing $0 next to a net of -$110k must show the loss).
        saved_value.append(max(0.0, value))
        signed_value.append(value)
        net_value.append(value - (cost_month[i] - base_month))
    return saved_value, signed_value, net_value, days_saved


def _best(inp: CostInputs, projection: Projection, setups: list[SetupCost], fits: list[bool],
          net_value: list[float], cost_month: list[float], first: list[float]) -> int | None:
    """The index of the best net value among the counts that can run. Only runs that can
    happen (issue 29): where some count does the month's runs on one set of hardware and
    meets the deadline, the best value is one of those."""
    runs_pm = inp.runs_per_month
    candidates = [i for i, ok in enumerate(fits) if ok]
    possible = [i for i in candidates if keeps_schedule(runs_pm, setups[i].run_hours)
                and (inp.deadline_days is None
                     or meets_deadline(runs_pm, inp.deadline_days, setups[i].run_hours,
                                       first[i]))]
    candidates = possible or candidates
    if inp.monthly_budget is not None:  # within the budget, where a count keeps to it
        within = [i for i in candidates if cost_month[i] <= inp.monthly_budget * (1 + 1e-9)]
        candidates = within or candidates
    return max(candidates, key=lambda i: (round(net_value[i], 6), -projection.gpus[i])) \
        if candidates else None


def _owned_baseline(projection: Projection, inp: CostInputs, setups: list[SetupCost],
                    runs_pm: float) -> int | None:
    """The index of the user's owned GPUs as the baseline of an answer beyond them, where
    one GPU cannot be it: the owned count is costed, holds the job and does the month's runs
    (reviews 8 and 9: renting 16 GPUs "worth $10,323 a month over 2 GPUs" to an owner of 8
    counted what the 8 already give; over them it is $787). An answer within the owned GPUs
    keeps the fewest that run the job as its baseline: the rules read that figure."""
    owned = inp.owned_gpus
    if owned <= 1 or owned not in projection.gpus:
        return None
    i = projection.gpus.index(owned)
    if projection.fits[i] and keeps_schedule(runs_pm, setups[i].run_hours):
        return i
    return None


def _baseline(profile: Profile, projection: Projection, inp: CostInputs,
              setups: list[SetupCost], cost_month: list[float], mode: str,
              runs_in_horizon: float, notes: list[Text]) -> tuple[float, float, int | None]:
    """(run hours, cost a month, GPUs) of the setup every N is compared with: one GPU when
    it can hold the job and do the month's runs; else the fewest GPUs that can (only runs
    that can happen, issue 29: days "saved" against a baseline that cannot finish the runs
    are days it never had, and every fast count saved the same bounded month: reviews 7 and
    8); else one GPU that holds the job, else the fewest that do."""
    fits, runs_pm = projection.fits, inp.runs_per_month
    one: tuple[float, float, int] | None = None
    if 1 in projection.gpus and fits[projection.gpus.index(1)]:
        i = projection.gpus.index(1)
        one = (setups[i].run_hours, cost_month[i], 1)
    elif 1 not in projection.gpus and projection.single_gpu_fits:
        single = setup_cost(inp, 1, 1, projection.run_hours_one_gpu or profile.run_hours_one_gpu)
        row = _per_run_and_month(single, mode, inp.horizon_months, runs_pm, runs_in_horizon)
        one = (single.run_hours, row[4], 1)
    if one is not None and keeps_schedule(runs_pm, one[0]):
        return one
    why = (Text(en="one GPU cannot do the month's runs", zh="单卡做不完每月的训练")
           if one is not None else
           Text(en="one GPU cannot run this job", zh="单卡无法运行此任务"))
    keeping = [i for i, ok in enumerate(fits)
               if ok and keeps_schedule(runs_pm, setups[i].run_hours)]
    if keeping:
        i = keeping[0]
        n = projection.gpus[i]
        notes.append(Text(en=f"{why.en}: value is compared with {n} GPUs, the fewest that can "
                             "do the month's runs",
                          zh=f"{why.zh}：价值与 {n} 卡相比（能做完每月训练的最少卡数）"))
        return setups[i].run_hours, cost_month[i], n
    if one is not None:
        return one
    if not any(fits):
        return setups[0].run_hours, cost_month[0], None  # unused: no row has a value
    i = next(k for k, ok in enumerate(fits) if ok)
    n = projection.gpus[i]
    notes.append(Text(en=f"one GPU cannot run this job: value is compared with {n} GPUs",
                      zh=f"单卡无法运行此任务：价值与 {n} 卡相比"))
    return setups[i].run_hours, cost_month[i], n


def _deadline_gpus(inp: CostInputs, projection: Projection, cost_month: list[float],
                   fits: list[bool], first: list[float]) -> int | None:
    """Cheapest N that finishes the runs due before the deadline, one after another, after
    the days before its first run (``first``)."""
    if inp.deadline_days is None:
        return None
    meeting = [i for i, h in enumerate(projection.run_hours)
               if fits[i] and meets_deadline(inp.runs_per_month, inp.deadline_days, h, first[i])]
    if not meeting:
        return None
    return projection.gpus[min(meeting, key=lambda i: (cost_month[i], projection.gpus[i]))]
