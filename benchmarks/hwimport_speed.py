"""How long a 1 MB nvidia-smi paste takes to parse (budget: under 50 ms).

    .venv/bin/python -m benchmarks.hwimport_speed [--repeat 15] [--size 1000000] [--only TEXT]

Builds 1 MB pastes from the recorded outputs in tests/fixtures/nvidia-smi (repeated, cut at a
line end) — a long `dmon` log, a looped `--query-gpu` CSV log, `nvidia-smi -q` of many GPUs,
a log of repeated `nvidia-smi` tables, a long `-L` list, and a worst case mixing every kind
(which needs line-by-line classification) — and times `advisor.hwimport.parse_text` on each
(median, min and max over --repeat runs, after one warm-up run). Also prints a CPU reference (a
fixed pure-Python loop) so results from different machines can be compared, and the median
process CPU time, which other jobs on shared cores disturb less than wall time. Exits 1 if any
wall-time median is 50 ms or more. ``--only mixed`` runs the cases whose name holds "mixed"
(e.g. to count instructions under valgrind, which load on shared cores does not change).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from advisor.hwimport import parse_text

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "nvidia-smi"
BUDGET_MS = 50.0
# name → (files, how many leading lines to keep once: a log prints its header once)
CASES = {
    "dmon log (4 GPUs, -s pucm)": (["dmon/dmon-s-pucm-4gpu-fb-bar1-idle.txt"], 3),
    "dmon log (1 GPU, training)": (["dmon/dmon-new-1gpu-training-100sm-trailing-spaces.txt"], 3),
    "--query-gpu CSV loop (-l 5)": (["dmon/csv-v100-32gb-loop5-training-99pct-one-dip.txt"], 2),
    "-q of 8 GPUs, pasted repeatedly": (["query/h100-sxm-8gpu-565-full-multi-gpu.txt"], 0),
    "nvidia-smi tables (8 GPUs), watch log": (["smi/rtx4090-8gpu-550-thamada.txt"], 0),
    "-L of many machines": (["list/h100-8gpu-from-markdown-quote.txt"], 0),
    "mixed: every fixture, concatenated": (sorted(
        p.relative_to(FIXTURES).as_posix() for p in FIXTURES.rglob("*.txt")), 0),
}


def one_megabyte(files: list[str], size: int, head_lines: int = 0) -> str:
    """``files`` joined and repeated to ``size`` characters, cut at a line end; the first
    ``head_lines`` lines (a log's header) appear once, the rest repeats."""
    unit = "\n".join((FIXTURES / f).read_text(encoding="utf-8") for f in files) + "\n"
    lines = unit.split("\n")
    head = "\n".join(lines[:head_lines]) + "\n" if head_lines else ""
    body = "\n".join(lines[head_lines:]).strip("\n") + "\n"
    text = head + (body * (size // len(body) + 1))
    text = text[:size]
    return text[:text.rfind("\n") + 1]


def time_ms(fn, repeat: int, clock=time.perf_counter) -> list[float]:
    fn()  # warm-up: catalog load, regex compilation
    out = []
    for _ in range(repeat):
        start = clock()
        fn()
        out.append((clock() - start) * 1000)
    return out


def cpu_reference_ms() -> float:
    """A fixed pure-Python workload, to compare machines."""
    return statistics.median(time_ms(lambda: sum(i * i for i in range(500_000)), 5))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--only", default="", help="run only the cases whose name holds this")
    args = parser.parse_args(argv)
    print("cpu ref = a fixed pure-Python loop timed just before each case (machine load check)")
    print("cpu ms = process CPU time (median): less disturbed than wall time when other jobs "
          "share the cores")
    print(f"{'paste':<38} {'lines':>7} {'GPUs':>5} {'median ms':>10} {'min ms':>7} "
          f"{'max ms':>7} {'cpu ms':>7} {'cpu ref ms':>10}")
    worst = 0.0
    for name, (files, head_lines) in CASES.items():
        if args.only not in name:
            continue
        text = one_megabyte(files, args.size, head_lines)
        desc = parse_text(text)
        reference = cpu_reference_ms()
        runs = time_ms(lambda t=text: parse_text(t), args.repeat)
        cpu = statistics.median(time_ms(lambda t=text: parse_text(t), args.repeat,
                                        time.process_time))
        median = statistics.median(runs)
        worst = max(worst, median)
        print(f"{name:<38} {text.count(chr(10)):>7} {desc.gpu_count or 0:>5} "
              f"{median:>10.1f} {min(runs):>7.1f} {max(runs):>7.1f} {cpu:>7.1f} "
              f"{reference:>10.1f}")
    verdict = "within" if worst < BUDGET_MS else "OVER"
    print(f"slowest median {worst:.1f} ms: {verdict} the {BUDGET_MS:.0f} ms budget")
    return 0 if worst < BUDGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
