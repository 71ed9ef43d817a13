"""Input widgets for the kinds of ``FieldSpec`` (``create_editor`` picks one): each shows its value, its unit,
its title (label), its help (tooltip) and, below it, the validation message for the field."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QLocale, QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from advisor.catalog import gpu_ids, load_gpus
from advisor.catalog.gpus import spelling_key
from ui.app.theme import readable_hex, tint
from ui.app.translation import tr_lang
from ui.forms.choices import choice_label
from ui.forms.combo import FittingComboBox
from ui.forms.field_label import FieldLabel
from ui.forms.field_spec import FieldSpec, format_number, parse_number
from ui.forms.mnemonics import with_mnemonic
from ui.forms.typed_numbers import Marks


def announce(widget: QWidget) -> None:
    """Tell assistive technology that ``widget``'s description (its field's message) changed:
    a screen reader reads a message as it appears, with the field it belongs to."""
    from PySide6.QtGui import QAccessible, QAccessibleEvent

    QAccessible.updateAccessibility(
        QAccessibleEvent(widget, QAccessible.Event.DescriptionChanged))

ERROR_COLOR = "#b3261e"
_OPTIONAL = QT_TRANSLATE_NOOP("Fields", "optional")
_CUSTOM = QT_TRANSLATE_NOOP("Fields", "%1 (custom)")


class FieldEditor(QWidget):
    """Base: ``edited(value)`` on a user change; ``parseFailed(en, zh)`` for unreadable text."""

    edited = Signal(object)
    parseFailed = Signal(str, str)

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self.lang = "en"
        self.currency = ""
        self.label = FieldLabel()  # placed by the page, in the form's label column
        self.label.setWordWrap(True)
        self.mnemonic: str | None = None  # its Alt+letter, given by the page (ui.forms.mnemonics)
        self.unit_label = QLabel()
        self.error_label = QLabel()
        tint(self.error_label, ERROR_COLOR)  # readable on a dark window too
        self.error_label.setWordWrap(True)
        self.error_label.hide()
        self._row = QHBoxLayout()
        self._row.setContentsMargins(0, 0, 0, 0)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(2)
        outer.addLayout(self._row)
        outer.addWidget(self.error_label)
        self.setObjectName(f"field:{spec.key}")

    def _finish(self, input_widget: QWidget) -> None:
        self.input = input_widget
        self._row.addWidget(input_widget, 1)
        self._row.addWidget(self.unit_label)

    # -- shown text --------------------------------------------------------------------------
    def retranslate(self, lang: str, currency: str = "") -> None:
        self.lang, self.currency = lang, currency
        # "&Layers", "层数(&Y)": Alt+letter goes to the input (the label's buddy)
        self.label.setText(with_mnemonic(self.spec.title(lang), self.mnemonic, lang))
        unit = self.spec.unit(lang, currency)
        self.unit_label.setText(unit)
        self.unit_label.setVisible(bool(unit))
        tip = self.spec.tooltip(lang)
        for widget in (self.label, self.input):
            widget.setToolTip(tip)
        self.label.setBuddy(self.input)
        # issue 34: the label and the input live in different parents, so a screen reader
        # does not find the input's name through the buddy; it is set on the input itself,
        # from the title (no mnemonic's '&' read aloud)
        self.input.setAccessibleName(self.spec.title(lang) + (f" ({unit})" if unit else ""))
        self._describe()

    def _describe(self) -> None:
        """The field's message, read with the field (its accessible description)."""
        message = self.error_label.text() if not self.error_label.isHidden() else ""
        self.input.setAccessibleDescription(message)

    def set_error(self, message: str | None) -> None:
        changed = (message or "") != self.input.accessibleDescription()
        self.error_label.setText(message or "")
        self.error_label.setVisible(bool(message))
        self.input.setAccessibleDescription(message or "")
        if changed:  # a screen reader reads the new message with its field (issue 34)
            announce(self.input)
        self.input.setProperty("invalid", bool(message))
        self.input.setStyleSheet(f"border: 1px solid {readable_hex(ERROR_COLOR)};"
                                 if message else "")

    def error_text(self) -> str:
        return self.error_label.text() if self.error_label.isVisible() or \
            self.error_label.text() else ""

    # -- value --------------------------------------------------------------------------------
    def set_value(self, value: Any) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def value(self) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError


