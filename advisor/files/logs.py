"""Logging to a file in the user's log folder (platformdirs), shared by CLI and GUI."""

from __future__ import annotations

import logging
import os
from logging.handlers import RotatingFileHandler
from pathlib import Path

import platformdirs

APP = "gpu-scaling-advisor"


def log_file() -> Path:
    override = os.environ.get("GPU_ADVISOR_LOG_DIR")
    folder = Path(override) if override else Path(platformdirs.user_log_dir(APP, appauthor=False))
    return folder / "advisor.log"


def setup_logging() -> Path:
    """Attach one rotating file handler (idempotent); falls back to stderr if unwritable."""
    root = logging.getLogger("advisor")
    path = log_file()
    for handler in list(root.handlers):
        if getattr(handler, "_advisor", False):
            if getattr(handler, "_advisor_path", None) == path:
                return path
            root.removeHandler(handler)  # the log folder changed (tests, a new config)
            handler.close()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = RotatingFileHandler(path, maxBytes=1_000_000, backupCount=2,
                                                       encoding="utf-8")
    except OSError:
        handler = logging.StreamHandler()
    handler._advisor = True  # type: ignore[attr-defined]
    handler._advisor_path = path  # type: ignore[attr-defined]
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    return path
