"""Screenshots of every wizard page and results tab, in English and Chinese, at 1280×800.

Run under Xvfb (a real X server, so fonts and styles are what a user sees):

    xvfb-run -s "-screen 0 1280x800x24" .venv/bin/python scripts/screenshots.py

Writes docs/screenshots/<lang>-<nn>-<page>.png for the medium-model example (F17 row 3);
``--only compare`` writes the compare page's alone (<lang>-11-compare.png).
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
TABS = ("speedup", "cost", "buy-vs-rent", "pitfalls", "why")


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
        window.resize(1280, 800)
        window.show()
        window.recompute()
        settle(400)
        if args.only == "compare":
            compare_shot(window, lang, save, settle)
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
        compare_shot(window, lang, save, settle)
        window.close()
        hub.set_language("en")
    for path in written:
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        print(f"{shown}  {path.stat().st_size // 1024} KB")
    return 0


def compare_shot(window, lang: str, save, settle) -> None:
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
    save(window, f"{lang}-{len(PAGES) + 1 + len(TABS) + 1:02d}-compare")


if __name__ == "__main__":
    sys.exit(main())
