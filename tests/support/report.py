"""What the report tests share: the date printed on every report, and a 7B model on 4 x RTX 4090
at batch 1 whose verdict (8 GPUs: two machines of 4-way tensor parallel) lies beyond the
profile's own machine (the rule base's own pick: the decision policy would move it to rented
A100s, issue 29), with the recommendation cut back to that machine's rows."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache

from advisor.profile import Profile
from advisor.verdict.result import Recommendation
from tests.support.paths import PROFILES
from tests.support.verdict import rules_pick

WHEN = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
LLAMA = PROFILES / "report" / "llama7b-4x4090-batch1.yaml"


@cache
def llama() -> tuple[Recommendation, Profile]:
    return rules_pick(LLAMA, "en")


def only_rows(model, counts: list[int]):
    """``model`` (a projection or cost report) cut to the rows of ``counts``."""
    rows = [model.gpus.index(n) for n in counts]
    size = len(model.gpus)
    return model.model_copy(update={name: [value[i] for i in rows] for name, value in model
                                    if isinstance(value, list) and len(value) == size})


def beyond_the_rows(rec: Recommendation) -> Recommendation:
    """The recommendation with rows for the profile's 1-4 GPUs only: no count of them fits,
    the verdict (8) beyond them."""
    mine = [n for n in rec.projection.gpus if n <= 4]
    costs = only_rows(rec.costs, mine)
    costs = costs.model_copy(update={"buy_vs_rent": costs.buy_vs_rent.model_copy(
        update={"gpus": 0, "breakeven_months": None, "breakeven_hours_per_month": None})})
    return rec.model_copy(update={"projection": only_rows(rec.projection, mine), "costs": costs})
