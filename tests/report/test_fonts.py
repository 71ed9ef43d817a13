"""Fonts for the PDF: Chinese renders on a machine without CJK fonts, and every face embeds."""

from __future__ import annotations

from datetime import UTC, datetime

import pypdf
import pytest

from advisor.catalog.profile_check import load_profile
from advisor.verdict.result import Recommendation
from tests.support.paths import ROOT

ROOT = ROOT
NAME = "medium-model-4gpu-worth-it"


@pytest.fixture(scope="module")
def app():
    from ui.report.qt_app import ensure_app

    return ensure_app()


def test_bundled_face_draws_chinese_and_embeds(app):
    from ui.report.fonts import bundled_cjk_family, embeddable

    family = bundled_cjk_family()
    assert family == "Droid Sans Fallback"
    assert embeddable(family, "多卡训练划算")


def test_missing_or_substituted_faces_are_refused(app):
    from ui.report.fonts import embeddable, report_fonts

    assert not embeddable("No Such Family 9z", "a")
    fonts = report_fonts()
    if fonts.latin != fonts.cjk:
        assert embeddable(fonts.latin, "Ag1")
        assert not embeddable(fonts.latin, "划")  # a Latin face: Chinese comes from the CJK one


def test_cff_outline_faces_are_refused(app):
    from PySide6.QtGui import QFont, QRawFont

    from ui.report.fonts import embeddable

    cff = [f for f in ("Nimbus Sans", "C059", "URW Gothic")
           if QRawFont.fromFont(QFont(f)).familyName() == f
           and QRawFont.fromFont(QFont(f)).fontTable("CFF ")
           and not QRawFont.fromFont(QFont(f)).fontTable("glyf")]
    if not cff:
        pytest.skip("no CFF-outline font installed here")
    assert not embeddable(cff[0], "A")


def test_preferred_faces_come_first():
    from ui.report.fonts import _ordered

    assert _ordered(("B", "a"), ["c", "A", "b", "d"]) == ["b", "A", "c", "d"]


def test_without_system_cjk_fonts_the_bundled_face_is_embedded(app, tmp_path, monkeypatch):
    """A fresh machine with no CJK font: the report falls back to resources/fonts."""
    from ui.report import export_pdf, fonts

    monkeypatch.setattr(fonts, "system_cjk_family", lambda: None)
    fonts.report_fonts.cache_clear()
    try:
        chosen = fonts.report_fonts()
        assert chosen.cjk_source == "bundled" and chosen.cjk == "Droid Sans Fallback"
        rec = Recommendation.model_validate_json(
            (ROOT / "tests" / "fixtures" / "report" / f"{NAME}.recommendation.json").read_text())
        path = export_pdf(rec, load_profile(ROOT / "examples" / f"{NAME}.yaml"),
                          tmp_path / "zh.pdf", "zh", generated=datetime(2026, 1, 1, tzinfo=UTC))
    finally:
        fonts.report_fonts.cache_clear()
    reader = pypdf.PdfReader(path)
    first = reader.pages[0]
    names = []
    for font in first["/Resources"]["/Font"].values():
        font = font.get_object()
        descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
        if "DroidSansFallback" in str(font["/BaseFont"]):
            assert len(descriptor["/FontFile2"].get_object().get_data()) > 1000
            assert "/ToUnicode" in font
        names.append(str(font["/BaseFont"]))
    assert any("DroidSansFallback" in n for n in names), names
    assert "划算" in first.extract_text()
