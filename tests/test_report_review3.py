"""Review 3, items 2 and 3 in the PDF: a job this hardware cannot run names no setup to buy or
rent; without a card price owning and renting are not compared (a sentence, no curves)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pypdf
import pytest

from advisor.catalog.profile_check import load_profile
from advisor.verdict.recommendation import recommend
from tests.support.paths import ROOT

ROOT = ROOT
H100_70B = ROOT / "tests" / "profiles" / "verdict" / "h100fsdp.yaml"
T4_NO_PRICE = ROOT / "tests" / "profiles" / "verdict" / "t4-own-no-price.yaml"
WHEN = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def _flat(text: str) -> str:
    return "".join(text.split())


def _pdf(profile_path: Path, lang: str, tmp_path: Path) -> tuple[list[str], object]:
    from ui.report import export_pdf

    profile = load_profile(profile_path)
    rec = recommend(profile)
    path = export_pdf(rec, profile, tmp_path / f"{lang}.pdf", lang, generated=WHEN)
    reader = pypdf.PdfReader(path)
    return [_flat(page.extract_text() or "") for page in reader.pages], rec


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_unrunnable_title_page_names_no_setup_and_caveats_the_numbers(tmp_path, lang):
    from ui.report import labels as L

    pages, rec = _pdf(H100_70B, lang, tmp_path)
    assert rec.verdict.runnable is False
    first = pages[0]
    assert _flat(L.CANNOT_RUN_HERE.get(lang)) in first
    setup = L.GPUS_ON_NODES.get(lang).format(gpus=L.gpus(8, lang), n=8, nodes=1,
                                             machines=L.machines(1, lang))
    recommended = _flat(L.RECOMMENDED.get(lang) + ("：" if lang == "zh" else ":") + setup)
    assert recommended not in first
    assert _flat(L.KEY_NUMBERS.get(lang)) not in first
    # (pypdf repeats some words of a bold CJK heading: check the caveat after the setup)
    assert _flat(L.KEY_NUMBERS_AS_IF.get(lang).split("{gpus}")[1]) in first
    assert _flat(L.BREAKEVEN_NONE.get(lang)) in first
    # Nothing to buy or rent: the "Own or rent" row is "—", no "rent in the cloud" beside it.
    assert _flat(L.DEPLOYMENT_L.get(lang)) + "—" in first
    for deployment in ("cloud", "either"):
        assert _flat(L.DEPLOYMENT[deployment].get(lang)) not in first


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
    pages = [_flat(page.extract_text() or "") for page in reader.pages]
    text = "".join(pages)
    not_compared = _flat(L.BUY_RENT_NOT_COMPARED.get(lang).split("{why}")[0])
    assert not_compared in pages[0]  # the title page's break-even row
    index = next(i for i, page in enumerate(pages)
                 if page.startswith(_flat(L.BREAKEVEN.get(lang))))
    assert not_compared in pages[index]
    assert _images_on(reader.pages[index]) == 0  # no buy-vs-rent curves
    never = _flat(L.BREAKEVEN_NEVER.get(lang).split("{gpus}")[0])
    assert never not in text
    # The missing price is listed once, in the cost model's words, not also in the report's.
    assumptions = text[text.index(_flat(L.ASSUMPTIONS.get(lang))):]
    assert _flat(L.OWN_NOT_PRICED.get(lang)) not in assumptions
    assert _flat(rec.costs.assumption_texts[0].get(lang)) in assumptions
