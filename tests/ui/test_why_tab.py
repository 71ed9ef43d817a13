"""The Why tab, and the report's appendix that shares its wording, give the rules' conclusions and
facts in words in both languages (never raw ids or Python values), and mark a rule another one
overrode."""

from __future__ import annotations

import pytest

from advisor.verdict.recommendation import recommend
from tests.support.ui import example, make_window


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_why_tab_shows_conclusions_and_facts_in_words(qtbot, lang):
    from ui.report.appendix_section import appendix_html
    from ui.results.why_view import trace_html
    window = make_window(qtbot, lang=lang)  # installs the translators
    rec = recommend(example("medium-model"))
    for html in (trace_html(rec, lang), appendix_html(rec, lang)):
        for raw in ("worth_it", "= True", "=True", "day_value_covers_energy", "rating =",
                    "severity=", "no_nvlink"):
            assert raw not in html, raw
        if lang == "zh":
            assert "划算" in html and "是" in html
    window.hub.set_language("en")


def test_why_tab_marks_an_overridden_rule(qtbot):
    from ui.results.why_view import trace_html

    make_window(qtbot, lang="en")
    rec = recommend(example("medium-model"))
    lost = [e for e in rec.trace if e.overridden_by]
    if not lost:
        first = rec.trace[0].model_copy(update={"overridden_by": "other.rule"})
        rec = rec.model_copy(update={"trace": [first, *rec.trace[1:]]})
        lost = [first]
    assert f"overridden by {lost[0].overridden_by}" in trace_html(rec, "en")
