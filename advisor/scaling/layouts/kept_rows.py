"""The rows a layout search kept (one per GPU count), each figure taken once for all of them.

A search evaluates every candidate of every count in one pass (``search.choose_many``) and
keeps one row per count; ``KeptRows`` holds the kept rows' memory and step time as arrays
over those rows, and hands out one row's (arrays of length 1, views) when it is read.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from advisor.scaling.layouts.memory import MemoryParts
from advisor.scaling.layouts.step import StepTime


def sliced(value, index):
    """Rows ``index`` of a result (its numpy fields; a nested result likewise): an index
    array gives a copy, a slice a view."""
    if isinstance(value, np.ndarray):
        return value[index]
    if hasattr(value, "__dataclass_fields__"):
        return type(value)(**{k: sliced(v, index) for k, v in vars(value).items()})
    return value


class KeptRows:
    """The memory and step time of the rows a search kept, arrays parallel to them."""

    def __init__(self, memory: MemoryParts, step: StepTime) -> None:
        self.memory = memory
        self.step = step
        self._rows: dict[int, tuple[MemoryParts, StepTime]] = {}

    @cached_property
    def total(self) -> np.ndarray:
        return self.memory.total

    @cached_property
    def needed(self) -> np.ndarray:
        return self.memory.needed

    @cached_property
    def bottleneck(self) -> list[str]:
        return self.step.bottleneck

    def _row(self, k: int) -> tuple[MemoryParts, StepTime]:
        found = self._rows.get(k)
        if found is None:
            one = slice(k, k + 1)
            found = self._rows[k] = (sliced(self.memory, one), sliced(self.step, one))
        return found

    def memory_of(self, k: int) -> MemoryParts:
        """Row ``k``'s memory, arrays of length 1."""
        return self._row(k)[0]

    def step_of(self, k: int) -> StepTime:
        """Row ``k``'s step time, arrays of length 1."""
        return self._row(k)[1]
