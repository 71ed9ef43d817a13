"""The set-up table's learning-rate factor is the rules' (F14): the number of data-parallel
replicas at the recommended count (2 for two machines of 4-way tensor parallel), not the GPU
count, also for a count beyond the projected rows; gradient accumulation is part of the batch
that grows; the PDF names one factor. The linear factor is for SGD-like training; an
Adam-family optimizer (a language model's default) is told at most the square root."""

from __future__ import annotations

import re

import pypdf
import pytest

from advisor.profile import Optimizer, Profile
from advisor.verdict.result import Recommendation
from tests.support.report import WHEN, beyond_the_rows, llama


def _rule_factor(rec: Recommendation) -> int:
    """The replicas the rules' learning-rate pitfall names (verdict_data_parallel)."""
    pitfall = next(p for p in rec.pitfalls if p.id == "lr_scaling")
    return int(re.search(r"with (\d+) data-parallel replicas", pitfall.title.en).group(1))


def _sgd(profile: Profile) -> Profile:
    training = profile.training.model_copy(update={"optimizer": Optimizer.sgd})
    return profile.model_copy(update={"training": training})


def _with_split(rec: Recommendation, split: str) -> Recommendation:
    proj = rec.projection
    i = proj.gpus.index(rec.verdict.gpus)
    parallelism = [*proj.parallelism[:i], split, *proj.parallelism[i + 1:]]
    return rec.model_copy(update={"projection": proj.model_copy(
        update={"parallelism": parallelism, "data_parallel": []})})  # the split's own degree


def test_the_set_up_table_scales_by_the_rules_replicas_not_the_gpu_count():
    from ui.report.guidance_sections import learning_rate_text

    rec, profile = llama()
    factor = _rule_factor(rec)
    assert rec.verdict.gpus == 8 and factor == 2  # hybrid: 2 machines of 4-way tensor parallel
    en = learning_rate_text(rec, _sgd(profile), "en")
    assert "by 2 (linear scaling rule)" in en and "from 1 to 2" in en and "by 8" not in en
    assert "乘以 2（" in learning_rate_text(rec, _sgd(profile), "zh")


def test_an_adam_family_optimizer_is_told_at_most_the_square_root():
    from ui.report.guidance_sections import learning_rate_text

    rec, profile = llama()  # a language model: AdamW by default
    en = learning_rate_text(rec, profile, "en")
    assert "at most 1.4 (the square root of 2)" in en and "optimizer steps" in en
    assert "linear" not in en and "epoch" not in en
    assert "最多乘以 1.4" in learning_rate_text(rec, profile, "zh")


@pytest.mark.parametrize("split, replicas", [("data", 8), ("zero", 8), ("fsdp", 8),
                                             ("hybrid", 2), ("tensor", 2), ("pipeline", 1)])
def test_the_factor_follows_the_split_at_the_recommended_count(split, replicas):
    from ui.report import labels as L
    from ui.report.guidance_sections import data_parallel_replicas, learning_rate_text

    rec, profile = llama()
    rec = _with_split(rec, split)
    assert data_parallel_replicas(rec, profile) == replicas
    text = learning_rate_text(rec, _sgd(profile), "en")
    if replicas == 1:  # one model replica over all the GPUs: the batch does not grow
        assert text == L.LR_ONE_REPLICA.get("en").format(gpus="8 GPUs", batch=1)
    else:
        assert f"by {replicas} (linear" in text and f"from 1 to {replicas}:" in text


def test_gradient_accumulation_is_part_of_the_batch_that_grows():
    from ui.report.guidance_sections import learning_rate_text

    rec, profile = llama()
    training = profile.training.model_copy(update={"gradient_accumulation_steps": 4})
    profile = profile.model_copy(update={"training": training})
    assert "from 4 to 8:" in learning_rate_text(rec, profile, "en")  # 2 replicas x 4
    assert "from 4 to 8:" in learning_rate_text(rec, _sgd(profile), "en")


def test_a_count_beyond_the_projection_uses_the_verdicts_split():
    from ui.report.guidance_sections import data_parallel_replicas

    rec, profile = llama()
    beyond = beyond_the_rows(rec)
    assert rec.verdict.gpus not in beyond.projection.gpus
    assert data_parallel_replicas(beyond, profile) == _rule_factor(rec)


def _fine_tuned() -> tuple[Recommendation, Profile]:
    """The Llama profile fine-tuning a pretrained model: a pre-training run sets its rate for
    its designed global batch instead (migration.learning_rate_advice_pretraining)."""
    from tests.support.verdict import rules_pick

    _, profile = llama()
    # bf16 weights and 8-bit AdamW already (a fine-tune's fewest bytes of state: nothing
    # left to set) so the answer keeps data-parallel replicas whose factor the PDF names
    training = profile.training.model_validate({
        **profile.training.model_dump(), "fine_tuning": True, "precision": "bf16",
        "pure_16bit": True, "optimizer": "adamw_8bit"})
    return rules_pick(profile.model_copy(update={"training": training}))


def test_a_pre_training_run_is_told_its_recipe_sets_the_rate():
    rec, _ = llama()
    advice = next(a for a in rec.advice if a.id == "learning_rate")
    assert advice.text.en.startswith("Learning rate (pre-training)")
    assert not any("at most" in p.title.en for p in rec.pitfalls if p.id == "lr_scaling")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_pdf_names_one_factor(tmp_path, lang):
    from ui.report import export_pdf

    rec, profile = _fine_tuned()
    path = export_pdf(rec, profile, tmp_path / f"{lang}.pdf", lang, generated=WHEN)
    text = "".join("".join((page.extract_text() or "").split())
                   for page in pypdf.PdfReader(path).pages)
    if lang == "en":  # Adam-family: "at most 1.7" (the square root of the 3 replicas)
        factors = set(re.findall(r"atmost(\d+(?:\.\d+)?)", text))
    else:
        factors = set(re.findall(r"最多(?:放大|乘以)(\d+(?:\.\d+)?)", text))
    expected = f"{(_rule_factor(rec)) ** 0.5:.2g}"  # the square root of the replicas
    assert factors == {expected}, factors


def test_a_global_batch_the_profile_keeps_scales_no_learning_rate():
    """keep_batch: global holds the global batch as on one GPU (fewer accumulation steps, then
    smaller batches per GPU): the rules raise no learning-rate pitfall or advice, and the set-up
    table says the rate stays, in both languages (the same figure in each)."""
    from advisor.catalog.profile_check import load_profile
    from advisor.profile import KeepBatch
    from advisor.verdict.recommendation import recommend
    from tests.support.paths import EXAMPLES
    from ui.report.guidance_sections import learning_rate_text

    profile = _sgd(load_profile(EXAMPLES / "medium-model-4gpu-worth-it.yaml"))
    grows = recommend(profile)
    assert grows.verdict.gpus > 1 and "lr_scaling" in {p.id for p in grows.pitfalls}
    training = profile.training.model_copy(update={"keep_batch": KeepBatch.global_})
    held = profile.model_copy(update={"training": training})
    rec = recommend(held)
    assert rec.verdict.gpus > 1
    assert "lr_scaling" not in {p.id for p in rec.pitfalls}
    assert not [a for a in rec.advice if a.id == "learning_rate"]
    batch = training.batch_per_gpu * training.gradient_accumulation_steps
    en, zh = learning_rate_text(rec, held, "en"), learning_rate_text(rec, held, "zh")
    assert f"The global batch stays {batch} on {rec.verdict.gpus} GPUs" in en
    assert "multiply" not in en
    assert f"全局批大小仍为 {batch}" in zh and "学习率保持不变" in zh
