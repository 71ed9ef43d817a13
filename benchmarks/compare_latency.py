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
call first (catalogs, parameters and the rule base load once per process). Exits 1 when the
median of the figures exceeds the budget.
"""

from __future__ import annotations

import argparse
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
    print(f"{'part (ms)':<52} {'median':>8} {'p95':>8} {'CPU':>8}")
    print(f"{'figures, front, dominance, answers (verdicts=False)':<52} {median:8.1f} "
          f"{_p95(figures):8.1f} {statistics.median(figures_cpu):8.1f}")
    print(f"{'with every option rule verdict (verdicts=True)':<52} "
          f"{statistics.median(verdicts):8.1f} {_p95(verdicts):8.1f} "
          f"{statistics.median(verdicts_cpu):8.1f}")
    print(f"{'building the 10 options from the specs':<52} {statistics.median(build):8.1f} "
          f"{_p95(build):8.1f}")
    print(f"\nbudget {BUDGET_MS:.0f} ms median for the figures -> "
          f"{'ok' if median <= BUDGET_MS else 'OVER'}")
    return 0 if median <= BUDGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
