"""Recompute the recommendation after every change, off the GUI thread, latest answer wins.

Changes within one pass of the event loop are coalesced (a zero-time timer: at most one frame
of delay); while a computation runs, newer profiles replace the pending one. A computation
that has been taking less than ``SYNC_BUDGET_S`` runs right on the GUI thread (no thread
hand-off, which under the GIL costs more than the work); a slower one runs on a worker thread
so typing never waits for it. The results come first; the same workload on a better link (an
extra projection, F25) follows and only redraws its own curve.

Issue 34 (the live preview took 36 ms from keystroke to picture, budget 16 ms): the worker is
one long-lived thread fed by a queue (starting a thread per keystroke cost the GUI thread ~3 ms
waiting for it to start), and it computes the better-link curve only once the GUI thread has
drawn the results (or 0.5 s has passed): computing it at once made the worker and the drawing
take turns at the interpreter lock, 5 ms at a time.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from advisor.files.errors import InputError
from advisor.profile import Profile
from advisor.profile.market import MARKET_CURRENCY, profile_market
from ui.results.better_link import better_link_name, better_link_profile

log = logging.getLogger("advisor.ui")
SYNC_BUDGET_S = 0.006  # well inside one 16 ms frame, with room left for drawing
DRAW_WAIT_S = 0.5  # the better-link curve waits at most this long for the results' drawing


@dataclass(frozen=True)
class Results:
    profile: Profile  # as computed (currency filled in from the language when unset)
    recommendation: Any  # advisor.verdict.result.Recommendation
    better_link: Any | None = None  # Projection of the same workload on a faster link
    better_link_name: str | None = None  # what changed (ui.results.better_link.better_link_name)
    generation: int = 0  # which request these answer


def effective_profile(profile: Profile) -> Profile:
    """The profile with its market and currency settled: the profile's own, else the market
    of its currency, else this computer's locale (``advisor.profile.market``). The language
    never enters: switching it changes no number (the issue: $618 turned into ¥3,982)."""
    economics = profile.economics
    market = profile_market(economics)
    currency = economics.currency or MARKET_CURRENCY[market]
    if economics.market == market and economics.currency == currency:
        return profile
    settled = economics.model_copy(update={"market": market, "currency": currency})
    return profile.model_copy(update={"economics": settled})


def default_recommend(profile: Profile) -> Any:
    from advisor.compare.weighed import recommend

    return recommend(profile)


def better_link_projection(profile: Profile, gpus: list[int]) -> tuple[Any, str] | None:
    """(Projection, what changed) of the profile on the next faster link its cards can have
    (``better_link_name``: "nvlink_bridge", "infiniband_ndr" …); None at the top, and
    None when the profile has measured points: the measured curve is the truth, and a faster
    link may not help a run held back by something else (F30)."""
    if profile.measured is not None:
        return None
    from advisor.verdict.projection_for import projection_for

    faster = better_link_profile(profile)
    if faster is None:
        return None
    return projection_for(faster, gpus), better_link_name(profile, faster)


class Recomputer(QObject):
    resultsReady = Signal(object)  # Results without the better-link curve
    betterLinkReady = Signal(object)  # the same Results with it
    # The exception: an InputError (a problem with an answer, shown at its field) or any
    # other (a short line; the traceback goes to the log, never to the screen)
    failed = Signal(object)
    _done = Signal(object, object, bool)  # (Results | None, exception | None, final?)

    def __init__(self, recommend: Callable[[Profile], Any] | None = None, *,
                 threaded: bool | None = None, parent: QObject | None = None) -> None:
        """``threaded``: True always uses the worker thread, False never; None (default)
        decides per computation from how long the previous ones took."""
        super().__init__(parent)
        self._recommend = recommend or default_recommend
        self._threaded = threaded
        self._pending: Profile | None = None
        self._busy = False
        self._generation = 0
        self._discard_through = 0  # results of requests up to this generation are dropped
        self.last_compute_s = 1.0  # unknown until measured: the first run goes to a thread
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._start)
        self._done.connect(self._finished)
        self._jobs: queue.SimpleQueue | None = None  # the worker's, started on first use
        self._drawn = threading.Event()  # the GUI thread has drawn the latest results
        # the setups a comparison evaluates, kept across live updates: an edit of the user's
        # hardware leaves the catalog's ready setups as they were (advisor.compare.evaluate)
        self.evaluations: Any = None  # an EvaluationCache, made with the first computation

    @property
    def busy(self) -> bool:
        return self._busy or self._pending is not None

    def discard(self) -> None:
        """Drop the pending request and whatever the running one returns: the answers they
        were for are gone (another file was opened)."""
        self._pending = None
        self._timer.stop()
        self._discard_through = self._generation

    def request(self, profile: Profile) -> None:
        self._pending = profile
        if not self._busy:
            self._timer.start()

    def _start(self) -> None:
        if self._busy or self._pending is None:
            return
        profile, self._pending = self._pending, None
        self._busy = True
        self._generation += 1
        threaded = self._threaded if self._threaded is not None else \
            self.last_compute_s > SYNC_BUDGET_S
        if threaded:
            if self._jobs is None:
                jobs = self._jobs = queue.SimpleQueue()
                threading.Thread(target=self._serve, args=(jobs,), daemon=True,
                                 name="advisor-recompute").start()
                self.destroyed.connect(lambda *_: jobs.put(None))  # the worker ends with it
            self._jobs.put((profile, self._generation))
        else:
            self._work(profile, self._generation, threaded=False)

    def _serve(self, jobs: queue.SimpleQueue) -> None:
        """The worker thread: one computation at a time, for as long as the window lives."""
        while (job := jobs.get()) is not None:
            profile, generation = job
            try:
                self._work(profile, generation, threaded=True)
            except RuntimeError:  # the window was closed while computing: nobody to tell
                log.debug("recomputation finished after its window was closed")
                return

    def _work(self, profile: Profile, generation: int, *, threaded: bool = False) -> None:
        started = time.perf_counter()
        try:
            from advisor.compare.evaluate import EvaluationCache, reusing

            if self.evaluations is None:
                self.evaluations = EvaluationCache()
            with reusing(self.evaluations):  # the options an edit leaves as they were
                results = Results(profile, self._recommend(profile), generation=generation)
            self.last_compute_s = time.perf_counter() - started
        except InputError as exc:  # an answer the computation cannot use: said at the field
            log.info("recommendation needs other answers: %s", exc.render("en"))
            self._done.emit(None, exc, True)
            return
        except Exception as exc:  # one error path: logged, shown as a line, app keeps going
            log.error("recommendation failed:\n%s", traceback.format_exc())
            self._done.emit(None, exc, True)
            return
        self._drawn.clear()
        self._done.emit(results, None, False)
        if threaded:  # the drawing first, at full speed; the extra curve after it
            self._drawn.wait(DRAW_WAIT_S)
        try:
            better = better_link_projection(profile, results.recommendation.projection.gpus)
        except Exception:  # the extra curve is optional: log it and draw without it
            log.warning("better-link projection failed:\n%s", traceback.format_exc())
            better = None
        if better is not None:
            results = replace(results, better_link=better[0], better_link_name=better[1])
        self._done.emit(results, None, True)

    def _finished(self, results: Results | None, error: Exception | None, final: bool) -> None:
        if not final:
            try:
                self._deliver(results, error, final)
            finally:
                self._drawn.set()  # the worker goes on to the better-link curve
            return
        self._deliver(results, error, final)

    def _deliver(self, results: Results | None, error: Exception | None, final: bool) -> None:
        if self._generation <= self._discard_through:  # for answers no longer on screen
            if final:
                self._busy = False
                if self._pending is not None:
                    self._timer.start()
            return
        if results is not None:
            if not final:
                self.resultsReady.emit(results)
                return
            self.betterLinkReady.emit(results)
        else:
            self.failed.emit(error)
        self._busy = False
        if self._pending is not None:
            self._timer.start()
