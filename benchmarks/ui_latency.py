"""Live update latency of the wizard: an answer changes → the plots show the new results.

Budget (issue 6): median under 16 ms (one frame at 60 Hz). Run:

    .venv/bin/python benchmarks/ui_latency.py            # 60 changes per measurement
    .venv/bin/python benchmarks/ui_latency.py --changes 200
    .venv/bin/python benchmarks/ui_latency.py --page preview   # one of the two places only

Two places, each measured over ``--changes`` edits that alternate the GPUs per machine between
4 and 8 on the medium-model example (so every edit changes every curve):

* ``preview`` (issue 34): the edit is made where a person makes it, on the hardware question
  page at 1280 × 800, and the live preview under the questions (verdict, its line, the compact
  speed-up plot) is what is redrawn;
* ``results``: the results page is shown (verdict card, the speed-up tab's plot, pitfalls,
  trace), as the benchmark of issue 6 measured it.

Between edits the window is repainted and idle, as between the keystrokes of a person. Three
numbers for each place, each a median:

* keystroke: GUI-thread time of one edit (field → validation → recompute request). This is
  what typing waits for; the recommendation itself may run on a worker thread.
* redraw: GUI-thread time to draw new results (other data than those shown) and repaint the
  visible plot.
* end-to-end: edit → results drawn and repainted, including ``advisor.compare.weighed
  .recommend`` (the better-link curve follows separately).

``--profile FILE``: write a cProfile of the edits (both places) to FILE (``pstats``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUDGET_MS = 16.0
PLACES = ("preview", "results")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=60)
    parser.add_argument("--page", choices=(*PLACES, "both"), default="both")
    parser.add_argument("--profile", type=Path, default=None)
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    state = tempfile.mkdtemp(prefix="advisor-bench-")
    os.environ["GPU_ADVISOR_STATE_DIR"] = state
    os.environ["GPU_ADVISOR_LOG_DIR"] = state
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QEventLoop, QTimer

    from ui.app.application import build_window, make_application

    app = make_application()
    example = ROOT / "examples" / "medium-model-4gpu-worth-it.yaml"
    window, _hub = build_window([str(example)], "en")
    window.resize(1280, 800)
    window.show()
    hardware = next(i for i, p in enumerate(window.pages) if p.page.key == "hardware")
    editor = window.pages[hardware].editors["hardware.gpus_per_node"]

    def wait_for(signal, timeout_ms=30_000):
        loop = QEventLoop()
        signal.connect(loop.quit)
        QTimer.singleShot(timeout_ms, loop.quit)
        loop.exec()
        signal.disconnect(loop.quit)

    # Warm-up: the rules engine and pyqtgraph load on first use.
    window.go_to(len(window.pages))
    window.recompute()
    wait_for(window.betterLinkShown)
    profiler = None
    if args.profile is not None:
        import cProfile

        profiler = cProfile.Profile()

    def settle() -> None:
        """Paint what is pending, as between two keystrokes of a person (≥ 100 ms apart)."""
        window.repaint()
        for _ in range(3):
            app.processEvents()

    def measure(place: str) -> dict[str, list[float]]:
        if place == "preview":
            window.go_to(hardware)
            view = window.preview
            plot = view.plot
        else:
            window.go_to(len(window.pages))  # the results page, speed-up tab visible
            view = window.results_page
            plot = view.speedup
        settle()
        assert plot.isVisible(), place
        keystroke, redraw, end_to_end = [], [], []
        seen: list = []
        drawn_at: list[float] = []
        loop = QEventLoop()  # waits as the application's own loop does: asleep until an event

        def drawn(_results) -> None:
            plot.repaint()
            drawn_at.append(time.perf_counter())
            loop.quit()

        window.resultsShown.connect(drawn)
        for index in range(args.changes):
            value = "8" if index % 2 == 0 else "4"
            drawn_at.clear()
            if profiler is not None:
                profiler.enable()
            start = time.perf_counter()
            editor.input.setText(value)
            editor.input.textEdited.emit(value)  # what a keystroke emits
            keystroke.append(time.perf_counter() - start)
            # (processEvents with a time limit would spin, not sleep, and take the interpreter
            # lock from the worker thread that computes: it measured 29 ms where a real event
            # loop gives the worker its 12 ms)
            timer = QTimer()
            timer.setSingleShot(True)
            timer.timeout.connect(loop.quit)
            timer.start(30_000)
            if not drawn_at:
                loop.exec()
            timer.stop()
            if not drawn_at:
                raise SystemExit("no results within 30 s: see the log")
            end_to_end.append(drawn_at[0] - start)
            if profiler is not None:
                profiler.disable()
            while window.recomputer.busy:  # the better-link curve finishes before the next edit
                wait_for(window.recomputer.betterLinkReady, 5_000)
            seen.append(window.results)
            if len(seen) >= 2:  # redraw alone: the previous results again (other data)
                start = time.perf_counter()
                view.show_results(seen[-2], "en")
                plot.repaint()
                redraw.append(time.perf_counter() - start)
                view.show_results(seen[-1], "en")
            settle()
        window.resultsShown.disconnect(drawn)
        return {"keystroke": keystroke, "redraw": redraw, "end-to-end": end_to_end}

    def line(name, values):
        median = statistics.median(values) * 1000
        return (f"  {name:<11} median {median:6.2f} ms   p90 "
                f"{statistics.quantiles(values, n=10)[-1] * 1000:6.2f} ms   max "
                f"{max(values) * 1000:6.2f} ms")

    print(f"{args.changes} changes of hardware.gpus_per_node (4 <-> 8), {example.name}")
    ok = True
    for place in PLACES if args.page == "both" else (args.page,):
        figures = measure(place)
        print(place + (" (hardware page, live preview)" if place == "preview"
                       else " (results page, speed-up tab)"))
        for name, values in figures.items():
            print(line(name, values))
        median = statistics.median(figures["end-to-end"]) * 1000
        met = median < BUDGET_MS
        ok = ok and met
        print(f"  budget: end-to-end median < {BUDGET_MS:.0f} ms: {'PASS' if met else 'FAIL'}")
    if profiler is not None:
        profiler.dump_stats(str(args.profile))
        print(f"profile of the edits: {args.profile}")
    window.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
