"""Hypothesis: save → load gives the same profile, in YAML and JSON; any valid profile loads."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from advisor.catalog.profile_check import link_fits_gpu, load_profile, parse_profile_text
from advisor.profile import Profile
from advisor.profile.writing import dump_profile, save_profile
from tests.support.strategies import profiles

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(profile=profiles(), fmt=st.sampled_from(["yaml", "json"]))
def test_save_then_load_gives_the_same_profile(profile: Profile, fmt: str) -> None:
    assume(link_fits_gpu(profile))  # files with an impossible link are refused (tested apart)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"p.{fmt}"
        save_profile(profile, path)
        assert load_profile(path) == profile


@SETTINGS
@given(profile=profiles(), notes=st.text(max_size=200))
def test_any_text_in_notes_round_trips(profile: Profile, notes: str) -> None:
    assume(link_fits_gpu(profile))
    profile = profile.model_copy(update={"notes": notes})
    assert parse_profile_text(dump_profile(profile), fmt="yaml") == profile
    assert parse_profile_text(dump_profile(profile, "json"), fmt="json") == profile
