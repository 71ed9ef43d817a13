"""The PDF's "Setups compared" section: the compare page's chart and a table of every option
at its verdict's count with what dominates it, the answers, in both languages; the numbers are
the comparison's (the wizard's, when it gives one)."""

from __future__ import annotations

import pytest

from advisor.catalog.profile_check import load_profile
from advisor.compare import compare
from advisor.verdict.recommendation import recommend
from tests.support.paths import ROOT
from tests.support.pdf import flat, pages_text, pdf_images
from tests.support.report import WHEN

MEDIUM = ROOT / "examples" / "medium-model-4gpu-worth-it.yaml"


@pytest.mark.parametrize("lang, heading, answers", [
    ("en", "Setups compared", "What the comparison answers"),
    ("zh", "配置对比", "对比的结论")])
def test_the_section_shows_the_chart_table_and_answers(tmp_path, lang, heading, answers):
    from ui.report import export_pdf

    profile = load_profile(MEDIUM)
    rec = recommend(profile)
    result = compare(profile, specs=["8x rtx4090 own", "2x4 rtx4090 ethernet_25g own"])
    path = export_pdf(rec, profile, tmp_path / f"{lang}.pdf", lang, generated=WHEN,
                      comparison=result)
    pages = [flat(t) for t in pages_text(path)]
    at = next(i for i, t in enumerate(pages) if flat(heading) in t)
    section = "".join(pages[at:at + 2])
    for option in result.options:
        assert flat(option.label.get(lang)) in section, option.id
    assert flat(answers) in section
    best = result.answer("net_value")
    assert best is not None and flat(best.why.get(lang)) in section
    images_on = {page for page, _w, _h in pdf_images(path)}
    assert at + 1 in images_on  # the chart sits on the section's first page (1-based)


def _figures(html_text: str, lang: str) -> tuple[list[str], list[str]]:
    """The money amounts and the run times the section prints, in order of appearance."""
    import html
    import re

    text = html.unescape(re.sub(r"<[^>]+>", " ", html_text))
    money = re.findall(r"[¥$€]\d+(?:,\d{3})*(?:\.\d+)?", text)
    unit = " h" if lang == "en" else " 小时"
    hours = re.findall(r"(\d+(?:,\d{3})*(?:\.\d+)?)" + unit, text)
    return money, hours


def test_the_section_prints_the_same_figures_in_both_languages():
    from ui.report.compare_section import compare_html

    profile = load_profile(MEDIUM)
    result = compare(profile)
    en, zh = (_figures(compare_html(result, lang, {}), lang) for lang in ("en", "zh"))
    assert en == zh
    money, hours = en
    assert len(money) >= len(result.options) and len(hours) >= len(result.options)