class NumberEditor(FieldEditor):
    """A line edit, not a spin box: nothing is silently clamped, and an empty optional field
    stays empty; the model's validation explains any out-of-range value at the field."""

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        edit = QLineEdit()
        edit.setAlignment(Qt.AlignmentFlag.AlignRight)
        edit.setMaximumWidth(160)
        edit.textEdited.connect(self._typed)
        self._finish(edit)
        self._row.addStretch(0)

    def retranslate(self, lang: str, currency: str = "") -> None:
        super().retranslate(lang, currency)
        if self.spec.optional:
            self.input.setPlaceholderText(tr_lang(lang, "Fields", _OPTIONAL))
        else:
            self.input.setPlaceholderText("")

    def _typed(self, text: str) -> None:
        value, error_en, error_zh = parse_number(self.spec, text, typing_marks())
        if error_en:
            self.parseFailed.emit(error_en, error_zh or error_en)
        else:
            self.edited.emit(value)

    def set_value(self, value: Any) -> None:
        text = format_number(self.spec, value, typing_marks()) \
            if isinstance(value, int | float) else \
            ("" if value is None else str(value))
        if text != self.input.text():
            self.input.setText(text)
            show_start(self.input)

    def value(self) -> Any:
        return parse_number(self.spec, self.input.text(), typing_marks())[0]


def show_start(edit: QLineEdit) -> None:
    """A value loaded into ``edit`` shows its start ("Faster R-CNN R50-FPN", not
    "er R-CNN R50-FPN" in a narrow field): ``setText`` leaves the cursor at the end, which
    scrolls a long text to its end. A field being typed in keeps its cursor."""
    if not edit.hasFocus():
        edit.setCursorPosition(0)


def typing_marks() -> Marks:
    """The decimal mark and grouping the user types numbers with: the system locale's (a
    German laptop writes 2,5 whatever language the app speaks)."""
    return Marks.of_locale(QLocale.system())


class ChoiceEditor(FieldEditor):
    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        combo = FittingComboBox()
        self._values: list[str | None] = ([None] if spec.optional else []) + list(spec.choices)
        for value in self._values:
            combo.addItem(str(value), value)
        combo.activated.connect(lambda index: self.edited.emit(self._values[index]))
        self.answered_currency: str | None = None  # the market's Automatic entry follows it
        self._finish(combo)

    def retranslate(self, lang: str, currency: str = "") -> None:
        super().retranslate(lang, currency)
        self._item_texts()

    def follow_currency(self, currency: str | None) -> None:
        """The currency answered (None: not said): the market's "Automatic" entry names the
        market it gives (review D7.6)."""
        currency = getattr(currency, "value", currency)
        if currency != self.answered_currency:
            self.answered_currency = currency
            self._item_texts()

    def _item_texts(self) -> None:
        for index, value in enumerate(self._values):
            self.input.setItemText(index, choice_label(self.spec.path[-1], value, self.lang,
                                                       currency=self.answered_currency))

    def set_value(self, value: Any) -> None:
        value = getattr(value, "value", value)
        index = self._values.index(value) if value in self._values else -1
        if index >= 0 and index != self.input.currentIndex():
            self.input.setCurrentIndex(index)

    def value(self) -> Any:
        return self._values[self.input.currentIndex()]


class FlagEditor(FieldEditor):
    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        box = QCheckBox()
        box.clicked.connect(lambda checked: self.edited.emit(bool(checked)))
        self._finish(box)

    def set_value(self, value: Any) -> None:
        self.input.setChecked(bool(value))

    def value(self) -> Any:
        return self.input.isChecked()


class TextEditor(FieldEditor):
    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        edit = QLineEdit()
        edit.textEdited.connect(lambda text: self.edited.emit(text))
        self._finish(edit)

    def set_value(self, value: Any) -> None:
        text = "" if value is None else str(value)
        if text != self.input.text():
            self.input.setText(text)
            show_start(self.input)

    def value(self) -> Any:
        return self.input.text()


_NEW_CUSTOM = QT_TRANSLATE_NOOP("Fields", "Custom GPU… (enter its specs)")
_NEW = object()  # the "Custom GPU…" entry: not a value, a request for one


