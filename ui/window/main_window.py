"""The wizard-style main window: steps on the left, one page at a time, live results.

Every answer goes into one :class:`AnswerModel`; each valid change asks the
:class:`Recomputer` for new results, which the results page draws in place."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from html import escape
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QMainWindow,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from advisor.files.errors import InputError, Problem
from advisor.profile import Profile
from ui.app.translation import LanguageHub
from ui.window.answers import AnswerModel
from ui.window.document import Document
from ui.window.focus import modal
from ui.window.history import AnswerHistory
from ui.window.problem_list import linked, linking
from ui.window.recompute import Recomputer, Results, effective_profile
from ui.window.session import apply_splitters
from ui.window.warmup import PlotLoader
from ui.wizard.form_page import FormPage
from ui.wizard.page_fields import COMPARE_TITLE, DIAGNOSIS_TITLE, PAGES, RESULTS_TITLE

_UNITS = {"CNY": QT_TRANSLATE_NOOP("Units", "CNY"), "USD": QT_TRANSLATE_NOOP("Units", "USD"),
          "EUR": QT_TRANSLATE_NOOP("Units", "EUR")}


FIRST_SIZE = (1280, 800)
STEP_MS = 30  # between the steps that build the results after the first verdict
FOLD_BELOW_PX = 600  # a first size shorter than this folds the live result


def first_size(window: QWidget) -> tuple[int, int]:
    """The window's first size (issue 34): 1280 x 800 where the screen has room, else what its
    available geometry leaves (a 1366 x 768 laptop, 1920 x 1080 at 150 %), never larger."""
    screen = window.screen() or QApplication.primaryScreen()
    if screen is None:
        return FIRST_SIZE
    room = screen.availableGeometry()
    return (min(FIRST_SIZE[0], max(640, room.width() - 40)),
            min(FIRST_SIZE[1], max(480, room.height() - 60)))


def currency_unit(lang: str, currency: str) -> str:
    source = _UNITS.get(currency)
    return QCoreApplication.translate("Units", source) if source else currency


def price_hints(costs: Any) -> dict[str, Problem]:
    """A message at the price field when the catalog has no purchase price for the GPU and
    the costs of owning leave the cards out (the results carry on without it)."""
    if getattr(costs, "own_priced", True) or costs.mode == "cloud":
        return {}
    path = "economics.gpu_price"
    return {path: Problem(path, "No catalog price for this GPU: the own-hardware costs leave "
                                "out the cards. Enter the price of one card here.",
                          "目录中没有该显卡的价格：自建成本未计入显卡本身。请在此填写单卡价格。")}


class MainWindow(QMainWindow):
    resultsShown = Signal(object)  # Results, after the results page has drawn them
    betterLinkShown = Signal(object)  # Results, after the better-link curve is drawn too

    def __init__(self, hub: LanguageHub, recommend: Callable[[Profile], Any] | None = None,
                 *, threaded: bool | None = None) -> None:
        super().__init__()
        self.hub = hub
        self.answers = AnswerModel()
        self.recomputer = Recomputer(recommend, threaded=threaded, parent=self)
        self.results: Results | None = None
        self.compute_error: Exception | None = None  # why the latest answers have no results
        self.results_page: Any = None  # built after the first page is on screen (start-up)
        self.steps = QListWidget()
        # no fixed width (issue 34): narrow screens shrink the step list before the page
        self.steps.setMinimumWidth(170)
        self.steps.setMaximumWidth(300)
        self.steps.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        self.steps.setWordWrap(True)
        self.steps.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.steps.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.steps.setStyleSheet("QListWidget::item { padding: 6px 4px; }")
        self.stack = QStackedWidget()
        self.pages = [FormPage(page, self.answers) for page in PAGES]
        # splitter sizes remembered from the last session (ui.window.session), by name
        self.splitter_states: dict[str, Any] = {}
        for page in self.pages:
            self.stack.addWidget(page)
        # The results, diagnosis and compare steps are built when first needed
        self._results_holder = self._holder()
        # The diagnosis step (measured scaling vs the projection, F30) when that part exists.
        self.diagnosis_page: Any = None
        self._diagnosis_holder: QWidget | None = None
        if importlib.util.find_spec("ui.diagnosis") is not None:
            self._diagnosis_holder = self._holder()
        # The "Compare setups" step (advisor.compare), built when first shown.
        self.compare_page: Any = None
        self._compare_holder = self._holder()
        self.compare_index = self.stack.count() - 1
        for _ in range(self.stack.count()):
            self.steps.addItem("")
        self.steps.currentRowChanged.connect(self.go_to)
        self.stack.currentChanged.connect(self._size_to_current)
        self.back_button, self.next_button = QPushButton(), QPushButton()
        self.back_button.clicked.connect(lambda: self.go_to(self.stack.currentIndex() - 1))
        self.next_button.clicked.connect(lambda: self.go_to(self.stack.currentIndex() + 1))
        self.summary = QLabel()
        self.summary.setObjectName("liveSummary")
        linking(self.summary, self)  # "answers to fix: N" links to the list (issue 34)
        self.summary.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # until it holds a link
        nav = QHBoxLayout()
        nav.addWidget(self.summary, 1)
        nav.addWidget(self.back_button)
        nav.addWidget(self.next_button)
        self.preview: Any = None  # live verdict + speed-up under the question pages
        right = QVBoxLayout()
        right.addWidget(self.stack, 1)
        self._right = right
        right.addLayout(nav)
        central = QWidget()
        row = QHBoxLayout(central)
        row.addWidget(self.steps)
        row.addLayout(right, 1)
        self.setCentralWidget(central)
        self.document = Document(self)
        self.history = AnswerHistory(self.answers, self)
        self.answers.changedBy.connect(self._record_change)
        self.answers.loaded.connect(self.history.restart)
        self._build_menus()
        self.answers.profileChanged.connect(self._profile_changed)
        self.answers.problemsChanged.connect(self._problems_changed)
        self.answers.edited.connect(self.document.edited)
        self.recomputer.resultsReady.connect(self._show_results)
        self.recomputer.betterLinkReady.connect(self._show_better_link)
        self.recomputer.failed.connect(self._recompute_failed)
        hub.languageChanged.connect(lambda _lang: self.retranslate())
        self.resize(*first_size(self))
        self._navigation_keys()
        self._started = False  # the first computation asked for (after the first paint)
        # a short screen (1024 x 640) starts with the live result folded to one line
        self._preview_folded = self.height() < FOLD_BELOW_PX
        self._plots = PlotLoader(self)  # pyqtgraph and the results page, imported off-thread
        self._plots.ready.connect(self._plots_ready)
        self.retranslate()
        self.go_to(0)
        self._size_to_current(0)
        # The computation starts after the first page is painted; pyqtgraph and the results
        # page load off the GUI thread meanwhile (issue 34: first verdict within 1.5 s, no
        # stall over 100 ms)
        self.stack.installEventFilter(self)

    def _holder(self) -> QWidget:
        """An empty step of the stack; its page goes in when built."""
        holder = QWidget()
        QVBoxLayout(holder).setContentsMargins(0, 0, 0, 0)
        self.stack.addWidget(holder)
        return holder

    def _size_to_current(self, index: int) -> None:
        """The stack as small as the page shown, not as its largest (issue 34: a question
        page under the live result fits a laptop; the results page needs more room, and
        has it there without the preview). A hidden page's size is ignored."""
        for step in range(self.stack.count()):
            policy = QSizePolicy.Policy.Preferred if step == index else \
                QSizePolicy.Policy.Ignored
            self.stack.widget(step).setSizePolicy(policy, policy)

    def _navigation_keys(self) -> None:
        """Wizard keys (issue 34): Alt+N / Alt+B (the buttons' mnemonics), Ctrl+PgDown /
        Ctrl+PgUp anywhere in the window, and Enter in a field goes to the next page."""
        for keys, step in ((QKeySequence("Ctrl+PgDown"), 1), (QKeySequence("Ctrl+PgUp"), -1)):
            shortcut = QShortcut(keys, self)
            shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.activated.connect(lambda step=step: self.go_to(
                self.stack.currentIndex() + step))
        for index, page in enumerate(self.pages):
            for line in page.findChildren(QLineEdit):
                if isinstance(line.parent(), QComboBox):  # Enter there picks from the list
                    continue
                line.returnPressed.connect(lambda index=index: self._enter_in_a_field(index))

    def _enter_in_a_field(self, page: int) -> None:
        """Enter in a field of ``page``: the next page, once."""
        if self.stack.currentIndex() == page:
            self.go_to(page + 1)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.stack and event.type() == QEvent.Type.Paint:
            self.stack.removeEventFilter(self)
            QTimer.singleShot(0, self, self._start_results)
        return False

    # -- structure ----------------------------------------------------------------------------
    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.file_menu = bar.addMenu("")
        self.recent_menu = self.file_menu.addMenu("")
        self.edit_menu = bar.addMenu("")
        self.language_menu = bar.addMenu("")
        self.help_menu = bar.addMenu("")
        doc = self.document
        self.act_new = QAction(self, triggered=doc.new, shortcut=QKeySequence.StandardKey.New)
        self.act_open = QAction(self, triggered=doc.open_dialog,
                                shortcut=QKeySequence.StandardKey.Open)
        self.act_save = QAction(self, triggered=doc.save, shortcut=QKeySequence.StandardKey.Save)
        self.act_save_as = QAction(self, triggered=doc.save_as,
                                   shortcut=QKeySequence.StandardKey.SaveAs)
        self.act_recover = QAction(self, triggered=doc.recover_dialog)
        # issue 34: a shortcut for Import and Export too (Ctrl+I, Ctrl+E)
        self.act_import = QAction(self, triggered=doc.import_nvidia_smi,
                                  shortcut=QKeySequence("Ctrl+I"))
        self.act_export = QAction(self, triggered=lambda: doc.export_pdf(),
                                  shortcut=QKeySequence("Ctrl+E"))
        # the report with every rule that fired and the article facts it rests on (the
        # CLI's --appendix): for checking the reasoning, not for the reader who acts on it
        self.act_export_appendix = QAction(self, triggered=lambda: doc.export_pdf(appendix=True),
                                           shortcut=QKeySequence("Ctrl+Shift+E"))
        self.act_quit = QAction(self, triggered=self.close, shortcut=QKeySequence.StandardKey.Quit)
        for action in (self.act_new, self.act_open):
            self.file_menu.insertAction(self.recent_menu.menuAction(), action)
        self.file_menu.addAction(self.act_recover)
        for action in (self.act_save, self.act_save_as, self.act_import, self.act_export,
                       self.act_export_appendix, self.act_quit):
            self.file_menu.addAction(action)
        self.file_menu.insertSeparator(self.act_import)
        self.file_menu.insertSeparator(self.act_quit)
        stack = self.history.stack
        self.act_undo = QAction(self, triggered=stack.undo, shortcut=QKeySequence.StandardKey.Undo,
                                enabled=False)
        self.act_redo = QAction(self, triggered=stack.redo, shortcut=QKeySequence.StandardKey.Redo,
                                enabled=False)
        stack.canUndoChanged.connect(self.act_undo.setEnabled)
        stack.canRedoChanged.connect(self.act_redo.setEnabled)
        self.edit_menu.addAction(self.act_undo)
        self.edit_menu.addAction(self.act_redo)
        group = QActionGroup(self)
        self.act_en = QAction("English", self, checkable=True,
                              triggered=lambda: self.hub.set_language("en"))
        self.act_zh = QAction("简体中文", self, checkable=True,
                              triggered=lambda: self.hub.set_language("zh"))
        for action in (self.act_en, self.act_zh):
            group.addAction(action)
            self.language_menu.addAction(action)
        # issue 34: the guide shipped with the app, the log folder, a problem report for the
        # clipboard, then About
        self.act_guide = QAction(self, triggered=self.show_guide,
                                 shortcut=QKeySequence.StandardKey.HelpContents)
        self.act_readme = QAction(self, triggered=self.show_readme)
        self.act_log_folder = QAction(self, triggered=self.open_log_folder)
        self.act_report = QAction(self, triggered=self.report_problem)
        self.act_about = QAction(self, triggered=self.show_about)
        for action in (self.act_guide, self.act_readme, self.act_log_folder, self.act_report):
            self.help_menu.addAction(action)
        self.help_menu.addSeparator()
        self.help_menu.addAction(self.act_about)
        self.file_menu.aboutToShow.connect(doc.fill_recent_menu)

    def _keep_measurements(self, section: dict) -> None:
        """The diagnosis page's measurements and logs become the profile's ``measured``."""
        from advisor.profile.measured import MeasuredSpec  # noqa: PLC0415

        try:  # as the answers hold a loaded section: every field, unset ones None
            kept = MeasuredSpec.model_validate(section).model_dump(mode="json")
        except ValueError:
            return  # the page shows what is wrong with them
        if self.answers.get("measured") != kept:
            self.answers.set("measured", kept)

    def _record_change(self, path: str | None) -> None:
        """An answer the user changed becomes a step Undo takes back."""
        self.history.changed(path, path or self.tr("several answers"))

    def show_about(self) -> None:
        """Help → About: version, price and parameter dates, licences (modal)."""
        from ui.dialogs.about_dialog import AboutDialog

        self.about_dialog = AboutDialog(self.lang, self)
        with modal(self):  # the window's shortcuts answer again afterwards
            self.about_dialog.exec()

    def show_guide(self) -> None:
        """Help → User guide: the guide in the app's language, in a window of its own."""
        from ui.dialogs.help import GuideDialog

        self.guide_dialog = GuideDialog(self.lang, self)
        self.guide_dialog.show()

    def show_readme(self) -> None:
        """Help → README: the project's README (English), in a window of its own."""
        from ui.dialogs.help import GuideDialog

        self.readme_dialog = GuideDialog(self.lang, self, readme=True)
        self.readme_dialog.show()

    def open_log_folder(self) -> None:
        """Help → Open log folder, in the system's file manager."""
        from ui.dialogs.help import log_folder, open_folder

        folder = log_folder()
        if not open_folder(folder):
            self.statusBar().showMessage(
                self.tr("The log folder is %1").replace("%1", str(folder)), 15000)

    def report_problem(self) -> None:
        """Help → Report a problem: the version, the system and the log's tail copied, for
        the user to paste where they report it (nothing is sent)."""
        from ui.dialogs.help import copy_to_clipboard, problem_report

        copy_to_clipboard(problem_report(None, self.lang))
        self.statusBar().showMessage(self.tr(
            "Copied the version, the system and the end of the log: paste them into your "
            "report of the problem."), 15000)

    def _start_results(self) -> None:
        """Compute the first results, once the first page is visible: the verdict shows in
        the live preview as soon as it is known; the plots and the results page follow when
        pyqtgraph has been imported (``PlotLoader``), a step at a time."""
        if self._started:
            return
        self._started = True
        if self.answers.profile is not None:
            self._profile_changed(self.answers.profile)
        else:  # the answers loaded have never been valid: nothing to show yet
            self.forget_results(self.tr("No results yet: some answers need attention; they "
                                        "are marked at their fields."))
            self._plots.start()

    def _plots_ready(self) -> None:
        """pyqtgraph is imported: the preview's plot now, the results page in the next turn
        of the event loop (each well under 100 ms on the GUI thread)."""
        self.ensure_preview().attach_plot()
        # a moment between the steps: a key pressed or a repaint meanwhile is answered
        QTimer.singleShot(STEP_MS, self, lambda: self.build_results_page(draw_later=True))

    def ensure_preview(self) -> Any:
        """The live preview under the question pages, built with the first results (its
        modules are imported by then, by the computation), its plot when pyqtgraph is."""
        if self.preview is None:
            from ui.results.live_preview import LivePreview

            self.preview = LivePreview(plot=False)
            self.preview.setVisible(False)  # until there is a verdict to show
            self._right.insertWidget(1, self.preview)
            QWidget.setTabOrder(self.preview.toggle, self.back_button)
            QWidget.setTabOrder(self.back_button, self.next_button)
            self._buttons_last()
            self.preview.set_folded(self._preview_folded)
            self.preview.set_stale(len(self.answers.all_problems()))
            self.preview.foldedChanged.connect(self._preview_fold_changed)
        return self.preview

    def _buttons_last(self) -> None:
        """Back and Next at the end of the Tab order, after every page's content (review D6).
        A page built when first needed (results, diagnosis, compare) joins the focus chain at
        its end, after the buttons: Tab went steps, Back, Next, then the page. The buttons
        move behind the chain's last widget, so Tab reads the page first."""
        last = None
        widget = self.nextInFocusChain()
        while widget is not None and widget is not self:
            if widget not in (self.back_button, self.next_button) and \
                    widget.focusPolicy() & Qt.FocusPolicy.TabFocus and self.isAncestorOf(widget):
                last = widget
            widget = widget.nextInFocusChain()
        if last is None:
            return
        QWidget.setTabOrder(last, self.back_button)
        QWidget.setTabOrder(self.back_button, self.next_button)

    def _preview_fold_changed(self, folded: bool) -> None:
        self._preview_folded = folded

    @property
    def preview_folded(self) -> bool:
        """Whether the live preview is folded to one line (remembered between sessions)."""
        return self._preview_folded

    def set_preview_folded(self, folded: bool) -> None:
        self._preview_folded = folded
        if self.preview is not None:
            self.preview.set_folded(folded)

    def build_results_page(self, draw_later: bool = False) -> None:
        """The results page (card, plots, pitfalls, why), with the results known so far
        (``draw_later``: drawn in a later turn of the event loop)."""
        if self.results_page is not None:
            return
        from ui.results.results_page import ResultsPage

        self.results_page = ResultsPage()
        self.results_page.card.exportRequested.connect(lambda: self.document.export_pdf())
        self.results_page.card.timeValueRequested.connect(self.ask_time_value)
        linking(self.results_page.banner, self)  # "Some answers need attention (N)": N links
        self._results_holder.layout().addWidget(self.results_page)
        self._buttons_last()
        self.results_page.retranslate()
        if draw_later:
            QTimer.singleShot(STEP_MS, self, self._fill_results_page)
        else:
            self._fill_results_page()

    def _fill_results_page(self) -> None:
        """The results page shows the results, the computation's error or the banner."""
        if self.results is not None and self.results_page.results is None:
            self.results_page.show_results(self.results, self.lang)
        if self.compute_error is not None:
            self._recompute_failed(self.compute_error)
        elif self.results is None and self.answers.profile is None:
            self.results_page.show_error(self.tr(
                "No results yet: some answers need attention; they are marked at their "
                "fields."))
        self._problems_changed()

    def _start_diagnosis(self) -> None:
        from ui.diagnosis import DiagnosisPage

        self.diagnosis_page = DiagnosisPage(lambda: self.answers.profile, self.lang)
        self.diagnosis_page.measurementsChanged.connect(self._keep_measurements)
        self._diagnosis_holder.layout().addWidget(self.diagnosis_page)
        self._buttons_last()
        self.diagnosis_page.retranslate(self.lang, currency_unit(self.lang, self.currency()))
        apply_splitters(self.diagnosis_page, self.splitter_states)  # as last time (issue 34)

    def _start_compare(self) -> None:
        from ui.compare.page import ComparePage

        self.compare_page = ComparePage(threaded=self.recomputer._threaded is not False)
        self._compare_holder.layout().addWidget(self.compare_page)
        self._buttons_last()
        self.compare_page.retranslate(self.lang)
        apply_splitters(self.compare_page, self.splitter_states)  # as last time (issue 34)
        if self.answers.profile is not None:  # the page is being shown: compare now
            self.compare_page.compare_now(effective_profile(self.answers.profile))

    def recompute(self) -> None:
        """Compute the results for the current answers now, the results page and the
        preview's plot built first if needed (tests, screenshots, benchmarks)."""
        self.ensure_preview().attach_plot()
        self.build_results_page()
        if not self._started:
            self._start_results()
        elif self.answers.profile is not None:
            self._profile_changed(self.answers.profile)

    def forget_results(self, text: str) -> None:
        """The results on screen are not for the answers now (a file with problems was
        opened): no verdict until the answers are valid again, and none computed for the
        previous answers arrives late."""
        self.recomputer.discard()
        self.results = None
        self.compute_error = None
        if self.results_page is not None:
            self.results_page.show_error(text)
        if self.preview is not None:
            self.preview.show_error(text)
            self.preview.setVisible(False)
        self._problems_changed()  # the banner and the summary

    def ask_time_value(self) -> None:
        """Go to the question the rating waits for: what a day saved is worth (F02, F12)."""
        path = "economics.time_value"
        for index, page in enumerate(self.pages):
            if path in page.editors:
                self.go_to(index)
                page.editors[path].input.setFocus(Qt.FocusReason.OtherFocusReason)
                return

    # -- navigation ---------------------------------------------------------------------------
    def go_to(self, index: int) -> None:
        index = max(0, min(index, self.stack.count() - 1))
        if index == len(self.pages) and self.results_page is None:
            self.ensure_preview().attach_plot()
            self.build_results_page()
            self._start_results()
        if index == len(self.pages) + 1 and self.diagnosis_page is None and \
                self._diagnosis_holder is not None:
            self._start_diagnosis()
        if index == self.compare_index and self.compare_page is None:
            self._start_compare()
        steering = self.steps.hasFocus()  # arrow keys in the step list: the focus stays
        self.stack.setCurrentIndex(index)
        if index == len(self.pages) and self.results_page is not None:
            self.results_page.draw_current()  # not drawn while hidden (issue 34)
        if self.steps.currentRow() != index:
            self.steps.setCurrentRow(index)
        if self.preview is not None:
            showing = index < len(self.pages) and self.results is not None
            if showing and not self.preview.isVisible():
                self.preview.show_results(self.results, self.lang)  # skipped while hidden
            self.preview.setVisible(showing)
        self.back_button.setEnabled(index > 0)
        self.next_button.setEnabled(index < self.stack.count() - 1)
        if index < len(self.pages) and not steering:  # issue 34: the page's first field
            first = self.pages[index].first_field()
            if first is not None:
                first.setFocus(Qt.FocusReason.TabFocusReason)

    # -- language -----------------------------------------------------------------------------
    @property
    def lang(self) -> str:
        return self.hub.lang

    def currency(self) -> str:
        profile = self.answers.profile or Profile()
        return effective_profile(profile).economics.currency.value

    def retranslate(self) -> None:
        lang = self.lang
        self.act_en.setChecked(lang == "en")
        self.act_zh.setChecked(lang == "zh")
        unit = currency_unit(lang, self.currency())
        for index, page in enumerate(self.pages):
            page.retranslate(lang, unit)
            self.steps.item(index).setText(f"{index + 1}. {QCoreApplication.translate('Pages', page.page.title)}")
        self.steps.item(len(self.pages)).setText(
            f"{len(self.pages) + 1}. {QCoreApplication.translate('Pages', RESULTS_TITLE)}")
        if self._diagnosis_holder is not None:
            self.steps.item(len(self.pages) + 1).setText(
                f"{len(self.pages) + 2}. {QCoreApplication.translate('Pages', DIAGNOSIS_TITLE)}")
        self.steps.item(self.compare_index).setText(
            f"{self.compare_index + 1}. {QCoreApplication.translate('Pages', COMPARE_TITLE)}")
        if self.compare_page is not None:
            self.compare_page.retranslate(lang)  # redrawn, not recomputed: no number changes
        if self.diagnosis_page is not None:
            self.diagnosis_page.retranslate(lang, unit)
        # a mnemonic on each (Alt+B, Alt+N; issue 34); the Chinese text keeps its own letter
        self.back_button.setText(self.tr("< &Back"))
        self.next_button.setText(self.tr("&Next >"))
        self.back_button.setAccessibleName(self.tr("Back").replace("&", ""))
        self.next_button.setAccessibleName(self.tr("Next").replace("&", ""))
        self.steps.setAccessibleName(self.tr("Steps of the questionnaire"))
        self.file_menu.setTitle(self.tr("&File"))
        self.edit_menu.setTitle(self.tr("&Edit"))
        self.act_undo.setText(self.tr("&Undo"))
        self.act_redo.setText(self.tr("&Redo"))
        self.recent_menu.setTitle(self.tr("Open &recent"))
        self.language_menu.setTitle(self.tr("&Language"))
        self.help_menu.setTitle(self.tr("&Help"))
        self.act_new.setText(self.tr("&New profile"))
        self.act_open.setText(self.tr("&Open profile…"))
        self.act_save.setText(self.tr("&Save"))
        self.act_save_as.setText(self.tr("Save &as…"))
        self.act_recover.setText(self.tr("Re&cover answers…"))
        self.act_import.setText(self.tr("&Import nvidia-smi…"))
        self.act_export.setText(self.tr("&Export PDF…"))
        self.act_export_appendix.setText(self.tr("Export PDF with the rule a&ppendix…"))
        self.act_quit.setText(self.tr("&Quit"))
        self.act_about.setText(self.tr("&About"))
        self.act_guide.setText(self.tr("User &guide"))
        self.act_readme.setText(self.tr("READ&ME"))
        self.act_log_folder.setText(self.tr("Open &log folder"))
        self.act_report.setText(self.tr("&Report a problem (copy details)"))
        self.document.update_title()
        if self.results_page is not None:
            self.results_page.retranslate()
        if self.preview is not None:
            self.preview.retranslate()
        self._problems_changed()
        if self.compute_error is not None:
            self._recompute_failed(self.compute_error)
        if self.answers.profile is not None:
            self._profile_changed(self.answers.profile)  # currency may follow the language

    # -- live results -------------------------------------------------------------------------
    def _profile_changed(self, profile: Profile) -> None:
        if self._started:
            self.recomputer.request(effective_profile(profile))
        if self.compare_page is not None:
            self.compare_page.profile_changed(effective_profile(profile))
        unit = currency_unit(self.lang, self.currency())
        for page in self.pages:
            if page.currency != unit:
                page.retranslate(self.lang, unit)

    def _problems_changed(self, _problems: dict | None = None) -> None:
        count = len(self.answers.all_problems())  # invalid answers, not the computation's
        if self.preview is not None:  # a verdict of earlier answers is shown as such
            self.preview.set_stale(count)
        self._update_summary()
        if self.results_page is None:
            return
        if not count:
            text = None
        elif self.results is None:  # nothing shown that could be for other answers
            text = linked(self.tr("Some answers need attention (%1): fix them to see the "
                                  "results."), count)
        else:
            text = linked(self.tr("Some answers need attention (%1); the results are for the "
                                  "last valid answers."), count)
        self.results_page.set_banner(text)

    def _show_results(self, results: Results) -> None:
        self.results = results
        self.compute_error = None
        self.answers.set_compute_problems(price_hints(results.recommendation.costs))
        if self.results_page is not None:
            self.results_page.show_error(None)
            self.results_page.show_results(results, self.lang)
        self.ensure_preview()
        if self.preview is not None:
            on_question_page = self.stack.currentIndex() < len(self.pages)
            self.preview.setVisible(on_question_page)
            if on_question_page:
                self.preview.show_results(results, self.lang)
        self._update_summary()
        self.resultsShown.emit(results)
        self._plots.start()  # after the first verdict: pyqtgraph and the results page

    def _show_better_link(self, results: Results) -> None:
        self.results = results
        if self.results_page is not None:
            self.results_page.show_better_link(results, self.lang)
        if self.preview is not None and self.preview.isVisible():
            self.preview.show_results(results, self.lang)
        self.betterLinkShown.emit(results)

    def _recompute_failed(self, error: Exception | None) -> None:
        """An answer the computation cannot use is marked at its field and the results say
        why they are missing; anything else is a short line (the details are in the log)."""
        self.compute_error = error
        if isinstance(error, InputError):
            self.answers.set_compute_problems(
                {p.path: p for p in error.problems if p.path})
            text = self.tr("The results cannot be computed with these answers: %1") \
                .replace("%1", error.render(self.lang))
            self.statusBar().showMessage(
                self.tr("The results cannot be computed: see the marked answer."), 10000)
        else:
            text = self.tr("The results could not be computed because of an internal error; "
                           "the details are in the log.")
            self.statusBar().showMessage(text, 10000)
        if self.results_page is not None:
            self.results_page.show_error(text)
        if self.preview is not None:
            self.preview.show_error(text)
        self._plots.start()

    def _update_summary(self) -> None:
        if self.results is None:
            self.summary.setText("")
            return
        from ui.results.verdict_card import gpus_text, rating_text

        verdict = self.results.recommendation.verdict
        problems = self.answers.all_problems()
        text = self.tr("Verdict so far: %1 · %2").replace("%1", rating_text(verdict.rating))
        text = text.replace("%2", gpus_text(verdict.gpus) if getattr(verdict, "runnable", True)
                            else self.tr("cannot run on this hardware"))
        text = escape(text)
        if problems:
            text += " · " + linked(self.tr("answers to fix: %1"), len(problems))
        self.summary.setText(text)
        # a Tab stop only while it holds the link (after Next, before Back)
        self.summary.setFocusPolicy(Qt.FocusPolicy.StrongFocus if problems
                                    else Qt.FocusPolicy.NoFocus)

    def show_problem_list(self, anchor: QWidget | None = None) -> Any:
        """The answers to fix, each linked to its field (issue 34), opened under ``anchor``."""
        from ui.window import problem_list

        return problem_list.show_menu(self, anchor or self.summary)

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.document.may_close():  # unsaved answers: Save / Discard / Cancel
            event.ignore()
            return
        super().closeEvent(event)
