"""The one-off move from one GPU to several, in days (F13-F16), and when it pays back.

F16 says a first move costs 1-3 days, so a job whose run takes under 3 days costs more on
several GPUs; F17 calls 1-3-day runs done 2-3 times a week "worth it". Both hold once the move
is counted against the time saved by all the runs in the planning horizon, not by one run.
"""

from __future__ import annotations

from advisor.catalog.entries import Migration


def migration_days(migration: Migration, *, moved_before: bool, machines: int = 1,
                   case: str = "days") -> float:
    """Engineer-days of the move: ``case`` is days (midpoint), days_low or days_high (F16).
    A team that has moved before pays only the extra work of several machines (F32)."""
    base = 0.0 if moved_before else float(getattr(migration, case))
    return base + (migration.extra_days_multi_machine if machines > 1 else 0.0)


def days_before_first_run(gpus: int, machines: int, *, moved_before: bool,
                           migration: Migration | None = None) -> float:
    """Days before the first run on ``gpus`` GPUs can start: the quickest first move (F16's
    low end, 1 day) for a team that has not moved before, and F32's extra work of several
    machines; none on one GPU. A deadline counts them: 44 h of runs on three GPUs do not
    meet a 2-day deadline that the move takes a day of (review 3)."""
    if gpus <= 1:
        return 0.0
    if migration is None:
        from advisor.catalog import load_catalog

        migration = load_catalog().migration
    return migration_days(migration, moved_before=moved_before, machines=machines,
                          case="days_low")


def purchase_days(gpu, intra_link=None, *, migration: Migration | None = None) -> float:
    """Days before hardware of ``gpu`` cards bought (a profile's ``hardware.gpu``, or a
    catalog id) runs its first job: ordered, delivered and installed
    (``Migration.procurement_days``; reviews 10 and 11: an 8-card server bought "met" a
    12-hour deadline that a rental missed)."""
    from advisor.catalog import load_catalog, resolve_gpu
    from advisor.files.errors import InputError

    try:
        gpu_class = resolve_gpu(gpu, intra_link).gpu_class
    except (InputError, ValueError, KeyError):
        gpu_class = None
    return (migration or load_catalog().migration).procurement_days(gpu_class)


def hours_saved_per_run(single_gpu_hours: float, speedup: float) -> float:
    """Wall-clock hours one run saves at ``speedup`` (negative when it runs slower)."""
    return single_gpu_hours - single_gpu_hours / speedup


def migration_payback_runs(days: float, saved_hours_per_run: float) -> float | None:
    """Runs needed before the time saved equals the days spent moving (day for day, as F16
    counts it); None when more GPUs save nothing."""
    if saved_hours_per_run <= 0:
        return None
    return days * 24.0 / saved_hours_per_run


def worth_moving(days: float, saved_hours_per_run: float, runs_in_horizon: float) -> bool:
    """F16/F17: the move pays back when the runs in the horizon save more time than it costs."""
    payback = migration_payback_runs(days, saved_hours_per_run)
    return payback is not None and runs_in_horizon >= payback
