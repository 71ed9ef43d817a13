"""What a reserved (committed) rental charges for the hours a run uses: its term is paid for
whole, idle hours included (``economics.reservation_term_months``; compare's reserved
offers, issue 29)."""

from __future__ import annotations

import math

from advisor.costs.breakeven import HOURS_PER_MONTH


def committed_share(runs_per_month: float, run_hours: float,
                    term_months: float | None = None,
                    horizon_months: float | None = None) -> float:
    """What a reserved (committed) rental charges for each hour a run uses. A reservation is
    paid for every hour of its term (``term_months``; unknown: one month): a run reserves whole
    terms, ``ceil(hours / term) x term``, or the set is held all along, the month's 730 hours
    shared by the month's runs, whichever costs less (1: the month's runs keep it busy). Held
    for the months the runs are planned (``horizon_months``; unknown: the term), it is paid
    in whole terms: a 36-month term for 3 months of runs costs 12 times those months (a
    review: $0.80 an hour of a 3-year reservation read as $584 a month for a 3-month plan,
    $21,024 committed)."""
    term = term_months or 1.0
    months = horizon_months if horizon_months and horizon_months > 0 else term
    paid = math.ceil(months / term - 1e-9) * term / months  # >= 1: whole terms over the plan
    busy = runs_per_month * run_hours
    if run_hours <= 0 or busy >= HOURS_PER_MONTH:
        return max(1.0, paid)
    term_hours = HOURS_PER_MONTH * term
    per_run = math.ceil(run_hours / term_hours - 1e-9) * term_hours
    if runs_per_month > 0:
        per_run = min(per_run, HOURS_PER_MONTH / runs_per_month * paid)
    return max(1.0, per_run / run_hours)


__all__ = ["committed_share"]
