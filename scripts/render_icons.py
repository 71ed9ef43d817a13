"""Render the application icon (resources/icons/gpu-advisor.svg) to the PNG sizes the desktops
use, and to .ico (Windows) and .icns (macOS), with Qt's own SVG renderer:

    .venv/bin/python scripts/render_icons.py

Writes resources/icons/gpu-advisor-<N>.png for N in SIZES, gpu-advisor.ico and
gpu-advisor.icns; rerun after editing the SVG (tests/ui/test_app_icon.py checks they match).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ICONS = ROOT / "resources" / "icons"
SVG = ICONS / "gpu-advisor.svg"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def render(size: int):
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        raise SystemExit(f"{SVG}: not a valid SVG for Qt")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    return image


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841
    for size in SIZES:
        path = ICONS / f"gpu-advisor-{size}.png"
        if not render(size).save(str(path), "PNG"):
            raise SystemExit(f"could not write {path}")
        print(path.relative_to(ROOT))
    for suffix, size in (("ico", 256), ("icns", 512)):  # Qt's image plugins write both
        path = ICONS / f"gpu-advisor.{suffix}"
        if not render(size).save(str(path), suffix.upper()):
            raise SystemExit(f"could not write {path} (Qt image format plugin missing?)")
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
