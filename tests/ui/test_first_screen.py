"""The first screen a newcomer sees (issue 19, items 1 and 3): the wizard's defaults say that
the rating assumes the article's valuation of time and offer to answer it; saying "nothing"
makes the rating follow the money; run times compare in one unit."""

from __future__ import annotations

from advisor.verdict.recommendation import recommend
from tests.support.ui import make_window, wait_results
from ui.results.verdict_card import rating_text, run_times


def test_the_default_answers_open_on_no_contradiction(qtbot):
    window = make_window(qtbot, "en", recommend)
    window.show()
    results = wait_results(qtbot, window)
    card = window.results_page.card
    rec = results.recommendation
    assert rec.verdict.rating == "worth_it" and rec.costs.best_value_gpus == 1
    assert card.rating_label.text() == rating_text("worth_it")
    # not "Best value: 1 GPU" beside "Worth it: 4 GPUs": the cheapest, said as such
    assert card._names["best_value"].text() == "Cheapest, time not valued"
    assert card.values["best_value"].text() == "1 GPU"
    assert "you have not said what it is worth" in card.headline_label.text()
    assert not card.time_value_button.isHidden()
    window.results_page.draw_all()
    cost = window.results_page.cost.advisor_items["best"]
    assert cost.label.format.startswith("Cheapest: 1")


def test_the_card_goes_to_the_question_and_the_answer_follows_the_money(qtbot):
    window = make_window(qtbot, "en", recommend)
    window.show()
    wait_results(qtbot, window)
    window.go_to(len(window.pages))
    window.results_page.card.time_value_button.click()
    habits = window.pages[window.stack.currentIndex()]
    editor = habits.editors["economics.time_value"]
    assert habits.page.key == "habits"
    assert window.focusWidget() is editor.input  # the question the rating waits for
    assert editor.input.currentText() == "Not said yet (the article's table rates it)"
    index = editor._values.index("none")
    editor.input.setCurrentIndex(index)
    with qtbot.waitSignal(window.resultsShown, timeout=10000):
        editor.input.activated.emit(index)
    qtbot.waitUntil(lambda: not window.recomputer.busy, timeout=10000)
    rec = window.results.recommendation
    assert (rec.verdict.rating, rec.verdict.gpus) == ("not_worth_it", 1)
    card = window.results_page.card
    assert card._names["best_value"].text() == "Best value"
    assert card.time_value_button.isHidden()


def test_run_times_compare_in_one_unit(qtbot):
    make_window(qtbot)  # the translator and an application
    assert run_times(200.0, 25.1) == ["8.3 days", "1.0 days"]  # not "8.3 days → 25.1 h"
    assert run_times(0.1, 0.1 / 5.7) == ["6 min", "1 min"]  # not "0.1 h → 0.0 h"
    assert run_times(48.0, 14.3) == ["2.0 days", "0.6 days"]
    assert run_times(24.0, 8.2) == ["24.0 h", "8.2 h"]