class GpuEditor(FieldEditor):
    """Catalog GPUs by name, then "Custom GPU…", which starts the user's own card from the
    specs of the one chosen (the page shows their fields); a profile's own GPU is an extra
    entry, "<name> (custom)"."""

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        combo = FittingComboBox()
        combo.setMaxVisibleItems(20)
        catalog = load_gpus()
        self._values: list[Any] = []
        for gpu_id in gpu_ids():
            gpu = catalog[gpu_id]
            combo.addItem(f"{gpu.name} · {gpu.memory_gb:g} GB", gpu_id)
            self._values.append(gpu_id)
        combo.addItem("")  # "Custom GPU…", named by retranslate
        self._values.append(_NEW)
        self._last_catalog: str = self._values[0]  # what "Custom GPU…" starts from
        combo.activated.connect(self._chosen)
        self._finish(combo)

    def retranslate(self, lang: str, currency: str = "") -> None:
        super().retranslate(lang, currency)
        self.input.setItemText(self._values.index(_NEW), tr_lang(lang, "Fields", _NEW_CUSTOM))
        custom = self._custom_index()
        if custom is not None:
            self.input.setItemText(custom, self._custom_text(self._values[custom]))

    def _custom_index(self) -> int | None:
        return next((i for i, v in enumerate(self._values) if isinstance(v, dict)), None)

    def _custom_text(self, data: dict) -> str:
        return tr_lang(self.lang, "Fields", _CUSTOM).replace("%1", str(data.get("name") or "?"))

    def _chosen(self, index: int) -> None:
        value = self._values[index]
        if isinstance(value, str):
            self._last_catalog = value
        if value is _NEW:
            value = self.template()
            self.set_value(value)
        self.edited.emit(value)

    def template(self) -> dict[str, Any]:
        """The user's own card, started from the specs of the catalog card now chosen (or the
        custom card already there): they change what differs."""
        current = self._custom_index()
        if current is not None:
            return dict(self._values[current])
        gpu = load_gpus()[self._last_catalog]
        data: dict[str, Any] = {"name": gpu.name, "memory_gb": gpu.memory_gb,
                                "tflops_fp16": gpu.tflops_fp16_dense,
                                "tflops_fp32": gpu.tflops_fp32, "tdp_w": gpu.tdp_w,
                                "pcie_gen": gpu.pcie_gen or 4}
        if gpu.generation:
            data["generation"] = gpu.generation
        if gpu.memory_bandwidth_gbs:
            data["memory_bandwidth_gbs"] = gpu.memory_bandwidth_gbs
        if gpu.launch_price_usd is not None:
            data["price_usd"] = gpu.launch_price_usd
        return data

    def set_value(self, value: Any) -> None:
        if isinstance(value, dict) or hasattr(value, "model_dump"):
            data = dict(value) if isinstance(value, dict) else value.model_dump()
            current = self._custom_index()
            if current is None:
                self._values.append(data)
                self.input.addItem(self._custom_text(data))
                current = len(self._values) - 1
            else:
                self._values[current] = data
                self.input.setItemText(current, self._custom_text(data))
            self.input.setCurrentIndex(current)
            return
        key = str(value).strip().lower()
        spec = load_gpus().get(key) or load_gpus().get(spelling_key(key))  # 'RTX 4090'
        key = spec.id if spec else key
        if key in self._values:
            self._last_catalog = key
            self.input.setCurrentIndex(self._values.index(key))

    def value(self) -> Any:
        value = self._values[self.input.currentIndex()]
        return self.template() if value is _NEW else value


_NO_MODEL = QT_TRANSLATE_NOOP("Fields", "None: my own model (its size typed below)")
_SEARCH = QT_TRANSLATE_NOOP("Fields", "Search: name or id")
_MODEL_TIP = QT_TRANSLATE_NOOP("Fields", "%1 M parameters · %2 · %3")
SEARCH_ROLE = Qt.ItemDataRole.UserRole + 1  # an entry's id, name, aliases and repository


