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


def command_line_program() -> str:
    """How to run the command line from here: ``gpu-advisor`` where it is on PATH (a wheel),
    else its path beside this program (the desktop bundle), else this Python running the
    command line's module (a virtual environment not activated, a source checkout): never a
    command the shell would not find (issue 34)."""
    import shlex
    import shutil
    from pathlib import Path

    if shutil.which("gpu-advisor"):
        return "gpu-advisor"
    name = "gpu-advisor.exe" if sys.platform == "win32" else "gpu-advisor"
    for beside in (Path(sys.executable).with_name(name), Path(sys.argv[0]).with_name(name)):
        if beside.is_file():
            return _quoted(str(beside), shlex)
    return f"{_quoted(sys.executable, shlex)} -m advisor.cli"


def _quoted(path: str, shlex) -> str:
    if sys.platform == "win32":
        return f'"{path}"' if " " in path else path
    return shlex.quote(path)


def launch(argv: Sequence[str] = (), lang: str | None = None) -> int:
    if not has_display():
        from advisor.text.i18n import pick, system_lang

        cli = command_line_program()
        print(pick(lang or system_lang(),
                   f"No display found; the command line does the same headless, e.g. "
                   f"{cli} recommend my-profile.yaml ({cli} --help lists the commands)",
                   f"未找到显示器；命令行可以无界面完成同样的工作，例如 "
                   f"{cli} recommend my-profile.yaml（{cli} --help 列出全部命令）"))
        return 0
    try:
        from ui.app.application import run_app

        return run_app(list(argv), lang=lang)
    except Exception as exc:  # noqa: BLE001 - before the window exists: said, logged, exit 1
        return startup_failed(exc, lang)


def startup_failed(exc: BaseException, lang: str | None = None) -> int:
    """A failure before the window exists (issue 34: a menu-launched app simply never
    appeared): the traceback to the log, the message on standard error and in a plain dialog
    when Qt can still show one. Returns the exit status, 1."""
    import logging
    import traceback

    from advisor.text.i18n import pick, system_lang

    where = None
    try:
        from advisor.files.logs import active_log_file, setup_logging

        setup_logging()
        logging.getLogger("advisor.ui").error("start-up failed:\n%s", traceback.format_exc())
        where = active_log_file()
    except Exception:  # noqa: BLE001 - no log: the message says so
        pass
    lang = lang or system_lang()
    what = f"{type(exc).__name__}: {str(exc)[:500]}"
    text = pick(lang, f"GPU Scaling Advisor could not start: {what}",
                f"GPU Scaling Advisor 无法启动：{what}")
    text += "\n\n" + (pick(lang, f"The details were written to the log file:\n{where}",
                             f"详情已写入日志文件：\n{where}") if where else
                        pick(lang, "No log could be written.", "未能写入日志。"))
    print(text, file=sys.stderr)
    try:
        from PySide6.QtWidgets import QApplication, QMessageBox

        _app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "gpu-advisor-gui"])
        QMessageBox.critical(None, "GPU Scaling Advisor", text)
    except Exception:  # noqa: BLE001 - Qt itself failed: standard error has the message
        pass
    return 1


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
