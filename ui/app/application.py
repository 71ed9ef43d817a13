"""The QApplication: fonts, translations, the exception dialog, and the main window."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from advisor.files.logs import setup_logging
from advisor.files.paths import resources_dir
from advisor.text.i18n import system_lang
from ui.app.fonts import ensure_cjk_font
from ui.app.translation import LanguageHub
from ui.dialogs.error_dialog import ExceptionHook


def make_application() -> QApplication:
    app = QApplication.instance() or QApplication([sys.argv[0]])
    app.setApplicationName("GPU Scaling Advisor")
    app.setOrganizationName("gpu-scaling-advisor")
    app.setDesktopFileName("gpu-scaling-advisor")  # Wayland: the .desktop entry's icon
    app.setWindowIcon(app_icon())
    return app  # type: ignore[return-value]


def app_icon() -> QIcon:
    """The application icon in every size drawn (resources/icons, scripts/render_icons.py)."""
    icon = QIcon()
    for png in sorted((resources_dir() / "icons").glob("gpu-advisor-*.png")):
        icon.addFile(str(png))
    return icon


def build_window(argv: list[str], lang: str | None = None,
                 recommend: Callable[[Any], Any] | None = None, *, threaded: bool | None = None):
    """The main window with its language set and its answers loaded: the profile named in
    ``argv``, else the last session's autosave. Returns (window, hub)."""
    from ui.window.main_window import MainWindow

    ensure_cjk_font()
    hub = LanguageHub(lang or system_lang())
    window = MainWindow(hub, recommend, threaded=threaded)
    hub.setParent(window)
    profiles = [a for a in argv if not a.startswith("-")]
    if profiles:
        # every running copy holds its autosave lock, a copy started with a file too: else a
        # second copy takes this one's autosave for a dead session's and retires it
        window.document.claim_and_mention_sessions()
        window.document.open_path(Path(profiles[0]))
    else:
        window.document.restore_autosave()
    return window, hub


def run_app(argv: list[str], lang: str | None = None) -> int:
    from ui.window import session

    setup_logging()
    app = make_application()
    store = session.settings()  # issue 34: the language, size, place and page of last time
    window, _hub = build_window(argv, lang or session.remembered_language(store))
    session.restore(window, store)
    app.aboutToQuit.connect(lambda: session.save(window, store))
    hook = ExceptionHook(lambda: window).install()
    window.show()
    try:
        return app.exec()
    finally:
        hook.uninstall()


def main() -> int:
    argv = sys.argv[1:]
    if "--screenshot" in argv:  # gpu-advisor-gui --screenshot FILE [PROFILE]
        at = argv.index("--screenshot")
        if at + 1 >= len(argv):
            print("--screenshot needs a file name", file=sys.stderr)
            return 2
        from ui.app.first_page_shot import save_first_page

        setup_logging()
        app = make_application()
        window, _hub = build_window(argv[:at] + argv[at + 2:])
        return save_first_page(app, window, Path(argv[at + 1]))
    return run_app(argv)
