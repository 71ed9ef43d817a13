"""In-process latency before and after a change, from the same minutes.

    .venv/bin/python -m benchmarks.before_after REV [--runs 3] [NAME ...]

Runs each latency benchmark (default: ``projection_latency`` and ``recommend_latency``) on
this checkout and on the code of commit ``REV`` (``git archive`` into a temporary folder, put
first on ``PYTHONPATH``), alternately, ``--runs`` times each, and prints every run's summary
lines. The benchmark scripts are this checkout's (so both sides are measured alike, on this
checkout's examples); on a shared machine only the pairs taken in the same minutes compare.
Exits 0: the budgets are each script's own (``make bench``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.checkout import checkout as _checkout

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ("projection_latency", "recommend_latency")
KEYS = ("data-parallel", "layout", "all ", "all profiles", "best round", "budget",
        "figures,", "verdicts=True", "of which", "load average")



def _run(name: str, code: Path | None, cwd: Path) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(QT_QPA_PLATFORM=env.get("QT_QPA_PLATFORM", "offscreen"))
    if code is not None:
        env["PYTHONPATH"] = str(code)
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / f"{name}.py")], env=env,
                          cwd=cwd, capture_output=True, text=True, check=False)
    lines = done.stdout.splitlines()
    return [line for line in lines if any(k in line for k in KEYS)] or lines[-3:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev")
    parser.add_argument("names", nargs="*", default=list(DEFAULT))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        old = _checkout(args.rev, tmp / "before")
        (tmp / "cwd").mkdir()
        for name in args.names:
            for run in range(1, args.runs + 1):
                for label, code in ((f"before ({args.rev})", old), ("after", None)):
                    print(f"--- {name}, run {run}, {label}", flush=True)
                    for line in _run(name, code, tmp / "cwd"):
                        print(f"    {line}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
