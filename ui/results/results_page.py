"""The last step: verdict card on top, then plots, pitfalls and the "why" trace in tabs.

Everything updates in place when new results arrive (no widget is rebuilt)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QTabWidget, QVBoxLayout, QWidget

from ui.app.theme import banner_style, styled
from ui.plots import buy_vs_rent_plot, cost_plot, speedup_plot
from ui.plots.describe import buy_vs_rent_description, cost_description, speedup_description
from ui.plots.style import on_screen
from ui.results.pitfalls_view import PitfallsView
from ui.results.verdict_card import VerdictCard
from ui.results.why_view import WhyView

CARD_MIN_LINES = 5  # the card's least height, in text lines: its badge and a line or two


class CardArea(QScrollArea):
    """The verdict card, scrolled when the page is short (review D2: on a 1366 x 768 laptop
    at 125 % a long headline showed three of its twelve lines, with no way to read the rest).
    It asks for the card's whole height at its width, and for only a few lines at least, so
    the page never asks a short screen for more height than it has; the rest scrolls."""

    def __init__(self, card: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("verdictCardArea")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # no Tab stop of its own (it draws no focus), as the question pages' scroll areas:
        # Tab goes to the card's buttons, which it scrolls into view
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setWidget(card)

    def _needed(self) -> int:
        """The card's height at the width it has (word-wrapped headline and summary whole)."""
        card = self.widget()
        width = max(self.viewport().width(), card.minimumSizeHint().width())
        height = card.heightForWidth(width) if card.hasHeightForWidth() else -1
        return max(height, card.sizeHint().height())

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        margins = self.contentsMargins()
        return QSize(self.widget().sizeHint().width(),
                     self._needed() + margins.top() + margins.bottom())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        least = CARD_MIN_LINES * self.fontMetrics().lineSpacing()
        return QSize(super().minimumSizeHint().width(), min(least, self.sizeHint().height()))

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.updateGeometry()  # the card's height at the new width


class ResultsPage(QWidget):
    plotsUpdated = Signal()  # after the card and every plot show the newest results

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.card = VerdictCard()
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        styled(self.banner, lambda: banner_style("warning"))
        self.banner.hide()
        self.error_banner = QLabel()
        self.error_banner.setObjectName("computeError")
        self.error_banner.setWordWrap(True)
        styled(self.error_banner, lambda: banner_style("error"))
        self.error_banner.hide()
        self.tabs = QTabWidget()
        self.speedup = empty_plot()
        self.cost = empty_plot()
        self.buy_vs_rent = empty_plot()
        self.pitfalls = PitfallsView()
        self.why = WhyView()
        for widget in (self.speedup, self.cost, self.buy_vs_rent, self.pitfalls, self.why):
            self.tabs.addTab(widget, "")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.card_area = CardArea(self.card)
        layout.addWidget(self.card_area)
        layout.addWidget(self.banner)
        layout.addWidget(self.error_banner)
        layout.addWidget(self.tabs, 1)
        self.results: Any = None
        self.lang = "en"
        self._stale: set[int] = set()
        self.tabs.currentChanged.connect(self._tab_changed)
        self.retranslate()

    def retranslate(self) -> None:
        for index, text in enumerate((self.tr("Speed-up"), self.tr("Cost"),
                                      self.tr("Buy vs rent"), self.tr("Pitfalls && advice"),
                                      self.tr("Why"))):
            self.tabs.setTabText(index, text)
            # a screen reader names each view (plots included) as its tab does
            self.tabs.widget(index).setAccessibleName(text.replace("&&", "&"))
        self.tabs.setAccessibleName(self.tr("Result views"))
        self.tabs.tabBar().setAccessibleName(self.tr("Result views"))
        self.card.setAccessibleName(self.tr("Verdict"))
        self.card.retranslate()

    def show_results(self, results: Any, lang: str) -> None:
        """Draw new results: the card and the visible tab now, the hidden tabs when shown;
        while the page itself is hidden (the questions are answered, the live preview shows
        the results: issue 34's redraw budget) its tab waits until the page is shown."""
        self.results, self.lang = results, lang
        self.card.show_recommendation(results.recommendation, lang)
        self.describe_plots()
        self._stale = set(range(self.tabs.count()))
        if self.shown():
            self._draw_tab(self.tabs.currentIndex())
        self.plotsUpdated.emit()

    def describe_plots(self) -> None:
        """Each plot's key numbers in words for a screen reader (review D6), set for every
        plot at once, drawn or not: a tab's description is right when the tab is reached."""
        rec, lang = self.results.recommendation, self.lang
        for plot, describe in ((self.speedup, speedup_description),
                               (self.cost, cost_description),
                               (self.buy_vs_rent, buy_vs_rent_description)):
            plot.setAccessibleDescription(describe(rec, lang))

    def shown(self) -> bool:
        """Whether the page is the one its window shows (the window itself may be hidden)."""
        return self.isVisibleTo(self.window()) if self.window() is not self else True

    def draw_current(self) -> None:
        """The visible tab brought up to date (the window calls it when the page is shown)."""
        self._draw_tab(self.tabs.currentIndex())

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt's name
        self.draw_current()  # drawn before it is painted
        super().showEvent(event)

    def show_better_link(self, results: Any, lang: str) -> None:
        """Only the better-link curve changed: redraw the speed-up plot (now or when shown)."""
        self.results, self.lang = results, lang
        self._stale.add(0)
        if self.tabs.currentIndex() == 0 and self.shown():
            self._draw_tab(0)

    def draw_all(self) -> None:
        """Bring every tab up to date (screenshots, tests, export)."""
        for index in range(self.tabs.count()):
            self._draw_tab(index)

    def _tab_changed(self, index: int) -> None:
        self._draw_tab(index)

    def _draw_tab(self, index: int) -> None:
        if self.results is None or index not in self._stale:
            return
        self._stale.discard(index)
        rec, profile, lang = self.results.recommendation, self.results.profile, self.lang
        if index == 0:
            speedup_plot(rec, profile, lang, better=self.results.better_link,
                         better_link=self.results.better_link_name, plot=self.speedup,
                         keep_better=True)
        elif index == 1:
            cost_plot(rec, profile, lang, plot=self.cost)
        elif index == 2:
            buy_vs_rent_plot(rec, profile, lang, plot=self.buy_vs_rent)
        elif index == 3:
            self.pitfalls.show_recommendation(rec, lang)
        elif index == 4:
            self.why.show_recommendation(rec, lang)

    def show_error(self, text: str | None) -> None:
        """Why the latest answers have no results (None: they have). The last results stay
        below, greyed by the card saying they are not for these answers."""
        self.error_banner.setText(text or "")
        self.error_banner.setVisible(bool(text))
        self.card.show_error(text)
        self.tabs.setEnabled(not text)

    def set_banner(self, text: str | None) -> None:
        self.banner.setText(text or "")
        self.banner.setVisible(bool(text))


def empty_plot():
    """An empty plot widget, filled by the builders on the first results."""
    return on_screen()
