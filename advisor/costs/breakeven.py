"""Buy versus rent: cumulative cost curves, where they cross, and the article's thresholds.

Owning costs the machine up front plus its electricity; renting costs the hours used. Both
curves are straight lines in months, so the crossing has a closed form and the sampled curves
can be checked against it.
"""

from __future__ import annotations

import math
from typing import Literal

from advisor.catalog.entries import ArticleDefaults
from advisor.costs.result import BuyVsRent
from advisor.files.records import record

HOURS_PER_MONTH = 24.0 * 365.0 / 12.0  # 730 h: "full load for a month" (F11, F31)
# Owning that pays off only after ten years, or ten planning horizons, does not pay off: the
# hardware is obsolete long before (a report saying "after 279 months" misleads).
MAX_BREAKEVEN_MONTHS = 120.0
MAX_BREAKEVEN_HORIZONS = 10.0

# F31: "more than 200 training hours a month: build your own; fewer than 50: rent".
F31_RENT_BELOW_HOURS_PER_MONTH = 50.0
F31_OWN_ABOVE_HOURS_PER_MONTH = 200.0


def breakeven_months(capex: float, own_per_month: float, cloud_per_month: float) -> float | None:
    """Months after which owning has cost less than renting; None when renting stays cheaper
    (the cloud bill does not exceed the running cost of owning)."""
    margin = cloud_per_month - own_per_month
    if margin <= 0 or capex < 0:
        return None
    return capex / margin


def breakeven_hours_per_month(capex: float, horizon_months: float, cloud_per_hour: float,
                              own_per_hour: float = 0.0,
                              own_fixed_per_month: float = 0.0) -> float | None:
    """Training hours a month above which owning costs less than renting over the horizon.

    Owning: capex spread over the horizon + a fixed monthly bill + a cost per hour used
    (electricity); renting: hours × the hourly price."""
    margin = cloud_per_hour - own_per_hour
    if margin <= 0 or horizon_months <= 0:
        return None
    return (capex / horizon_months + own_fixed_per_month) / margin


def breakeven_month_limit(horizon_months: float) -> float:
    """Months beyond which a crossing is reported as none: ten horizons, at most ten years."""
    return min(MAX_BREAKEVEN_HORIZONS * horizon_months, MAX_BREAKEVEN_MONTHS)


def buy_vs_rent_curves(gpus: int, capex: float, own_per_month: float, cloud_per_month: float,
                       horizon_months: float, cloud_per_hour: float, own_per_hour: float,
                       priced: bool = True) -> BuyVsRent:
    """Cumulative curves month by month (to the horizon, or on to the crossing when it comes
    later, at most ten years).

    ``breakeven_months`` is None when owning never catches up or only after
    ``breakeven_month_limit(horizon)``; ``breakeven_hours_per_month`` is None when owning
    costs more per hour than renting or would need more hours than a month has
    (``HOURS_PER_MONTH``): even training around the clock, owning does not pay off."""
    crossing = breakeven_months(capex, own_per_month, cloud_per_month) if priced else None
    if crossing is not None and crossing > breakeven_month_limit(horizon_months):
        crossing = None
    end = horizon_months
    if crossing is not None and crossing > end:
        end = min(crossing * 1.2, MAX_BREAKEVEN_MONTHS)
    months = [float(m) for m in range(0, math.ceil(end) + 1)]
    own = [capex + own_per_month * m for m in months]
    cloud = [cloud_per_month * m for m in months]
    hours = breakeven_hours_per_month(capex, horizon_months, cloud_per_hour, own_per_hour) \
        if priced else None
    if hours is not None and hours > HOURS_PER_MONTH:
        hours = None
    return BuyVsRent(gpus=gpus, months=months, own_cumulative=own, cloud_cumulative=cloud,
                     breakeven_months=crossing, breakeven_hours_per_month=hours)


@record
class ArticleBreakeven:
    """F31's break-even in training hours a month, from the article's own price ranges."""

    horizon_months: float
    power_billing: str
    most_favourable_to_owning: float  # cheapest workstation and power, dearest cloud
    midpoint: float
    least_favourable_to_owning: float  # dearest workstation and power, cheapest cloud
    rent_below: float = F31_RENT_BELOW_HOURS_PER_MONTH
    own_above: float = F31_OWN_ABOVE_HOURS_PER_MONTH

    def owning_wins(self, hours_per_month: float, case: str = "midpoint") -> bool:
        return hours_per_month > getattr(self, case)


def article_breakeven(article: ArticleDefaults, horizon_months: float | None = None,
                      power_billing: Literal["monthly", "per_hour"] = "monthly"
                      ) -> ArticleBreakeven:
    """Break-even hours for the article's 4-GPU workstation against its comparable cloud.

    ``monthly``: the article's own arithmetic, its ¥200–400 electricity as a monthly bill of
    owning (F31). ``per_hour``: the same bill read as full-load power (F11) and charged per
    hour actually used, as the cost model does for a user's profile."""
    horizon = horizon_months or article.horizon_months

    def hours(capex: float, power_month: float, cloud_hour: float) -> float:
        if power_billing == "monthly":
            value = breakeven_hours_per_month(capex, horizon, cloud_hour,
                                              own_fixed_per_month=power_month)
        else:
            value = breakeven_hours_per_month(capex, horizon, cloud_hour,
                                              own_per_hour=power_month / HOURS_PER_MONTH)
        assert value is not None  # the article's cloud always costs more per hour than power
        return value

    ws, pw, cl = (article.workstation_4gpu_price_cny, article.power_per_month_cny,
                  article.cloud_4gpu_per_hour_cny)
    return ArticleBreakeven(
        horizon_months=horizon, power_billing=power_billing,
        most_favourable_to_owning=hours(ws.low, pw.low, cl.high),
        midpoint=hours(ws.mid, pw.mid, cl.mid),
        least_favourable_to_owning=hours(ws.high, pw.high, cl.low),
        rent_below=article.rent_below_hours_per_month,
        own_above=article.own_above_hours_per_month)
