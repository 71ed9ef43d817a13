"""GPU names as people type them resolve to the catalog id; a near miss names its likely id
only when the model number agrees (an 'RTX 4050' is not an RTX 4090). A name that covers
several cards ('H100', 'A100 40GB') is the card the link inside the machine allows, or the
profile check reports it as ambiguous with the cards listed; '4090' alone resolves."""

from __future__ import annotations

import pytest

from advisor.catalog.gpus import resolve_gpu, spelling_key, variant_for_link
from advisor.catalog.profile_check import catalog_problems, parse_profile_text
from advisor.files.errors import InputError
from tests.support.profiles import HEAD, problems


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


@pytest.mark.parametrize("typed", ["rtx 4050", "rtx409o", "quadro"])
def test_a_different_model_number_gets_no_guess(typed):
    with pytest.raises(InputError) as err:
        resolve_gpu(typed)
    message = err.value.problems[0].message_en
    assert "did you mean" not in message and "known: rtx3090" in message


@pytest.mark.parametrize("typed, link, expected", [
    ("H100", "pcie4", "h100_pcie"), ("h100", "pcie5", "h100_pcie"),
    ("H100", "nvlink_bridge", "h100_pcie"), ("H100", "nvswitch", "h100_sxm"),
    ("A100 40GB", "pcie4", "a100_pcie_40gb"), ("A100 40GB", "nvswitch", "a100_sxm4_40gb"),
    ("a100 80gb", "nvlink", "a100_sxm4_80gb"), ("v100", "pcie3", "v100_pcie_32gb"),
])
def test_a_family_name_is_the_card_the_link_allows(typed, link, expected):
    assert resolve_gpu(typed, link).id == expected
    assert variant_for_link(typed, link) == expected
    profile = parse_profile_text(HEAD + f"hardware: {{gpu: {typed}, intra_link: {link}}}\n")
    assert profile.hardware.gpu == expected  # what every later step resolves


@pytest.mark.parametrize("typed, link, listed", [
    ("a100", "pcie4", ["a100_pcie_40gb", "a100_pcie_80gb"]),
    ("a100", "nvswitch", ["a100_sxm4_40gb", "a100_sxm4_80gb"]),
    ("V100", "nvlink", ["v100_sxm2_16gb", "v100_sxm2_32gb"]),
])
def test_a_family_the_link_does_not_settle_is_ambiguous(typed, link, listed):
    [problem] = problems(HEAD + f"hardware:\n  gpu: {typed}\n  intra_link: {link}\n")
    assert (problem.path, problem.line) == ("hardware.gpu", 4)
    assert "names several GPUs" in problem.message_en and "对应多款显卡" in problem.message_zh
    for card in listed:
        assert card in problem.message_en and card in problem.message_zh
    assert "cannot use" not in problem.message_en


def test_without_a_link_a_family_name_is_ambiguous():
    with pytest.raises(InputError) as err:
        resolve_gpu("H100")
    assert "h100_pcie" in err.value.problems[0].message_en
    assert "h100_sxm" in err.value.problems[0].message_en


@pytest.mark.parametrize("line", ['gpu: "4090"', "gpu: 4090", "gpu: RTX 4090"])
def test_a_bare_model_number_resolves(line):
    profile = parse_profile_text(HEAD + f"hardware:\n  {line}\n")
    assert resolve_gpu(profile.hardware.gpu).id == "rtx4090"
    assert catalog_problems(profile) == []


def test_a_single_cards_id_with_a_link_it_cannot_have_is_still_reported():
    [problem] = problems(HEAD + "hardware: {gpu: h100_sxm, intra_link: pcie4}\n")
    assert problem.path == "hardware.intra_link" and "cannot use pcie4" in problem.message_en


def test_aliases_of_one_card_stay_as_typed():
    profile = parse_profile_text(HEAD + "hardware: {gpu: h100_sxm5, intra_link: nvswitch}\n")
    assert profile.hardware.gpu == "h100_sxm5"


def test_an_unknown_gpu_lists_whole_ids_and_where_to_find_the_rest():
    """Review 4: the list was cut at the message's 400 characters inside an id ('a80…')."""
    from advisor.catalog.gpus import gpu_ids

    with pytest.raises(InputError) as err:
        resolve_gpu("nope")
    for lang in ("en", "zh"):
        text = err.value.render(lang)
        assert "…" not in text and "characters)" not in text
        assert "gpu-advisor catalog" in text
    message = err.value.problems[0].message_en
    listed = message.split("known: ", 1)[1].split(" and ", 1)[0].split(", ")
    assert set(listed) <= set(gpu_ids()) and len(listed) >= 10
