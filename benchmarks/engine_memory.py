"""Memory of RuleEngines made and dropped through the Python API (issue 20, item 15).

    .venv/bin/python -m benchmarks.engine_memory [--engines 300]

Makes ``--engines`` RuleEngines of the project's rule base one after another, each evaluated
once and dropped, and prints the growth of the resident memory (``VmRSS``, Linux) and of the
Python heap (``tracemalloc``: durable_rules' C rulesets are not in it, which is why the leak
hid from Python-level tools). Before the adapter freed its rulesets every engine kept about
1.4 MB (300 engines: +428 MB). Exits 1 if the resident memory grows by more than
``BUDGET_MB`` over the run.

To measure another checkout (e.g. the commit before the fix), run it with that checkout first
on the path: ``PYTHONPATH=/path/to/checkout .venv/bin/python -m benchmarks.engine_memory``.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
import tracemalloc
from pathlib import Path

BUDGET_MB = 20.0


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS (not Linux)")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engines", type=int, default=300)
    args = parser.parse_args(argv)
    import advisor
    from advisor.catalog.profile_check import load_profile
    from advisor.rulebase import default_rules
    from advisor.verdict.engine import RuleEngine
    from advisor.verdict.recommendation import recommend

    root = Path(advisor.__file__).resolve().parent.parent
    profile = load_profile(root / "examples" / "medium-model-4gpu-worth-it.yaml")
    rules = default_rules()
    for _ in range(3):  # warm-up: allocator pools, caches, the first recommendation
        recommend(profile, engine=RuleEngine(rules))
    gc.collect()
    tracemalloc.start()
    rss_before, heap_before = rss_mb(), tracemalloc.get_traced_memory()[0]
    start = time.perf_counter()
    for _ in range(args.engines):
        recommend(profile, engine=RuleEngine(rules))
    gc.collect()
    seconds = time.perf_counter() - start
    rss_growth = rss_mb() - rss_before
    heap_growth = (tracemalloc.get_traced_memory()[0] - heap_before) / 1e6
    print(f"code: {root}")
    print(f"{args.engines} engines made, evaluated once and dropped in {seconds:.1f} s")
    print(f"resident memory: +{rss_growth:.1f} MB ({1000 * rss_growth / args.engines:.0f} kB "
          f"per engine); Python heap: +{heap_growth:.1f} MB")
    ok = rss_growth <= BUDGET_MB
    print(f"budget: at most +{BUDGET_MB:.0f} MB -> {'ok' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
