"""Issue 31, cause 1: pure 16-bit training (a model loaded in bf16, the optimizer's states in
its dtype: torchtune, LitGPT's bf16-true, the Hugging Face Trainer on a bf16-loaded model)
keeps about 8 bytes per parameter with AdamW, not the 16 of mixed precision with fp32 master
weights; the profile says it with ``training.pure_16bit``, refused (naming the field, in both
languages) with a precision that is not 16-bit."""

from __future__ import annotations

import pytest

from advisor.catalog.profile_check import parse_profile_text
from advisor.files.errors import InputError
from advisor.profile import Optimizer, Precision, Profile
from advisor.scaling import project
from advisor.scaling.layouts.states import full_training


def _llm(pure: bool, precision: str = "bf16") -> Profile:
    return Profile.model_validate({
        "task": "llm",
        "model": {"name": "7B", "params_millions": 6740, "layers": 32, "hidden_size": 4096,
                  "attention_heads": 32, "sequence_length": 1024, "vocab_size": 32000},
        "training": {"dataset_tokens": 1e8, "fine_tuning": True, "batch_per_gpu": 1,
                     "precision": precision, "pure_16bit": pure,
                     "activation_checkpointing": "full"},
        "hardware": {"gpu": "a100_sxm4_80gb", "gpus_per_node": 1, "intra_link": "pcie4"},
        "economics": {"mode": "cloud", "currency": "USD", "time_value": "none"}})


@pytest.mark.parametrize("optimizer,mixed,pure", [(Optimizer.adamw, 16.0, 8.0),
                                                  (Optimizer.sgd, 12.0, 6.0),
                                                  (Optimizer.adamw_8bit, 10.0, 6.0)])
def test_state_bytes_per_parameter(optimizer, mixed, pure):
    assert full_training(Precision.bf16, optimizer).per_param == mixed
    assert full_training(Precision.bf16, optimizer, pure_16bit=True).per_param == pure


def test_a_7b_full_fine_tune_fits_one_80_gb_card_only_in_pure_16_bits():
    mixed, pure = project(_llm(False), [1]), project(_llm(True), [1])
    assert not mixed.fits[0] and pure.fits[0]
    # the states alone: 16 against 8 bytes per parameter
    assert mixed.memory_per_gpu_gb[0] - pure.memory_per_gpu_gb[0] == pytest.approx(
        6740e6 * 8 / 1e9, rel=0.1)


def test_a_data_parallel_model_keeps_half_the_states_in_pure_16_bits():
    def vit(pure: bool) -> Profile:
        return Profile.model_validate({
            "task": "image_classification", "model": {"name": "ViT-H", "params_millions": 632},
            "training": {"single_gpu_hours": 10, "batch_per_gpu": 8, "precision": "bf16",
                         "optimizer": "adamw", "pure_16bit": pure},
            "hardware": {"gpu": "rtx4090", "gpus_per_node": 1, "intra_link": "pcie4"},
            "economics": {"mode": "cloud", "currency": "USD"}})
    mixed, pure = project(vit(False), [1]), project(vit(True), [1])
    assert mixed.memory_per_gpu_gb[0] - pure.memory_per_gpu_gb[0] == pytest.approx(
        632e6 * 8 / 1e9, abs=0.01)


@pytest.mark.parametrize("lang,words", [("en", "set training.precision to bf16 or fp16"),
                                        ("zh", "请把 training.precision 设为 bf16 或 fp16")])
def test_pure_16bit_with_amp_is_refused_naming_the_field(lang, words):
    text = ("task: llm\nmodel: {name: 7B, params_millions: 6740}\ntraining:\n"
            "  dataset_tokens: 1.0e+8\n  precision: amp\n  pure_16bit: true\n"
            "hardware: {gpu: a100_sxm4_80gb}\n")
    with pytest.raises(InputError) as caught:
        parse_profile_text(text)
    message = caught.value.render(lang)
    assert "pure_16bit" in message and words in message, message


def _sdxl(pure: bool, optimizer: str) -> Profile:
    return Profile.model_validate({
        "task": "other", "model": {"name": "SDXL UNet", "params_millions": 2567,
                                   "flops_per_sample_gflops": 6000},
        "training": {"single_gpu_hours": 20, "batch_per_gpu": 1, "precision": "bf16",
                     "pure_16bit": pure, "optimizer": optimizer, "fine_tuning": True,
                     "activation_checkpointing": "full"},
        "hardware": {"gpu": "rtx4090", "gpus_per_node": 1, "intra_link": "pcie4"},
        "economics": {"mode": "own", "currency": "USD"}})


def test_an_sdxl_full_fine_tune_fits_a_24_gb_card_as_the_community_runs_it():
    """Issue 31, cause 7: bf16 weights, 8-bit AdamW and checkpointing (the community's
    recipe) fit one RTX 4090; mixed precision with fp32 Adam states does not."""
    assert project(_sdxl(True, "adamw_8bit"), [1]).fits == [True]
    assert project(_sdxl(False, "adamw"), [1]).fits == [False]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_memory_remedy_never_asks_for_what_is_already_on(lang):
    from advisor.verdict.recommendation import recommend

    rec = recommend(_sdxl(False, "adamw"), lang=lang)
    wall = next(p for p in rec.pitfalls if p.id == "memory_wall")
    remedy = wall.remedy.get(lang)
    assert ("add activation checkpointing" not in remedy and "pure_16bit" in remedy) \
        if lang == "en" else ("配合激活重计算" not in remedy and "pure_16bit" in remedy)


@pytest.mark.parametrize("lang,words", [("en", "at most 4096 characters"),
                                        ("zh", "不超过 4096 个字符")])
def test_a_measured_runs_log_path_is_checked_naming_the_field(lang, words):
    """Issue 33: the measured section keeps its GPU logs' paths; an empty one is refused."""
    text = ("task: image_classification\nmodel: {name: r, params_millions: 25}\n"
            "training: {single_gpu_hours: 10}\nhardware: {gpu: rtx4090}\n"
            "measured:\n  points: [{gpus: 1, throughput: 100}, {gpus: 2, throughput: 190}]\n"
            "  logs: ['  ']\n")
    with pytest.raises(InputError) as caught:
        parse_profile_text(text)
    message = caught.value.render(lang)
    assert "measured.logs" in message and words in message, message
