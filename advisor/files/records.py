"""Records: the advisor's dataclasses that carry a result or a set of inputs, built once and
never changed, compared by identity.

Python 3.11 compiles every method a dataclass generates from its source text when the class is
made: a frozen dataclass with equality and a repr compiles six, about 0.5 ms a class, and
``recommend`` loads some fifty such classes at every start (issue 21, ``benchmarks/README.md``).
A record generates ``__init__`` only: no ``__eq__``/``__hash__`` (identity; nothing compares
or hashes these by value), no ``__repr__``, and no frozen ``__setattr__``/``__delattr__``.

Under test (``GPU_ADVISOR_STRICT_RECORDS=1``, which ``tests/conftest.py`` sets before the
advisor is imported) records are frozen and printable: code that changes a record, which a
frozen dataclass would refuse, fails the suite. Type checkers read them as frozen
(``dataclass_transform``). A class compared or hashed by value (a cache key such as
``ModelShape``), one printed by ``repr`` or one that is changed after it is built stays a plain
``dataclass``; ``tests/architecture/test_records.py`` keeps records to what they promise.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TypeVar, dataclass_transform

T = TypeVar("T")
STRICT = os.environ.get("GPU_ADVISOR_STRICT_RECORDS") == "1"


@dataclass_transform(eq_default=False, frozen_default=True)
def record(cls: type[T]) -> type[T]:
    """``@record`` on a class: a dataclass as described above."""
    return dataclass(cls, eq=False, repr=STRICT, frozen=STRICT)
