"""One option evaluated: its projection and cost report exactly as ``recommend`` makes them on
the option's profile (``considered`` then ``estimate_costs``), read into points; the rule
verdict, when asked for, from the same projection and costs (``recommend_from``)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from datetime import date
from threading import Lock
from typing import Any

from advisor.catalog import Catalog, resolve_gpu
from advisor.compare.options import Option
from advisor.compare.result import OptionResult, OptionVerdict, Point
from advisor.costs.breakeven import (
    HOURS_PER_MONTH,
    breakeven_hours_per_month,
    breakeven_month_limit,
    breakeven_months,
)
from advisor.costs.result import CostReport
from advisor.scaling.result import Projection
from advisor.verdict.beyond import Beyond
from advisor.verdict.decision import moved_run
from advisor.verdict.shared_costs import costs_shared


@dataclass(frozen=True)
class Evaluated:
    option: Option
    projection: Projection
    costs: CostReport
    larger: Beyond
    rests: Any = None  # advisor.verdict.recommendation.Resting: a setup change applied


def evaluate(option: Option, catalog: Catalog, currency: str,
             counts: list[int] | None = None) -> Evaluated:
    """The projection and costs ``recommend(option.profile, currency=currency)`` shows (with
    the setup change its verdict rests on, when one fits that option's machine: issue 17),
    at ``counts`` when given (``recommend --gpus``); inside ``reusing(cache)`` an option whose
    profile, catalog, currency and day were evaluated before is taken from the cache."""
    from advisor.verdict.resting import resting_on

    if option.max_gpus is not None:  # an offer's instance holds no more (review: 8 × RTX
        # 4090 "in one machine" at an offer that rents one card an instance), and rents no
        # fewer than its smallest instance
        counts = held_counts(option, counts)
    if counts is not None:
        rests = resting_on(option.profile, counts, listed=False)
        costs = costs_shared(rests.profile, rests.projection, currency=currency,
                             catalog=catalog)
        return Evaluated(option, rests.projection, costs, rests.larger, rests)
    cache = _reused.get()
    key = cache.key(option, catalog, currency) if cache is not None else None
    if key is not None:
        hit = cache.get(key)
        if hit is not None:
            return replace(hit, option=option)
    rests = resting_on(option.profile, listed=False)  # the verdict's change, not the list
    costs = costs_shared(rests.profile, rests.projection, currency=currency, catalog=catalog)
    out = Evaluated(option, rests.projection, costs, rests.larger, rests)
    if key is not None:
        cache.put(key, out, catalog)
    return out


class EvaluationCache:
    """Options evaluated before, by what their figures depend on: the option's profile, the
    catalog (the same object: a changed override file loads another), the currency, the day
    (a price's age) and the projection's parameters (the same objects). Kept by the desktop
    app across its live updates (``ui.window.recompute``): an edit of the user's hardware
    leaves the catalog's ready setups, whose profiles do not hold it, as they were. Bounded
    (least recently used out), safe across threads."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        # key -> (evaluated, the objects whose ids are in the key: kept alive with it, so an
        # id is never reused while its entry stands)
        self._items: OrderedDict[tuple, tuple[Evaluated, tuple]] = OrderedDict()
        self._lock = Lock()
        self.hits = self.misses = 0

    @staticmethod
    def _pins(catalog: Catalog) -> tuple:
        from advisor.scaling.llm_compute import load_llm_params
        from advisor.scaling.parameters import load_params

        return catalog, load_params(), load_llm_params()

    def key(self, option: Option, catalog: Catalog, currency: str) -> tuple:
        # the card a moved training's run was timed on is no field: its JSON does not hold it
        return (option.profile.model_dump_json(), option.profile.training.timed_card_gb,
                currency, date.today().isoformat(), *map(id, self._pins(catalog)))

    def get(self, key: tuple) -> Evaluated | None:
        with self._lock:
            hit = self._items.get(key)
            if hit is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return hit[0]

    def put(self, key: tuple, value: Evaluated, catalog: Catalog) -> None:
        with self._lock:
            self._items[key] = (value, self._pins(catalog))
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


_reused: ContextVar[EvaluationCache | None] = ContextVar("evaluation_cache", default=None)


@contextmanager
def reusing(cache: EvaluationCache | None) -> Iterator[None]:
    """``evaluate`` takes what ``cache`` holds, and adds to it, inside the block."""
    token = _reused.set(cache)
    try:
        yield
    finally:
        _reused.reset(token)


def held_counts(option: Option, asked: list[int] | None = None) -> list[int]:
    """The counts an option bounded by one offer's instance has (``Option.min_gpus`` to
    ``max_gpus``), of those ``asked`` when given; the whole instance when none is."""
    low, high = option.min_gpus, option.max_gpus or option.min_gpus
    return [n for n in (asked or range(low, high + 1)) if low <= n <= high] or [high]


def points(ev: Evaluated) -> list[Point]:
    pr, co = ev.projection, ev.costs
    horizon = co.priced_with.get("horizon_months", 0.0)
    runs_pm = co.priced_with.get("runs_per_month", 0.0)
    cloud_hour = co.priced_with.get("cloud_per_gpu_hour")
    kwh = co.priced_with.get("electricity_per_kwh", 0.0)
    pue = co.priced_with.get("pue", 1.0)
    both = co.own_priced and co.cloud_priced and cloud_hour is not None
    out = []
    for i, n in enumerate(pr.gpus):
        if n < ev.option.min_gpus or n > (ev.option.max_gpus or n):
            continue
        # Owned without a card price would leave the cards bought out of the cost: not
        # comparable; cards already owned need no price (sunk).
        priced = co.mode_priced and (co.own_priced_at(i) if co.mode == "own"
                                     else co.cloud_priced)
        hours = pr.run_hours[i]
        hours_pm = breakeven = None
        if both and horizon > 0:
            own_hour = co.power_w[i] / 1000.0 * pue * kwh
            hours_pm = breakeven_hours_per_month(co.capex[i], horizon, n * cloud_hour,
                                                 own_hour)
            if hours_pm is not None and hours_pm > HOURS_PER_MONTH:
                hours_pm = None  # even training around the clock owning does not pay
            usage = min(runs_pm * hours, HOURS_PER_MONTH)
            breakeven = breakeven_months(co.capex[i], usage * own_hour,
                                         usage * n * cloud_hour)
            if breakeven is not None and breakeven > breakeven_month_limit(horizon):
                breakeven = None
        # a reservation's idle hours are in the costs (economics.reservation_term_months)
        cost_run, cost_month = co.cost_per_run[i], co.cost_per_month[i]
        out.append(Point(
            gpus=n, nodes=pr.nodes[i], fits=pr.fits[i], priced=priced,
            speedup=pr.speedup[i], speedup_low=pr.speedup_low[i],
            speedup_high=pr.speedup_high[i], run_hours=hours,
            runs_per_month_capacity=HOURS_PER_MONTH / hours if hours > 0 else float("inf"),
            cost_per_run=cost_run, cost_per_month=cost_month,
            deployment=co.deployment[i] if co.deployment else ev.option.deployment,
            capex=co.capex[i], breakeven_hours_per_month=hours_pm,
            breakeven_months=breakeven))
    return out


def option_result(ev: Evaluated) -> OptionResult:
    o, hw = ev.option, ev.option.profile.hardware
    spec = resolve_gpu(hw.gpu, hw.intra_link)
    return OptionResult(
        id=o.id, kind=o.kind, label=o.label, gpu=spec.id, gpu_name=spec.name,  # type: ignore
        gpus_per_node=hw.gpus_per_node, intra_link=hw.intra_link.value,
        inter_link=hw.inter_link.value, deployment=o.deployment, spec=o.spec,  # type: ignore
        points=points(ev), notes=list(o.notes),
        moved=moved_run(o.profile),
        change=ev.rests.applied.label if ev.rests is not None and ev.rests.applied else None)


def verdict_of(ev: Evaluated, currency: str | None = None) -> OptionVerdict:
    """What ``recommend(option.profile)`` answers: the rule base's verdict from the same
    projection and costs, after the same decision policy (issue 29). An option whose verdict
    weighs setups beside it (a large model that does not fit its machine, or fits poorly; a
    starved input pipeline) is recommended in full, as ``recommend`` lists and weighs those
    setups; any other needs only its own counts, which it has."""
    from advisor.verdict.fits_here import needs_setups
    from advisor.verdict.pipeline_fix import starved
    from advisor.verdict.recommendation import decided, recommend, recommend_from

    rests = ev.rests
    option = ev.option.profile
    if rests is not None and (rests.applied is not None or needs_setups(option, ev.projection)
                              or starved(option)):
        rec = recommend(option, currency=currency,  # an offer's instance: its counts
                        gpus=None if ev.option.max_gpus is None else held_counts(ev.option))
    else:
        profile = rests.profile if rests is not None else option
        rec = recommend_from(profile, ev.projection, ev.costs, larger=ev.larger,
                             applied=rests.applied if rests is not None else None)
        if rests is not None:
            rec = decided(rec, rests, option, currency=currency)
    v = rec.verdict
    applied = next((o for o in rec.setups if o.applied), None)
    return OptionVerdict(rating=v.rating, gpus=v.gpus, deployment=v.deployment,
                         runnable=v.runnable, headline=v.headline,
                         setup=applied.id if applied is not None else None)
