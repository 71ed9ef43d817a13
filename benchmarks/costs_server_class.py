"""Costs of server-class machines, runs longer than a month and slower counts (the profiles in
``benchmarks/data/server_class_costs/``): purchase, per-run costs and break-even. Run from the repository root:

    .venv/bin/python -m benchmarks.costs_server_class

p2a, p2c and p2e go through the live projection (the counts named below); p2d uses the run
hours the reviewer saw at 8, 24 and 32 GPUs (8: 286.33 h, 24: 2347.7 h, 32: 1979.3 h) so the
busy-hardware case stays reproducible when the scaling model changes. To print the figures of
an older tree, run this file against it, e.g.
``git archive HEAD advisor resources | tar -x -C /tmp/old`` and
``PYTHONPATH=/tmp/old .venv/bin/python benchmarks/costs_server_class.py``; fields that tree lacks
print as "-".
"""

from __future__ import annotations

from pathlib import Path

from advisor.catalog.profile_check import load_profile
from advisor.costs import estimate_costs
from advisor.scaling import project
from advisor.scaling.result import Projection

DATA = Path(__file__).resolve().parent / "data" / "server_class_costs"
REVIEWER_P2D = ([8, 24, 32], [286.33, 2347.7, 1979.3], [False, True, True], [1, 3, 4])
SHOWN = {"p2a": [8], "p2c": [8, 9, 16], "p2e": [8, 32]}


def fixed_projection(gpus, hours, fits, nodes) -> Projection:
    n = len(gpus)
    speedups = [2000.0 / h for h in hours]
    return Projection(
        gpus=gpus, nodes=nodes, speedup=speedups, speedup_low=speedups, speedup_high=speedups,
        efficiency=[s / g for s, g in zip(speedups, gpus, strict=True)], step_time_s=[1.0] * n,
        run_hours=hours, bottleneck=["compute"] * n, memory_per_gpu_gb=[1.0] * n, fits=fits,
        parallelism=["hybrid"] * n, single_gpu_fits=False)


def show(name: str, report, counts: list[int]) -> None:
    bvr = report.buy_vs_rent
    months = "None" if bvr.breakeven_months is None else f"{bvr.breakeven_months:.1f}"
    hours = "None" if bvr.breakeven_hours_per_month is None else \
        f"{bvr.breakeven_hours_per_month:.0f}"
    print(f"{name} ({report.mode}, pue {report.priced_with.get('pue', 1.0):g}): best "
          f"{report.best_value_gpus}, buy vs rent at {bvr.gpus} GPUs: break-even {months} "
          f"months / {hours} h a month")
    sides = getattr(report, "deployment", []) or ["-"] * len(report.gpus)
    values = getattr(report, "time_value_per_month", []) or report.time_saved_value_per_month
    for n in counts:
        i = report.gpus.index(n)
        print(f"  {n:>3} GPUs  {report.run_hours[i]:>8.1f} h  capex {report.capex[i]:>11,.0f}"
              f"  power {report.power_w[i]:>7,.0f} W  own/run {report.own_cost_per_run[i]:>9,.0f}"
              f"  cloud/run {report.cloud_cost_per_run[i]:>9,.0f}  cost/run "
              f"{report.cost_per_run[i]:>9,.0f} ({sides[i]})  time value/mo {values[i]:>10,.0f}"
              f"  net/mo {report.net_value_per_month[i]:>10,.0f}")


def main() -> None:
    for name, counts in SHOWN.items():
        profile = load_profile(DATA / f"{name}.yaml")
        report = estimate_costs(profile, project(profile), lang="en")
        show(name, report, [n for n in counts if n in report.gpus])
    profile = load_profile(DATA / "p2d.yaml")
    report = estimate_costs(profile, fixed_projection(*REVIEWER_P2D), lang="en")
    show("p2d (reviewer's run hours)", report, REVIEWER_P2D[0])


if __name__ == "__main__":
    main()
