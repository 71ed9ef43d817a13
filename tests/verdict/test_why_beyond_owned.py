"""Review 10 (F8): an answer past the GPUs the user owns says first what it adds to them: a
rental of 16 A100s beside 8 owned gave as its Why only that the model does not fit one GPU."""

from __future__ import annotations

from advisor.catalog.profile_check import expand_profile_data, vet_profile
from advisor.profile import Profile
from advisor.verdict.recommendation import recommend
from tests.compare.test_net_value_references import OWNER


def test_the_why_of_an_answer_past_the_owned_gpus_is_what_it_adds_to_them():
    rec = recommend(vet_profile(Profile.model_validate(expand_profile_data(OWNER))))
    assert rec.verdict.gpus > 8 and rec.costs.baseline_gpus == 8
    why = rec.summary[1].text
    assert "over the GPUs you already own" in why.en
    assert "相对你已有的卡" in why.zh
    # the memory wall still stands behind the rating, in the full sentence
    assert "does not fit one GPU" in rec.verdict.headline.en
