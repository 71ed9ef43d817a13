"""The rules see the cooling the cards have (issue 19, item 3): an RTX A6000 left at the
profile's default open-air is a blower card; a GeForce card stays open-air; a choice the user
made (liquid) stands."""

from __future__ import annotations

from advisor.catalog import resolve_gpu
from advisor.catalog.cooling import fitted_cooling
from advisor.catalog.profile_check import load_profile
from advisor.verdict.recommendation import recommend
from tests.support.paths import PROFILES


def test_open_air_is_the_usual_cooling_of_cards_never_sold_with_it():
    assert fitted_cooling(resolve_gpu("rtx_a6000"), "open_air") == "blower"
    assert fitted_cooling(resolve_gpu("h100_sxm"), "open_air") == "server"
    assert fitted_cooling(resolve_gpu("rtx4090"), "open_air") == "open_air"
    assert fitted_cooling(resolve_gpu("rtx_a6000"), "liquid") == "liquid"


def test_an_a6000_profile_without_cooling_is_judged_as_blower_cards():
    rec = recommend(load_profile(PROFILES / "verdict" / "vit-4x-a6000-no-cooling-given.yaml"),
                    lang="en")
    cooling = {t.facts.get("cooling") for t in rec.trace if "cooling" in t.facts}
    assert cooling <= {"blower"}
    text = " ".join(p.title.en + p.detail.en for p in rec.pitfalls)
    assert "open-air" not in text.lower()
