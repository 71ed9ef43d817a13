"""GPU names as people type them resolve to the catalog id; a near miss names its likely id
only when the model number agrees (an 'RTX 4080' is not an RTX 4090)."""

from __future__ import annotations

import pytest

from advisor.catalog.gpus import resolve_gpu, spelling_key
from advisor.files.errors import InputError


@pytest.mark.parametrize("typed, expected", [
    ("RTX 4090", "rtx4090"), ("rtx_4090", "rtx4090"), ("NVIDIA GeForce RTX 4090", "rtx4090"),
    ("A100-SXM4-80GB", "a100_sxm4_80gb"), ("Tesla V100-SXM2-32GB", "v100_sxm2_32gb"),
    ("RTX A6000", "rtx_a6000"), ("rtx6000-ada", "rtx6000_ada"), ("  rtx4090 ", "rtx4090"),
])
def test_spellings_resolve_to_the_catalog_id(typed, expected):
    assert resolve_gpu(typed).id == expected


def test_spelling_key_keeps_letters_and_digits_only():
    assert spelling_key("NVIDIA GeForce RTX 4060 Ti 16GB") == "rtx4060ti16gb"
    assert resolve_gpu("RTX 4060 Ti 16GB").id == "rtx4060ti_16gb"


@pytest.mark.parametrize("typed, hint", [("a100 sxm 80", "a100_sxm4_80gb"),
                                         ("rtx-3090-ti", "rtx3090")])
def test_a_near_miss_names_the_likely_id(typed, hint):
    with pytest.raises(InputError) as err:
        resolve_gpu(typed)
    problem = err.value.problems[0]
    assert problem.path == "hardware.gpu"
    assert f"did you mean {hint!r}" in problem.message_en and hint in problem.message_zh


@pytest.mark.parametrize("typed", ["rtx 4080", "rtx409o", "quadro"])
def test_a_different_model_number_gets_no_guess(typed):
    with pytest.raises(InputError) as err:
        resolve_gpu(typed)
    message = err.value.problems[0].message_en
    assert "did you mean" not in message and "known: rtx3090" in message
