"""The desktop bundle: how long a from-scratch build takes, how big it is, how fast it starts.

Budget (issue 22): at most 250 MB unpacked and 5 minutes to build on 2 cores. Run:

    .venv/bin/python -m benchmarks.bundle_build            # clean build, then 7 starts each
    .venv/bin/python -m benchmarks.bundle_build --runs 3 --no-build   # time the last build

Builds with ``scripts/build_bundle.py --clean`` (PyInstaller's caches thrown away, as on a
clean clone), then times, as fresh processes with a scrubbed environment, the bundle's
``gpu-advisor --version`` and ``gpu-advisor-gui --screenshot`` (launch to the first page
saved and the program gone) next to the same commands from the virtualenv, in the same minutes.
Exit status 1 when a budget is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
METRICS = ROOT / "build" / "bundle" / "metrics.json"
BUDGET_MB = 250
BUDGET_BUILD_S = 300


PARTS = (  # where the size goes, by what a part is for (globs under _internal/)
    ("Qt libraries", ("PySide6/Qt/lib/*",)),
    ("  of which ICU data (libicudata, linked by QtCore)", ("PySide6/Qt/lib/libicudata*",)),
    ("Qt plugins and translations", ("PySide6/Qt/plugins/**/*", "PySide6/Qt/translations/*")),
    ("PySide6's Python modules", ("PySide6/*.so*", "PySide6/*.pyd", "shiboken6/**/*")),
    ("NumPy and its OpenBLAS", ("numpy/**/*", "numpy.libs/*")),
    ("libpython", ("libpython*",)),
    ("pydantic-core", ("pydantic_core/**/*",)),
    ("the advisor's data (rules, catalog, font, icons)", ("advisor/_data/**/*",)),
)


def breakdown(folder: Path) -> list[tuple[str, int]]:
    internal = folder / "_internal"
    rows = []
    for label, globs in PARTS:
        files = {p for g in globs for p in internal.glob(g) if p.is_file()}
        rows.append((label, sum(p.stat().st_size for p in files)))
    return rows


def _timed(command: list[str], env: dict[str, str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, env=env, cwd=env["HOME"], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=300)
        times.append(time.perf_counter() - start)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-build", action="store_true")
    args = parser.parse_args()
    if not args.no_build:
        start = time.perf_counter()
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build_bundle.py"), "--clean"],
                       cwd=ROOT, check=True)
        total_s = time.perf_counter() - start
    metrics = json.loads(METRICS.read_text(encoding="utf-8"))
    folder = Path(metrics["folder"])
    home = Path(tempfile.mkdtemp(prefix="bundle-bench-"))
    (home / "bin").mkdir()
    scrubbed = {"PATH": str(home / "bin"), "HOME": str(home), "LANG": "C.UTF-8",
                "QT_QPA_PLATFORM": "offscreen", "GPU_ADVISOR_LANG": "en"}
    venv_env = {**os.environ, "HOME": str(home), "QT_QPA_PLATFORM": "offscreen",
                "GPU_ADVISOR_STATE_DIR": str(home / "state"),
                "GPU_ADVISOR_LOG_DIR": str(home / "log"), "GPU_ADVISOR_LANG": "en"}
    venv_bin = Path(sys.executable).parent
    shot = str(home / "shot.png")
    rows = []
    for label, command, env, runs in (
            ("gpu-advisor --version (bundle)", [str(folder / "gpu-advisor"), "--version"],
             scrubbed, args.runs),
            ("gpu-advisor --version (venv)", [str(venv_bin / "gpu-advisor"), "--version"],
             venv_env, args.runs),
            ("wizard to first page and exit (bundle)",
             [str(folder / "gpu-advisor-gui"), "--screenshot", shot], scrubbed,
             max(3, args.runs // 2)),
            ("wizard to first page and exit (venv)",
             [str(venv_bin / "gpu-advisor-gui"), "--screenshot", shot], venv_env,
             max(3, args.runs // 2))):
        times = _timed(command, env, runs)
        rows.append((label, statistics.median(times), min(times), max(times), runs))
    shutil.rmtree(home, ignore_errors=True)
    size_mb = metrics["unpacked_bytes"] / 1e6
    print(f"bundle {metrics['platform']}, {metrics['cpus']} CPUs, "
          f"{'clean' if metrics['clean'] else 'cached'} build")
    print(f"  PyInstaller build        {metrics['build_s']:.1f} s (budget {BUDGET_BUILD_S} s)")
    if not args.no_build:
        print(f"  whole make bundle        {total_s:.1f} s (build + licences + archive)")
    print(f"  unpacked                 {size_mb:.1f} MB in {metrics['files']} files "
          f"(budget {BUDGET_MB} MB)")
    if "archive_bytes" in metrics:
        print(f"  archive (.tar.gz)        {metrics['archive_bytes'] / 1e6:.1f} MB, packed in "
              f"{metrics['pack_s']:.1f} s")
    for label, size_b in breakdown(folder):
        print(f"    {label:<48} {size_b / 1e6:6.1f} MB")
    for label, median, low, high, runs in rows:
        print(f"  {label:<40} median {median:.2f} s ({low:.2f}–{high:.2f}, {runs} runs)")
    ok = size_mb <= BUDGET_MB and metrics["build_s"] <= BUDGET_BUILD_S
    print("budgets met" if ok else "BUDGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
