"""Numbers as the user writes them (issue 37): the decimal mark and the digit grouping of the
locale in use, full-width digits and punctuation from Chinese input methods, the spaces French
and German group thousands with — and never a silent reinterpretation. ``2,5`` is 2.5 where a
comma is the decimal mark; where a comma groups thousands, ``2,5`` is no number of that locale
and the field says so, showing the form it expects.

Pure functions of the text and the two marks; ``Marks.of_locale`` reads them from a QLocale.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# full-width digits, signs and marks (Chinese, Japanese input methods), and the spaces
# locales group digits with (no-break, narrow no-break, thin)
_FULL_WIDTH = {**{chr(0xFF10 + i): str(i) for i in range(10)}, "，": ",", "．": ".", "。": ".",
               "－": "-", "＋": "+", "ｅ": "e", "Ｅ": "e", "、": ","}
_SPACES = re.compile(r"[\s\u00a0\u202f\u2009\u2007']")


@dataclass(frozen=True)
class Marks:
    """The decimal mark and the digit-group separator of a locale."""

    decimal: str = "."
    group: str = ","

    @classmethod
    def of_locale(cls, locale) -> Marks:
        """The marks a QLocale writes numbers with (a space-like group separator counts as a
        space: any space groups)."""
        decimal, group = locale.decimalPoint(), locale.groupSeparator()
        if _SPACES.fullmatch(group or " "):
            group = " "
        return cls(decimal or ".", group or ",")

    def example(self, value: float = 1500.5) -> str:
        """How this locale writes ``value`` (1,500.5 / 1.500,5 / 1 500,5)."""
        whole, _, frac = f"{value:,.1f}".partition(".")
        return whole.replace(",", self.group) + self.decimal + frac


POINT = Marks(".", ",")


@dataclass(frozen=True)
class Reading:
    """What the text means: ``value`` (None: empty, or not a number of the locale) and, when
    it is not one, why, in both languages."""

    value: float | None
    error_en: str | None = None
    error_zh: str | None = None


def _grouped(digits: str, group: str) -> bool:
    """``digits`` (no sign, no decimal part) is grouped by threes with ``group``."""
    return re.fullmatch(rf"\d{{1,3}}({re.escape(group)}\d{{3}})+", digits) is not None


def read_number(text: str, marks: Marks = POINT) -> Reading:
    """The number ``text`` writes in the locale of ``marks`` (see the module)."""
    raw = text.strip()
    s = "".join(_FULL_WIDTH.get(ch, ch) for ch in raw)
    s = _SPACES.sub("", s)  # spaces group digits in any locale; a space group is no mark
    group = None if marks.group == " " else marks.group
    if not s:
        return Reading(None)
    if not re.search(r"\d", s) and s.lower().lstrip("+-") not in ("nan", "inf", "infinity"):
        return Reading(None, f"must be a number, got {raw!r}", f"必须是数值，实际为 {raw!r}")
    if re.search(r"[a-df-zA-DF-Z%°$€¥/]", s.replace("inf", "").replace("nan", "")):
        return Reading(None, f"type the number alone, got {raw!r} (the unit is shown beside "
                             "the field)", f"只填数字，实际为 {raw!r}（单位显示在输入框旁边）")
    mantissa, exp = re.fullmatch(r"(.*?)((?:[eE][+-]?\d+)?)", s).groups()
    sign = ""
    if mantissa[:1] in "+-" and mantissa:
        sign, mantissa = mantissa[0], mantissa[1:]
    dec, other = marks.decimal, ("," if marks.decimal == "." else ".")
    # which mark is the decimal one: the locale's, where the text allows no other reading
    if dec in mantissa:
        whole, _, frac = mantissa.rpartition(dec)
        if dec in whole:
            return _expects(raw, marks)
        if group and group in whole and not _grouped(whole, group):
            return _expects(raw, marks)
        if other != group and other in whole + frac:
            return _expects(raw, marks)
        whole = whole.replace(group, "") if group else whole
        if group and group in frac:
            return _expects(raw, marks)
        number = f"{whole or '0'}.{frac}"
    elif group and group in mantissa:
        if not _grouped(mantissa, group):
            return _expects(raw, marks)  # "2,5" where a comma groups thousands
        number = mantissa.replace(group, "")
    elif other in mantissa:
        return _expects(raw, marks)  # "2.5" where a comma is the decimal mark
    else:
        number = mantissa
    try:
        value = float(sign + number + exp)
    except ValueError:
        return Reading(None, f"must be a number, got {raw!r}", f"必须是数值，实际为 {raw!r}")
    return Reading(value)


def _expects(raw: str, marks: Marks) -> Reading:
    shown = marks.example()
    return Reading(None,
                   f"{raw!r} is not a number as your locale writes them: write it as {shown} "
                   f"(decimal mark {marks.decimal!r})",
                   f"{raw!r} 不符合当前区域设置的数字写法：请写成 {shown}（小数点为 {marks.decimal!r}）")


def write_number(text: str, marks: Marks = POINT) -> str:
    """``text`` (a number written with a point and no grouping) with the locale's decimal
    mark, so what a field shows reads back as itself."""
    return text.replace(".", marks.decimal) if marks.decimal != "." else text


__all__ = ["POINT", "Marks", "Reading", "read_number", "write_number"]
