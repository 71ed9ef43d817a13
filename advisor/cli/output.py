"""What the command line prints passes one guard: control and bidirectional characters are
escaped (``advisor.text.safe.escape``), whichever command printed them and whatever file,
device or profile they came from.

A model name of ``\\e]0;…\\a\\e[2J`` would otherwise retitle the terminal and clear it, and a
right-to-left override in a GPU name would reorder what the reader sees. The ``\\uXXXX`` form
is also a valid escape inside a JSON string, so ``--format json`` stays valid JSON (``json``
escapes C0 controls itself; the C1 controls and bidi marks it leaves raw are escaped here).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from advisor.text.safe import escape


class EscapingStream:
    """A text stream that escapes control and bidi characters in what is written to it."""

    def __init__(self, inner: TextIO) -> None:
        self._inner = inner

    def write(self, text: str) -> int:
        self._inner.write(escape(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self._inner.flush()

    def __getattr__(self, name: str) -> Any:  # encoding, isatty, fileno, ...
        return getattr(self._inner, name)


@contextmanager
def safe_output() -> Iterator[None]:
    """Within the block, ``sys.stdout`` and ``sys.stderr`` escape what they print."""
    saved = sys.stdout, sys.stderr
    if sys.stdout is not None:
        sys.stdout = EscapingStream(sys.stdout)  # type: ignore[assignment]
    if sys.stderr is not None:
        sys.stderr = EscapingStream(sys.stderr)  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
