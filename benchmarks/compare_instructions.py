"""Instructions per comparison, counted by callgrind: a measure of the work that the load of
a shared machine does not move (wall and CPU times do).

    .venv/bin/python -m benchmarks.compare_instructions [--against main] [--repeat 3]

For the large language model of ``compare_latency`` (examples/plan-7b-on-one-8xh100.yaml,
its ten default options) and the medium example with that benchmark's nine specs: one
comparison of the figures (``verdicts=False``) to warm up, then ``--repeat`` more, counted.
Each side runs in its own interpreter under ``valgrind --tool=callgrind`` with
instrumentation on only while the counted calls run (``callgrind_control -i on``, then
``-i off``), so neither the imports nor the interpreter's teardown (its last collections and
module clean-up, which earlier counts included: some 35 M a comparison at ``--repeat 2``)
cost instrumented time. ``--against REV`` counts the code of ``REV`` too
(``git archive``, first on ``PYTHONPATH``). Needs valgrind; prints millions of instructions
per comparison, and (outside valgrind) the layout projections one comparison computes and
the rule engine's evaluations with every option's verdict, with how many distinct fact sets
they were given.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.checkout import checkout as _checkout

ROOT = Path(__file__).resolve().parents[1]
WORKLOADS = ("plan-7b-on-one-8xh100", "medium-model-4gpu-worth-it")


def _count(workload: str, repeat: int) -> None:
    """Runs inside valgrind: warm up, switch instrumentation on, compare ``repeat`` times."""
    from advisor.catalog.profile_check import load_profile
    from advisor.compare import compare, options_for
    from benchmarks.compare_latency import SPECS

    profile = load_profile(ROOT / "examples" / f"{workload}.yaml")
    options = options_for(profile, specs=SPECS if workload.startswith("medium") else ())
    compare(profile, options, verdicts=False)
    subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], check=True,
                   capture_output=True)
    for _ in range(repeat):
        compare(profile, options, verdicts=False)
    # off before the interpreter's teardown (its collections and module clean-up), which is
    # no part of a comparison
    subprocess.run(["callgrind_control", "-i", "off", str(os.getpid())], check=True,
                   capture_output=True)


def _counts(workload: str) -> None:
    """Runs in its own interpreter: the layout projections one comparison computes and the
    rule engine's evaluations with every option's verdict (and how many distinct fact sets
    they were given), printed as one line."""
    import json

    import advisor.scaling.layout_projection as layouts
    from advisor.catalog.profile_check import load_profile
    from advisor.compare import compare, options_for
    from advisor.verdict.engine import RuleEngine, check_facts
    from benchmarks.compare_latency import SPECS

    profile = load_profile(ROOT / "examples" / f"{workload}.yaml")
    options = options_for(profile, specs=SPECS if workload.startswith("medium") else ())
    compare(profile, options)
    projected, facts = [0], []
    layout_projection, evaluate = layouts.layout_projection, RuleEngine.evaluate

    def counted_projection(*args, **kwargs):
        projected[0] += 1
        return layout_projection(*args, **kwargs)

    def counted_evaluate(self, given, stage="decide"):
        facts.append(json.dumps([stage, dict(check_facts(given))], sort_keys=True, default=str))
        return evaluate(self, given, stage)

    layouts.layout_projection = counted_projection  # project() imports it at each call
    RuleEngine.evaluate = counted_evaluate
    compare(profile, options, verdicts=False)
    figures = projected[0]
    compare(profile, options, verdicts=True)
    print(f"{figures} layout projections (figures); {len(facts)} rule-engine evaluations "
          f"with the verdicts, {len(set(facts))} distinct fact sets")


def _instructions(workload: str, repeat: int, code: Path | None) -> float:
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no",
             f"--callgrind-out-file={out}/callgrind.out", sys.executable, __file__,
             "--inside", workload, "--repeat", str(repeat)],
            env=_env(code), cwd=ROOT, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(done.stderr[-2000:])
    return int(found.group(1)) / repeat / 1e6


def _env(code: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = os.pathsep.join([*([str(code)] if code else []), str(ROOT)])
    return env



def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", metavar="REV")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--inside", choices=WORKLOADS, help=argparse.SUPPRESS)
    parser.add_argument("--counts", choices=WORKLOADS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        _count(args.inside, args.repeat)
        return 0
    if args.counts:
        _counts(args.counts)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        sides: list[tuple[str, Path | None]] = [("this checkout", None)]
        if args.against:
            sides.insert(0, (args.against, _checkout(args.against, Path(tmp) / "code")))
        for workload in WORKLOADS:
            for label, code in sides:
                counted = subprocess.run([sys.executable, __file__, "--counts", workload],
                                         env=_env(code), cwd=ROOT, capture_output=True,
                                         text=True, check=True).stdout.strip()
                millions = _instructions(workload, args.repeat, code)
                print(f"{workload}, {label}: {millions:,.0f} M instructions per comparison "
                      f"(figures, verdicts=False); {counted}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
