"""The desktop app's live update keeps the setups a comparison evaluated
(``advisor.compare.evaluate.EvaluationCache``): the same answer as without it, each option
evaluated once per profile, catalog, currency and day, and an edit of the user's hardware
evaluates again only the setups built from it (the catalog's ready setups stay)."""

from __future__ import annotations

import copy

from advisor.catalog import load_catalog
from advisor.catalog.profile_check import load_profile
from advisor.compare import weighed
from advisor.compare.evaluate import EvaluationCache, evaluate, reusing
from advisor.compare.option import Context
from advisor.compare.options import ready_setups
from advisor.profile import Currency, Market
from tests.support.paths import ROOT

MEDIUM = ROOT / "examples" / "medium-model-4gpu-worth-it.yaml"


def _with_gpus(profile, n: int):
    return profile.model_copy(update={"hardware": profile.hardware.model_copy(
        update={"gpus_per_node": n})})


def test_the_answer_is_the_same_with_the_cache_and_a_hardware_edit_reuses_the_ready_setups():
    profile = load_profile(MEDIUM)
    cache = EvaluationCache()
    with reusing(cache):
        first = weighed.recommend(profile)
        evaluated = cache.misses
        assert evaluated >= 5 and cache.hits == 0
        again = weighed.recommend(profile)
        assert cache.misses == evaluated  # nothing evaluated twice
        edited = weighed.recommend(_with_gpus(profile, 8))
    assert again.model_dump_json() == first.model_dump_json()
    assert edited.model_dump_json() == weighed.recommend(_with_gpus(profile, 8)).model_dump_json()
    new = cache.misses - evaluated
    assert 0 < new < evaluated  # only the setups built from the user's hardware
    assert not any(weighed.recommend(profile) is x for x in (first, again))  # fresh objects


def test_another_currency_catalog_or_size_is_evaluated_again_and_the_cache_is_bounded():
    profile = load_profile(MEDIUM)
    catalog = load_catalog()
    option = ready_setups(profile, Context(catalog, Market("US"), Currency("CNY")))[0]
    cache = EvaluationCache(size=2)
    with reusing(cache):
        a = evaluate(option, catalog, "CNY")
        b = evaluate(option, catalog, "CNY")
        assert cache.hits == 1 and b.costs is a.costs and b.option is option
        evaluate(option, catalog, "USD")
        evaluate(option, copy.copy(catalog), "CNY")  # another catalog object
    assert cache.misses == 3 and len(cache) == 2
    outside = evaluate(option, catalog, "CNY")  # outside the block: computed, not cached
    assert outside.costs is not a.costs and cache.hits == 1