class _ModelSearch(QSortFilterProxyModel):
    """The catalog's models whose names hold every word typed ("llama 8b"), in any case."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.words: list[str] = []

    def set_query(self, text: str) -> None:
        self.words = text.lower().replace("·", " ").split()
        self.setFilterFixedString(text)  # refilters through filterAcceptsRow

    def filterAcceptsRow(self, row: int, parent: Any) -> bool:  # noqa: N802 (Qt name)
        text = self.sourceModel().index(row, 0, parent).data(SEARCH_ROLE)
        return bool(text) and all(word in text for word in self.words)


def model_entry_text(entry: Any) -> str:
    """How the list names a catalog model: its name and its id."""
    return f"{entry.name} · {entry.id}"


class ModelEditor(FieldEditor):
    """The catalog's models by name (issue 32), a searchable list: typing filters it by name,
    id, alias or Hugging Face repository (every word typed); choosing one gives its id (the
    page fills the fields the model determines). The first entry is no catalog model: the
    size and shape typed below. A name typed and confirmed is read as the catalog reads it
    (``advisor.catalog.models.find_model``); one it does not know is kept, and the answers'
    validation says so at the field with the closest ids."""

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        from advisor.catalog.models import load_models

        combo = FittingComboBox()
        combo.setEditable(True)
        combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        combo.setMaxVisibleItems(16)
        # as wide as 16 characters asks, never narrower than the model chosen (fit_text)
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(16)
        self._entries = {entry.id: entry for entry in load_models()}
        combo.addItem("", None)
        for entry in self._entries.values():
            combo.addItem(model_entry_text(entry), entry.id)
            names = [entry.name, entry.id, *entry.aliases, entry.hub or "", entry.family]
            combo.setItemData(combo.count() - 1, " ".join(names).lower(), SEARCH_ROLE)
        self.search = _ModelSearch(combo)
        self.search.setSourceModel(combo.model())
        completer = QCompleter(self.search, combo)
        completer.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setMaxVisibleItems(12)
        combo.setCompleter(completer)
        combo.lineEdit().textEdited.connect(self.search.set_query)
        combo.activated.connect(self._chosen)
        combo.lineEdit().editingFinished.connect(self._typed)
        self._shown: Any = None  # the value shown (an id, a typed name, or None)
        self._finish(combo)

    def retranslate(self, lang: str, currency: str = "") -> None:
        super().retranslate(lang, currency)
        self.input.setItemText(0, tr_lang(lang, "Fields", _NO_MODEL))
        self.input.lineEdit().setPlaceholderText(tr_lang(lang, "Fields", _SEARCH))
        for index in range(1, self.input.count()):
            entry = self._entries[self.input.itemData(index)]
            self.input.setItemData(index, tr_lang(lang, "Fields", _MODEL_TIP)
                                   .replace("%1", f"{entry.params_millions:,.0f}")
                                   .replace("%2", choice_label("task", entry.task.value, lang))
                                   .replace("%3", entry.as_of), Qt.ItemDataRole.ToolTipRole)
        self.set_value(self._shown)

    def _chosen(self, index: int) -> None:
        value = self.input.itemData(index)
        self._shown = value
        self.set_value(value)
        self.edited.emit(value)

    def _typed(self) -> None:
        """Text confirmed without choosing (Enter, Tab): the entry it names, else as typed."""
        text = self.input.lineEdit().text().strip()
        if self.input.currentIndex() > 0 and \
                text == self.input.itemText(self.input.currentIndex()):
            return  # an entry shown as the list shows it: already chosen
        if not text or text == self.input.itemText(0):
            value = None
        else:
            from advisor.catalog.models import find_model

            entry = find_model(text.split(" · ")[-1]) or find_model(text)
            value = entry.id if entry is not None else text
        if value != self._shown:
            self._shown = value
            self.set_value(value)
            self.edited.emit(value)

    def set_value(self, value: Any) -> None:
        self._shown = value
        index = self.input.findData(value) if isinstance(value, str) else 0
        if index < 0:
            from advisor.catalog.models import find_model

            entry = find_model(value)
            index = self.input.findData(entry.id) if entry is not None else -1
        if index >= 0:
            if index != self.input.currentIndex():
                self.input.setCurrentIndex(index)
            text = "" if index == 0 else self.input.itemText(index)
        else:  # a name the catalog does not know: shown as typed, marked by validation
            text = str(value)
        if self.input.lineEdit().text() != text:
            self.input.lineEdit().setText(text)
        show_start(self.input.lineEdit())  # setCurrentIndex leaves the cursor at the end too
        # shown whole: the model chosen (or the hint while none is), not each keystroke
        self.input.fit_text(text or self.input.lineEdit().placeholderText())

    def value(self) -> Any:
        return self._shown


def create_editor(spec: FieldSpec, parent=None):
    """The widget for ``spec``: the one table from a field's kind to its editor."""
    table = {
        "float": NumberEditor,
        "int": NumberEditor,
        "enum": ChoiceEditor,
        "bool": FlagEditor,
        "text": TextEditor,
        "gpu": GpuEditor,
        "model": ModelEditor,
    }
    return table[spec.kind](spec, parent)
