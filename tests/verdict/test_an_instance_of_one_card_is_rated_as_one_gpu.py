"""An answer that rents an offer of one card an instance has one GPU: the rules' "2 GPUs
optional" for a small data set cannot be had there, and the headline read "Optional (a second
GPU if you like): 1 GPU". One GPU is then rated as one (not worth more), and the step says
why in the trace."""

from __future__ import annotations

from advisor.catalog.profile_check import load_profile
from advisor.compare.weighed import recommend
from tests.support.paths import EXAMPLES, PROFILES


def test_a_one_card_rental_is_not_rated_as_more_gpus():
    rec = recommend(load_profile(EXAMPLES / "small-dataset-validation-2gpu-optional.yaml"),
                    lang="en")
    v = rec.verdict
    if v.gpus != 1:  # the answer keeps two GPUs of the user's: nothing to check here
        return
    assert v.rating == "not_worth_it"
    assert "Optional" not in rec.summary[0].text.en and "可选" not in rec.summary[0].text.zh
    step = next(t for t in rec.trace if "gpus" in t.decided)
    assert step.conclusion["gpus"] == 1


def test_no_answer_rates_one_gpu_as_optional_or_worth_more():
    from advisor.files.errors import InputError

    for path in sorted([*EXAMPLES.glob("*.yaml"), *PROFILES.rglob("*.yaml")]):
        try:
            profile = load_profile(path)
        except InputError:
            continue  # a repro profile of bad input
        v = recommend(profile).verdict
        assert not (v.gpus == 1 and v.rating in ("optional", "worth_it")), path.stem
