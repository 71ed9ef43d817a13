"""Latency of a setup comparison: 10 options from 1 up to 64 GPUs (budget: 50 ms median for
the figures, the front and the answers).

    .venv/bin/python -m benchmarks.compare_latency [--repeat 30]

The medium example (4 x RTX 4090) against nine other options whose sizes run from 2 to 64
GPUs (one 8-GPU machine, two 4-GPU machines, an NVLink pair, 8 and 16 L40S, 32 A100s, 64
H100s owned and rented, 4090s rented): each option's projection and cost report as
``recommend`` makes them at every GPU count the scaling model weighs for it (1..N up to 16
GPUs, then powers of two and N), the Pareto front, what dominates each point and the answers
(``compare(..., verdicts=False)``). Also timed: the same with each option's rule verdict (the
rule engine once per option, ``verdicts=True``: what the CLI and the wizard show). One warm-up
call first (catalogs, parameters and the rule base load once per process).

Then the same for a large language model (examples/plan-7b-on-one-8xh100.yaml, a 7B model
planned from its size on 8 x H100, rented) with its ten default options (more machines, the
same GPUs rented, the US market's ready setups): its projections take the layout engine
(TP x PP x DP per count), the search for where the model first fits (``considered``) and,
on the workstations that cannot hold it, the search for a setting change that fits
(``resting_on``), several projections per option, each distinct one computed once per
comparison (``advisor.verdict.shared_projections``). Prints the load average at the start
and the end. Exits 1 when either median of the figures exceeds the budget.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUDGET_MS = 50.0
SPECS = ("8x rtx4090 pcie4 own", "2x4 rtx4090 ethernet_25g own", "2x rtx3090 nvlink_bridge own",
         "8x l40s pcie4 own", "2x8 l40s pcie4 ethernet_100g own",
         "4x8 a100_sxm4_80gb nvswitch infiniband_hdr own",
         "8x8 h100_sxm nvswitch infiniband_ndr own", "8x8 h100_sxm nvswitch cloud",
         "4x rtx4090 cloud=0.5")


def _ms(fn, repeat: int, clock=time.perf_counter) -> list[float]:
    times = []
    for _ in range(repeat):
        start = clock()
        fn()
        times.append((clock() - start) * 1000)
    return times


def _p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * (len(values) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    print("load average (1, 5, 15 min) at the start: "
          + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    start = time.perf_counter()
    from advisor.catalog.profile_check import load_profile
    from advisor.compare import compare, options_for

    profile = load_profile(ROOT / "examples" / "medium-model-4gpu-worth-it.yaml")
    options = options_for(profile, specs=SPECS)
    result = compare(profile, options)
    startup_ms = (time.perf_counter() - start) * 1000
    points = sum(len(o.points) for o in result.options)
    largest = max(p.gpus for o in result.options for p in o.points)
    print(f"start-up (imports, catalogs, rule base, first comparison): {startup_ms:.0f} ms")
    print(f"{len(options)} options, {points} GPU counts in all, 1 to {largest} GPUs; "
          f"front: {len(result.front)} points\n")
    figures = _ms(lambda: compare(profile, options, verdicts=False), args.repeat)
    verdicts = _ms(lambda: compare(profile, options, verdicts=True), args.repeat)
    build = _ms(lambda: options_for(profile, specs=SPECS), args.repeat)
    # CPU time of this process: what the work costs, whatever else shares the cores
    figures_cpu = _ms(lambda: compare(profile, options, verdicts=False), args.repeat,
                      time.process_time)
    verdicts_cpu = _ms(lambda: compare(profile, options, verdicts=True), args.repeat,
                       time.process_time)
    median = statistics.median(figures)
    print("data-parallel workload (examples/medium-model-4gpu-worth-it.yaml)")
    print(f"{'part (ms)':<52} {'median':>8} {'p95':>8} {'CPU':>8}")
    print(f"{'figures, front, dominance, answers (verdicts=False)':<52} {median:8.1f} "
          f"{_p95(figures):8.1f} {statistics.median(figures_cpu):8.1f}")
    print(f"{'with every option rule verdict (verdicts=True)':<52} "
          f"{statistics.median(verdicts):8.1f} {_p95(verdicts):8.1f} "
          f"{statistics.median(verdicts_cpu):8.1f}")
    print(f"{'building the 10 options from the specs':<52} {statistics.median(build):8.1f} "
          f"{_p95(build):8.1f}")
    llm = _large_model(args.repeat)
    print("load average (1, 5, 15 min) at the end: "
          + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"\nbudget {BUDGET_MS:.0f} ms median for the figures -> data-parallel: "
          f"{'ok' if median <= BUDGET_MS else 'OVER'}, large model (layouts): "
          f"{'ok' if llm <= BUDGET_MS else 'OVER'}")
    return 0 if max(median, llm) <= BUDGET_MS else 1


def _large_model(repeat: int) -> float:
    """The figures' median wall time for the 7B plan with its default options; prints its
    table (wall, p95, CPU)."""
    from advisor.catalog.profile_check import load_profile
    from advisor.compare import compare, options_for

    profile = load_profile(ROOT / "examples" / "plan-7b-on-one-8xh100.yaml")
    options = options_for(profile)
    result = compare(profile, options)
    points = sum(len(o.points) for o in result.options)
    largest = max(p.gpus for o in result.options for p in o.points)
    print(f"\nlarge language model, layouts (examples/plan-7b-on-one-8xh100.yaml): "
          f"{len(options)} options, {points} GPU counts, 1 to {largest} GPUs")
    figures = _ms(lambda: compare(profile, options, verdicts=False), repeat)
    cpu = _ms(lambda: compare(profile, options, verdicts=False), repeat, time.process_time)
    verdicts = _ms(lambda: compare(profile, options, verdicts=True), repeat)
    verdicts_cpu = _ms(lambda: compare(profile, options, verdicts=True), repeat,
                       time.process_time)
    median = statistics.median(figures)
    print(f"{'figures, front, dominance, answers (verdicts=False)':<52} {median:8.1f} "
          f"{_p95(figures):8.1f} {statistics.median(cpu):8.1f}")
    print(f"{'with every option rule verdict (verdicts=True)':<52} "
          f"{statistics.median(verdicts):8.1f} {_p95(verdicts):8.1f} "
          f"{statistics.median(verdicts_cpu):8.1f}")
    # of which: each option's projection (``considered``) and costs, as recommend makes them
    from advisor.catalog import load_catalog
    from advisor.compare.evaluate import evaluate

    try:  # as compare evaluates them (code before the shared projections: one by one)
        from advisor.verdict.shared_projections import sharing_projections
    except ImportError:
        from contextlib import nullcontext as sharing_projections

    catalog = load_catalog()

    def projections_and_costs() -> None:
        with sharing_projections():
            for o in options:
                evaluate(o, catalog, result.currency)

    alone = _ms(projections_and_costs, repeat)
    part = "  of which each option's projection and costs"
    print(f"{part:<52} {statistics.median(alone):8.1f} {_p95(alone):8.1f}")
    return median


if __name__ == "__main__":
    sys.exit(main())
