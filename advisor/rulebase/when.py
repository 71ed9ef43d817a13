"""Parse and check a rule's ``when`` data: ``{fact, op, value}`` leaves under ``all`` / ``any`` /
``not``. Facts must exist in the catalog, operators must suit the fact's type, values must be
of that type (and one of its allowed values for text facts)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from advisor.rulebase.conditions import (
    LIST_OPS,
    NUMERIC_OPS,
    OPS,
    UNARY_OPS,
    AllOf,
    AnyOf,
    Cond,
    Node,
    Not,
)
from advisor.rulebase.fact_catalog import FACTS, NUMBER_EPSILON, NUMBER_LIMIT

Report = Callable[[tuple, str, str], None]
MAX_DEPTH = 12


def _value_ok(kind: str, choices: tuple[str, ...], value: Any) -> str | None:
    """Why ``value`` cannot be compared with a fact of this kind (None when it can)."""
    if kind == "str":
        if not isinstance(value, str) or value not in choices:
            return f"must be one of {list(choices)}, got {value!r}"
        return None
    if kind == "bool":
        return None if isinstance(value, bool) else f"must be true or false, got {value!r}"
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"must be a number, got {value!r}"
    # durable_rules' JSON reader rejects exponent notation: keep numbers printable without one
    if abs(value) > NUMBER_LIMIT or (value != 0 and abs(value) < NUMBER_EPSILON):
        return f"must be 0 or between {NUMBER_EPSILON} and {NUMBER_LIMIT:.0f} in size, got {value!r}"
    if kind == "int" and isinstance(value, float) and not value.is_integer():
        return f"must be a whole number for this fact, got {value!r}"
    return None


def _condition(raw: dict, loc: tuple, report: Report) -> Cond | None:
    extra = set(raw) - {"fact", "op", "value"}
    if extra:
        report(loc, f"unknown keys {sorted(extra)} in a condition (fact, op, value)",
               f"条件中有未知字段 {sorted(extra)}（应为 fact、op、value）")
        return None
    fact, op = raw.get("fact"), raw.get("op")
    spec = FACTS.get(fact) if isinstance(fact, str) else None
    if spec is None:
        report(loc + ("fact",), f"unknown fact {fact!r}", f"未知事实 {fact!r}")
        return None
    if op not in OPS:
        report(loc + ("op",), f"unknown operator {op!r} (known: {', '.join(OPS)})",
               f"未知运算符 {op!r}（可用：{', '.join(OPS)}）")
        return None
    has_value = "value" in raw
    if op in UNARY_OPS:
        if has_value:
            report(loc + ("value",), f"{op} takes no value", f"{op} 不需要 value")
            return None
        if op in ("is_true", "is_false") and spec.kind != "bool":
            report(loc + ("op",), f"{op} needs a true/false fact; {fact} is {spec.kind}",
                   f"{op} 需要布尔事实；{fact} 的类型是 {spec.kind}")
            return None
        if op == "exists" and not spec.optional:
            report(loc + ("op",), f"{fact} is always present: exists would always hold",
                   f"{fact} 总是存在：exists 恒为真")
            return None
        return Cond(fact, op)
    if not has_value:
        report(loc, f"{op} needs a value", f"{op} 需要 value")
        return None
    value = raw["value"]
    if op in NUMERIC_OPS and spec.kind not in ("int", "float"):
        report(loc + ("op",), f"{op} compares numbers; {fact} is {spec.kind}",
               f"{op} 只能比较数值；{fact} 的类型是 {spec.kind}")
        return None
    if op in LIST_OPS:
        if not isinstance(value, list) or not value:
            report(loc + ("value",), f"{op} needs a non-empty list", f"{op} 需要非空列表")
            return None
        for j, item in enumerate(value):
            why = _value_ok(spec.kind, spec.choices, item)
            if why:
                report(loc + ("value", j), f"{fact}: {why}", f"{fact}：取值不符（{why}）")
                return None
        return Cond(fact, op, tuple(dict.fromkeys(value)))
    why = _value_ok(spec.kind, spec.choices, value)
    if why:
        report(loc + ("value",), f"{fact}: {why}", f"{fact}：取值不符（{why}）")
        return None
    return Cond(fact, op, value)


def parse_when(raw: Any, loc: tuple, report: Report, depth: int = 0) -> Node | None:
    """The condition tree of ``raw``, or None after reporting every problem found."""
    if depth > MAX_DEPTH:
        report(loc, "conditions nested too deeply", "条件嵌套过深")
        return None
    if not isinstance(raw, dict):
        report(loc, "a condition is {fact, op, value} or {all|any: [...]} or {not: ...}",
               "条件应为 {fact, op, value}、{all|any: [...]} 或 {not: ...}")
        return None
    groups = [k for k in ("all", "any", "not") if k in raw]
    if not groups:
        return _condition(raw, loc, report)
    if len(raw) != 1:
        report(loc, "all / any / not must stand alone in their mapping",
               "all / any / not 必须单独成为一个映射")
        return None
    key = groups[0]
    if key == "not":
        inner = parse_when(raw["not"], loc + ("not",), report, depth + 1)
        return Not(inner) if inner is not None else None
    items = raw[key]
    if not isinstance(items, list) or not items:
        report(loc + (key,), f"{key} needs a non-empty list", f"{key} 需要非空列表")
        return None
    parsed = [parse_when(item, loc + (key, j), report, depth + 1) for j, item in enumerate(items)]
    if any(p is None for p in parsed):
        return None
    return (AllOf if key == "all" else AnyOf)(tuple(parsed))  # type: ignore[arg-type]
