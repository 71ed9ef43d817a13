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



COMPARED = {"en": "Setups compared", "zh": "配置对比"}
APPENDIX = {"en": "Appendix: the rules that fired", "zh": "附录：触发的规则"}


def without_comparison(path: Path, lang: str) -> tuple[list[str], list[str]]:
    """The report's pages outside its "Setups compared" section and the section's own pages
    (it opens a page and runs to the appendix or the end; it names setups the profile does
    not have, by design)."""
    texts = list(pages_text(path))
    starts = [i for i, t in enumerate(texts) if flat(t).startswith(flat(COMPARED[lang]))]
    if not starts:
        return texts, []
    end = next((i for i, t in enumerate(texts) if i > starts[0]
                and flat(t).startswith(flat(APPENDIX[lang]))), len(texts))
    return texts[:starts[0]] + texts[end:], texts[starts[0]:end]
