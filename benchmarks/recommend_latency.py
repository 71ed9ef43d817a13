"""Latency of one full recommendation (budget: at most 3 ms median after start-up, issue 21).

    .venv/bin/python -m benchmarks.recommend_latency [--repeat 200]

For every profile in examples/: one warm-up call (catalogs, parameters and the rule base are
loaded and compiled once per process), then ``--repeat`` timed calls of
``advisor.verdict.recommendation.recommend`` (projection + costs + facts + both rule stages + the
Recommendation model). Also times the parts separately: ``project``, ``estimate_costs`` and
the rule part (``recommend_from``). Prints the start-up cost and medians / 95th percentiles;
exits 1 when the overall median exceeds the budget.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUDGET_MS = 3.0


def _ms(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def _p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * (len(values) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    start = time.perf_counter()
    from advisor.catalog.profile_check import load_profile
    from advisor.costs import estimate_costs
    from advisor.scaling import project
    from advisor.verdict.recommendation import recommend, recommend_from

    paths = sorted((ROOT / "examples").glob("*.yaml"))
    profiles = [load_profile(p) for p in paths]
    recommend(profiles[0], lang="en")
    startup_ms = (time.perf_counter() - start) * 1000
    print(f"start-up (imports, catalogs, rule base load + compile, first call): "
          f"{startup_ms:.0f} ms\n")
    print(f"{'profile':<42} {'full':>7} {'p95':>7} {'project':>8} {'costs':>7} {'rules':>7}")
    everything: list[float] = []
    for path, profile in zip(paths, profiles, strict=True):
        recommend(profile, lang="en")  # warm this profile's caches
        full = _ms(lambda p=profile: recommend(p, lang="en"), args.repeat)
        projection = project(profile)
        costs = estimate_costs(profile, projection, lang="en")
        proj_t = _ms(lambda p=profile: project(p), args.repeat)
        cost_t = _ms(lambda p=profile, pr=projection: estimate_costs(p, pr, lang="en"),
                     args.repeat)
        rule_t = _ms(lambda p=profile, pr=projection, c=costs: recommend_from(p, pr, c),
                     args.repeat)
        everything += full
        print(f"{path.stem:<42} {statistics.median(full):7.2f} {_p95(full):7.2f} "
              f"{statistics.median(proj_t):8.2f} {statistics.median(cost_t):7.2f} "
              f"{statistics.median(rule_t):7.2f}")
    median = statistics.median(everything)
    print(f"\nall profiles: median {median:.2f} ms, p95 {_p95(everything):.2f} ms "
          f"(budget {BUDGET_MS:.0f} ms median) -> {'ok' if median <= BUDGET_MS else 'OVER'}")
    return 0 if median <= BUDGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
