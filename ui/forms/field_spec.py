"""From profile field metadata to what an input widget needs (magicgui-style).

``field_spec(path)`` reads the pydantic field's type, bounds, unit and en/zh title and help
(``advisor.profile.field_meta``) into a :class:`FieldSpec`, a plain object the tests check
without a window; ``ui.forms.editors.create_editor(spec)`` turns a spec into its widget. A new
input in the profile model is therefore one line in a page's field list.
"""

from __future__ import annotations

import enum
import math
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel
from PySide6.QtCore import QT_TRANSLATE_NOOP

from advisor.profile import CustomGpu, Profile, field_meta
from ui.app.translation import tr_lang
from ui.forms.typed_numbers import POINT, Marks, read_number, write_number

_RANGE = QT_TRANSLATE_NOOP("Fields", "Range: %1")
_MAY_BE_EMPTY = QT_TRANSLATE_NOOP("Fields", "May be left empty.")

Kind = Literal["float", "int", "enum", "bool", "text", "gpu", "model"]
# Text fields that name an entry of a catalog: a searchable list of its entries (issue 32)
CATALOG_FIELDS: dict[tuple[str, ...], Kind] = {("model", "id"): "model"}


@dataclass(frozen=True)
class FieldSpec:
    path: tuple[str, ...]  # e.g. ("training", "single_gpu_hours")
    kind: Kind
    optional: bool
    title_en: str
    title_zh: str
    help_en: str
    help_zh: str
    unit_en: str | None = None
    unit_zh: str | None = None
    minimum: float | None = None  # inclusive display limit (from ge, or gt plus a step)
    maximum: float | None = None
    exclusive_min: bool = False  # gt: the minimum itself is not allowed
    decimals: int = 0
    choices: tuple[str, ...] = field(default_factory=tuple)
    default: Any = None

    @property
    def key(self) -> str:
        return ".".join(self.path)

    def title(self, lang: str) -> str:
        return self.title_zh if lang == "zh" else self.title_en

    def help(self, lang: str) -> str:
        return self.help_zh if lang == "zh" else self.help_en

    def unit(self, lang: str, currency: str = "") -> str:
        """The unit in ``lang``; the word "currency" becomes the profile's currency."""
        unit = (self.unit_zh if lang == "zh" else self.unit_en) or ""
        return unit.replace("货币", currency).replace("currency", currency) if currency else unit

    def range_text(self, lang: str) -> str:
        """"> 0 … 100 000" style hint for tooltips; empty when unbounded."""
        if self.kind not in ("int", "float") or (self.minimum is None and self.maximum is None):
            return ""
        low = "" if self.minimum is None else (
            ("> " if self.exclusive_min else "≥ ") + _number_text(self.minimum, self.decimals))
        high = "" if self.maximum is None else "≤ " + _number_text(self.maximum, self.decimals)
        joined = ", ".join(p for p in (low, high) if p)
        return tr_lang(lang, "Fields", _RANGE).replace("%1", joined)

    def tooltip(self, lang: str) -> str:
        parts = [self.help(lang), self.range_text(lang)]
        if self.optional and self.kind in ("int", "float"):
            parts.append(tr_lang(lang, "Fields", _MAY_BE_EMPTY))
        return "\n".join(p for p in parts if p)


def _number_text(value: float, decimals: int) -> str:
    if float(value).is_integer():
        return f"{int(value):,}".replace(",", " ")
    return f"{value:.{max(decimals, 1)}f}"


def _model_at(path: tuple[str, ...]) -> type[BaseModel]:
    model: type[BaseModel] = Profile
    for part in path[:-1]:
        annotation = _strip_optional(model.model_fields[part].annotation)[0]
        if typing.get_origin(annotation) in (types.UnionType, typing.Union):
            # "hardware.gpu" is a catalog id or the user's own specs: its fields are CustomGpu's
            annotation = next(a for a in typing.get_args(annotation)
                              if isinstance(a, type) and issubclass(a, BaseModel))
        model = annotation
    return model


