"""A user review of the answers people pay for (2026-12-08): several machines rented from a
marketplace's hosts as if they were one network's, a multi-machine answer priced at single
machines' on-demand median with no word where only reserved clusters rent such machines,
buy-vs-rent without the larger machine the owned cards need, and "With twice the machines"
where every GPU is rented and the owned ones sit idle."""

from __future__ import annotations

import pytest

from advisor.catalog import load_catalog
from advisor.catalog.profile_check import load_profile
from advisor.compare.compare import compare
from advisor.compare.option import Context
from advisor.compare.rent import rent_the_same
from advisor.compare.weighed import recommend
from advisor.profile import Currency, Market
from tests.support.paths import PROFILES

VERDICT = PROFILES / "verdict"


def _offer_ids(option) -> set[str]:
    return {n.en.split(":", 1)[0] for n in option.notes}


def test_machines_on_a_network_are_never_a_marketplaces_single_hosts():
    """4 machines of 8 A100 joined by 25 GbE: RunPod's community hosts (one card an
    instance) were rented as the 4 machines, $41,304 a run against $79,948 at the typical
    rate."""
    profile = load_profile(VERDICT / "pretrain7b-4x8-a100-25gbe-cloud.yaml")
    catalog = load_catalog()
    community = {o.id for o in catalog.offers_for("a100_sxm4_80gb", Market.US)
                 if o.kind == "community" and o.inter_link is None}
    assert community  # the catalog has such offers: the test can fail
    options = rent_the_same(profile, Context(catalog, Market.US, Currency.USD))
    for option in options:
        if option.profile.hardware.nodes > 1:
            assert not _offer_ids(option) & community, option.id
    rec = recommend(profile, lang="en")
    assert "RunPod" not in rec.summary[0].text.en


def _pitfall(rec, pid):
    return next((p for p in rec.pitfalls if p.id == pid), None)


def test_a_cluster_only_reserved_does_not_make_the_typical_rate_a_clusters():
    """16 H100 over InfiniBand at the on-demand median of single machines: the catalog's
    H100 clusters are all reserved for a term, which silenced the warning."""
    profile = load_profile(VERDICT / "llama8b-fp8-pretrain-owns-8xh100.yaml")
    catalog = load_catalog()
    clusters = [o for o in catalog.offers_for("h100_sxm", Market.US)
                if o.inter_link is not None and o.kind != "spot"]
    assert clusters and all(o.kind == "reserved" for o in clusters)
    rec = recommend(profile, lang="en")
    assert rec.verdict.nodes > 1 and rec.verdict.deployment == "cloud"
    said = _pitfall(rec, "shape_not_offered")
    assert said is not None and "InfiniBand or RoCE" in said.title.en


def test_renting_every_gpu_instead_of_the_owned_ones_says_so():
    profile = load_profile(VERDICT / "llama8b-fp8-pretrain-owns-8xh100.yaml")
    rec = recommend(profile, lang="zh")
    do = rec.summary[0].text
    assert do.en.startswith("Rent 2 machines × 8 H100") and "instead of your own 8" in do.en
    assert do.zh.startswith("租用 2 台 × 8 卡 H100") and "代替自有的 8 张卡" in do.zh
    assert "With twice the machines" not in do.en


def test_owning_a_larger_rented_machine_buys_the_machine_too():
    """2 owned RTX 4090s in a 2-card box, the answer rents 4 in one machine: its buy-vs-rent
    counted two cards (7.5 months to pay off, "owning wins above 320 h a month"); owning them
    needs a 4-card machine, as compare's own option of twice the cards counts (18 months)."""
    profile = load_profile(VERDICT / "owns-2x4090-box-30-runs-a-month.yaml")
    rec = recommend(profile, lang="en")
    assert rec.verdict.deployment == "cloud"  # rented (now a larger card's offer)
    comp = compare(profile, verdicts=False)
    owned = comp.option("more_cards").point(4)
    rented = comp.option("rent_more_cards").point(4)
    assert owned is not None and rented is not None and owned.breakeven_months is not None
    assert rented.breakeven_months == pytest.approx(owned.breakeven_months)
    assert rented.breakeven_months > 12.0 and rented.breakeven_hours_per_month is None
