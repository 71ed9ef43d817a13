"""The candidates' memory, computed once per distinct question within one piece of work.

A comparison asks the layout search many questions whose memory is the same: a setting
change is answered from memory alone and then projected (``engine.kept_memory``, then
``engine.layout_curve``: the same candidates), and two machines whose cards hold as much and
that put as many GPUs in a machine (a 4 x RTX 4090 and a 4 x RTX 3090 workstation) need the
same memory for every layout, whatever their compute and links. A layout's memory reads only
the model's shape, the candidates, the method's states, the CUDA overhead and the
``memory.MEMORY_FIELDS`` of the cluster (``tests/scaling/test_shared_memory.py`` fails when
it reads another), so inside ``sharing_memory()`` the search (``search._fitting``) computes
the memory of one set of candidates once for those inputs; outside, every call computes it.

The candidates of one GPU count come from ``search.enumerate_layouts``, one object per
distinct set (an LRU cache): a key holds the groups by identity, and the memo holds the
groups themselves, so that no id is reused while the block lasts. The arrays handed out are
never changed in place (every later figure is a new array), so one result serves every
asker. This module imports nothing of the layouts: entering the block costs a data-parallel
command no import.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from contextvars import ContextVar
from typing import TypeVar

from advisor.files.memo_block import memo_block

T = TypeVar("T")

_memo: ContextVar[dict[tuple, tuple[tuple, object]] | None] = ContextVar(
    "shared_layout_memory", default=None)


def sharing_memory() -> AbstractContextManager[None]:
    """Within this block each distinct result asked through ``remembered`` is computed once
    (nested blocks share the outer block's); the memo is dropped when the outermost ends."""
    return memo_block(_memo)


def remembered(key: tuple, held: tuple, compute: Callable[[], T]) -> T:
    """``compute()``, once per ``key`` inside ``sharing_memory`` (every time outside it);
    ``held``: the objects the key names by identity, kept alive with the result."""
    memo = _memo.get()
    if memo is None:
        return compute()
    found = memo.get(key)
    if found is None:
        found = memo[key] = (held, compute())
    return found[1]  # type: ignore[return-value]


__all__ = ["remembered", "sharing_memory"]