def _strip_optional(annotation: Any) -> tuple[Any, bool]:
    """(inner type, optional?) of ``X | None``; other unions come back unchanged."""
    origin = typing.get_origin(annotation)
    if origin in (types.UnionType, typing.Union):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        optional = len(args) < len(typing.get_args(annotation))
        if len(args) == 1:
            return args[0], optional
        return annotation, optional
    return annotation, False


def _kind_of(annotation: Any) -> Kind:
    if typing.get_origin(annotation) in (types.UnionType, typing.Union):
        if CustomGpu in typing.get_args(annotation):
            return "gpu"
    if isinstance(annotation, type):
        if issubclass(annotation, enum.Enum):
            return "enum"
        if issubclass(annotation, bool):
            return "bool"
        if issubclass(annotation, int):
            return "int"
        if issubclass(annotation, float):
            return "float"
        if issubclass(annotation, str):
            return "text"
    raise TypeError(f"no editor for annotation {annotation!r}")


def field_spec(path: str | tuple[str, ...]) -> FieldSpec:
    """The spec of one profile field, addressed as "training.single_gpu_hours"."""
    parts = tuple(path.split(".")) if isinstance(path, str) else tuple(path)
    meta = field_meta(_model_at(parts), parts[-1])
    inner, optional = _strip_optional(meta["annotation"])
    kind = CATALOG_FIELDS.get(parts) or _kind_of(inner)
    minimum = meta.get("ge", meta.get("gt"))
    maximum = meta.get("le", meta.get("lt"))
    decimals = 0 if kind == "int" else 2
    choices: tuple[str, ...] = ()
    if kind == "enum":
        choices = tuple(member.value for member in inner)
    default = meta["default"]
    if isinstance(default, enum.Enum):
        default = default.value
    return FieldSpec(
        path=parts, kind=kind, optional=optional,
        title_en=meta["title"], title_zh=meta["title_zh"],
        help_en=meta["help"], help_zh=meta["help_zh"],
        unit_en=meta.get("unit"), unit_zh=meta.get("unit_zh"),
        minimum=None if minimum is None else float(minimum),
        maximum=None if maximum is None else float(maximum),
        exclusive_min="gt" in meta, decimals=decimals, choices=choices, default=default)


def parse_number(spec: FieldSpec, text: str, marks: Marks = POINT
                 ) -> tuple[float | int | None, str | None, str | None]:
    """(value, error_en, error_zh) for what was typed into a number field, written as the
    locale of ``marks`` writes numbers (``ui.forms.typed_numbers``: never a silent
    reinterpretation of a decimal comma).

    Empty text is ``None`` (the model then says whether the field may be empty). Bounds are
    left to the model's validation so the message is the same as for a file."""
    reading = read_number(text, marks)
    if reading.error_en:
        return None, reading.error_en, reading.error_zh
    if reading.value is None:
        return None, None, None
    number = reading.value
    cleaned = text.strip()
    if not math.isfinite(number):
        return None, "must be a finite number", "必须是有限数值"
    if spec.kind == "int":
        if not number.is_integer():
            return None, f"must be a whole number, got {cleaned}", f"必须是整数，实际为 {cleaned}"
        return int(number), None, None
    return number, None, None


def format_number(spec: FieldSpec, value: float | int | None, marks: Marks = POINT) -> str:
    """``_format_number`` with the locale's decimal mark (what a field shows reads back as
    itself through ``parse_number`` with the same ``marks``)."""
    return write_number(_format_number(spec, value), marks)


def _format_number(spec: FieldSpec, value: float | int | None) -> str:
    """A value as its field shows it: 2.5 runs a week as "10.83" runs a month, not "10.8333"
    (two decimals from 1 up, four significant digits below: 0.0125); the model keeps the
    value itself until the field is edited."""
    if value is None:
        return ""
    if spec.kind == "int":
        return str(int(value))
    number = float(value)
    if abs(number) >= 1:
        return f"{number:.2f}".rstrip("0").rstrip(".")
    text = f"{number:.4g}"
    return text if "e" not in text else f"{number:.10f}".rstrip("0").rstrip(".")
