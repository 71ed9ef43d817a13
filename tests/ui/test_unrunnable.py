"""A job no hardware considered can hold: the window says so instead of naming a GPU count."""

from __future__ import annotations

import pytest

from advisor.catalog.profile_check import load_profile
from advisor.verdict.recommendation import recommend
from tests.support.paths import TESTS
from tests.support.ui import make_window, wait_results

UNRUNNABLE = TESTS / "profiles" / "verdict" / "unrunnable-2t-8xh100.yaml"


@pytest.mark.parametrize("lang,words", [("en", "Cannot run on this hardware"),
                                        ("zh", "在这套硬件上无法运行")])
def test_verdict_card_and_preview_say_it_cannot_run(qtbot, lang, words):
    profile = load_profile(UNRUNNABLE)
    assert recommend(profile).verdict.runnable is False
    window = make_window(qtbot, lang=lang, recommend=recommend)
    window.answers.load_profile(profile)
    wait_results(qtbot, window)
    card = window.results_page.card
    assert card.values["gpus"].text() == words
    assert card.values["speedup"].text() == "—"
    assert words.lower()[:10] in window.summary.text().lower()
