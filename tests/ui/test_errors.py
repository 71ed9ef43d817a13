"""An unexpected exception shows a dialog with the message and the log path; the app goes on."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtCore import QTimer

from advisor.files.errors import InputError
from advisor.files.logs import log_file, setup_logging
from tests.support.ui import make_window, projection_recommend
from ui.dialogs.error_dialog import ExceptionHook


@pytest.fixture
def criticals(monkeypatch):
    """The error dialogs shown, as (title, message), none of them modal."""
    from ui.dialogs import error_dialog

    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(error_dialog, "show_error",
                        lambda parent, title, text, *a: shown.append((title, text)))
    return shown


@pytest.mark.qt_no_exception_capture
def test_an_exception_in_a_slot_shows_the_dialog_and_the_app_keeps_running(qtbot, criticals):
    setup_logging()
    window = make_window(qtbot)
    hook = ExceptionHook(lambda: window).install()
    try:
        def explode():
            raise RuntimeError("disk on fire")

        QTimer.singleShot(0, explode)
        qtbot.waitUntil(lambda: bool(criticals))
    finally:
        hook.uninstall()
    title, text = criticals[0]
    assert title == "Unexpected error"
    assert "RuntimeError: disk on fire" in text and str(log_file()) in text
    assert "disk on fire" in log_file().read_text(encoding="utf-8")
    window.answers.set("hardware.gpus_per_node", 2)  # still working
    assert window.answers.profile.hardware.gpus_per_node == 2


def test_the_dialog_is_translated(qtbot, criticals):
    setup_logging()  # as the app does at start (not left to an earlier test)
    window = make_window(qtbot, "zh")
    hook = ExceptionHook(lambda: window)
    try:
        raise ValueError("坏了")
    except ValueError:
        hook(*sys.exc_info())
    title, text = criticals[0]
    assert title == "意外错误" and "程序会继续运行" in text and "ValueError: 坏了" in text
    window.hub.set_language("en")


def test_a_failing_computation_is_a_status_line_not_a_crash(qtbot):
    calls = []

    def flaky(profile):
        calls.append(profile)
        if len(calls) == 1:
            raise ZeroDivisionError("rules engine hiccup")
        return projection_recommend(profile)

    window = make_window(qtbot, recommend=flaky)
    with qtbot.waitSignal(window.recomputer.failed):
        window.recompute()
    # A short line, never the raw exception (its text and traceback are in the log).
    message = window.statusBar().currentMessage()
    assert "internal error" in message and "hiccup" not in message
    assert "ZeroDivisionError" not in message
    assert window.results_page.card.rating_label.text() == "No results"
    with qtbot.waitSignal(window.resultsShown):
        window.answers.set("hardware.gpus_per_node", 2)
    assert window.results.recommendation.projection.gpus[-1] == 2


def test_bundled_cjk_font_registers(qtbot):
    from PySide6.QtGui import QFontDatabase

    from ui.app.fonts import ensure_cjk_font

    family = ensure_cjk_font(force_bundled=True)
    assert family == "Droid Sans Fallback"
    assert QFontDatabase.WritingSystem.SimplifiedChinese in QFontDatabase.writingSystems(family)


def test_launch_without_a_display_says_what_to_run(monkeypatch, capsys):
    from ui.app.launch import launch

    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert launch([]) == 0
    out = capsys.readouterr().out
    assert "No display found" in out and "--help" in out
    assert "examples/" not in out  # a folder wheel and bundle users do not have


def _needs_a_price(profile):
    raise InputError.single("no purchase price for this GPU: set economics.gpu_price",
                            "目录中没有该显卡的购买价格：请填写 economics.gpu_price",
                            path="economics.gpu_price")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_input_error_of_the_computation_shows_at_its_field(qtbot, lang):
    """Review 2 #2: an InputError from the computation (a price it needs) is shown at that
    field in the window's language, the results say why they are missing, the status line
    carries no raw exception, and the card never stays on "Computing…"."""
    window = make_window(qtbot, lang=lang, recommend=_needs_a_price)
    with qtbot.waitSignal(window.recomputer.failed):
        window.recompute()
    economics = next(p for p in window.pages if "economics.gpu_price" in p.editors)
    editor = economics.editors["economics.gpu_price"]
    expected = "请填写 economics.gpu_price" if lang == "zh" else "set economics.gpu_price"
    assert expected in editor.error_text()
    card = window.results_page.card
    assert card.rating_label.text() not in ("Computing…", "正在计算…")
    assert expected in card.headline_label.text()
    assert window.results_page.error_banner.isVisibleTo(window.results_page)
    status = window.statusBar().currentMessage()
    assert "InputError" not in status and status
    # A valid profile with a computation problem can still be saved (it is not invalid).
    assert window.answers.all_problems() == {}
    # Results for other answers clear the message at the field and the banner.
    window.recomputer._recommend = projection_recommend
    with qtbot.waitSignal(window.resultsShown):
        window.answers.set("hardware.gpus_per_node", 2)
    assert editor.error_text() == ""
    assert not window.results_page.error_banner.isVisibleTo(window.results_page)
    assert card.rating_label.text() not in ("No results", "没有结果")


def test_a_gpu_without_a_catalog_price_is_said_at_the_price_field(qtbot):
    """Review 2 #2: mode own with a card the catalog has no price for gives results without
    the cards, and the price field says so (in the window's language)."""
    from advisor.catalog import resolve_gpu
    from tests.support.ui import wait_results

    window = make_window(qtbot, recommend=None)
    window.answers.set_many({"hardware.gpu": "a100_pcie_40gb", "economics.mode": "own",
                             "economics.gpu_price": None})
    results = wait_results(qtbot, window)
    editor = next(p for p in window.pages
                  if "economics.gpu_price" in p.editors).editors["economics.gpu_price"]
    if results.recommendation.costs.own_priced:  # the catalog has a price now: nothing to say
        assert resolve_gpu("a100_pcie_40gb") is not None and editor.error_text() == ""
        return
    assert "Enter the price of one card here" in editor.error_text()
    assert window.results_page.card.price_note.isVisibleTo(window.results_page.card)
    assert window.answers.all_problems() == {}  # still a valid, savable profile


def test_the_gui_program_without_a_display_says_so_in_chinese(monkeypatch, capsys):
    """The installed ``gpu-advisor-gui`` goes through the launcher: no display is one line in
    the user's language, never a Qt abort."""
    import sys

    from ui.app.launch import main

    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    monkeypatch.setenv("GPU_ADVISOR_LANG", "zh")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(sys, "argv", ["gpu-advisor-gui"])
    assert main() == 0
    assert "未找到显示器" in capsys.readouterr().out
