"""The live update's worker (issue 34: the preview's redraw, 36 ms against a 16 ms budget): one
long-lived thread computes every request (no thread started per keystroke), and the
better-link curve is computed only after the GUI thread has drawn the results, so the two do
not take turns at the interpreter lock while the picture is drawn."""

from __future__ import annotations

import threading
import time

from tests.support.ui import MEDIUM, projection_recommend
from ui.window import recompute
from ui.window.recompute import Recomputer, effective_profile


def _profiles():
    from advisor.catalog.profile_check import load_profile

    base = effective_profile(load_profile(MEDIUM))
    return [base.model_copy(update={"hardware": base.hardware.model_copy(
        update={"gpus_per_node": n})}) for n in (4, 8)]


def test_every_request_is_computed_on_one_worker_thread(qtbot):
    threads: list[int] = []

    def recommend(profile):
        threads.append(threading.get_ident())
        return projection_recommend(profile)

    worker = Recomputer(recommend, threaded=True)
    for profile in _profiles():
        with qtbot.waitSignal(worker.betterLinkReady, timeout=30000):
            worker.request(profile)
    assert len(threads) == 2 and threads[0] == threads[1]
    assert threads[0] != threading.get_ident()  # not the GUI thread
    assert sum(t.name == "advisor-recompute" and t.ident == threads[0]
               for t in threading.enumerate()) == 1


def test_the_better_link_curve_waits_for_the_results_to_be_drawn(qtbot, monkeypatch):
    events: list[str] = []
    real = recompute.better_link_projection

    def better(profile, gpus):
        events.append("better link computed")
        return real(profile, gpus)

    monkeypatch.setattr(recompute, "better_link_projection", better)
    worker = Recomputer(projection_recommend, threaded=True)

    def draw(_results):  # a slow drawing: the worker must not start the extra curve meanwhile
        events.append("drawing")
        time.sleep(0.1)
        events.append("drawn")

    worker.resultsReady.connect(draw)
    with qtbot.waitSignal(worker.betterLinkReady, timeout=30000):
        worker.request(_profiles()[0])
    assert events == ["drawing", "drawn", "better link computed"]


def test_results_dropped_undrawn_do_not_hold_the_worker(qtbot, monkeypatch):
    """Results of answers no longer on screen (another file opened while computing) are not
    drawn: the worker goes on at once, not after ``DRAW_WAIT_S``."""
    monkeypatch.setattr(recompute, "DRAW_WAIT_S", 5.0)
    computing, release = threading.Event(), threading.Event()

    def recommend(profile):
        if profile.hardware.gpus_per_node == 4:
            computing.set()
            release.wait(10)
        return projection_recommend(profile)

    worker = Recomputer(recommend, threaded=True)
    drawn: list = []
    worker.resultsReady.connect(drawn.append)
    first, second = _profiles()
    worker.request(first)
    qtbot.waitUntil(computing.is_set, timeout=10000)
    worker.discard()  # the answers it computes for are gone
    worker.request(second)
    started = time.perf_counter()
    release.set()
    with qtbot.waitSignal(worker.betterLinkReady, timeout=30000):
        pass
    assert [r.profile.hardware.gpus_per_node for r in drawn] == [8]
    assert time.perf_counter() - started < 4.0
