"""The cost model: cost per run and per month for 1…N GPUs, buy versus rent, the value of the
time saved and the one-off move to multi-GPU (the second half of "is it worth it", F02).

Python API::

    from advisor.costs import estimate_costs
    report = estimate_costs(profile, projection, lang="zh")   # CostReport, in CNY

``CITED_FACTS`` lists the article facts this package encodes and where.
"""

from advisor.costs.breakeven import (
    F31_OWN_ABOVE_HOURS_PER_MONTH,
    F31_RENT_BELOW_HOURS_PER_MONTH,
    ArticleBreakeven,
    article_breakeven,
    breakeven_hours_per_month,
    breakeven_months,
)
from advisor.costs.migration import migration_days, migration_payback_runs, worth_moving
from advisor.costs.model import estimate_costs
from advisor.costs.result import BuyVsRent, CostReport

CITED_FACTS: dict[str, str] = {
    "F02": "model.estimate_costs: net value = time saved x value of a day - extra cost",
    "F09": "model.setup_cost + economics.yaml system_power: a one-GPU machine draws 300-450 W",
    "F10": "economics.yaml machine_overheads: 4-GPU supporting parts 1.5-2x a one-GPU machine's",
    "F11": "economics.yaml system_power: a 4-GPU machine's electricity about 3x a one-GPU one's",
    "F12": "model.estimate_costs time_saved_value: deadline / revenue / none (learning = 0)",
    "F13": "model.setup_cost migration: data-loader rework is part of the one-off move",
    "F14": "model.setup_cost migration: learning-rate scaling is part of the one-off move",
    "F15": "model.setup_cost migration: NCCL time-outs and memory conflicts to debug",
    "F16": "migration.py: the first move costs 1-3 engineer-days; one short run never repays it",
    "F17": "migration.worth_moving: spread over the runs in the horizon, 1-3-day runs pay back",
    "F22": "economics.yaml machine_overheads steps at 4 and 8 GPUs (the recommended sizes)",
    "F23": "economics.yaml machine_overheads: 8 GPUs need dual supplies / server board",
    "F31": "breakeven.article_breakeven: 50 h / 200 h a month from the article's prices",
    "F32": "migration.migration_days: several machines add a day of work",
}

__all__ = [
    "CITED_FACTS",
    "F31_OWN_ABOVE_HOURS_PER_MONTH",
    "F31_RENT_BELOW_HOURS_PER_MONTH",
    "ArticleBreakeven",
    "BuyVsRent",
    "CostReport",
    "article_breakeven",
    "breakeven_hours_per_month",
    "breakeven_months",
    "estimate_costs",
    "migration_days",
    "migration_payback_runs",
    "worth_moving",
]
