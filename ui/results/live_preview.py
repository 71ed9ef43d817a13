"""A strip under the question pages: the verdict so far and the projected speed-up, redrawn on
every change, so each answer's effect is visible while answering (the results page has more).

It folds to one line (the caption's arrow, issue 34): on a short screen the questions keep the
room and the verdict stays in sight. Its plot is added when pyqtgraph has been imported
(``attach_plot``; the window imports it off the GUI thread after the first paint): the verdict
shows first."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ui.app.theme import mute
from ui.results.verdict_card import (
    NO_RESULT_COLOR,
    RATING_COLORS,
    STALE_COLOR,
    count_index,
    gpus_text,
    money_text,
    rating_text,
)

PLOT_HEIGHT = 170  # the plot's height when open; it never grows past PREVIEW_HEIGHT
PREVIEW_HEIGHT = 230


def one_line(text: str) -> str:
    """The preview's lines on the folded line: joined by " · ", except after a line that ends
    in a colon ("With X (typical price): 8 GPUs: …", "采用X（典型价格）：8卡：…"), which the
    next line completes."""
    out = ""
    for part in (p.strip() for p in text.splitlines()):
        if not part:
            continue
        if not out:
            out = part
        elif out.endswith("："):
            out += part
        elif out.endswith(":"):
            out += " " + part
        else:
            out += " · " + part
    return out


class LivePreview(QFrame):
    foldedChanged = Signal(bool)  # the user folded (True) or opened (False) the preview

    def __init__(self, parent=None, *, plot: bool = True) -> None:
        """``plot``: build the plot now (False: when ``attach_plot`` is called)."""
        super().__init__(parent)
        self.setObjectName("livePreview")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.setMaximumHeight(PREVIEW_HEIGHT)
        self.toggle = QToolButton()  # the caption, with the arrow that folds the preview
        self.toggle.setObjectName("previewToggle")
        self.toggle.setAutoRaise(True)  # a caption with an arrow, not a pressed button
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow)
        self.toggle.clicked.connect(lambda: self.set_folded(not self.folded))
        self._open = True
        self.caption = self.toggle  # the caption's text is the button's
        self.rating = QLabel()
        self.rating.setObjectName("previewRating")
        self.line = QLabel()  # the details on one line while folded
        mute(self.line)
        self.line.hide()
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.key = QLabel()  # the plot has no legend here: say what the lines are
        self.key.setWordWrap(True)
        self.key.setStyleSheet("font-size: 11px;")
        mute(self.key)
        head = QHBoxLayout()
        head.addWidget(self.toggle)
        head.addWidget(self.rating)
        head.addWidget(self.line, 1)
        head.addStretch(0)
        left = QVBoxLayout()
        left.setContentsMargins(0, 0, 0, 0)
        left.addWidget(self.details)
        left.addStretch(1)
        left.addWidget(self.key)
        self.body = QWidget()
        self._row = QHBoxLayout(self.body)
        self._row.setContentsMargins(0, 0, 0, 0)
        self._row.addLayout(left, 2)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 2, 6, 6)
        outer.setSpacing(2)
        outer.addLayout(head)
        outer.addWidget(self.body)
        self.plot: Any = None
        self._results: Any = None
        self._lang = "en"
        self._stale = 0  # invalid answers since the results shown (0: they are current)
        if plot:
            self.attach_plot()
        self.retranslate()

    # -- folding ------------------------------------------------------------------------------
    @property
    def folded(self) -> bool:
        return not self._open

    def set_folded(self, folded: bool) -> None:
        if folded == self.folded:
            return
        opened = self._open = not folded
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if opened else Qt.ArrowType.RightArrow)
        self.body.setVisible(opened)
        self.line.setVisible(not opened)
        if opened and self._results is not None:
            self.show_results(self._results, self._lang)  # the plot was not drawn while folded
        self.foldedChanged.emit(not opened)

    # -- the plot -----------------------------------------------------------------------------
    def attach_plot(self) -> None:
        """Build the plot (imports pyqtgraph) and draw the results shown so far."""
        if self.plot is not None:
            return
        from ui.plots.style import on_screen

        self.plot = on_screen()
        self.plot.setAccessibleName(QCoreApplication.translate("Preview", "Speed-up"))
        self.plot.setMinimumSize(260, 120)
        self.plot.setMaximumHeight(PLOT_HEIGHT + 40)
        self._row.addWidget(self.plot, 5)
        if self._results is not None:
            self.show_results(self._results, self._lang)

    # -- text ---------------------------------------------------------------------------------
    def set_stale(self, problems: int) -> None:
        """``problems`` answers to fix: the verdict shown is of earlier answers, and says so
        (greyed, the caption counting them); 0: current again."""
        if problems == self._stale:
            return
        self._stale = problems
        self.retranslate()

    def retranslate(self) -> None:
        self.caption.setText(
            QCoreApplication.translate("Preview", "Live result") if not self._stale
            or self._results is None else
            QCoreApplication.translate("Preview", "For earlier answers: %1 to fix").replace(
                "%1", str(self._stale)))
        self.toggle.setToolTip(QCoreApplication.translate(
            "Preview", "Fold or open the live result"))
        self.toggle.setAccessibleName(QCoreApplication.translate("Preview", "Live result"))
        self.toggle.setAccessibleDescription(QCoreApplication.translate(
            "Preview", "Fold or open the live result"))
        self.setAccessibleName(QCoreApplication.translate("Preview", "Live result"))
        if self.plot is not None:  # named as the results page's speed-up plot (issue 34)
            self.plot.setAccessibleName(QCoreApplication.translate("Preview", "Speed-up"))
        self.key.setText(self.key_text())
        if self._results is not None:
            self.show_results(self._results, self._lang)

    def show_error(self, text: str | None) -> None:
        """No result for the latest answers: the reason, not a stale verdict."""
        if text is None:
            return
        self.rating.setText(QCoreApplication.translate("Preview", "No results"))
        self.rating.setStyleSheet(f"background: {NO_RESULT_COLOR}; color: white; font-size: 16px;"
                                  "font-weight: 700; padding: 4px 10px; border-radius: 5px;")
        self.details.setText(text)
        self.line.setText(text.splitlines()[0] if text else "")

    def show_results(self, results: Any, lang: str) -> None:
        self._results, self._lang = results, lang
        rec = results.recommendation
        verdict, projection, costs = rec.verdict, rec.projection, rec.costs
        # a verdict of earlier answers: greyed and in italics, never the rating's own colour
        colour = STALE_COLOR if self._stale else RATING_COLORS.get(verdict.rating, "#444")
        style = (f"background: {colour}; color: white;"
                 + ("font-style: italic;" if self._stale else "") +
                 "font-size: 16px; font-weight: 700; padding: 4px 10px; border-radius: 5px;")
        if self.rating.styleSheet() != style:
            self.rating.setStyleSheet(style)
        self.rating.setText(rating_text(verdict.rating))
        index = count_index(projection.gpus, verdict.gpus)
        cost_index = count_index(costs.gpus, verdict.gpus)
        month = money_text(costs.cost_per_month[cost_index], costs.currency) \
            if getattr(costs, "mode_priced", True) and cost_index is not None else "—"
        if not getattr(verdict, "runnable", True):
            text = QCoreApplication.translate("Preview", "Cannot run on this hardware")
        elif index is None:  # past the counts projected: no speed-up of its own to quote
            text = QCoreApplication.translate("Preview", "%1: beyond the counts projected")
        elif verdict.gpus == 1:  # "1 GPU: 1.00× one GPU" says nothing
            text = QCoreApplication.translate("Preview", "Stay on one GPU\n%3 a month")
        else:
            text = QCoreApplication.translate("Preview", "%1: %2× one GPU\n%3 a month")
        text = (text.replace("%1", gpus_text(verdict.gpus))
                .replace("%2", "—" if index is None else f"{projection.speedup[index]:.2f}")
                .replace("%3", month))
        applied = next((o for o in getattr(rec, "setups", []) if o.applied), None)
        if applied is not None:  # the figures are for a setup change (issue 17): say which
            text = QCoreApplication.translate("Preview", "With %1:").replace(
                "%1", applied.label.get(lang)) + "\n" + text
        self.details.setText(text)
        self.line.setText(one_line(text))
        if self.plot is not None and not self.folded:
            from ui.plots import speedup_plot

            speedup_plot(rec, results.profile, lang, better=results.better_link,
                         better_link=results.better_link_name, plot=self.plot,
                         keep_better=True, compact=True)
        self.key.setText(self.key_text())

    def key_text(self) -> str:
        """What the lines of the plot are (it has no legend here): only those drawn."""
        items = getattr(self.plot, "advisor_items", {})

        def shown(name: str) -> bool:
            return name in items and items[name].isVisible()

        parts = [QCoreApplication.translate(
            "Preview", "Blue: projected speed-up and its likely range.")]
        if shown("no_fit"):
            parts.append(QCoreApplication.translate(
                "Preview", "Red crosses: the model does not fit in memory there."))
        if shown("better"):
            parts.append(QCoreApplication.translate("Preview", "Green dashed: on a faster link."))
        if shown("typical"):
            parts.append(QCoreApplication.translate(
                "Preview", "Orange bars: the article's typical range (F01)."))
        parts.append(QCoreApplication.translate("Preview", "Grey: ideal."))
        return ("" if parts[0].endswith("。") else " ").join(parts)
