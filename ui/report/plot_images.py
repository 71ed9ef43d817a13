"""The wizard's plots, rendered to images at print resolution for the PDF.

A plot is laid out at a typical on-screen size of the wizard's plots (``PLOT_SIZE_PX``), so fonts
and proportions match, then painted ``PRINT_SCALE`` times larger. The document shows it
``DOC_WIDTH_PX`` wide (at 96 px per inch), which puts 600 × 2.4 = 1440 pixels on 6.7 inches:
about 216 dpi on paper, and the plot's text a little larger than on screen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter
from PySide6.QtWidgets import QGraphicsView

from advisor.diagnosis.result import Diagnosis
from advisor.profile import Profile
from advisor.verdict.result import Recommendation
from ui import plots
from ui.diagnosis.plot import diagnosis_plot
from ui.plots.style import LEGEND_ROW_PX, legend_rows

PLOT_SIZE_PX = (600, 340)
PRINT_SCALE = 2.4
DOC_WIDTH_PX = 640

Builder = Callable[[Recommendation, Profile, str], Any]


@dataclass(frozen=True)
class PlotImage:
    key: str  # speedup | cost | buy_vs_rent | diagnosis
    image: QImage

    @property
    def url(self) -> str:
        return f"plot://{self.key}"

    @property
    def doc_height_px(self) -> int:
        return round(DOC_WIDTH_PX * self.image.height() / max(1, self.image.width()))


def _speedup_plot(rec: Recommendation, profile: Profile, lang: str) -> Any:
    """The wizard's speed-up plot with its "same workload on a better link" curve (F25)."""
    return plots.speedup_plot(rec, profile, lang, compute_better=True)


def builders() -> dict[str, Builder]:
    """The wizard's plot builders (``ui.plots``), by report key."""
    return {"speedup": _speedup_plot, "cost": plots.cost_plot,
            "buy_vs_rent": plots.buy_vs_rent_plot}


def render(plot: QGraphicsView, families: list[str], *,
           size_px: tuple[int, int] = PLOT_SIZE_PX, scale: float = PRINT_SCALE) -> QImage:
    """Lay ``plot`` out at ``size_px`` without showing it on screen and paint its scene into an
    image ``scale`` times larger, as a high-density screen would: text, symbols and cosmetic
    pens all grow together, so the print looks like the wizard. (pyqtgraph's ImageExporter
    leaves legend text at screen size.)"""
    if not isinstance(plot, QGraphicsView) or plot.scene() is None:
        raise TypeError(f"a plot builder returned {type(plot).__name__}, not a plot widget")
    # Shown for layout only: the window never reaches the screen, even in the wizard.
    plot.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    plot.resize(*size_px)
    plot.show()
    font = QFont(plot.scene().font())
    font.setFamilies(families)  # Chinese labels find a CJK face on any machine
    plot.scene().setFont(font)
    # Axes widen to fit their tick labels only after a first paint; paint once, then lay out
    # again, or long labels (¥250,000) run into the axis title.
    plot.grab()
    _activate_layout(plot)
    width, height = size_px
    image = QImage(round(width * scale), round(height * scale), QImage.Format.Format_RGB32)
    image.setDevicePixelRatio(scale)
    image.fill(QColor("white"))  # paper; an opaque image is also stored compactly (JPEG)
    painter = QPainter(image)
    try:
        for hint in (QPainter.RenderHint.Antialiasing, QPainter.RenderHint.TextAntialiasing,
                     QPainter.RenderHint.SmoothPixmapTransform):
            painter.setRenderHint(hint, True)
        source = plot.mapToScene(plot.viewport().rect()).boundingRect()
        plot.scene().render(painter, QRectF(0, 0, width, height), source)
    finally:
        painter.end()
    plot.hide()
    plot.deleteLater()
    image.setDevicePixelRatio(1.0)  # the document sizes it explicitly
    return image


def _activate_layout(plot: QGraphicsView) -> None:
    item = plot.getPlotItem() if hasattr(plot, "getPlotItem") else None
    layout = getattr(item, "layout", None)
    if callable(getattr(layout, "activate", None)):
        layout.activate()


def size_for(plot: Any) -> tuple[int, int]:
    """The layout size of a plot: taller by the legend's rows past two, so a long legend under
    the axes never squeezes them (the y title ran off a plot with six entries)."""
    width, height = PLOT_SIZE_PX
    rows = legend_rows(plot) if hasattr(plot, "advisor_legend") else 0
    return width, height + max(0, rows - 2) * LEGEND_ROW_PX


def plot_images(rec: Recommendation, profile: Profile, lang: str, families: list[str],
                diagnosis: Diagnosis | None = None) -> dict[str, PlotImage]:
    """Every plot of the report, by key, rendered for print; with a diagnosis, also the
    diagnosis page's measured vs fitted vs ideal plot (``ui.diagnosis.diagnosis_plot``)."""
    images = {}
    for key, build in builders().items():
        plot = build(rec, profile, lang)
        images[key] = PlotImage(key, render(plot, families, size_px=size_for(plot)))
    if diagnosis is not None:
        images["diagnosis"] = PlotImage("diagnosis",
                                        render(_diagnosis_plot(diagnosis, lang), families))
    return images


def _diagnosis_plot(d: Diagnosis, lang: str) -> Any:
    """The diagnosis page's plot, as in the wizard (its legend sits under the axes)."""
    return diagnosis_plot(d, lang)
