"""Shared helpers for the wizard and plot tests (tests/ui/): a main window, the example
profiles, recommendations changed the way a test needs, and the sentence a plot shows.

``projection_recommend`` is a stand-in for ``advisor.verdict.recommendation.recommend`` built from the
real projection and cost model with a fixed verdict: the UI mechanics tests (validation,
language, files, autosave) do not depend on the rule base. The wizard walk over the example
profiles uses the real ``recommend``.
"""

from __future__ import annotations

from pathlib import Path

from advisor.catalog.profile_check import load_profile
from advisor.costs import estimate_costs
from advisor.profile import Profile
from advisor.scaling import project
from advisor.text.i18n import Text
from advisor.verdict.result import Advice, Pitfall, Recommendation, TraceEntry, Verdict
from tests.support.paths import ROOT
from tests.support.profiles import write_file

ROOT = ROOT
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
MEDIUM = ROOT / "examples" / "medium-model-4gpu-worth-it.yaml"


def example(fragment: str) -> Profile:
    """The example profile whose file name contains ``fragment``."""
    return load_profile(next(p for p in EXAMPLES if fragment in p.stem))


def projection_recommend(profile: Profile) -> Recommendation:
    projection = project(profile)
    costs = estimate_costs(profile, projection, lang="en")
    best = costs.best_value_gpus or 1  # None when no count can run the job
    verdict = Verdict(rating="worth_it" if best > 1 else "not_worth_it", gpus=best, nodes=1,
                      parallelism="data", framework="ddp" if best > 1 else "none",
                      deployment="own",
                      headline=Text(en=f"{best} GPUs give the best value.",
                                    zh=f"{best}卡最有性价比。"))
    pitfall = Pitfall(id="thermal", severity="warning",
                      title=Text(en="Thermal throttling", zh="热降频"),
                      detail=Text(en="Cards packed together throttle above 84 °C.",
                                  zh="显卡挤在一起，超过84度会降频。"),
                      remedy=Text(en="Run a heat soak test.", zh="跑一次升温测试。"),
                      sources=["F27"])
    advice = Advice(id="lr", text=Text(en="Scale the learning rate linearly.",
                                       zh="学习率线性缩放。"), sources=["F14"])
    trace = [TraceEntry(rule="test.best_value", sources=["F02", "F22"],
                        conclusion={"gpus": best}, facts={"best_value_gpus": best})]
    return Recommendation(verdict=verdict, projection=projection, costs=costs,
                          pitfalls=[pitfall], advice=[advice], trace=trace)


def make_window(qtbot, lang: str = "en", recommend=projection_recommend, threaded=False,
                argv: list[str] | None = None):
    """A main window as the application builds it, registered with qtbot."""
    from ui.app.application import build_window

    window, hub = build_window(argv or [], lang, recommend, threaded=threaded)
    # no modal question in a test unless the test asks for one: unsaved answers are discarded
    # when the test's window closes
    window.document.ask_unsaved = lambda: "discard"
    qtbot.addWidget(window)
    return window


def active_window(qtbot, lang: str = "en"):
    """A main window shown and active (keys reach it), as a person at the keyboard has it."""
    from PySide6.QtWidgets import QApplication

    window = make_window(qtbot, lang, projection_recommend)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    return window


def wait_results(qtbot, window, timeout_ms: int = 5000):
    """Build the results page if needed and wait for the newest results to be drawn."""
    with qtbot.waitSignal(window.resultsShown, timeout=timeout_ms):
        window.recompute()
    qtbot.waitUntil(lambda: not window.recomputer.busy, timeout=timeout_ms)
    return window.results


def with_costs(rec: Recommendation, **update) -> Recommendation:
    return rec.model_copy(update={"costs": rec.costs.model_copy(update=update)})


def not_fitting_below(rec: Recommendation, first_fitting: int) -> Recommendation:
    """The recommendation as if the model fitted only from ``first_fitting`` GPUs on."""
    fits = [n >= first_fitting for n in rec.costs.gpus]
    return with_costs(rec, fits=fits, best_value_gpus=None if not any(fits) else
                      next(n for n, f in zip(rec.costs.gpus, fits, strict=True) if f))


def one_gpu(rec: Recommendation) -> Recommendation:
    """The recommendation with a one-GPU verdict."""
    verdict = rec.verdict.model_copy(update={"gpus": 1, "parallelism": "data"})
    return rec.model_copy(update={"verdict": verdict})


def past_the_projection(rec: Recommendation, count: int = 64) -> Recommendation:
    """``rec`` with a verdict for ``count`` GPUs that the projection does not hold (what the
    core gives when nothing considered fits, however it projects)."""
    assert count not in rec.projection.gpus and count > max(rec.projection.gpus)
    return rec.model_copy(update={"verdict": rec.verdict.model_copy(
        update={"gpus": count, "nodes": 8, "rating": "required"})})


def plot_message(plot) -> str | None:
    """The sentence a plot shows instead of data, None while it shows none."""
    note = getattr(plot, "advisor_message", None)
    return note.textItem.toPlainText() if note is not None and note.isVisible() else None


def cloud_unpriced(tmp_path: Path) -> Path:
    """The medium example rented on a card of the user's own that no cloud offer lists (every
    catalogue GPU now has offers, or comparable cards' offers, in every market)."""
    card = "{name: Lab card, memory_gb: 48, tflops_fp16: 362, tflops_fp32: 91.6, tdp_w: 350, price_usd: 8500}"
    text = MEDIUM.read_text(encoding="utf-8").replace("gpu: rtx4090", f"gpu: {card}") \
        .replace("mode: compare", "mode: cloud")
    assert "Lab card" in text and "mode: cloud" in text
    return write_file(tmp_path, "unpriced-cloud.yaml", text)
