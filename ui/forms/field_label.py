"""A field's label whose wrapped text is never cut off by its row (issue 34).

A word-wrapped QLabel measures its lines with the font's metrics, while the style draws Latin
text breaking a few pixels earlier (hyphens, the mnemonic, rounding): laid out exactly at its
measured width, "Pure 16-bit training" was drawn on two lines in a one-line row, and
"Tensor-parallel degree" on three lines in two (a language model's model page at 1400 x 900).
The form also asked a label's height at the column's width while laying it out at its size
hint's, narrower. ``FieldLabel`` gives the height of the lines at the width it is laid out at,
less ``SLACK_PX`` where the text has no more room than that on one line."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QLabel

SLACK_PX = 6  # the drawn text breaks within this many pixels of where the measure breaks


class FieldLabel(QLabel):
    """A wrapped label whose height, at the width the form gives it, holds the lines drawn."""

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt's name)
        # the form lays a label out no wider than its size hint (a wrapped label's hint is a
        # balanced width, narrower than the column): the height is the one at that width
        drawn = min(width, super().sizeHint().width())
        text = self.text().replace("&", "")
        if not text.isascii() or drawn >= self.fontMetrics().horizontalAdvance(text) + SLACK_PX:
            # room to spare on one line, or Chinese (drawn where measured: any character
            # may start a line, there is no word to push down)
            return super().heightForWidth(drawn)
        return super().heightForWidth(max(drawn - SLACK_PX, 1))

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        # an aligned item is no taller than its hint: the hint holds the lines drawn at its width
        hint = super().sizeHint()
        return QSize(hint.width(), max(hint.height(), self.heightForWidth(hint.width())))
