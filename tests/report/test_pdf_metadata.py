"""The PDF carries no control or bidi characters from the user's text (issue 20, item 13): a
model name with ESC, NUL and an RTL override reached the PDF's Title metadata."""

from __future__ import annotations

import io

import pypdf

from advisor.catalog.profile_check import parse_profile_text
from advisor.verdict.recommendation import recommend
from tests.support.paths import EXAMPLES

TEXT = (EXAMPLES / "medium-model-4gpu-worth-it.yaml").read_text(encoding="utf-8")


def test_the_title_and_the_text_have_no_control_characters():
    from ui.report import render_pdf_bytes

    profile = parse_profile_text(TEXT.replace("name: Faster R-CNN R50-FPN",
                                              r'name: "evil\e]0;x\a\0name\u202efdp.exe"'))
    data, _ = render_pdf_bytes(recommend(profile, lang="en"), profile, "en")
    reader = pypdf.PdfReader(io.BytesIO(data))
    title = reader.metadata.title
    assert "evil]0;xnamefdp.exe" in title
    assert not any(ch in title for ch in ("\x1b", "\x07", "\x00", "\u202e"))
    first = reader.pages[0].extract_text()
    assert not any(ch in first for ch in ("\x1b", "\x07", "\u202e"))
