"""Screenshots of the desktop wizard, in English and Chinese: every page and results tab at
1400×900, the window on laptops (1366×768, and 1920×1080 at 150 % = 1280×720 logical) and in
a dark theme.

Run under Xvfb (a real X server, so fonts and styles are what a user sees):

    xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python scripts/screenshots.py

Writes into docs/screenshots/, for the medium-model example (F17 row 3):

* ``<lang>-<nn>-<page>.png`` at 1400×900: every question page, every results tab, the
  diagnosis page, the first results a newcomer sees (the wizard's own defaults), the hardware
  page with a custom GPU being entered, the compare page, and the catalog model list searched
  ("llama 8b"; the list is a window of its own, so this one is a picture of the X screen);
* ``<lang>-laptop-<size>-<nn>-<page>.png``: the window maximised on a laptop (a 40 px taskbar
  and a 30 px title bar taken off the screen): 1366×768, and 1280×720 logical drawn at 150 %
  (``QT_SCALE_FACTOR=1.5``, a child process; the picture is 1920 pixels wide);
* ``<lang>-dark-<nn>-<page>.png``: at 1366×768 in a dark palette (``ui.app.theme``).

``--only compare|laptops|dark|classic`` writes one set. Uses a private state folder, so the
user's autosave and settings are neither read nor written.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
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
MODEL_LIST_NUMBER = COMPARE_NUMBER + 1
TASKBAR_PX, TITLE_PX = 40, 30
# name: (screen in logical pixels, scale factor)
LAPTOPS = {"1366x768": ((1366, 768), 1.0), "1280x720": ((1280, 720), 1.5)}
DARK_SCREEN = "1366x768"
# the steps a laptop or dark set shows: (name, page index or "results:<tab>" or "compare")
SHORT_SET = (("model", 0), ("hardware", 2), ("results-speedup", "results:0"),
             ("results-cost", "results:1"), ("compare", "compare"))


def indexed(image, QImage, Qt):  # noqa: N803 - the Qt classes, imported late
    """The picture in its 256 most frequent colours (each other pixel the nearest of them):
    small PNGs of text and flat plots with no visible loss. Qt's own 8-bit conversion uses a
    fixed colour cube that turns a dark theme's greys into one (#242424 became #333333)."""
    import numpy as np

    rgb = image.convertToFormat(QImage.Format.Format_RGB32)
    pixels = np.frombuffer(rgb.constBits(), dtype=np.uint32,
                           count=rgb.bytesPerLine() // 4 * rgb.height())
    values, counts = np.unique(pixels, return_counts=True)
    table = [int(v) for v in values[np.argsort(counts)[::-1][:256]]]
    return rgb.convertToFormat(QImage.Format.Format_Indexed8, table,
                               Qt.ImageConversionFlag.ThresholdDither)


def window_size(screen: tuple[int, int]) -> tuple[int, int]:
    """A window maximised on ``screen``: its width, its height less a taskbar and a title."""
    return screen[0], screen[1] - TASKBAR_PX - TITLE_PX


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--example", type=Path, default=EXAMPLE)
    parser.add_argument("--only", choices=["compare", "laptops", "dark", "classic"],
                        default=None, help="one set of screenshots")
    parser.add_argument("--laptop", choices=sorted(LAPTOPS), default=None,
                        help=argparse.SUPPRESS)  # a child at its scale factor
    args = parser.parse_args()
    state = tempfile.mkdtemp(prefix="advisor-shots-")
    os.environ["GPU_ADVISOR_STATE_DIR"] = state
    os.environ["GPU_ADVISOR_LOG_DIR"] = state
    os.environ["XDG_CONFIG_HOME"] = state  # no remembered language, size or page
    if args.laptop is None and args.only in (None, "laptops"):
        for name, (_screen, scale) in LAPTOPS.items():
            if scale != 1.0:  # a scale factor is set before Qt starts: a process of its own
                env = {**os.environ, "QT_SCALE_FACTOR": f"{scale:g}"}
                command = [sys.executable, __file__, "--laptop", name, "--out",
                           str(args.out), "--example", str(args.example)]
                if os.environ.get("DISPLAY") and shutil.which("xvfb-run"):
                    # an X screen of the laptop's own size: the window's first size and the
                    # live result's folding are those of that screen
                    width, height = (round(side * scale) for side in _screen)
                    command = ["xvfb-run", "-a", "-s", f"-screen 0 {width}x{height}x24",
                               *command]
                subprocess.run(command, env=env, check=True)
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QEventLoop, Qt, QTimer
    from PySide6.QtGui import QImage

    from ui.app.application import build_window, make_application

    app = make_application()
    args.out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def settle(ms: int = 150) -> None:
        loop = QEventLoop()
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    def save(window, name: str, image=None) -> None:
        settle()
        image = image if image is not None else window.grab().toImage()
        image = indexed(image, QImage, Qt)
        path = args.out / f"{name}.png"
        image.save(str(path), "PNG", 9)
        written.append(path)

    tools = (build_window, settle, save)
    if args.laptop is not None:
        for lang in ("en", "zh"):
            short_set(lang, f"{lang}-laptop-{args.laptop}", LAPTOPS[args.laptop][0], args,
                      tools)
    else:
        for lang in ("en", "zh"):
            if args.only in (None, "classic", "compare"):
                classic(lang, args, tools)
            if args.only in (None, "laptops"):
                for name, (screen, scale) in LAPTOPS.items():
                    if scale == 1.0:
                        short_set(lang, f"{lang}-laptop-{name}", screen, args, tools)
            if args.only in (None, "dark"):
                dark(app, lang, args, tools)
    for path in written:
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        print(f"{shown}  {path.stat().st_size // 1024} KB")
    return 0


def _window(lang: str, size: tuple[int, int], args, build_window, settle, argv=None):
    window, hub = build_window([str(args.example)] if argv is None else argv, lang,
                               threaded=False)
    window.document.ask_unsaved = lambda: "discard"  # a picture changes nothing to keep
    window.resize(*size)
    window.show()
    window.recompute()
    settle(400)
    return window, hub


def classic(lang: str, args, tools) -> None:
    """Every page and tab at 1400×900, then the extras; or the compare page alone."""
    build_window, settle, save = tools
    window, hub = _window(lang, SIZE, args, build_window, settle)
    if args.only == "compare":
        compare_shot(window, f"{lang}-{COMPARE_NUMBER:02d}-compare", save, settle)
        window.close()
        hub.set_language("en")
        return
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
    compare_shot(window, f"{lang}-{COMPARE_NUMBER:02d}-compare", save, settle)
    model_list_shot(window, f"{lang}-{MODEL_LIST_NUMBER:02d}-model-list", save, settle)
    window.close()
    hub.set_language("en")
    extras(lang, len(PAGES) + 2 + len(TABS), args, tools)


def short_set(lang: str, prefix: str, screen: tuple[int, int], args, tools,
              after_build=None) -> None:
    """The model and hardware pages, two results tabs and the compare page, in a window
    maximised on ``screen`` (logical pixels)."""
    build_window, settle, save = tools
    window, hub = _window(lang, window_size(screen), args, build_window, settle)
    if after_build is not None:
        after_build(window)
    for number, (name, step) in enumerate(SHORT_SET, start=1):
        if step == "compare":
            compare_shot(window, f"{prefix}-{number:02d}-{name}", save, settle)
            continue
        if isinstance(step, str):  # a results tab
            window.go_to(len(PAGES))
            settle(200)
            window.results_page.tabs.setCurrentIndex(int(step.split(":")[1]))
        else:
            window.go_to(step)
        save(window, f"{prefix}-{number:02d}-{name}")
    window.close()
    hub.set_language("en")


def dark(app, lang: str, args, tools) -> None:
    """The short set at 1366×768 in a dark palette (the light one restored afterwards)."""
    from PySide6.QtGui import QPalette

    from ui.app.theme import dark_palette

    before = QPalette(app.palette())
    app.setPalette(dark_palette())
    try:
        short_set(lang, f"{lang}-dark", LAPTOPS[DARK_SCREEN][0], args, tools)
    finally:
        app.setPalette(before)


def extras(lang: str, number: int, args, tools) -> None:
    """The newcomer's first results (no file: the wizard's defaults) and a custom GPU."""
    build_window, settle, save = tools
    # a fresh state folder: a first start, with no autosave of the example to restore
    os.environ["GPU_ADVISOR_STATE_DIR"] = tempfile.mkdtemp(prefix="advisor-first-")
    window, hub = _window(lang, SIZE, args, build_window, settle, argv=[])
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


def compare_shot(window, name: str, save, settle) -> None:
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
    save(window, name)


def model_list_shot(window, name: str, save, settle) -> None:
    """The catalog model list searched for "llama 8b", its choices open under the field. The
    list is a window of its own: the picture is of the screen (an X server only)."""
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtTest import QTest

    if QGuiApplication.platformName() != "xcb":
        return
    window.go_to(0)
    editor = window.pages[0].editors["model.id"]
    editor.input.setFocus()
    editor.input.lineEdit().clear()
    QTest.keyClicks(editor.input.lineEdit(), "llama 8b")
    settle(400)
    screen = window.screen()
    frame = window.frameGeometry()
    image = screen.grabWindow(0, frame.x(), frame.y(), frame.width(), frame.height()).toImage()
    save(window, name, image)
    editor.input.completer().popup().hide()
    editor.input.lineEdit().clear()


if __name__ == "__main__":
    sys.exit(main())
