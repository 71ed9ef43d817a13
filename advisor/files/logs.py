"""Logging to a file in the user's log folder (platformdirs), shared by CLI and GUI.

The GUI attaches the file when it starts (``setup_logging``); the command line only when it
has something to log (``advisor_logger``, and an internal error): most calls log nothing, and
the file handler's modules (``logging.handlers`` and the sockets it imports) are not every
start's (issue 21).

A log folder that cannot be written (read-only, full, ``advisor.log`` a FIFO or a folder)
must not put a traceback on the user's terminal, nor make an error message point to a log
that was never written: logging then goes nowhere, ``active_log_file()`` is None and the
messages say so (``internal_error_message``).
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

from advisor.files.os_errors import os_reason
from advisor.text.i18n import pick

APP = "gpu-scaling-advisor"
_unwritable: dict[Path, str] = {}  # log files that could not be opened, and why (English)


def log_file() -> Path:
    override = os.environ.get("GPU_ADVISOR_LOG_DIR")
    if override:
        return Path(override) / "advisor.log"
    import platformdirs

    return Path(platformdirs.user_log_dir(APP, appauthor=False)) / "advisor.log"


def _open_handler(path: Path) -> logging.Handler:
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):  # a FIFO would block the first write
        raise IsADirectoryError(21, "not a regular file") if stat.S_ISDIR(mode) else \
            PermissionError(13, "not a regular file")
    from logging.handlers import RotatingFileHandler

    return RotatingFileHandler(path, maxBytes=1_000_000, backupCount=2, encoding="utf-8")


def setup_logging() -> Path | None:
    """Attach one rotating file handler (idempotent) and return its file; None when the log
    file cannot be opened (nothing is logged then, and nothing is printed)."""
    root = logging.getLogger("advisor")
    path = log_file()
    for handler in list(root.handlers):
        if getattr(handler, "_advisor", False):
            if getattr(handler, "_advisor_path", None) == path:
                return None if path in _unwritable else path
            root.removeHandler(handler)  # the log folder changed (tests, a new config)
            handler.close()
    try:
        handler: logging.Handler = _open_handler(path)
        _unwritable.pop(path, None)
    except OSError as exc:
        _unwritable[path] = os_reason(exc).en
        handler = logging.NullHandler()
    handler._advisor = True  # type: ignore[attr-defined]
    handler._advisor_path = path  # type: ignore[attr-defined]
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    return None if path in _unwritable else path


def advisor_logger(name: str) -> logging.Logger:
    """The logger ``name`` (under ``advisor``) with the log file attached: the command line
    sets logging up on its first record, not at every start."""
    setup_logging()
    return logging.getLogger(name)


def active_log_file() -> Path | None:
    """The log file being written; None when it could not be opened or logging is not set up."""
    for handler in logging.getLogger("advisor").handlers:
        if getattr(handler, "_advisor", False):
            path = handler._advisor_path  # type: ignore[attr-defined]
            return None if path in _unwritable else path
    return None


def internal_error_message(exc: BaseException, lang: str) -> str:
    """What the user reads when a bug stops a command: where the details are, or, with no
    log, the error itself in one line (no traceback)."""
    where = active_log_file()
    if where is not None:
        return pick(lang, f"internal error; details in the log {where}",
                    f"内部错误；详情见日志 {where}")
    folder = log_file().parent
    what = f"{type(exc).__name__}: {str(exc)[:300]}"
    return pick(lang, f"internal error ({what}); no log was written: {folder} cannot be written",
                f"内部错误（{what}）；未能写入日志：无法写入 {folder}")
