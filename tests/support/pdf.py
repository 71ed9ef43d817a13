"""Reading a written PDF back: its text per page, whitespace-free matching, its images."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pypdf


@cache  # extraction is the slow part of these tests; the reports are written once
def pages_text(path: Path) -> tuple[str, ...]:
    return tuple(page.extract_text() or "" for page in pypdf.PdfReader(path).pages)


def flat(text: str) -> str:
    """Whitespace-free text: pypdf splits words with tabs and table cells with newlines."""
    return re.sub(r"\s+", "", text)


def contains(text: str, *needles: str) -> None:
    haystack = flat(text)
    missing = [n for n in needles if flat(n) not in haystack]
    assert not missing, f"not in the PDF text: {missing}"


def pdf_images(path: Path) -> list[tuple[int, int, int]]:
    """(page, width, height) of every image XObject."""
    found = []
    for number_, page in enumerate(pypdf.PdfReader(path).pages, start=1):
        xobjects = page["/Resources"].get("/XObject", {})
        for xobject in xobjects.values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Image":
                found.append((number_, int(xobject["/Width"]), int(xobject["/Height"])))
    return found

