"""The diagnosis page: type measured throughput at several GPU counts (or open a CSV), add
GPU logs, and see the F30 grade, measured vs fitted vs ideal, and the ranked suspects.

``DiagnosisPage(profile_provider, lang)``: ``profile_provider()`` returns the wizard's current
Profile (or None when it is not valid yet); it gives the refit the user's hardware and model,
and its ``measured`` section pre-fills the table. The page computes synchronously: one refit
takes milliseconds.
"""

from __future__ import annotations

import html
import logging
import math
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from advisor.diagnosis import (
    Diagnosis,
    MeasuredSeries,
    diagnose,
    from_measured_spec,
    from_points,
    read_gpu_logs,
    read_measurements_csv,
)
from advisor.diagnosis.result import SuspectReport
from advisor.diagnosis.telemetry import RunTelemetry
from advisor.diagnosis.text_report import LEVEL_LABEL
from advisor.files.errors import InputError
from advisor.profile import Profile
from ui.app.folders import remember, start_at
from ui.app.theme import banner_style, muted_hex, readable_hex, styled
from ui.diagnosis.labels import L
from ui.diagnosis.plot import diagnosis_plot
from ui.forms import editors
from ui.forms.combo import FittingComboBox
from ui.forms.typed_numbers import Marks, read_number, write_number
from ui.plots.style import on_screen

log = logging.getLogger("advisor.ui")
DEFAULT_COUNTS = (1, 2, 4, 8)


def starting_counts(profile) -> tuple[int, ...]:
    """The rows the table starts with: 1, 2, 4, 8 up to the GPUs the profile has (a 4-GPU
    machine is not asked for an 8-GPU measurement), and the largest count it has."""
    total = getattr(getattr(profile, "hardware", None), "total_gpus", None)
    if not isinstance(total, int) or total < 1:
        return DEFAULT_COUNTS
    counts = [n for n in DEFAULT_COUNTS if n <= total]
    return tuple(counts + ([total] if total not in counts else []))


def _cell_value(row: int, text: str, marks: Marks) -> float:
    """A measured value as the user's locale writes it, or an InputError naming the row and
    the decimal mark expected (both languages)."""
    reading = read_number(text, marks)
    if reading.value is not None and math.isfinite(reading.value):
        return reading.value
    shown = marks.example()
    if reading.error_en and shown in reading.error_en:  # it already shows the form expected
        en, zh = reading.error_en, reading.error_zh
    else:
        en = (f"{text!r} is not a number: write it as {shown} "
              f"(decimal mark {marks.decimal!r})")
        zh = f"{text!r} 不是数值：请写成 {shown}（小数点为 {marks.decimal!r}）"
    raise InputError.single(f"row {row + 1}, measured value: {en}",
                            f"第 {row + 1} 行测量值：{zh}")


GRADE_COLOUR = {"poor": "#b3261e", "below_normal": "#8a6d00", "normal": "#1b7f3b",
                "well_tuned": "#1f4fa3", "superlinear": "#7a3fb0"}


