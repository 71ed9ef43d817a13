"""Stress the durable_rules engine: many random valid fact sets, both rule stages.

    .venv/bin/python -m benchmarks.engine_stress [--count 100000] [--seed 1] [--json]

Each fact set is drawn from the fact catalog (``advisor.rulebase.sampling``) and evaluated by
the project's rule base in both stages; every answer is checked against the reference meaning
of the rules (``advisor.rulebase.conditions.evaluate``). Reports: evaluations per second, the
threads alive before and after (durable_rules must start none), the resident memory after the
first tenth of the run and at the end, and the number of disagreements. Exit status 1 when
anything is wrong (a crash shows as a negative status, e.g. -11 for a segfault).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time

from advisor.rulebase import default_rules
from advisor.rulebase.conditions import evaluate
from advisor.rulebase.sampling import random_facts
from advisor.verdict.engine import STAGES, default_engine

RSS_GROWTH_LIMIT_MB = 16.0


def rss_mb() -> float:
    """Resident set size of this process (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
    except OSError:
        return 0.0
    import resource

    return pages * resource.getpagesize() / 2**20


def run(count: int, seed: int = 1) -> dict:
    engine = default_engine()
    rules = default_rules()
    rng = random.Random(seed)
    threads_before = sorted(t.name for t in threading.enumerate())
    mismatches: list[dict] = []
    fired_total = 0
    warm_rss = rss_mb()
    started = time.perf_counter()
    for i in range(count):
        facts = random_facts(rng)
        for stage in STAGES:
            fired = {f.rule.id for f in engine.evaluate(facts, stage)}
            fired_total += len(fired)
            expected = {r.id for r in rules if r.stage == stage and evaluate(r.when, facts)}
            if fired != expected and len(mismatches) < 5:
                mismatches.append({"stage": stage, "facts": facts,
                                   "engine_only": sorted(fired - expected),
                                   "reference_only": sorted(expected - fired)})
        if i == count // 10:
            warm_rss = rss_mb()
    elapsed = time.perf_counter() - started
    end_rss = rss_mb()
    threads_after = sorted(t.name for t in threading.enumerate())
    return {
        "fact_sets": count, "evaluations": len(STAGES) * count, "seconds": round(elapsed, 2),
        "evaluations_per_s": round(len(STAGES) * count / elapsed) if elapsed else None,
        "mean_fired_per_evaluation": round(fired_total / max(len(STAGES) * count, 1), 2),
        "threads_before": threads_before, "threads_after": threads_after,
        "rss_warm_mb": round(warm_rss, 1), "rss_end_mb": round(end_rss, 1),
        "rss_growth_mb": round(end_rss - warm_rss, 1), "mismatches": mismatches,
    }


def ok(report: dict) -> bool:
    return (not report["mismatches"] and report["threads_before"] == report["threads_after"]
            and report["rss_growth_mb"] < RSS_GROWTH_LIMIT_MB)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args()
    report = run(args.count, args.seed)
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key:>28}: {value}")
    return 0 if ok(report) else 1


if __name__ == "__main__":
    sys.exit(main())
