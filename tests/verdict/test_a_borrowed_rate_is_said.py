"""A second user review: cards no offer of the market rents (an H800 cluster in China) were
rented at a typical rate taken from comparable cards' offers, scaled by speed, with a word only
under the costs' prices used. The answer now warns (rule economics.rented_rate_borrowed)."""

from __future__ import annotations

from advisor.catalog import load_catalog
from advisor.catalog.profile_check import load_profile
from advisor.compare.weighed import recommend
from advisor.profile import Market
from tests.support.paths import EXAMPLES, PROFILES

PROFILE = PROFILES / "verdict" / "h800-cluster-cn-rate-borrowed.yaml"


def _said(rec):
    return next((p for p in rec.pitfalls if p.id == "rate_borrowed"), None)


def test_a_card_no_offer_of_the_market_rents_is_said_rented_at_a_borrowed_rate():
    assert not [o for o in load_catalog().offers_for("h800_sxm", Market.CN)
                if o.market_of == Market.CN and o.kind != "spot"]
    rec = recommend(load_profile(PROFILE), lang="zh")
    assert rec.verdict.deployment == "cloud"
    said = _said(rec)
    assert said is not None and said.severity == "warning"
    assert "comparable cards" in said.title.en and "同档显卡" in said.title.zh


def test_a_card_rented_at_its_own_offers_is_not():
    rec = recommend(load_profile(EXAMPLES / "medium-model-4gpu-worth-it.yaml"), lang="en")
    assert _said(rec) is None
