"""Issue 29, classes 4 and 5 over the whole profile schema: a sentence that does not apply to
the workload is never said of it, whatever the profile (hypothesis), nor of any example or
repro profile."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings

from advisor.profile import Task
from advisor.verdict.recommendation import recommend
from tests.support.strategies import realistic_profiles
from tests.support.verdict import ALL, recommended

EXAMPLES = int(os.environ.get("PROP_EXAMPLES", "30"))


def _said(rec) -> str:
    return "\n".join([rec.verdict.headline.en, *(p.title.en for p in rec.pitfalls),
                      *(p.remedy.en for p in rec.pitfalls), *(a.text.en for a in rec.advice),
                      *(line.text.en for line in rec.summary)])


def check_applies(rec, profile) -> None:
    said = _said(rec)
    eco, tr = profile.economics, profile.training
    if eco.time_value is None or eco.time_value.value == "none" or eco.value_per_day is None:
        assert "value you gave" not in said
    if profile.task == Task.llm and not profile.fine_tunes:  # pre-training: its recipe's rate
        assert "Scale the initial learning rate" not in said
        assert "scale it by at most" not in said
    if profile.task == Task.llm:  # tokenised, memory-mapped data
        assert "num_workers 2-4 per GPU process" not in said
    if not rec.projection.single_gpu_fits:
        assert "keep one GPU day to day" not in said
    if "cannot finish before the deadline" in rec.verdict.headline.en:
        assert rec.projection.single_gpu_fits
    pr, v = rec.projection, rec.verdict
    if v.runnable and v.gpus in pr.gpus and pr.pipeline_interleave:
        if pr.pipeline_interleave[pr.at(v.gpus)] > 1:
            assert v.framework == "megatron", v.headline.en
    if "GPUs talk over PCIe and communication is the bottleneck" in said:
        assert "keep the exchange short" not in said
    if v.gpus == 1:
        assert not v.headline.en.startswith("Worth it: 1 GPU")
    del tr


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(profile=realistic_profiles())
def test_no_sentence_that_does_not_apply_over_random_profiles(profile):
    check_applies(recommend(profile, lang="en"), profile)


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_no_sentence_that_does_not_apply_to_a_known_profile(path):
    rec, profile = recommended(path, "en")
    check_applies(rec, profile)
