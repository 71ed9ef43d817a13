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
        print("No display found; the CLI does the same headless: "
              ".venv/bin/gpu-advisor recommend examples/medium-model-4gpu-worth-it.yaml")
        return 0
    from ui.app.application import run_app

    return run_app(list(argv), lang=lang)


def main() -> int:
    return launch(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
