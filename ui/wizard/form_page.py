"""One wizard page generated from a :class:`PageDef`: a title, an introduction, sections of
fields (widgets from the field-metadata mapping) and the messages of whole-section checks."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from advisor.catalog import resolve_gpu
from advisor.files.errors import Problem
from advisor.profile import CustomGpu
from ui.app.theme import banner_style, mute, styled
from ui.forms.combo import FittingComboBox
from ui.forms.editors import FieldEditor, create_editor
from ui.forms.field_spec import field_spec
from ui.forms.mnemonics import Label, assign, with_mnemonic
from ui.window.answers import TASK, AnswerModel
from ui.wizard.page_fields import CUSTOM_GPU_FIELDS, TASK_FIELDS, PageDef
from ui.wizard.presets import MODEL_PRESETS, preset_by_name

PRESET = QT_TRANSLATE_NOOP("Pages", "Preset")
MARKET, CURRENCY = "economics.market", "economics.currency"


class FormPage(QWidget):
    def __init__(self, page: PageDef, answers: AnswerModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.page = page
        self.answers = answers
        self.lang = "en"
        self.currency = ""
        self.editors: dict[str, FieldEditor] = {}
        self._task_rows: dict[str, QFormLayout] = {}  # fields shown for some tasks only
        self.title_label = QLabel()
        self.title_label.setStyleSheet("font-size: 20px; font-weight: 600;")
        self.intro_label = QLabel()
        self.intro_label.setWordWrap(True)
        mute(self.intro_label)  # secondary text from the palette: read in a dark theme too
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        styled(self.banner, lambda: banner_style("error"))
        self.banner.hide()
        body = QWidget()
        columns = QHBoxLayout(body)
        columns.setContentsMargins(0, 0, 0, 0)
        column_layouts: dict[int, QVBoxLayout] = {}
        self.groups: list[tuple[QGroupBox, str]] = []
        self._custom_gpu_boxes: list[QGroupBox] = []  # the user's own card's fields
        self.preset_combo: QComboBox | None = None
        self.preset_label = QLabel()
        self.gpu_info = QLabel()
        mute(self.gpu_info)
        for section in page.sections:
            if section.column not in column_layouts:
                column_layouts[section.column] = QVBoxLayout()
                columns.addLayout(column_layouts[section.column], 1)
            box = QGroupBox()
            form = QFormLayout(box)
            # issue 34 (clipped lists): a row whose field cannot have its minimum beside the
            # label column puts its label above it; without this the form squeezed the field
            # (the label column is as wide as the widest label wants) and cut its text off
            form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
            form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
            form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
            if page.key == "model" and section is page.sections[0]:
                self.preset_combo = FittingComboBox()
                self.preset_combo.activated.connect(self._preset_chosen)
                form.addRow(self.preset_label, self.preset_combo)
                self.preset_label.setBuddy(self.preset_combo)
            if section.custom_gpu_only:
                self._custom_gpu_boxes.append(box)
            for path in section.fields:
                editor = create_editor(field_spec(path))
                if path == "model.id":  # a catalog model fills the fields it determines
                    editor.edited.connect(self._model_chosen)
                else:
                    editor.edited.connect(lambda value, p=path: self.answers.set(p, value))
                if path == "hardware.gpu":
                    editor.edited.connect(lambda _value: self._sync_custom_gpu())
                elif path in CUSTOM_GPU_FIELDS:  # typing: only the GPU list's name follows
                    editor.edited.connect(lambda _value: self._sync_custom_gpu(fields=False))
                editor.parseFailed.connect(
                    lambda en, zh, p=path: self.answers.typing_problem(p, en, zh))
                form.addRow(editor.label, editor)
                self.editors[path] = editor
                if path in TASK_FIELDS:
                    self._task_rows[path] = form
                if path == "hardware.gpu":
                    form.addRow("", self.gpu_info)
            column_layouts[section.column].addWidget(box)
            self.groups.append((box, section.title))
        for layout in column_layouts.values():
            layout.addStretch(1)
        self.mnemonics = self._assign_mnemonics()
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        # Tab goes from field to field; the area scrolls to the focused one (issue 34: it
        # took the focus itself, with nothing on screen showing it)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.scroll = scroll
        scroll.setWidget(body)
        outer = QVBoxLayout(self)
        outer.addWidget(self.title_label)
        outer.addWidget(self.intro_label)
        outer.addWidget(self.banner)
        outer.addWidget(scroll, 1)
        answers.answersReset.connect(self.refresh_values)
        answers.answerChanged.connect(self._answer_changed)
        answers.changedBy.connect(
            lambda path: self._sync_task_fields() if path in (None, "task") else None)
        answers.changedBy.connect(
            lambda path: self._follow_currency() if path in (None, CURRENCY) else None)
        answers.problemsChanged.connect(self.show_problems)
        answers.profileChanged.connect(lambda _profile: self._update_gpu_info())
        self.refresh_values()
        chain = self.focus_chain()
        for before, after in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(before, after)

    # -- keyboard -----------------------------------------------------------------------------
    def _assign_mnemonics(self) -> dict[str, str]:
        """Each field label's Alt+letter (issue 34), the same in both languages: unique in its
        column, unique on the page as far as the letters go (``ui.forms.mnemonics``)."""
        labels = [Label("preset", PRESET, 0)] if self.preset_combo is not None else []
        for section in self.page.sections:
            labels += [Label(path, field_spec(path).title_en, section.column,
                             always_shown=not section.custom_gpu_only and path not in TASK_FIELDS)
                       for path in section.fields]
        letters = assign(labels)
        for path, editor in self.editors.items():
            editor.mnemonic = letters[path]
        return letters

    def focus_chain(self) -> list[QWidget]:
        """The page's inputs in reading order (issue 34): down the first column, section by
        section, then down the next; Tab follows it."""
        chain: list[QWidget] = []
        for section in sorted(self.page.sections, key=lambda s: s.column):  # stable
            if section is self.page.sections[0] and self.preset_combo is not None:
                chain.append(self.preset_combo)
            chain += [self.editors[path].input for path in section.fields]
        return chain

    def first_field(self) -> QWidget | None:
        """The first input a person can type into now (a hidden own-GPU field is skipped)."""
        return next((w for w in self.focus_chain() if w.isVisibleTo(self) and w.isEnabled()),
                    None)

    # -- language -----------------------------------------------------------------------------
    def retranslate(self, lang: str, currency: str) -> None:
        self.lang, self.currency = lang, currency
        self.title_label.setText(QCoreApplication.translate("Pages", self.page.title))
        self.intro_label.setText(QCoreApplication.translate("Pages", self.page.intro))
        for box, title in self.groups:
            box.setTitle(QCoreApplication.translate("Pages", title))
        for editor in self.editors.values():
            editor.retranslate(lang, currency)
        if self.preset_combo is not None:
            title = QCoreApplication.translate("Pages", PRESET)
            self.preset_label.setText(with_mnemonic(title, self.mnemonics.get("preset"), lang))
            self.preset_combo.setAccessibleName(title)
            self.preset_combo.clear()
            self.preset_combo.addItem(QCoreApplication.translate("Pages", "Choose a common model…"), None)
            for preset in MODEL_PRESETS:
                self.preset_combo.addItem(preset.name, preset.name)
        self.show_problems(self.answers.shown_problems())
        self._update_gpu_info()

    # -- answers ------------------------------------------------------------------------------
    def refresh_values(self) -> None:
        for path, editor in self.editors.items():
            editor.set_value(self.answers.get(path))
        self._sync_custom_gpu()
        self._sync_task_fields()
        self._follow_currency()
        self._update_gpu_info()

    def _follow_currency(self) -> None:
        """The market's "Automatic" entry names the market the currency answered gives."""
        market = self.editors.get(MARKET)
        if market is not None and hasattr(market, "follow_currency"):
            market.follow_currency(self.answers.get(CURRENCY))

    def _sync_task_fields(self) -> None:
        """Fields of one task (a diffusion model's) show while the task is that one."""
        task = self.answers.get("task")
        for path, form in self._task_rows.items():
            form.setRowVisible(self.editors[path], str(task) in TASK_FIELDS[path])

    def _sync_custom_gpu(self, fields: bool = True) -> None:
        """The own card's fields show while the GPU is the user's own, with its values
        (``fields``: not while one of them is being typed in); the GPU list names it as it is
        called now."""
        if not self._custom_gpu_boxes:
            return
        gpu = self.answers.get("hardware.gpu")
        custom = isinstance(gpu, dict)
        for box in self._custom_gpu_boxes:
            box.setVisible(custom)
        if custom:
            self.editors["hardware.gpu"].set_value(gpu)
            for path in CUSTOM_GPU_FIELDS if fields else ():
                if path in self.editors and path not in self.answers.all_problems():
                    self.editors[path].set_value(self.answers.get(path))

    def _answer_changed(self, path: str) -> None:
        if path in self.editors:
            self.editors[path].set_value(self.answers.get(path))

    def show_problems(self, problems: dict[str, Problem]) -> None:
        for path, editor in self.editors.items():
            problem = problems.get(path)
            editor.set_error(problem.message_zh if problem and self.lang == "zh" else
                             problem.message_en if problem else None)
        sections = {p.split(".")[0] for p in self.page.fields} | {
            p.rsplit(".", 1)[0] for p in self.page.fields}
        general = [p for key, p in problems.items()
                   if key not in self.editors and (key in sections or key == "")]
        text = "\n".join((p.message_zh if self.lang == "zh" else p.message_en) for p in general)
        self.banner.setText(text)
        self.banner.setVisible(bool(text))

    def first_problem_field(self, problems: dict[str, Problem]) -> FieldEditor | None:
        for path, editor in self.editors.items():
            if path in problems:
                return editor
        return None

    def _preset_chosen(self, index: int) -> None:
        name = self.preset_combo.itemData(index) if self.preset_combo else None
        if name:  # a preset is a model of its own: no catalog model's id stays beside it
            self.answers.set_many({**preset_by_name(name).answers(), "model.id": None})

    def _model_chosen(self, model_id: str | None) -> None:
        """A catalog model chosen (issue 32): its id and the size and shape it determines,
        the task too unless the user picked it (``ui.window.catalog_model``); one step for
        Undo."""
        from ui.window.catalog_model import model_answers

        self.answers.set_many(model_answers(model_id, TASK in self.answers.explicit))

    def _update_gpu_info(self) -> None:
        if "hardware.gpu" not in self.editors:
            return
        value = self.answers.get("hardware.gpu")
        try:
            spec = resolve_gpu(CustomGpu.model_validate(value) if isinstance(value, dict)
                               else str(value))
        except Exception:  # an unknown id is reported at the field by validation
            self.gpu_info.setText("")
            return
        text = QCoreApplication.translate("Pages", "%1 GB memory · %2 TFLOPS FP16 · %3 W")
        self.gpu_info.setText(text.replace("%1", f"{spec.memory_gb:g}")
                              .replace("%2", f"{spec.tflops_fp16_dense:g}")
                              .replace("%3", f"{spec.tdp_w:g}"))
