"""``memory_answer`` answers from the layouts' memory alone what ``project`` says of its fits
and, where no layout fits, of the memory the kept one needs: for every example and test
profile the layouts project, as given and with each setting change the verdict tries (the
questions it asks only to learn that nothing fits), at the default counts and at 1, 2, 3, 8,
64 GPUs. ``memory_shared``, which the verdict asks before projecting, says the same inside
a comparison's sharing (before and after the projection is made) and outside it."""

from __future__ import annotations

import pytest

from advisor.catalog.profile_check import load_profile
from advisor.files.errors import InputError
from advisor.scaling import project
from advisor.scaling.fits_anywhere import MemoryAnswer, memory_answer
from advisor.verdict import setting_changes as sc
from advisor.verdict.shared_projections import (
    memory_shared,
    project_shared,
    sharing_projections,
)
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
                projection = project(profile, counts)
            except (InputError, ValueError):
                continue
            found = memory_answer(profile, counts)
            answered.append(found)
            if found is not None:
                full = MemoryAnswer.of(projection)
                assert (found.gpus, found.fits, found.usable_memory_gb) == \
                    (full.gpus, full.fits, full.usable_memory_gb), (name, counts)
                assert found.memory_per_gpu_gb == [
                    None if ok else gb for ok, gb in zip(full.fits, full.memory_per_gpu_gb,
                                                         strict=True)], (name, counts)
            assert memory_shared(profile, counts) == found
            with sharing_projections():  # asked inside, before and after projecting
                assert memory_shared(profile, counts) == found
                project_shared(profile, counts)
                assert memory_shared(profile, counts) == MemoryAnswer.of(projection)
    assert any(a is not None for a in answered)


def test_both_answers_occur():
    """The check can fail: some questions fit nowhere, others fit somewhere."""
    seen = set()
    for _, variants in QUESTIONS:
        for profile in variants:
            found = memory_answer(profile, ODD)
            if found is not None:
                seen.add(any(found.fits))
    assert {True, False} <= seen
