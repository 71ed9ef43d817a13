"""What a comparison measures every setup's net value against (``compare``, and the answer's
figure over the user's setup, ``over_yours``)."""

from __future__ import annotations

from advisor.compare.result import OptionResult, PointRef
from advisor.compare.text import round_count
from advisor.costs.model import keeps_schedule


def net_value_baseline(results: list[OptionResult], runs_per_month: float,
              owned: int = 0) -> PointRef | None:
    """The user's setup at its fewest GPUs that can do the month's runs (else the first
    option's that can), else at its fewest that can run the job: the cost model's baseline
    (``costs.model._baseline``), so a net value here and in ``recommend`` read alike, and no
    fast setup's days saved are counted against runs the baseline never finishes. Where one
    GPU cannot be it and the user's ``owned`` GPUs (more than one) can, those."""
    ordered = sorted(results, key=lambda r: r.kind != "yours")
    fallback = None
    for res in ordered:  # the first setup, the user's first, with a count that keeps up
        fitting = [p for p in res.points if p.fits and p.priced]
        if res.kind == "yours" and owned > 1 and not any(
                p.gpus == 1 and keeps_schedule(runs_per_month, p.run_hours) for p in fitting):
            mine = [p for p in fitting if p.gpus == owned
                    and keeps_schedule(runs_per_month, p.run_hours)]
            if mine:  # owned hardware treated as owned (costs.model._owned_baseline)
                return PointRef(option=res.id, gpus=owned)
        # at a count such a setup is built at, where one keeps up (not "11 GPUs": review 8)
        built = [p for p in fitting if round_count(p.gpus, res.gpus_per_node)]
        keeping = [p for p in built if keeps_schedule(runs_per_month, p.run_hours)] or \
            [p for p in fitting if keeps_schedule(runs_per_month, p.run_hours)]
        if keeping:
            return PointRef(option=res.id, gpus=min(p.gpus for p in keeping))
        if fitting and fallback is None:
            fallback = PointRef(option=res.id, gpus=min(p.gpus for p in fitting))
    return fallback
