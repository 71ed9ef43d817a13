"""One cost report per distinct question inside ``sharing_costs`` (``advisor/verdict/
shared_costs.py``): the same profile and projection in the same market, currency and language
get the same report, any of them changed a new one, and every report is ``estimate_costs``'s."""

from __future__ import annotations

from advisor.catalog.profile_check import load_profile
from advisor.costs import estimate_costs
from advisor.files.json_text import dumps_strict
from advisor.scaling import project
from advisor.verdict.shared_costs import costs_shared, sharing_costs
from tests.support.paths import EXAMPLES

MEDIUM = EXAMPLES / "medium-model-4gpu-worth-it.yaml"


def _json(report) -> str:
    return dumps_strict(report.model_dump(mode="json"))


def test_a_question_asked_again_gets_the_same_report():
    profile = load_profile(MEDIUM)
    projection = project(profile)
    with sharing_costs():
        first = costs_shared(profile, projection, lang="en")
        # the currency and market it resolves to, asked for by name: the same question
        market = first.market
        again = costs_shared(profile, projection, lang="en", currency=first.currency,
                             market=market)
        assert again is first
        assert costs_shared(profile, projection, lang="zh") is not first
        assert first.currency != "USD"
        assert costs_shared(profile, projection, lang="en", currency="USD") is not first
        other = profile.model_copy()
        assert costs_shared(other, projection, lang="en") is not first
    assert costs_shared(profile, projection, lang="en") is not first  # the block is over
    assert _json(first) == _json(estimate_costs(profile, projection, lang="en"))


def test_inside_the_block_every_report_is_the_one_outside_it():
    profile = load_profile(MEDIUM)
    projection = project(profile)
    asked = [dict(lang="en"), dict(lang="zh", currency="EUR"), dict(lang="en", market="CN")]
    outside = [_json(estimate_costs(profile, projection, **kw)) for kw in asked]
    with sharing_costs():
        for _ in range(2):
            assert [_json(costs_shared(profile, projection, **kw)) for kw in asked] == outside