class DiagnosisPage(QWidget):
    diagnosed = Signal(object)  # the new Diagnosis
    # the measurements and logs diagnosed, as the profile's ``measured`` section: they belong
    # to the document (saved, autosaved, in the PDF; issue 33)
    measurementsChanged = Signal(object)

    def __init__(self, profile_provider: Callable[[], Profile | None], lang: str = "en",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.profile_provider = profile_provider
        self.lang = "zh" if lang == "zh" else "en"
        self.result: Diagnosis | None = None
        self.telemetry: RunTelemetry | None = None
        self.log_paths: list[str] = []  # the logs read, absolute
        self._typed: tuple[list[int], list[float]] = ([], [])
        self.title_label = QLabel()
        self.title_label.setStyleSheet("font-size: 20px; font-weight: 600;")
        self.intro_label = QLabel()
        self.intro_label.setWordWrap(True)
        self.table = QTableWidget(0, 2)
        self.table.verticalHeader().setVisible(False)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table (arrows move in it)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.kind_combo = FittingComboBox()  # its text shown whole in both languages
        self.unit_label, self.unit_edit = QLabel(), QLineEdit("samples/s")
        self.scaling_combo = FittingComboBox()
        self.add_button, self.remove_button = QPushButton(), QPushButton()
        self.csv_button, self.logs_button = QPushButton(), QPushButton()
        self.run_button = QPushButton()
        self.logs_label = QLabel()
        self.logs_label.setWordWrap(True)
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        styled(self.banner, lambda: banner_style("error"))
        self.banner.hide()
        self.grade_label = QLabel()
        self.grade_label.setWordWrap(True)
        self.plot = diagnosis_plot(None, self.lang, on_screen())
        self.suspects_view = QTextBrowser()
        self.suspects_view.setOpenExternalLinks(False)
        self._build_layout()
        self.add_button.clicked.connect(lambda: self._add_row(None, None))
        self.remove_button.clicked.connect(self._remove_row)
        self.csv_button.clicked.connect(self._choose_csv)
        self.logs_button.clicked.connect(self._choose_logs)
        self.run_button.clicked.connect(self.run_diagnosis)
        for n in starting_counts(self._profile_now()):
            self._add_row(n, None)
        self.set_language(self.lang)

    def _profile_now(self):
        try:
            return self.profile_provider()
        except Exception:  # the page opens even while the answers cannot give a profile
            return None

    def _build_layout(self) -> None:
        inputs = QWidget()
        left = QVBoxLayout(inputs)
        left.setContentsMargins(0, 0, 0, 0)
        left.addWidget(self.table, 1)
        for row in ((self.kind_combo,), (self.unit_label, self.unit_edit),
                    (self.scaling_combo,), (self.add_button, self.remove_button),
                    (self.csv_button, self.logs_button)):
            line = QHBoxLayout()
            for widget in row:
                line.addWidget(widget)
            left.addLayout(line)
        left.addWidget(self.logs_label)
        left.addWidget(self.run_button)
        results = QWidget()
        right = QVBoxLayout(results)
        right.setContentsMargins(0, 0, 0, 0)
        right.addWidget(self.grade_label)
        right.addWidget(self.plot, 3)
        right.addWidget(self.suspects_view, 2)
        splitter = QSplitter()
        splitter.setObjectName("diagnosisInputsAndResults")  # remembered (session.py)
        splitter.addWidget(inputs)
        splitter.addWidget(results)
        splitter.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title_label)
        layout.addWidget(self.intro_label)
        layout.addWidget(self.banner)
        layout.addWidget(splitter, 1)

    # ---- language --------------------------------------------------------------------------
    def retranslate(self, lang: str, currency: str = "") -> None:
        """Same signature as the wizard's form pages (the currency is not used here)."""
        self.set_language(lang)

    def set_language(self, lang: str) -> None:
        self.lang = "zh" if lang == "zh" else "en"
        g = lambda key: L[key].get(self.lang)  # noqa: E731 - a short local lookup
        self.title_label.setText(g("title"))
        self.intro_label.setText(g("intro"))
        self.table.setHorizontalHeaderLabels([g("gpus"), g("value")])
        for combo, keys in ((self.kind_combo, ("throughput", "step_time")),
                            (self.scaling_combo, ("weak", "strong"))):
            index = max(combo.currentIndex(), 0)
            combo.clear()
            combo.addItems([g(k) for k in keys])
            combo.setCurrentIndex(index)
        self.unit_label.setText(g("unit"))
        self.unit_label.setBuddy(self.unit_edit)
        # a name for each input and view a screen reader reaches (issue 34)
        for widget, key in ((self.table, "measurements"), (self.kind_combo, "kind"),
                            (self.unit_edit, "unit"), (self.scaling_combo, "scaling"),
                            (self.plot, "plot"), (self.suspects_view, "findings")):
            widget.setAccessibleName(g(key))
        for button, key in ((self.add_button, "add_row"), (self.remove_button, "remove_row"),
                            (self.csv_button, "open_csv"), (self.logs_button, "open_logs"),
                            (self.run_button, "run")):
            button.setText(g(key))
        self._show_logs()
        self._show_result()

    # ---- inputs ----------------------------------------------------------------------------
    def _add_row(self, gpus: int | None, value: float | None) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        self.table.setItem(row, 0, QTableWidgetItem("" if gpus is None else str(gpus)))
        # ".12g", not "g": 1234567 tokens/s stays 1234567 (not 1.23457e+06) and parses back;
        # written with the decimal mark the user types (1,5 on a German system), as the
        # wizard's fields show theirs, so what a cell shows reads back as itself.
        self.table.setItem(row, 1, QTableWidgetItem(
            "" if value is None else write_number(f"{value:.12g}", editors.typing_marks())))

    def _remove_row(self) -> None:
        row = self.table.currentRow()
        self.table.removeRow(row if row >= 0 else self.table.rowCount() - 1)

    def set_points(self, gpus: list[int], values: list[float], *, step_time: bool = False,
                   unit: str | None = None) -> None:
        self.table.setRowCount(0)
        for n, v in zip(gpus, values, strict=True):
            self._add_row(n, v)
        self.kind_combo.setCurrentIndex(1 if step_time else 0)
        if unit:
            self.unit_edit.setText(unit)

    def series(self) -> MeasuredSeries:
        """The typed points; rows without a value are skipped (InputError names the row).

        A cell is read as the wizard's number fields read theirs (``typing_marks``: the
        system locale's decimal mark and grouping), so "1.800" on a German system is 1800
        and "100,5" is 100.5; a value that could be read two ways is a message that shows
        the form expected, never a silent reinterpretation."""
        marks = editors.typing_marks()
        gpus, values = [], []
        for row in range(self.table.rowCount()):
            cells = [(self.table.item(row, c).text().strip() if self.table.item(row, c) else "")
                     for c in (0, 1)]
            if not cells[1]:
                continue
            count = read_number(cells[0], marks).value
            if count is None or not math.isfinite(count) or not count.is_integer():
                raise InputError.single(
                    f"row {row + 1}: enter a whole GPU count, got {cells[0]!r}",
                    f"第 {row + 1} 行：卡数须为整数，实际为 {cells[0]!r}")
            v = _cell_value(row, cells[1], marks)
            n = int(count)
            if n < 1 or not v > 0 or n in gpus:
                raise InputError.single(
                    f"row {row + 1}: GPU counts must be distinct, ≥ 1, values positive",
                    f"第 {row + 1} 行：卡数须不重复且 ≥ 1，数值须为正")
            gpus.append(n)
            values.append(v)
        if len(gpus) < 2:
            raise InputError.single("enter measurements at two or more GPU counts",
                                    "请至少填写两个不同卡数下的测量值")
        scaling = "strong" if self.scaling_combo.currentIndex() == 1 else "weak"
        self._typed = (gpus, values)
        return from_points(gpus, values, step_time=self.kind_combo.currentIndex() == 1,
                           unit=self.unit_edit.text().strip() or "samples/s",
                           scaling=scaling)

    def load_csv(self, path: str | Path) -> Diagnosis | None:
        try:
            s = read_measurements_csv(path, scaling="strong" if
                                      self.scaling_combo.currentIndex() == 1 else "weak")
        except InputError as exc:
            self._error(exc)
            return None
        self.set_points(list(s.gpus), list(s.throughput), unit=s.unit)
        return self.run_diagnosis()

    def load_gpu_logs(self, paths: list[str | Path]) -> bool:
        try:
            self.telemetry = read_gpu_logs(paths) if paths else None
        except InputError as exc:
            self._error(exc)
            return False
        self.log_paths = [str(Path(p).expanduser().absolute()) for p in paths]
        self._show_logs()
        return True

    def _choose_csv(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, L["open_csv"].get(self.lang), start_at(),
                                              "CSV (*.csv *.txt);;* (*)")
        if path:
            remember(path)
            self.load_csv(path)

    def _choose_logs(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, L["open_logs"].get(self.lang), start_at(),
                                                "Logs (*.txt *.log *.csv);;* (*)")
        remember(paths)
        if paths and self.load_gpu_logs(paths):
            self.run_diagnosis()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        # Points taken from the profile are diagnosed at once: the plot is never left empty
        # while the table already holds the measurements.
        if self.fill_from_profile():
            self.run_diagnosis()

    def fill_from_profile(self) -> bool:
        """Pre-fill an empty table from the profile's ``measured`` section."""
        if any(self.table.item(r, 1) and self.table.item(r, 1).text().strip()
               for r in range(self.table.rowCount())):
            return False
        profile = self._profile()
        if profile is None or profile.measured is None:
            return False
        s = from_measured_spec(profile.measured)
        step = profile.measured.points[0].throughput is None
        values = [p.step_time_s if step else p.throughput for p in
                  sorted(profile.measured.points, key=lambda p: p.gpus)]
        self.set_points(list(s.gpus), [float(v) for v in values], step_time=step,
                        unit=profile.measured.unit)
        self.scaling_combo.setCurrentIndex(1 if profile.measured.scaling == "strong" else 0)
        if profile.measured.logs and self.telemetry is None:  # the logs kept with the profile
            self.load_gpu_logs(profile.measured.logs)
        return True

    # ---- diagnosis ---------------------------------------------------------------------------
    def _profile(self) -> Profile | None:
        try:
            return self.profile_provider()
        except Exception:  # noqa: BLE001 - an unfinished wizard must not block the diagnosis
            log.debug("profile not available for the diagnosis", exc_info=True)
            return None

    def run_diagnosis(self) -> Diagnosis | None:
        try:
            series = self.series()
        except InputError as exc:
            self._error(exc)
            return None
        self.banner.hide()
        self.result = diagnose(series, self._profile(), self.telemetry)
        self._show_result()
        self.diagnosed.emit(self.result)
        self.measurementsChanged.emit(self.measured_section())
        return self.result

    def measured_section(self) -> dict:
        """The points diagnosed last (and the logs read) as the profile's ``measured``."""
        gpus, values = self._typed
        key = "step_time_s" if self.kind_combo.currentIndex() == 1 else "throughput"
        section = {"unit": self.unit_edit.text().strip() or "samples/s",
                   "scaling": "strong" if self.scaling_combo.currentIndex() == 1 else "weak",
                   "points": [{"gpus": n, key: v} for n, v in zip(gpus, values, strict=True)]}
        if self.log_paths:
            section["logs"] = list(self.log_paths)
        return section

    def _error(self, exc: InputError) -> None:
        self.banner.setText(exc.render(self.lang))
        self.banner.show()

    def _show_logs(self) -> None:
        if self.telemetry is None:
            self.logs_label.setText(L["no_logs"].get(self.lang))
        else:
            names = ", ".join(Path(s).name for s in self.telemetry.sources) or "—"
            self.logs_label.setText(L["logs"].get(self.lang).format(
                n=len(self.telemetry.gpus), files=names))

    def _show_result(self) -> None:
        d = self.result
        diagnosis_plot(d, self.lang, self.plot)
        if d is None:
            self.grade_label.setText(L["empty"].get(self.lang))
            self.suspects_view.setHtml("")
            return
        if d.grade is not None:
            colour = readable_hex(GRADE_COLOUR[d.grade.level])  # a dark theme too
            label = LEVEL_LABEL[d.grade.level].get(self.lang)
            self.grade_label.setText(
                f"<b style='color:{colour}'>{html.escape(label)}</b> — "
                f"{html.escape(d.grade.message.get(self.lang))}<br>"
                f"<span style='color:{muted_hex()}'>{html.escape(d.measured.trend_meaning.get(self.lang))}"
                "</span>")
        self.suspects_view.setHtml(self._suspects_html(d.suspects, d))

    def _suspects_html(self, suspects: list[SuspectReport], d: Diagnosis) -> str:
        parts = [f"<h3>{html.escape(L['suspects'].get(self.lang))}</h3>"]
        if not suspects:
            parts.append(f"<p>{html.escape(L['no_suspects'].get(self.lang))}</p>")
        for rank, s in enumerate(suspects, start=1):
            evidence = "".join(f"<li>{html.escape(e.get(self.lang))}</li>" for e in s.evidence)
            parts.append(
                f"<p><b>{rank}. {html.escape(s.title.get(self.lang))}</b> "
                f"<span style='color:{muted_hex()}'>({s.score:.2f}; {', '.join(s.sources)})</span></p>"
                f"<ul>{evidence}</ul><p><i>{html.escape(L['remedy'].get(self.lang))}</i> "
                f"{html.escape(s.remedy.get(self.lang))}</p>")
        for note in d.notes:
            parts.append(f"<p style='color:{muted_hex()}'>{html.escape(note.get(self.lang))}</p>")
        return "".join(parts)
