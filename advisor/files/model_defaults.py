"""Default factories for model fields that start empty.

Pydantic reads the signature of each field's default factory when it builds a model. A
builtin's (``list``) is parsed from its text signature by ``tokenize``, whose patterns compile
on first use: 2-3 ms of every start (issue 21). A Python function's is read from its code.
"""

from __future__ import annotations

from typing import Any


def empty_list() -> list[Any]:
    """A new empty list: ``Field(default_factory=empty_list)``."""
    return []
