"""``any_count_fits`` answers from the layouts' memory alone what ``project`` says of its
fits: for every example and test profile the layouts project, as given and with each setting
change the verdict tries (the questions it asks only to learn that nothing fits), at the
default counts and at 1, 2, 3, 8, 64 GPUs. And ``fits_nowhere``, which the verdict asks
before projecting, is never True where a count fits."""

from __future__ import annotations

import pytest

from advisor.catalog.profile_check import load_profile
from advisor.files.errors import InputError
from advisor.scaling import project
from advisor.scaling.fits_anywhere import any_count_fits
from advisor.verdict import setting_changes as sc
from advisor.verdict.shared_projections import fits_nowhere, sharing_projections
from tests.support.paths import EXAMPLES, PROFILES

ALL = sorted([*EXAMPLES.glob("*.yaml"), *PROFILES.rglob("*.yaml")])
ODD = [1, 2, 3, 8, 64]


def _variants(profile):
    changes = [*sc.checkpointing_changes(profile),
               *(sc.accumulation(profile, b) for b in sc.batch_sizes(profile))]
    for change in sc.other_changes(profile):
        changes += [change, change.with_checkpointing()]
    out = [profile]
    for change in changes:
        try:
            out.append(change.apply(profile))
        except ValueError:
            continue
    return out


def _questions():
    for path in ALL:
        try:
            profile = load_profile(path)
        except InputError:
            continue
        try:
            if not project(profile).layout:
                continue
        except (InputError, ValueError):
            continue
        yield path.stem, _variants(profile)


QUESTIONS = list(_questions())


@pytest.mark.parametrize(("name", "variants"), QUESTIONS, ids=[q[0] for q in QUESTIONS])
def test_memory_alone_says_what_the_projection_fits(name, variants):
    answered = []
    for profile in variants:
        for counts in (None, ODD):
            try:
                fits = any(project(profile, counts).fits)
            except (InputError, ValueError):
                continue
            found = any_count_fits(profile, counts)
            assert found is None or found == fits, (name, counts)
            answered.append(found)
            assert fits_nowhere(profile, counts) is (found is False)
            with sharing_projections():  # asked again inside: the same answer
                assert fits_nowhere(profile, counts) is (found is False)
                assert fits_nowhere(profile, counts) is not fits or found is None
    assert any(a is not None for a in answered)


def test_both_answers_occur():
    """The check can fail: some questions fit nowhere, others fit somewhere."""
    seen = set()
    for _, variants in QUESTIONS:
        for profile in variants:
            seen.add(any_count_fits(profile, ODD))
    assert {True, False} <= seen
