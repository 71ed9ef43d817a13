"""One projection per distinct question within a comparison or a recommendation: the memo's
key holds everything a projection reads (a profile differing only in money gets the same
projection, any other field a new one), and sharing changes no figure the comparison or the
recommendation gives."""

from __future__ import annotations

from contextlib import nullcontext
from importlib import import_module

import pytest

from advisor.catalog.profile_check import load_profile
from advisor.compare import compare
from advisor.files.errors import InputError
from advisor.files.json_text import dumps_strict
from advisor.profile import Alternative, EconomicsSpec
from advisor.scaling import project
from advisor.verdict import recommendation
from advisor.verdict.recommendation import recommend
from advisor.verdict.resting import resting_on
from advisor.verdict.shared_projections import (
    NOT_PROJECTED,
    project_shared,
    projection_key,
    sharing_projections,
)
from tests.support.paths import EXAMPLES, PROFILES

ALL = sorted([*EXAMPLES.glob("*.yaml"), *PROFILES.rglob("*.yaml")])
LLM_ON_WORKSTATION = PROFILES / "verdict" / "llm-7b-on-4x-rtx4090.yaml"
PLAN_7B = EXAMPLES / "plan-7b-on-one-8xh100.yaml"
MEDIUM = EXAMPLES / "medium-model-4gpu-worth-it.yaml"
OTHER_MONEY = EconomicsSpec.model_validate({
    "mode": "cloud", "market": "CN", "currency": "CNY", "gpu_price": 12345,
    "cloud_price_per_gpu_hour": 9.5, "electricity_per_kwh": 1.1, "pue": 1.6,
    "time_value": "revenue", "value_per_day": 4321, "deadline_days": 3,
    "monthly_budget": 5000})


def _loadable(path):
    try:
        return load_profile(path)
    except InputError:
        return None


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_a_projection_reads_neither_the_money_nor_the_alternatives(path):
    """What the memo's key leaves out (NOT_PROJECTED) must change no projection."""
    profile = _loadable(path)
    if profile is None:
        return
    assert NOT_PROJECTED == {"economics", "alternatives"}
    other = profile.model_copy(update={
        "economics": OTHER_MONEY,
        "alternatives": [Alternative.model_validate(
            {"name": "rent", "hardware": {"nodes": 2}, "economics": {"mode": "cloud"}})]})
    for counts in (None, [1, 2, 4, 8, 16, 32, 64]):
        assert project(other, counts).model_dump_json() == \
            project(profile, counts).model_dump_json()


def test_within_a_comparison_each_question_is_answered_once():
    profile = load_profile(MEDIUM)
    rented = profile.model_copy(update={"economics": OTHER_MONEY})
    more = profile.model_copy(update={"hardware": profile.hardware.model_copy(
        update={"gpus_per_node": 8})})
    assert project_shared(profile) is not project_shared(profile)  # no block: no memo
    with sharing_projections():
        first = project_shared(profile)
        assert project_shared(profile) is first
        assert project_shared(rented) is first  # only the money differs
        assert project_shared(profile, [1, 2, 3, 4]) is first  # the default counts, spelled out
        assert project_shared(profile, [4, 2, 1, 3, 3]) is first  # as project normalises them
        assert project_shared(more) is not first
        assert project_shared(profile, [1, 2]) is not first
        with sharing_projections():  # a nested block shares the outer block's
            assert project_shared(profile) is first
    with sharing_projections():  # a new block starts empty
        assert project_shared(profile) is not first


def test_the_key_is_the_whole_profile_less_what_is_not_projected():
    profile = load_profile(MEDIUM)
    key = projection_key(profile, None)
    training = profile.training.model_copy(update={"runs_per_month": 7})
    assert projection_key(profile.model_copy(update={"training": training}), None) != key
    assert projection_key(profile.model_copy(update={"notes": "x"}), None) != key
    assert projection_key(profile.model_copy(update={"economics": OTHER_MONEY}), None) == key


def test_a_question_that_raises_is_not_remembered():
    profile = load_profile(MEDIUM)
    with sharing_projections():
        for _ in range(2):
            with pytest.raises(InputError):
                project_shared(profile, [0, 2])


@pytest.mark.parametrize("path", [PLAN_7B, MEDIUM, LLM_ON_WORKSTATION], ids=lambda p: p.stem)
def test_sharing_changes_no_figure_of_a_comparison(path, monkeypatch):
    profile = load_profile(path)
    shared = dumps_strict(compare(profile).model_dump(mode="json"))
    monkeypatch.setattr(import_module("advisor.compare.compare"), "sharing_projections",
                        nullcontext)
    monkeypatch.setattr(recommendation, "sharing_projections", nullcontext)
    assert dumps_strict(compare(profile).model_dump(mode="json")) == shared


def test_sharing_changes_nothing_recommend_gives(monkeypatch):
    profile = load_profile(LLM_ON_WORKSTATION)  # a setup change applied: projected twice
    shared = [dumps_strict(recommend(profile, lang=lang).model_dump(mode="json"))
              for lang in ("en", "zh")]
    monkeypatch.setattr(recommendation, "sharing_projections", nullcontext)
    assert [dumps_strict(recommend(profile, lang=lang).model_dump(mode="json"))
            for lang in ("en", "zh")] == shared


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_the_unlisted_search_rests_on_what_the_listed_one_does(path):
    """``resting_on(listed=False)`` (a comparison's option) skips what can never be chosen
    and the search for more machines when a change is applied: the verdict's profile,
    projection, larger counts and applied change are those of the listed search."""
    profile = _loadable(path)
    if profile is None:
        return
    listed, unlisted = resting_on(profile), resting_on(profile, listed=False)
    assert unlisted.profile.model_dump_json() == listed.profile.model_dump_json()
    assert unlisted.projection.model_dump_json() == listed.projection.model_dump_json()
    assert unlisted.larger == listed.larger
    assert unlisted.applied == listed.applied
    assert unlisted.options == ([listed.applied] if listed.applied else [])
