"""Start the GUI, or say in one line why it cannot start (no display) and what to run instead."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence


def has_display() -> bool:
    if os.environ.get("QT_QPA_PLATFORM", "").startswith(("offscreen", "minimal", "vnc")):
        return True
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def launch(argv: Sequence[str] = (), lang: str | None = None) -> int:
    if not has_display():
        from advisor.text.i18n import pick, system_lang

        print(pick(lang or system_lang(),
                   "No display found; the command line does the same headless, e.g. "
                   "gpu-advisor recommend examples/medium-model-4gpu-worth-it.yaml",
                   "未找到显示器；命令行可以无界面完成同样的工作，例如 "
                   "gpu-advisor recommend examples/medium-model-4gpu-worth-it.yaml"))
        return 0
    from ui.app.application import run_app

    return run_app(list(argv), lang=lang)


def main() -> int:
    """The ``gpu-advisor-gui`` program: the wizard, or one line saying why it cannot start;
    ``--screenshot FILE`` saves the first page and quits (offscreen, no display needed)."""
    argv = sys.argv[1:]
    if "--version" in argv:  # issue 34: a version, not a window
        from advisor import __version__

        print(f"gpu-advisor-gui {__version__}")
        return 0
    if "--screenshot" in argv:
        from ui.app.application import main as first_page_or_window

        return first_page_or_window()
    return launch(argv)


if __name__ == "__main__":
    sys.exit(main())
