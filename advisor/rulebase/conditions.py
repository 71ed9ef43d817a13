"""A rule's ``when``: a tree of conditions on one flat fact set, its meaning, and its translation
to a durable_rules expression.

Semantics (the same in ``evaluate`` and in the compiled expression, checked against each other
by the stress test): a comparison on a fact that is absent is false; ``not`` is plain logical
negation, so ``not (max_temp_c ge 84)`` holds when the temperature is unknown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

Scalar = str | int | float | bool

VALUE_OPS = ("eq", "ne", "lt", "le", "gt", "ge")
LIST_OPS = ("in", "not_in")
UNARY_OPS = ("is_true", "is_false", "exists")
OPS = VALUE_OPS + LIST_OPS + UNARY_OPS
NUMERIC_OPS = ("lt", "le", "gt", "ge")
_DURABLE_CMP = {"lt": "$lt", "le": "$lte", "gt": "$gt", "ge": "$gte"}
_NEGATED_CMP = {"lt": "ge", "le": "gt", "gt": "le", "ge": "lt"}


@dataclass(frozen=True)
class Cond:
    fact: str
    op: str
    value: Any = None  # a scalar, a tuple of scalars for in / not_in, None for unary ops


@dataclass(frozen=True)
class AllOf:
    items: tuple[Node, ...]


@dataclass(frozen=True)
class AnyOf:
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Not:
    item: Node


Node = Cond | AllOf | AnyOf | Not


def _same(a: Any, b: Any) -> bool:
    """Equality without True == 1 (a bool fact never equals a number, as in durable_rules)."""
    return isinstance(a, bool) == isinstance(b, bool) and a == b


def _holds(cond: Cond, facts: Mapping[str, Scalar]) -> bool:
    if cond.fact not in facts:
        return False
    have = facts[cond.fact]
    op, want = cond.op, cond.value
    if op == "exists":
        return True
    if op == "is_true":
        return have is True
    if op == "is_false":
        return have is False
    if op == "eq":
        return _same(have, want)
    if op == "ne":
        return not _same(have, want)
    if op == "in":
        return any(_same(have, w) for w in want)
    if op == "not_in":
        return not any(_same(have, w) for w in want)
    if isinstance(have, bool | str):
        return False
    return {"lt": have < want, "le": have <= want, "gt": have > want, "ge": have >= want}[op]


def evaluate(node: Node, facts: Mapping[str, Scalar]) -> bool:
    """Whether ``node`` holds for ``facts`` (the reference meaning of a ``when``)."""
    if isinstance(node, Cond):
        return _holds(node, facts)
    if isinstance(node, AllOf):
        return all(evaluate(n, facts) for n in node.items)
    if isinstance(node, AnyOf):
        return any(evaluate(n, facts) for n in node.items)
    return not evaluate(node.item, facts)


def leaves(node: Node) -> list[Cond]:
    if isinstance(node, Cond):
        return [node]
    if isinstance(node, Not):
        return leaves(node.item)
    return [leaf for item in node.items for leaf in leaves(item)]


def guaranteed_facts(node: Node) -> set[str]:
    """Facts that must be present whenever ``node`` holds (safe to quote in a message)."""
    if isinstance(node, Cond):
        return {node.fact}
    if isinstance(node, AllOf):
        return set().union(*(guaranteed_facts(n) for n in node.items))
    if isinstance(node, AnyOf):
        sets = [guaranteed_facts(n) for n in node.items]
        return set.intersection(*sets) if sets else set()
    return set()


# --- durable_rules expressions -----------------------------------------------------------------

def _or(parts: list[dict]) -> dict:
    return parts[0] if len(parts) == 1 else {"$or": parts}


def _and(parts: list[dict]) -> dict:
    return parts[0] if len(parts) == 1 else {"$and": parts}


def _positive(cond: Cond) -> dict:
    f, op, v = cond.fact, cond.op, cond.value
    present = {"$ex": {f: 1}}
    if op == "exists":
        return present
    if op == "is_true":
        return {f: True}
    if op == "is_false":
        return {f: False}
    if op == "eq":
        return {f: v}
    if op == "ne":
        return _and([present, {"$neq": {f: v}}])
    if op == "in":
        return _or([{f: item} for item in v])
    if op == "not_in":
        return _and([present] + [{"$neq": {f: item}} for item in v])
    return {_DURABLE_CMP[op]: {f: v}}


def _negative(cond: Cond) -> dict:
    f, op, v = cond.fact, cond.op, cond.value
    absent = {"$nex": {f: 1}}
    if op == "exists":
        return absent
    flipped = {"eq": "ne", "ne": "eq", "in": "not_in", "not_in": "in",
               "is_true": "is_false", "is_false": "is_true", **_NEGATED_CMP}[op]
    return _or([absent, _positive(Cond(f, flipped, v))])


def to_durable(node: Node, negate: bool = False) -> dict:
    """The durable_rules expression matching exactly the fact sets where ``node`` holds."""
    if isinstance(node, Cond):
        return _negative(node) if negate else _positive(node)
    if isinstance(node, Not):
        return to_durable(node.item, not negate)
    parts = [to_durable(item, negate) for item in node.items]
    conjunction = isinstance(node, AllOf) != negate  # De Morgan under negation
    return _and(parts) if conjunction else _or(parts)
