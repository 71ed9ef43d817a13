"""Start-up of the command line, as a ratio to the time Python takes to import its libraries.

Budgets (issue 21), each a ratio of medians measured in the same run as the floor
(``python -c "import pydantic, yaml, durable.lang, numpy"``): ``--version`` and ``--help`` at
most 1.3x, ``validate`` and ``schema`` 1.5x, ``project``, ``costs``, ``recommend`` and
``diagnose`` 2x. Run:

    .venv/bin/python -m benchmarks.cli_startup                  # 9 rounds, this checkout
    .venv/bin/python -m benchmarks.cli_startup --against 1bf0bde --rounds 11

Every call is a fresh interpreter doing what the ``gpu-advisor`` entry point does (``from
advisor.cli import main``), from a neutral folder, with an empty config folder. Each round runs
the floor and every command once, in a shuffled order, so the load of a shared machine falls
on all of them alike. As after ``pip install``, the bytecode is compiled: a first call of each
command writes it (into a private ``PYTHONPYCACHEPREFIX``) and the compiled rule base and
catalog (into a private cache folder), and is not counted. ``--cold`` also times calls with the
compiled data turned off (``GPU_ADVISOR_NO_CACHE=1``: the first call after a data file or the
code changed). ``--against REV`` times the code of commit REV too (``git archive`` into a
temporary folder, put first on ``PYTHONPATH``), interleaved with this checkout's, so before and
after come from the same minutes. Exits 1 when a ratio of this checkout is over its budget.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.checkout import checkout as _checkout

ROOT = Path(__file__).resolve().parents[1]
FLOOR = "import pydantic, yaml, durable.lang, numpy"
ENTRY = "import sys; from advisor.cli import main; sys.exit(main())"
EXAMPLE = "examples/medium-model-4gpu-worth-it.yaml"
MEASURED = "examples/measured-4gpu-only-1.8x-diagnose.yaml"
# (name, arguments; {root} is the checkout measured, budget as a ratio to the floor)
COMMANDS: list[tuple[str, list[str], float]] = [
    ("--version", ["--version"], 1.3),
    ("--help", ["--help"], 1.3),
    ("validate", ["validate", "{root}/" + EXAMPLE], 1.5),
    ("schema", ["schema"], 1.5),
    ("project", ["project", "{root}/" + EXAMPLE], 2.0),
    ("costs", ["costs", "{root}/" + EXAMPLE], 2.0),
    ("recommend", ["recommend", "{root}/" + EXAMPLE, "--format", "json"], 2.0),
    ("diagnose", ["diagnose", "{root}/" + MEASURED], 2.0),
]


def _time(argv: list[str], env: dict[str, str], cwd: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process) of one call."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read() if proc.stderr else b""
    if proc.stderr:
        proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {err[-500:]!r}")
    return wall, usage.ru_utime + usage.ru_stime



def _environment(tmp: Path, code: Path | None, cache: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH", "GPU_ADVISOR_NO_CACHE")}
    env.update(PYTHONPYCACHEPREFIX=str(tmp / "pycache"), GPU_ADVISOR_CONFIG_DIR=str(tmp / "cfg"),
               GPU_ADVISOR_CACHE_DIR=str(tmp / f"compiled-{code.name if code else 'here'}"),
               GPU_ADVISOR_LOG_DIR=str(tmp / "log"), GPU_ADVISOR_LANG="en")
    if code is not None:  # the older checkout comes first on the path
        env["PYTHONPATH"] = str(code)
    if not cache:
        env["GPU_ADVISOR_NO_CACHE"] = "1"
    return env


def _which_advisor(env: dict[str, str], cwd: str) -> str:
    return subprocess.run([sys.executable, "-c", "import advisor; print(advisor.__file__)"],
                          env=env, cwd=cwd, capture_output=True, text=True,
                          check=True).stdout.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--against", metavar="REV", default=None,
                        help="also time the code of this commit (before), interleaved")
    parser.add_argument("--cold", action="store_true",
                        help="also time this checkout without the compiled data cache")
    parser.add_argument("--only", nargs="+", metavar="NAME", default=None,
                        help="time these commands only (names as printed, without dashes: version)")
    args = parser.parse_args()
    only = {name.lstrip("-") for name in args.only or ()}
    commands = [c for c in COMMANDS if not only or c[0].lstrip("-") in only]
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        (tmp / "cfg").mkdir()
        (tmp / "cwd").mkdir()
        cwd = str(tmp / "cwd")
        # (label, root of the data the commands read, environment)
        setups = [("after", ROOT, _environment(tmp, None, cache=True))]
        if args.cold:
            setups.append(("after, no cache", ROOT, _environment(tmp, None, cache=False)))
        if args.against:
            old = _checkout(args.against, tmp / "before")
            setups.append((f"before ({args.against})", old, _environment(tmp, old, cache=True)))
        floor_env = setups[0][2]
        for label, _root, env in setups:
            print(f"{label}: advisor from {_which_advisor(env, cwd)}")
        jobs: list[tuple[str, str, list[str], dict[str, str]]] = [
            ("floor", "floor", [sys.executable, "-c", FLOOR], floor_env)]
        for label, root, env in setups:
            for name, argv, _budget in commands:
                full = [sys.executable, "-c", ENTRY,
                        *(a.replace("{root}", str(root)) for a in argv)]
                jobs.append((label, name, full, env))
        for _label, _name, argv, env in jobs:  # bytecode and compiled data, not counted
            _time(argv, env, cwd)
        times: dict[tuple[str, str], list[tuple[float, float]]] = {(j[0], j[1]): [] for j in jobs}
        rng = random.Random(21)
        for _ in range(args.rounds):
            order = list(jobs)
            rng.shuffle(order)
            for label, name, argv, env in order:
                times[(label, name)].append(_time(argv, env, cwd))
    return _report(times, commands, [label for label, _root, _env in setups], args.rounds)


def _report(times: dict[tuple[str, str], list[tuple[float, float]]],
            commands: list[tuple[str, list[str], float]], labels: list[str], rounds: int) -> int:
    """Medians of wall time (what the user waits) and of CPU time (what load moves least),
    each as a ratio to the floor's; the budgets hold the wall-time ratios."""
    def med(key: tuple[str, str], which: int) -> float:
        return statistics.median(t[which] for t in times[key])

    floor_wall, floor_cpu = med(("floor", "floor"), 0), med(("floor", "floor"), 1)
    walls = [t[0] for t in times[("floor", "floor")]]
    print(f"\nfloor ({FLOOR}): median {floor_wall * 1000:.0f} ms wall (runs "
          f"{min(walls) * 1000:.0f}-{max(walls) * 1000:.0f} ms), {floor_cpu * 1000:.0f} ms CPU; "
          f"{rounds} rounds\n")
    print(f"{'command':<11} {'budget':>6}" + "".join(f" | {label:^32}" for label in labels))
    print(f"{'':<11} {'':>6}" + " | wall ms  ratio  (CPU ms  ratio)" * len(labels))
    over = []
    for name, _argv, budget in commands:
        cells = []
        for label in labels:
            wall, cpu = med((label, name), 0), med((label, name), 1)
            cells.append(f"{wall * 1000:7.0f}  {wall / floor_wall:4.2f}x  ({cpu * 1000:6.0f}  "
                         f"{cpu / floor_cpu:4.2f}x)")
            if label == "after" and wall / floor_wall > budget:
                over.append(name)
        print(f"{name:<11} {budget:5.1f}x" + "".join(f" | {c}" for c in cells))
    verdict = "ok" if not over else "OVER: " + ", ".join(over)
    print(f"\nthis checkout against the budgets (wall-time ratios): {verdict}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
