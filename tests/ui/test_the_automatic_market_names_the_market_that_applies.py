"""Review D7.6: the Market choice's "Automatic" entry names the market the advisor uses. With
the currency CNY answered it read "Automatic: the currency's, else this computer's (United
States (US))" while the costs were in the CN market; now it names China, from the currency,
as the advisor decides it (``advisor.profile.market.profile_market``)."""

from __future__ import annotations

import pytest

from tests.support.ui import MEDIUM, make_window, wait_results
from ui.forms.choices import automatic_market


def _automatic(window) -> str:
    page = next(p for p in window.pages if "economics.market" in p.editors)
    combo = page.editors["economics.market"].input
    assert combo.itemData(0) is None  # the first entry: no market of its own
    return combo.itemText(0)


def test_the_currency_answered_names_its_market(qtbot):
    window = make_window(qtbot, "en", argv=[str(MEDIUM)])  # currency: CNY, no market
    assert window.answers.get("economics.market") is None
    assert _automatic(window) == "Automatic: China (CN), from the currency"
    wait_results(qtbot, window)
    assert window.results.profile.economics.market.value == "CN"  # what the costs used


def test_the_entry_follows_the_currency_and_the_language(qtbot):
    window = make_window(qtbot, "en")  # no currency: this computer's market (US in tests)
    assert _automatic(window) == "Automatic: United States (US), from this computer's settings"
    window.answers.set("economics.currency", "EUR")
    assert _automatic(window) == "Automatic: European Union (EU), from the currency"
    window.hub.set_language("zh")
    assert _automatic(window) == "自动：欧盟（EU），按货币"
    window.answers.set("economics.currency", None)
    assert _automatic(window) == "自动：美国（US），按本机区域设置"


@pytest.mark.parametrize("currency, market", [("CNY", "CN"), ("USD", "US"), ("EUR", "EU"),
                                              (None, "US")])
def test_the_market_named_is_the_one_the_advisor_costs_in(currency, market):
    from advisor.catalog.profile_check import load_profile
    from ui.window.recompute import effective_profile

    profile = load_profile(MEDIUM)
    economics = profile.economics.model_copy(update={"currency": currency, "market": None})
    settled = effective_profile(profile.model_copy(update={"economics": economics}))
    assert automatic_market(currency) == settled.economics.market.value == market
