"""A combo box that never cuts off the text it shows (issue 34: "Full (every weight traine").

Qt's default combo box measures its entries once, when first shown; the wizard names its
entries after that (and again on a language switch), so the measure was of the raw values
("full", "auto") and a laptop's narrower window squeezed the translated text under the
arrow. ``FittingComboBox`` measures again whenever an entry or the choice changes: it asks
for the room of its widest entry and can shrink no further than the text it shows (its list
opens as wide as the widest entry in any case)."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox, QWidget


class FittingComboBox(QComboBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # the preferred width follows the entries whenever they change (not only at first show)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self._fit: str | None = None  # the text the minimum fits (None: the current text)
        self.currentTextChanged.connect(self._text_changed)

    def fit_text(self, text: str | None) -> None:
        """An editable box: the text it must show whole (what is chosen, not each keystroke
        typed into it); None: the current text."""
        if text != self._fit:
            self._fit = text
            self.updateGeometry()

    def _text_changed(self, _text: str) -> None:
        if not self.isEditable() or self._fit is None:
            self.updateGeometry()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        hint = super().minimumSizeHint()
        text = self._fit if self._fit is not None else self.currentText()
        return QSize(self.width_for(text), hint.height())

    def width_for(self, text: str) -> int:
        """The box's width with ``text`` shown whole, as Qt measures a box for its text."""
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        metrics = self.fontMetrics()
        width = metrics.horizontalAdvance(text)
        icon = self.itemIcon(self.currentIndex()) if self.currentIndex() >= 0 else None
        if icon is not None and not icon.isNull():
            width += self.iconSize().width() + 4
        size = QSize(width, max(metrics.height(), 14) + 2)
        return self.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, option, size,
                                             self).width()
