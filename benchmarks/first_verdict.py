"""Start-up of the desktop wizard until it answers: the first paint, the first verdict shown,
and the longest stall of the GUI thread after the first paint (issue 34, item 6).

Budgets: the first verdict within 1.5 s of launch on 2 cores, and no GUI-thread stall over
100 ms after the first paint. Run:

    .venv/bin/python benchmarks/first_verdict.py             # 7 launches, medians and worst
    .venv/bin/python benchmarks/first_verdict.py --runs 15 --profile examples/....yaml
    xvfb-run -a -s "-screen 0 1400x900x24" env QT_QPA_PLATFORM=xcb \\
        .venv/bin/python benchmarks/first_verdict.py        # a real X server

Each launch is a fresh interpreter (``--child``, the same harness as ``ui_startup.py``) on the
offscreen platform unless ``QT_QPA_PLATFORM`` says otherwise, pinned to two cores where the
machine has more, with a private state folder (a first start: no autosave, no settings). The
clock starts just before the process is spawned:

* first paint: the first question page receives its first paint event;
* first verdict: the window has drawn the first results (``MainWindow.resultsShown``: the live
  preview under the page and the results page hold the verdict);
* longest stall: from the first paint until ``--tail`` seconds after the first verdict, a
  ``QTimer`` beats every 10 ms on the GUI thread; the longest gap between two beats is the
  longest time the window could not answer a key or repaint (10 ms when never blocked).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERDICT_BUDGET_S = 1.5
STALL_BUDGET_S = 0.100
BEAT_MS = 10


def child(spawned_at: float, profile: str | None, tail_s: float) -> None:
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QEvent, QObject, QTimer

    from ui.app.application import build_window, make_application

    app = make_application()
    window, _hub = build_window([profile] if profile else [], "en")
    marks: dict[str, float] = {}
    gaps: list[tuple[float, float]] = []  # (gap, seconds after the first paint it ended)
    beat = QTimer()
    beat.setInterval(BEAT_MS)
    last = [0.0]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append((now - last[0], now - marks["paint_pc"]))
        last[0] = now

    beat.timeout.connect(tick)

    class FirstPaint(QObject):
        def eventFilter(self, watched, event):  # noqa: N802 (Qt name)
            if event.type() == QEvent.Type.Paint and "paint" not in marks:
                marks["paint"] = time.time() - spawned_at
                marks["paint_pc"] = last[0] = time.perf_counter()
                beat.start()
            return False

    def verdict(_results) -> None:
        if "verdict" not in marks:
            marks["verdict"] = time.time() - spawned_at
            QTimer.singleShot(round(tail_s * 1000), app.quit)

    watcher = FirstPaint()
    window.pages[0].installEventFilter(watcher)
    window.resultsShown.connect(verdict)
    QTimer.singleShot(60_000, app.quit)  # never hang: a launch with no verdict is reported
    window.show()
    app.exec()
    worst = max(gaps, default=(0.0, 0.0))
    print(json.dumps({"paint": marks.get("paint"), "verdict": marks.get("verdict"),
                      "stall": worst[0], "stall_at": worst[1]}), flush=True)


def _pinned(cores: int) -> list[int] | None:
    """Two cores of this machine where it has more (the budget's machine); None: as is."""
    try:
        mine = sorted(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return None
    return mine[:cores] if len(mine) > cores else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--profile", default=None, help="a profile to open (default: none, "
                        "a first start with the wizard's own answers)")
    parser.add_argument("--tail", type=float, default=1.0,
                        help="seconds the heartbeat keeps watching after the first verdict")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--child", type=float, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.child, args.profile, args.tail)
        return 0
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env.setdefault("GPU_ADVISOR_LANG", "en")
    cores = _pinned(args.cores)
    runs: list[dict] = []
    with tempfile.TemporaryDirectory() as state:
        env["GPU_ADVISOR_STATE_DIR"] = state  # no autosave of the user's: a first start
        env["GPU_ADVISOR_LOG_DIR"] = state
        env["XDG_CONFIG_HOME"] = state  # no remembered language, size or page (QSettings)
        for _ in range(args.runs):
            extra = ["--profile", args.profile] if args.profile else []
            spawned = time.time()
            command = [sys.executable, __file__, "--child", str(spawned),
                       "--tail", str(args.tail), *extra]
            out = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120,
                                 check=True, preexec_fn=(lambda: os.sched_setaffinity(0, cores))
                                 if cores else None)
            runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    missing = [r for r in runs if r["verdict"] is None]
    if missing:
        print(f"{len(missing)} of {len(runs)} launches showed no verdict within 60 s")
        return 1

    def line(name: str, key: str) -> str:
        values = [r[key] * 1000 for r in runs]
        return (f"{name:<14} median {statistics.median(values):6.0f} ms   "
                f"min {min(values):6.0f} ms   max {max(values):6.0f} ms")

    where = "" if cores is None else f", pinned to cores {','.join(map(str, cores))}"
    print(f"{args.runs} launches ({env['QT_QPA_PLATFORM']}{where}; "
          f"{'profile ' + args.profile if args.profile else 'first start'})")
    print(line("first paint", "paint"))
    print(line("first verdict", "verdict"))
    print(line("longest stall", "stall"))
    worst = max(runs, key=lambda r: r["stall"])
    print(f"  (the longest stall ended {worst['stall_at'] * 1000:.0f} ms after the first paint;"
          f" heartbeat every {BEAT_MS} ms)")
    verdict_ok = statistics.median(r["verdict"] for r in runs) <= VERDICT_BUDGET_S
    stall_ok = statistics.median(r["stall"] for r in runs) <= STALL_BUDGET_S
    print(f"budget: first verdict median <= {VERDICT_BUDGET_S * 1000:.0f} ms: "
          f"{'PASS' if verdict_ok else 'FAIL'}; longest stall median <= "
          f"{STALL_BUDGET_S * 1000:.0f} ms: {'PASS' if stall_ok else 'FAIL'}")
    return 0 if verdict_ok and stall_ok else 1


if __name__ == "__main__":
    sys.exit(main())
