"""Terminal columns of text: East Asian wide and full-width characters take two, so Chinese
labels line up with English ones and with digits in the CLI's tables."""

from __future__ import annotations

import unicodedata


def display_width(text: str) -> int:
    """Terminal columns ``text`` takes."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` columns (``str.ljust`` counts characters);
    ``right`` aligns it to the right. Longer text is returned unchanged."""
    fill = " " * max(0, width - display_width(text))
    return fill + text if right else text + fill
