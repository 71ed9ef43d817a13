"""Issue 34, item 7: "answers to fix: N" is a link; following it lists each answer to fix by
page, field and message, and choosing one shows its page with the focus in the field. The
results page's banner links to the same list."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from tests.support.ui import make_window, wait_results
from ui.window import problem_list


def _page(window, key):
    return next(p for p in window.pages if p.page.key == key)


def _break_two_answers(qtbot, window):
    gpus = _page(window, "hardware").editors["hardware.gpus_per_node"]
    gpus.input.selectAll()
    qtbot.keyClicks(gpus.input, "0")
    params = _page(window, "model").editors["model.params_millions"]
    params.input.selectAll()
    qtbot.keyClicks(params.input, "lots")
    return gpus, params


def test_the_answers_to_fix_are_a_link_to_a_list_naming_page_field_and_message(qtbot):
    window = make_window(qtbot)
    wait_results(qtbot, window)
    assert problem_list.LINK not in window.summary.text()
    gpus, params = _break_two_answers(qtbot, window)
    assert f'<a href="{problem_list.LINK}">2</a>' in window.summary.text()
    entries = problem_list.entries(window)
    assert [e.path for e in entries] == ["model.params_millions", "hardware.gpus_per_node"]
    model_title = _page(window, "model").title_label.text()
    assert entries[0].text.startswith(f"{model_title} › ") and "must be a number" in \
        entries[0].text
    assert "&" not in entries[1].text.split(":")[0]  # the label's mnemonic mark is not read
    assert entries[1].text.endswith(gpus.error_label.text())
    menu = problem_list.menu(window, window.summary)
    assert [a.text().replace("&&", "&") for a in menu.actions()] == [e.text for e in entries]


def test_choosing_an_answer_to_fix_shows_its_page_with_the_focus_in_the_field(qtbot):
    window = make_window(qtbot)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    gpus, _params = _break_two_answers(qtbot, window)
    window.go_to(0)
    menu = problem_list.menu(window, window.summary)
    menu.actions()[1].trigger()  # hardware.gpus_per_node
    hardware = window.pages.index(_page(window, "hardware"))
    assert window.stack.currentIndex() == hardware
    qtbot.waitUntil(lambda: QApplication.focusWidget() is gpus.input)


def test_following_the_link_opens_the_list_and_the_results_banner_links_to_it(qtbot):
    window = make_window(qtbot)
    window.show()
    qtbot.waitExposed(window)
    wait_results(qtbot, window)
    _break_two_answers(qtbot, window)
    shown = []
    window.show_problem_list = lambda anchor=None: shown.append(anchor)  # noqa: E731
    window.summary.linkActivated.emit(problem_list.LINK)
    assert shown == [window.summary]
    window.go_to(len(window.pages))  # the results page
    banner = window.results_page.banner
    assert f'<a href="{problem_list.LINK}">2</a>' in banner.text()
    banner.linkActivated.emit(problem_list.LINK)
    assert shown[-1] is banner
