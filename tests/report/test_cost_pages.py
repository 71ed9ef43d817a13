"""The report's cost and break-even pages: a count the model does not fit shows a dash and is
never the best value; the per-count table prints the signed time value, so its columns add up
as the CLI's do; without a card price owning and renting are not compared (a sentence, no
curves) and the missing price is stated once."""

from __future__ import annotations

import pypdf
import pytest

from advisor.catalog.profile_check import load_profile
from advisor.costs import estimate_costs
from advisor.verdict.recommendation import recommend
from tests.support.costs import P2C, profile_from, projection_from_hours
from tests.support.paths import PROFILES
from tests.support.pdf import flat
from tests.support.report import WHEN
from tests.support.ui import example, not_fitting_below, projection_recommend, with_costs

T4_NO_PRICE = PROFILES / "verdict" / "t4-own-no-price.yaml"


def test_report_tables_show_a_dash_where_the_model_does_not_fit():
    from ui.report.cost_section import costs_html
    from ui.report.summary_section import breakeven_text

    profile = example("medium-model")
    rec = not_fitting_below(projection_recommend(profile), 3)
    rec = with_costs(rec, time_saved_value_per_month=[1e6] * len(rec.costs.gpus),
                      net_value_per_month=[9.99e5] * len(rec.costs.gpus))
    html = costs_html(rec, "en", {}, "", False)
    month_table = html.split("Per month")[1]
    rows = month_table.split("<tr")[2:]  # after the header row
    for n, row in zip(rec.costs.gpus, rows, strict=False):
        assert ("999,000" in row) == (n >= 3), (n, row)
    assert "Best value: 3 GPUs." in html
    none = with_costs(rec, fits=[False] * len(rec.costs.gpus), best_value_gpus=None,
                       buy_vs_rent=rec.costs.buy_vs_rent.model_copy(update={"gpus": 0}))
    assert "no best value" in costs_html(none, "en", {}, "", False)
    assert "nothing to buy or rent" in breakeven_text(none, "en")
    assert "跑不了" in breakeven_text(none, "zh")


def test_the_pdf_cost_table_shows_the_same_signed_time_value():
    """The PDF's per-count table printed the clipped value ($0) next to the signed net value;
    it now prints the time lost, like the CLI table, so its columns add up too."""
    from advisor.verdict.recommendation import recommend_from
    from ui.report.cost_section import _per_month_rows

    prof = profile_from(P2C)
    proj = projection_from_hours([1, 7, 8, 9, 10], [900.0, 130.66, 116.71, 384.97, 348.42],
                      fits=[False, True, True, True, True])
    report = estimate_costs(prof, proj, lang="en")
    rec = recommend_from(prof, proj, report)
    _, rows = _per_month_rows(rec)
    nine = next(r for r in rows if r[0].replace("<b>", "").replace("</b>", "") == "9")
    assert any("−$105,963" in cell for cell in nine), nine


def _images_on(page) -> int:
    resources = page.get("/Resources") or {}
    xobjects = resources.get("/XObject") or {}
    return sum(1 for ref in xobjects.values() if ref.get_object().get("/Subtype") == "/Image")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_missing_price_is_not_compared_and_stated_once(tmp_path, lang):
    from ui.report import export_pdf
    from ui.report import labels as L

    profile = load_profile(T4_NO_PRICE)
    rec = recommend(profile)
    assert rec.costs.own_priced is False and rec.costs.cloud_priced is True
    path = export_pdf(rec, profile, tmp_path / f"{lang}.pdf", lang, generated=WHEN)
    reader = pypdf.PdfReader(path)
    pages = [flat(page.extract_text() or "") for page in reader.pages]
    text = "".join(pages)
    not_compared = flat(L.BUY_RENT_NOT_COMPARED.get(lang).split("{why}")[0])
    assert not_compared in pages[0]  # the title page's break-even row
    index = next(i for i, page in enumerate(pages)
                 if page.startswith(flat(L.BREAKEVEN.get(lang))))
    assert not_compared in pages[index]
    # no buy-vs-rent curves (the setups compared may start on the same page, with their chart)
    from ui.report.compare_section import H as COMPARED

    compared_here = flat(COMPARED.get(lang)) in pages[index]
    assert _images_on(reader.pages[index]) == (1 if compared_here else 0)
    never = flat(L.BREAKEVEN_NEVER.get(lang).split("{gpus}")[0])
    assert never not in text
    # The missing price is listed once, in the cost model's words, not also in the report's.
    assumptions = text[text.index(flat(L.ASSUMPTIONS.get(lang))):]
    assert flat(L.OWN_NOT_PRICED.get(lang)) not in assumptions
    assert flat(rec.costs.assumption_texts[0].get(lang)) in assumptions
