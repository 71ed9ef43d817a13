"""Run every benchmark in turn: `make bench` (or `python -m benchmarks [NAME ...]`).

Each benchmark is its own script with its own budget and exit status; this runs them one after
another (never in parallel: timings on a shared 2-core machine are noisy enough) and prints a
summary. The slow accuracy fits are left out unless named: `python -m benchmarks
projection_accuracy diagnosis_extrapolation`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

BUDGETS = [
    "cli_startup",  # each command's start as a ratio to importing its libraries (1.3x-2x)
    "projection_latency",  # 1…64 GPUs <= 0.5 ms median
    "recommend_latency",  # rules' recommendation <= 3 ms, the weighed answer <= 100 ms median
    "hwimport_speed",  # 1 MB paste < 50 ms
    "report_export",  # PDF export < 2 s
    "ui_startup",  # first page visible < 1.5 s
    "ui_latency",  # input change → plots updated < 16 ms median
    "first_verdict",  # first verdict <= 1.5 s, no GUI-thread stall > 100 ms after first paint
    "costs_article",  # the article's cost thresholds
    "compare_latency",  # 10 options x 1-64 GPUs compared < 50 ms median
    "reader_limits",  # every reader on its largest allowed input: bounded time and memory
    "engine_memory",  # RuleEngines made and dropped do not grow memory
]


def main(names: list[str]) -> int:
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    results = []
    for name in names or BUDGETS:
        print(f"\n=== {name} ===", flush=True)
        start = time.perf_counter()
        code = subprocess.call([sys.executable, "-m", f"benchmarks.{name}"], env=env)
        results.append((name, code, time.perf_counter() - start))
    print("\nsummary")
    for name, code, seconds in results:
        print(f"  {'ok  ' if code == 0 else 'FAIL'} {name} ({seconds:.1f} s)")
    return 0 if all(code == 0 for _, code, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
