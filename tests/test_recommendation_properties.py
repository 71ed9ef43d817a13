"""Properties of recommend() over random valid profiles: the rule base always reaches a full
verdict, and the verdict is consistent with its own rules and numbers."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.profile import Profile
from advisor.recommendation import recommend
from tests.strategies_profile import profiles

ECONOMICS = st.fixed_dictionaries({
    "mode": st.sampled_from(["own", "cloud", "compare"]),
    "time_value": st.sampled_from(["deadline", "revenue", "none"]),
    "currency": st.sampled_from(["CNY", "USD"]),
    "moved_to_multi_gpu_before": st.booleans(),
    # prices given, so the cost model can price every catalog GPU both ways
    "gpu_price": st.floats(500, 300_000, allow_nan=False),
    "cloud_price_per_gpu_hour": st.floats(0.5, 200, allow_nan=False),
}, optional={
    "value_per_day": st.floats(0, 1e6, allow_nan=False),
    "deadline_days": st.floats(1, 365, allow_nan=False),
})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(profile=profiles(max_nodes=2), economics=ECONOMICS,
       runs=st.floats(0.5, 400, allow_nan=False))
def test_every_profile_gets_a_complete_explained_verdict(profile, economics, runs):
    data = profile.model_dump(mode="json", exclude_none=True)
    data["economics"] = economics
    data["training"]["runs_per_month"] = runs
    rec = recommend(Profile.model_validate(data), lang="en")
    v = rec.verdict
    assert v.gpus in rec.projection.gpus
    assert v.nodes == rec.projection.nodes[rec.projection.at(v.gpus)]
    assert (v.framework == "none") == (v.gpus == 1)
    decided = [t for t in rec.trace if t.stage == "decide"]
    winners = [t for t in decided if t.conclusion.get("rating") == v.rating]
    assert winners, "the rating comes from a fired rule"
    if v.rating == "not_worth_it" and v.gpus > 1:
        raise AssertionError("not worth it, yet more than one GPU")
    if not rec.projection.single_gpu_fits:
        assert v.rating == "required"
        assert "memory_wall" in {p.id for p in rec.pitfalls}
    for entry in rec.trace:
        assert entry.sources
    assert v.headline.en and v.headline.zh
