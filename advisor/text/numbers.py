"""Numbers as people read them in the text output: never scientific notation.

``f"{x:.3g}"`` turns 2000 into "2e+03" and 30000 into "3e+04" (the CLI printed both). A reader
wants "2,000" and "30,000": thousands separators for large values (the same in Chinese
output), a few significant digits for small ones.
"""

from __future__ import annotations

import math


def quantity(value: float, digits: int = 3) -> str:
    """``value`` with ``digits`` significant digits below 1,000 and whole numbers with
    thousands separators from 1,000 up: 0.5699 → "0.57" (digits 2), 35.33 → "35.3",
    1129.9 → "1,130", 30000 → "30,000"; "—" when not finite."""
    if not math.isfinite(value):
        return "—"
    if abs(value) >= 999.5:
        return f"{value:,.0f}"
    if value == 0:
        return "0"
    text = f"{value:.{digits}g}"
    if "e" in text:  # very small: as many decimals as the significant digits need
        decimals = digits - 1 - math.floor(math.log10(abs(value)))
        text = f"{value:.{decimals}f}"
    return text


def count_text(value: float, singular: str, plural: str | None = None) -> str:
    """A count with its noun, in English: "1 worker", "0 workers", "0.5 runs", "2.5 runs",
    "1,200 runs" (only exactly one takes the singular; a fraction keeps its decimals)."""
    noun = singular if value == 1 else (plural or singular + "s")
    return f"{quantity(value)} {noun}"
