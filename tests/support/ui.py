"""Shared helpers for the wizard tests (tests/test_ui_*.py).

``projection_recommend`` is a stand-in for ``advisor.verdict.recommendation.recommend`` built from the
real projection and cost model with a fixed verdict: the UI mechanics tests (validation,
language, files, autosave) do not depend on the rule base. The wizard walk over the example
profiles uses the real ``recommend``.
"""

from __future__ import annotations

from advisor.costs import estimate_costs
from advisor.profile import Profile
from advisor.scaling import project
from advisor.text.i18n import Text
from advisor.verdict.result import Advice, Pitfall, Recommendation, TraceEntry, Verdict
from tests.support.paths import ROOT

ROOT = ROOT
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))


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
    qtbot.addWidget(window)
    return window


def wait_results(qtbot, window, timeout_ms: int = 5000):
    """Build the results page if needed and wait for the newest results to be drawn."""
    with qtbot.waitSignal(window.resultsShown, timeout=timeout_ms):
        window.recompute()
    qtbot.waitUntil(lambda: not window.recomputer.busy, timeout=timeout_ms)
    return window.results
