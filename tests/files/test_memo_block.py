"""``memo_block``: each memo an empty dict inside the block, the outer block's inside a nested
one, None again when the outermost ends (also when the block raises)."""

from __future__ import annotations

from contextvars import ContextVar

import pytest

from advisor.files.memo_block import memo_block

A: ContextVar[dict | None] = ContextVar("test_memo_a", default=None)
B: ContextVar[dict | None] = ContextVar("test_memo_b", default=None)


def test_a_nested_block_uses_the_outer_blocks_memos():
    assert A.get() is None and B.get() is None
    with memo_block(A, B):
        outer_a, outer_b = A.get(), B.get()
        assert outer_a == {} and outer_b == {} and outer_a is not outer_b
        outer_a["asked"] = 1
        with memo_block(A, B):
            assert A.get() is outer_a and B.get() is outer_b
        assert A.get() is outer_a and A.get() == {"asked": 1}
    assert A.get() is None and B.get() is None


def test_the_memos_are_dropped_when_the_block_raises():
    with pytest.raises(RuntimeError):
        with memo_block(A):
            A.get()["asked"] = 1
            raise RuntimeError("stop")
    assert A.get() is None
    with memo_block(A):
        assert A.get() == {}  # a new block starts empty
