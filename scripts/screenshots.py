"""Screenshots of every wizard page and results tab, in English and Chinese, at 1400×900.

Run under Xvfb (a real X server, so fonts and styles are what a user sees):

    xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python scripts/screenshots.py

Writes docs/screenshots/<lang>-<nn>-<page>.png for the medium-model example (F17 row 3), then
the first results a newcomer sees (the wizard's own defaults: what a day saved is worth not
said yet) and the hardware page with a custom GPU being entered.
``--only compare`` writes the compare page's alone (<lang>-13-compare.png).
Uses a private state folder, so the user's autosave is neither read nor written.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "medium-model-4gpu-worth-it.yaml"
PAGES = ("model", "habits", "hardware", "pipeline")
SIZE = (1400, 900)
TABS = ("speedup", "cost", "buy-vs-rent", "pitfalls", "why")
# after the diagnosis (10), the first results (11) and the custom GPU (12)
COMPARE_NUMBER = len(PAGES) + len(TABS) + 4


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--example", type=Path, default=EXAMPLE)
    parser.add_argument("--only", choices=["compare"], default=None,
                        help="only the compare page's screenshots")
    args = parser.parse_args()
    state = tempfile.mkdtemp(prefix="advisor-shots-")
    os.environ["GPU_ADVISOR_STATE_DIR"] = state
    os.environ["GPU_ADVISOR_LOG_DIR"] = state
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QEventLoop, Qt, QTimer
    from PySide6.QtGui import QImage

    from ui.app.application import build_window, make_application

    app = make_application()  # noqa: F841  (kept alive for the whole run)
    args.out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def settle(ms: int = 150) -> None:
        loop = QEventLoop()
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    def save(window, name: str) -> None:
        settle()
        # 256 colours keep a screenshot of text and flat plots small with no visible loss.
        image = window.grab().toImage().convertToFormat(
            QImage.Format.Format_Indexed8, Qt.ImageConversionFlag.ThresholdDither)
        path = args.out / f"{name}.png"
        image.save(str(path), "PNG", 9)
        written.append(path)

    for lang in ("en", "zh"):
        window, hub = build_window([str(args.example)], lang, threaded=False)
        window.resize(*SIZE)
        window.show()
        window.recompute()
        settle(400)
        if args.only == "compare":
            compare_shot(window, lang, COMPARE_NUMBER, save, settle)
            window.close()
            hub.set_language("en")
            continue
        for number, key in enumerate(PAGES, start=1):
            window.go_to(number - 1)
            save(window, f"{lang}-{number:02d}-{key}")
        window.go_to(len(PAGES))
        settle(300)
        for offset, key in enumerate(TABS):
            window.results_page.tabs.setCurrentIndex(offset)
            save(window, f"{lang}-{len(PAGES) + 1 + offset:02d}-results-{key}")
        if window._diagnosis_holder is not None:  # the measured-scaling check (F30)
            window.go_to(len(PAGES) + 1)
            save(window, f"{lang}-{len(PAGES) + 1 + len(TABS):02d}-diagnosis")
        compare_shot(window, lang, COMPARE_NUMBER, save, settle)
        window.close()
        hub.set_language("en")
        extras(lang, len(PAGES) + 2 + len(TABS), build_window, settle, save)
    for path in written:
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        print(f"{shown}  {path.stat().st_size // 1024} KB")
    return 0


def extras(lang: str, number: int, build_window, settle, save) -> None:
    """The newcomer's first results (no file: the wizard's defaults) and a custom GPU."""
    # a fresh state folder: a first start, with no autosave of the example to restore
    os.environ["GPU_ADVISOR_STATE_DIR"] = tempfile.mkdtemp(prefix="advisor-first-")
    window, hub = build_window([], lang, threaded=False)
    window.resize(*SIZE)
    window.show()
    window.recompute()
    settle(400)
    window.go_to(len(PAGES))
    settle(300)
    save(window, f"{lang}-{number:02d}-first-results")
    window.go_to(PAGES.index("hardware"))
    page = window.pages[PAGES.index("hardware")]
    editor = page.editors["hardware.gpu"]
    custom = editor.input.count() - 1  # "Custom GPU… (enter its specs)"
    editor.input.setCurrentIndex(custom)
    editor.input.activated.emit(custom)
    settle(300)
    save(window, f"{lang}-{number + 1:02d}-hardware-custom-gpu")
    window.close()
    hub.set_language("en")


def compare_shot(window, lang: str, number: int, save, settle) -> None:
    """The compare page with the best net value's point chosen (its details shown)."""
    window.go_to(window.compare_index)
    page = window.compare_page
    for _ in range(200):  # the comparison runs once the page is shown
        if page.result is not None and not page.runner.busy:
            break
        settle(100)
    best = page.result.answer("net_value") or page.result.answer("cheapest")
    if best is not None and best.point is not None:
        page.choose((best.point.option, best.point.gpus))
    save(window, f"{lang}-{number:02d}-compare")


if __name__ == "__main__":
    sys.exit(main())
