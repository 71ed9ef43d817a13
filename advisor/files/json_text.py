"""JSON in and out, strictly: the reader refuses what YAML refuses, the writer writes only
what every JSON reader accepts.

Reading: ``NaN``/``Infinity`` are not JSON; a duplicate key is refused (``json`` keeps the last
value silently, YAML refuses it: both refuse now, naming the line); an integer of absurd
length is refused before Python's 4,300-digit limit raises inside the parser; nesting deeper
than a profile could need is refused in linear time before the recursive parser sees it.

Writing (``--format json``): ``NaN`` and infinities would make the output invalid JSON. The
number guards keep them out of every result; should one slip through it is written as
``null`` and logged, never as ``NaN``.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from advisor.files.errors import InputError

MAX_NESTING = 64  # a profile nests three levels
MAX_INT_DIGITS = 40  # no bound in any input is near 10**40


class _Refused(ValueError):
    def __init__(self, en: str, zh: str, key: str | None = None) -> None:
        super().__init__(en)
        self.en, self.zh, self.key = en, zh, key


def _constant(name: str) -> Any:
    raise _Refused(f"{name} is not allowed (not a number JSON can hold)",
                   f"不允许 {name}（JSON 不能表示的数值）")


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _Refused(f"a number of {len(text)} digits is too long",
                       f"数字过长（{len(text)} 位）")
    return int(text)


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise _Refused(f"duplicate key {key!r}", f"重复的键 {key!r}", key)
        data[key] = value
    return data


def _depth_line(text: str) -> int | None:
    """The line where nesting passes ``MAX_NESTING`` (brackets inside strings not counted),
    or None."""
    depth, in_string, escaped, line = 0, False, False, 1
    for ch in text:
        if ch == "\n":
            line += 1
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return line
        elif ch in "]}":
            depth -= 1
    return None


def _line_of_key(text: str, key: str) -> int | None:
    """The line of the second occurrence of ``"key":`` (the duplicate)."""
    found = [m.start() for m in re.finditer(re.escape(json.dumps(key)) + r"\s*:", text)]
    return text.count("\n", 0, found[1]) + 1 if len(found) > 1 else None


# the json module's words for what it found, and what they usually mean (a user review: they
# stayed English under --lang zh, and a trailing comma read as a missing quote)
_JSON_PROBLEMS = {
    "Expecting property name enclosed in double quotes": (
        "expecting a key in double quotes (a trailing comma, a // comment or 'single quotes'?)",
        "这里应有一个用双引号括起的键（多了逗号、用了 // 注释或单引号？）"),
    "Expecting value": ("expecting a value", "这里应有一个值"),
    "Extra data": ("more after the end of the JSON", "JSON 结束之后还有内容"),
    "Expecting ',' delimiter": ("expecting ',' between items", "各项之间缺少逗号“,”"),
    "Expecting ':' delimiter": ("expecting ':' after the key", "键后面缺少冒号“:”"),
    "Unterminated string starting at": ("a string without its closing quote",
                                        "字符串缺少结尾的引号"),
    "Invalid control character at": ("a control character inside a string",
                                     "字符串里有控制字符"),
    "Invalid \\escape": ("an unknown escape (a backslash must be written \\\\)",
                          "未知的转义（反斜杠要写成 \\\\）"),
}


def _json_problem(msg: str) -> tuple[str, str]:
    return _JSON_PROBLEMS.get(msg, (msg, msg))


def load_json_text(text: str, *, source: str = "<json>") -> Any:
    """Parse JSON strictly; every refusal is an InputError with the line when known."""
    deep = _depth_line(text)
    if deep is not None:
        raise InputError.single("JSON nested too deeply", "JSON 嵌套过深", line=deep,
                                source=source)
    try:
        return json.loads(text, parse_constant=_constant, parse_int=_integer,
                          object_pairs_hook=_unique)
    except json.JSONDecodeError as exc:
        en, zh = _json_problem(exc.msg)
        raise InputError.single(f"not valid JSON: {en}", f"不是有效的 JSON：{zh}",
                                line=exc.lineno, source=source) from None
    except _Refused as exc:
        line = _line_of_key(text, exc.key) if exc.key is not None else None
        raise InputError.single(exc.en, exc.zh, line=line, source=source) from None
    except RecursionError:
        raise InputError.single("JSON nested too deeply", "JSON 嵌套过深",
                                source=source) from None


def _finite(value: Any, replaced: list[int]) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        replaced[0] += 1
        return None
    if isinstance(value, dict):
        return {k: _finite(v, replaced) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v, replaced) for v in value]
    return value


def dumps_strict(data: Any, *, indent: int | None = 2) -> str:
    """``data`` as strict JSON (no ``NaN``/``Infinity``; such a value is written as null)."""
    try:
        return json.dumps(data, indent=indent, ensure_ascii=False, allow_nan=False)
    except ValueError:
        replaced = [0]
        clean = _finite(data, replaced)
        from advisor.files.logs import advisor_logger

        advisor_logger(__name__).warning("%d non-finite number(s) written as null in JSON output", replaced[0])
        return json.dumps(clean, indent=indent, ensure_ascii=False, allow_nan=False)
