"""A block of work that remembers answers: each memo a dict held in a context variable.

A comparison or a recommendation asks the same questions many times (the same projection,
the same memory of a set of layouts, the same cost report, the same changed training
section); inside the block each answer is remembered in its memo, which is dropped when the
block ends. A block entered inside another uses the outer block's memos. Outside every block
a memo is None and its askers compute each time.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any


@contextmanager
def memo_block(*memos: ContextVar[Any]) -> Iterator[None]:
    """Each of ``memos`` set to an empty dict for the block (the first already set: an outer
    block's, which serve this one); reset when it ends."""
    if memos[0].get() is not None:
        yield
        return
    tokens = [memo.set({}) for memo in memos]
    try:
        yield
    finally:
        for memo, token in zip(memos, tokens, strict=True):
            memo.reset(token)


__all__ = ["memo_block"]
