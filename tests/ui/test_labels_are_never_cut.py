"""A field's wrapped label is as tall as its drawn text (issue 34): on a language model's model
page at 1400 x 900 "Pure 16-bit training" and "Tensor-parallel degree" were drawn on two and
three lines in rows one and two lines tall, cut at the top and bottom (the form asked the
label's height at the column's width and for a width where the measure and the drawing
break lines differently; ui/forms/field_label.py)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPalette

from tests.support.ui import make_window, projection_recommend

WRAP = Qt.TextFlag.TextWordWrap | Qt.TextFlag.TextShowMnemonic


def _drawn_height(label) -> int:
    """How tall the label's text is as the style draws it at the label's width (not as the
    font's metrics measure it: the two break lines differently near the edge): the lowest
    row of ink, drawn into a tall image."""
    width = label.width()
    image = QImage(width, 400, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setFont(label.font())
    palette = label.palette()
    palette.setColor(QPalette.ColorRole.WindowText, QColor("black"))
    label.style().drawItemText(painter, QRect(0, 0, width, 400),
                               int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
                                   | WRAP), palette, True, label.text())
    painter.end()
    inked = [y for y in range(400) if any(QColor(image.pixel(x, y)).lightness() < 160
                                          for x in range(width))]
    return (max(inked) + 1) if inked else 0


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(1400, 900), (1280, 720)])
def test_every_label_on_a_language_models_pages_is_as_tall_as_its_text(qtbot, lang, size):
    window = make_window(qtbot, lang, projection_recommend)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    window.answers.set("task", "llm")
    for page in window.pages:
        if not hasattr(page, "editors"):
            continue
        window.go_to(window.pages.index(page))
        qtbot.wait(30)
        cut = [(path, e.label.height(), _drawn_height(e.label))
               for path, e in page.editors.items()
               if e.isVisible() and e.label.text() and e.label.height() < _drawn_height(e.label)]
        assert not cut, cut
