"""The last step: verdict card on top, then plots, pitfalls and the "why" trace in tabs.

Everything updates in place when new results arrive (no widget is rebuilt)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from ui.plots import buy_vs_rent_plot, cost_plot, speedup_plot
from ui.plots.style import new_plot
from ui.results.pitfalls_view import PitfallsView
from ui.results.verdict_card import VerdictCard
from ui.results.why_view import WhyView

BANNER_STYLE = "background: #fff4d6; color: #5c4400; padding: 6px; border-radius: 4px;"


class ResultsPage(QWidget):
    plotsUpdated = Signal()  # after the card and every plot show the newest results

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.card = VerdictCard()
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet(BANNER_STYLE)
        self.banner.hide()
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
        layout.addWidget(self.card)
        layout.addWidget(self.banner)
        layout.addWidget(self.tabs, 1)
        self.results: Any = None
        self.lang = "en"
        self.retranslate()

    def retranslate(self) -> None:
        for index, text in enumerate((self.tr("Speed-up"), self.tr("Cost"),
                                      self.tr("Buy vs rent"), self.tr("Pitfalls && advice"),
                                      self.tr("Why"))):
            self.tabs.setTabText(index, text)
        self.card.retranslate()

    def show_results(self, results: Any, lang: str) -> None:
        self.results, self.lang = results, lang
        rec, profile = results.recommendation, results.profile
        self.card.show_recommendation(rec, lang)
        speedup_plot(rec, profile, lang, better=results.better_link,
                     better_link=results.better_link_name, plot=self.speedup, keep_better=True)
        cost_plot(rec, profile, lang, plot=self.cost)
        buy_vs_rent_plot(rec, profile, lang, plot=self.buy_vs_rent)
        self.pitfalls.show_recommendation(rec, lang)
        self.why.show_recommendation(rec, lang)
        self.plotsUpdated.emit()

    def show_better_link(self, results: Any, lang: str) -> None:
        """Only the better-link curve changed: redraw the speed-up plot."""
        self.results, self.lang = results, lang
        speedup_plot(results.recommendation, results.profile, lang, better=results.better_link,
                     better_link=results.better_link_name, plot=self.speedup)

    def set_banner(self, text: str | None) -> None:
        self.banner.setText(text or "")
        self.banner.setVisible(bool(text))


def empty_plot():
    """An empty plot widget, filled by the builders on the first results."""
    return new_plot(None)[0]
