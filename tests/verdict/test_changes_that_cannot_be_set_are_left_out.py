"""A setting change that makes a training section no profile may hold (the diffusion savings
on a setup the answer weighs, a faster card's run timed under the 36 s a run may take) is left
out, never an internal error: found by the random profiles of decision_policy.py once they
were drawn before anything else ran (`recommend` ended in "internal error")."""

from __future__ import annotations

from advisor.catalog.profile_check import load_profile
from advisor.compare.weighed import recommend
from tests.support.paths import PROFILES

PROFILE = PROFILES / "verdict" / "diffusion-run-of-36-seconds-savings-cannot-be-set.yaml"


def test_the_answer_is_given_without_them():
    rec = recommend(load_profile(PROFILE), lang="en")
    assert rec.summary and rec.verdict.runnable
