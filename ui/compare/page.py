"""The wizard's "Compare setups" step: the scatter of time per run against cost per month
with the Pareto front, a point's details on click, every option in a table, the answers.

The comparison (``advisor.compare.compare``) runs off the GUI thread when the page is shown or
the answers change while it is; its result holds both languages, so a language switch redraws
it without computing again (and cannot change a number)."""

from __future__ import annotations

import logging
import threading
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ui.app.theme import mute
from ui.compare.details import answers_html, point_html
from ui.compare.table import TABLE_COLUMNS, table_rows
from ui.plots.compare import compare_plot
from ui.plots.describe import compare_description
from ui.plots.style import on_screen

log = logging.getLogger("advisor.ui")
OPTION_COLUMN = 1  # TABLE_COLUMNS' "Option"


def default_compare(profile: Any) -> Any:
    from advisor.compare import compare

    return compare(profile)


class CompareRunner(QObject):
    """One comparison at a time on a worker thread; the newest profile wins."""

    done = Signal(object, object)  # (profile, Comparison)
    failed = Signal(object)  # the exception
    _finished = Signal(object, object, object)  # (profile, result | None, error | None)

    def __init__(self, run: Callable[[Any], Any] | None = None, *, threaded: bool = True,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._run = run or default_compare
        self._threaded = threaded
        self._pending: Any = None
        self._busy = False
        self._finished.connect(self._landed)

    @property
    def busy(self) -> bool:
        return self._busy or self._pending is not None

    def request(self, profile: Any) -> None:
        self._pending = profile
        if not self._busy:
            QTimer.singleShot(0, self._start)

    def _start(self) -> None:
        if self._busy or self._pending is None:
            return
        profile, self._pending = self._pending, None
        self._busy = True
        if self._threaded:
            threading.Thread(target=self._work, args=(profile,), daemon=True,
                             name="advisor-compare").start()
        else:
            self._work(profile)

    def _work(self, profile: Any) -> None:
        try:
            result, error = self._run(profile), None
        except Exception as exc:  # shown as a line on the page, the details in the log
            log.error("comparison failed:\n%s", traceback.format_exc())
            result, error = None, exc
        try:
            self._finished.emit(profile, result, error)
        except RuntimeError:  # the page was closed while comparing: nobody to tell
            log.debug("comparison finished after its page was closed")

    def _landed(self, profile: Any, result: Any, error: Any) -> None:
        self._busy = False
        if error is not None:
            self.failed.emit(error)
        else:
            self.done.emit(profile, result)
        if self._pending is not None:
            self._start()


class ComparePage(QWidget):
    comparisonShown = Signal(object)  # the Comparison, after the page has drawn it
    pointChosen = Signal(object)  # (option id, GPUs)

    def __init__(self, run: Callable[[Any], Any] | None = None, *, threaded: bool = True,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = CompareRunner(run, threaded=threaded, parent=self)
        self.runner.done.connect(self._show)
        self.runner.failed.connect(self._failed)
        self.result: Any = None
        self.profile: Any = None
        self.lang = "en"
        self.selected: tuple[str, int] | None = None
        self._stale: Any = None  # a profile not compared yet (the page was hidden)
        self.title = QLabel()
        self.title.setObjectName("compareTitle")
        self.title.setStyleSheet("font-size: 15pt; font-weight: 600;")
        self.header = QLabel()
        self.header.setWordWrap(True)
        self.status = QLabel()
        self.status.setWordWrap(True)
        mute(self.status)
        self.plot = on_screen()
        self.plot.advisor_clicked = [self.choose]  # type: ignore[attr-defined]
        self.details = QTextBrowser()
        self.details.setOpenExternalLinks(False)
        self.details.setMinimumWidth(300)
        self.table = QTableWidget(0, len(TABLE_COLUMNS))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table (arrows move in it)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # the Option column takes the width the numbers leave and elides its text (the whole
        # of it in its tooltip): at 1366 x 768 and 1280 x 720 at 150 % the hours, costs,
        # break-even and status were scrolled out of sight (review D7.2)
        header.setSectionResizeMode(OPTION_COLUMN, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setWordWrap(False)
        # rows as tall as their text needs (issue 34: three rows showed at 1280 x 800)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        self.table.verticalHeader().setMinimumSectionSize(self.table.fontMetrics().height() + 4)
        self.table.itemSelectionChanged.connect(self._row_chosen)
        top = QSplitter(Qt.Orientation.Horizontal)
        top.setObjectName("compareChartAndDetails")  # its sizes are remembered (session.py)
        top.addWidget(self.plot)
        top.addWidget(self.details)
        top.setStretchFactor(0, 3)
        top.setStretchFactor(1, 2)
        body = QSplitter(Qt.Orientation.Vertical)
        body.setObjectName("compareChartAndTable")
        body.addWidget(top)
        body.addWidget(self.table)
        body.setStretchFactor(0, 1)  # the chart and the table share the height
        body.setStretchFactor(1, 1)
        self.body = body
        heading = QHBoxLayout()
        heading.addWidget(self.title)
        heading.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(heading)
        layout.addWidget(self.header)
        layout.addWidget(body, 1)
        layout.addWidget(self.status)
        self._rows: list[tuple[str, int]] = []
        self.retranslate(self.lang)

    # -- inputs --------------------------------------------------------------------------------
    def profile_changed(self, profile: Any) -> None:
        """New answers: compare now when the page is shown, else when it next is."""
        if self.isVisible():
            self._stale = None
            self.status.setText(self.tr("Comparing the setups…"))
            self.runner.request(profile)
        else:
            self._stale = profile

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if self._stale is not None:
            profile, self._stale = self._stale, None
            self.profile_changed(profile)

    def compare_now(self, profile: Any) -> None:
        """Compare ``profile`` whether or not the page is shown (screenshots, tests)."""
        self._stale = None
        self.runner.request(profile)

    def retranslate(self, lang: str) -> None:
        self.lang = lang
        self.title.setText(self.tr("Compare setups"))
        self.table.setHorizontalHeaderLabels([self.tr(c) for c in TABLE_COLUMNS])
        # what a screen reader names the chart, the chosen setup's details and the table
        self.plot.setAccessibleName(self.tr("Time per run against cost per month"))
        self.details.setAccessibleName(self.tr("The chosen setup in detail"))
        self.table.setAccessibleName(self.tr("Setups compared"))
        if self.result is not None:
            self._draw()
        else:
            self.header.setText(self.tr(
                "Your setup beside more of the same cards, the same GPUs rented, the "
                "catalog's ready setups and your profile's alternatives: time per run "
                "against cost per month."))
            self.details.setHtml("")

    # -- drawing -------------------------------------------------------------------------------
    def _show(self, profile: Any, result: Any) -> None:
        self.profile, self.result = profile, result
        keys = {(o.id, p.gpus) for o in result.options for p in o.points}
        if self.selected not in keys:
            self.selected = None
        self.status.setText("")
        self._draw()
        self.comparisonShown.emit(result)

    def _failed(self, error: Any) -> None:
        from advisor.files.errors import InputError

        if isinstance(error, InputError):
            text = self.tr("The setups cannot be compared with these answers: %1").replace(
                "%1", error.render(self.lang))
        else:
            text = self.tr("The setups could not be compared because of an internal error; "
                           "the details are in the log.")
        self.status.setText(text)

    def _draw(self) -> None:
        result, lang = self.result, self.lang
        points = sum(len(o.points) for o in result.options)
        self.header.setText(self.tr(
            "Market %1 · %2 · %3 options, %4 setups. ★ = on the Pareto front: nothing is "
            "both faster and cheaper. Click a point or a row for its details.")
            .replace("%1", result.market).replace("%2", result.currency)
            .replace("%3", str(len(result.options))).replace("%4", str(points)))
        compare_plot(result, lang, plot=self.plot, selected=self.selected)
        # the chart's front and answers in words, for a screen reader (review D6)
        self.plot.setAccessibleDescription(compare_description(result, lang))
        self._fill_table()
        self._show_details()

    def _fill_table(self) -> None:
        rows = table_rows(self.result, self.lang)
        self.table.blockSignals(True)
        self.table.setRowCount(len(rows))
        self._rows = []
        for r, (key, cells, bold) in enumerate(rows):
            self._rows.append(key)
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c == OPTION_COLUMN:
                    item.setToolTip(text)  # the whole name, elided in its cell
                if bold:
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                self.table.setItem(r, c, item)
        if self.selected in self._rows:
            self.table.selectRow(self._rows.index(self.selected))
        self.table.blockSignals(False)

    def _show_details(self) -> None:
        if self.selected is None:
            self.details.setHtml(answers_html(self.result, self.lang))
        else:
            self.details.setHtml(point_html(self.result, self.selected, self.lang))

    # -- choosing ------------------------------------------------------------------------------
    def choose(self, key: tuple[str, int]) -> None:
        """Show the details of one point (option id, GPUs), marked on the chart."""
        self.selected = tuple(key)  # type: ignore[assignment]
        if self.result is not None:
            compare_plot(self.result, self.lang, plot=self.plot, selected=self.selected)
            if self.selected in self._rows:
                self.table.blockSignals(True)
                self.table.selectRow(self._rows.index(self.selected))
                self.table.blockSignals(False)
            self._show_details()
        self.pointChosen.emit(self.selected)

    def _row_chosen(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows and rows[0].row() < len(self._rows):
            self.choose(self._rows[rows[0].row()])
