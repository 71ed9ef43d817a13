"""The PDF's list of setups that fit before more machines (issue 17): the heading, every
option's line with its count, time and cost, the one the verdict rests on first and marked,
in both languages, with the same figures in each."""

from __future__ import annotations

import re

import pytest

from advisor.costs.money import money
from advisor.verdict.recommendation import recommend
from advisor.verdict.setup_text import APPLIED, HEADING, setup_line
from tests.support.finetune import on_eight_l40s, on_two_4090s
from tests.support.pdf import flat, pages_text
from tests.support.report import WHEN

_OPENING = 140


def _section(path, lang: str) -> str:
    text = "".join(flat(t) for t in pages_text(path))
    at = text.index(flat(HEADING.get(lang)))
    return text[at:]


def _opening(line: str) -> str:
    """A setup line's opening up to its figures (what, where, speed-up, time, cost): the
    text before "Set …" / "设置：", at most ``_OPENING`` characters (a page break may split
    the rest)."""
    text = flat(line)
    cut = min((i for i in (text.find("设置："), text.find(".Set")) if i > 0),
              default=len(text))
    return text[:min(cut, _OPENING)]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("make", [on_two_4090s, on_eight_l40s])
def test_the_report_lists_every_setup_with_its_figures(tmp_path, make, lang):
    from ui.report import export_pdf

    profile = make()
    rec = recommend(profile)
    assert rec.setups
    path = export_pdf(rec, profile, tmp_path / f"{lang}.pdf", lang, generated=WHEN)
    section = _section(path, lang)
    # each line's opening (what, where, speed-up, time, cost; a page break may split the
    # rest, and the text layer repeats a line cut by the page's edge), in the verdict's order
    at = [section.index(_opening(setup_line(o, lang))) for o in rec.setups]
    assert at == sorted(at)
    applied = next(o for o in rec.setups if o.applied)
    line = flat(setup_line(applied, lang))
    assert line.startswith(flat(APPLIED.get(lang)))
    unit = "harun" if lang == "en" else "小时"
    assert flat(f"{applied.run_hours:.1f}") + unit in line
    if applied.cost_per_run is not None:
        assert flat(money(applied.cost_per_run, applied.currency)) in line  # as "$26.00"

def test_the_report_says_the_same_figures_in_both_languages(tmp_path):
    from ui.report import export_pdf

    profile = on_two_4090s()
    rec = recommend(profile)
    figures = {}
    for lang in ("en", "zh"):
        path = export_pdf(rec, profile, tmp_path / f"{lang}.pdf", lang, generated=WHEN)
        figures[lang] = re.findall(r"\d[\d,]*\.\d+|\d{1,3}(?:,\d{3})+", _section(path, lang))
    # as sets: the text layer repeats a line a page break cuts, in one language and not the
    # other
    assert figures["en"] and set(figures["en"]) == set(figures["zh"])
