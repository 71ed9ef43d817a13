"""The loss's logits (issue 31): a fine-tune in the Hugging Face Trainer keeps 12 bytes a logit
(three fp32 tensors), Megatron's fused loss 6, a chunked loss (torchtune, Liger, Unsloth, Cut
Cross-Entropy; ``training.loss: chunked``) 3.5. torchtune's Llama 3.1 70B LoRA on 8 A100s at
2 x 2,048 tokens (29.6 GB published) was projected at 37.9 GB with the Trainer's loss."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from advisor.profile import LossKernel, Precision, Profile
from advisor.scaling.layouts.methods import CHUNKED_LOGIT_BYTES, HF_LOGIT_BYTES, loss_bytes
from advisor.scaling.project import project

LLAMA_70B = dict(name="Llama-3.1-70B", params_millions=70_554, layers=80, hidden_size=8192,
                 attention_heads=64, kv_heads=8, vocab_size=128_256, sequence_length=2048)


def _torchtune_lora(loss: str) -> Profile:
    return Profile.model_validate(dict(
        schema_version=1, task="llm", model=LLAMA_70B,
        training=dict(single_gpu_hours=1.0, precision="bf16", fine_tuning=True, method="lora",
                      lora_rank=16, batch_per_gpu=2, activation_checkpointing="full",
                      pure_16bit=True, parallelism="fsdp", loss=loss),
        hardware=dict(gpu="a100_sxm4_80gb", gpus_per_node=8, intra_link="nvswitch")))


def _gb_at_8(profile: Profile) -> float:
    pr = project(profile, [8])
    return pr.memory_per_gpu_gb[pr.at(8)]


def test_a_chunked_loss_keeps_the_logits_of_one_chunk_in_fp32():
    assert loss_bytes(Precision.bf16, True, LossKernel.chunked) == (CHUNKED_LOGIT_BYTES,
                                                                   CHUNKED_LOGIT_BYTES)
    assert CHUNKED_LOGIT_BYTES == pytest.approx(3.5)
    assert loss_bytes(Precision.bf16, True, LossKernel.auto)[0] == HF_LOGIT_BYTES
    assert loss_bytes(Precision.bf16, False, LossKernel.auto) == (6.0, 6.0)  # Megatron's
    assert loss_bytes(Precision.bf16, False, LossKernel.unfused)[0] == HF_LOGIT_BYTES


def test_the_chunked_loss_spares_what_the_logits_took():
    """2 x 2,048 tokens x 128,256 logits: 8.5 bytes a logit fewer is 4.5 GB a GPU."""
    unfused, chunked = _gb_at_8(_torchtune_lora("auto")), _gb_at_8(_torchtune_lora("chunked"))
    logits = 2 * 2048 * 128_256
    assert unfused - chunked == pytest.approx(logits * (HF_LOGIT_BYTES - CHUNKED_LOGIT_BYTES)
                                              / 1e9, rel=0.05)
    # torchtune's published 29.6 GB: within 15 % with its loss, not with the Trainer's
    assert abs(chunked / 29.64 - 1) < 0.15 < abs(unfused / 29.64 - 1)


def test_the_loss_is_a_language_models_setting():
    with pytest.raises(ValidationError, match="training.loss applies to language models"):
        Profile.model_validate(dict(
            schema_version=1, task="image_classification",
            model=dict(name="ResNet-50", params_millions=25.6),
            training=dict(single_gpu_hours=10, loss="chunked"),
            hardware=dict(gpu="rtx4090", gpus_per_node=4, intra_link="pcie4")))


def _lora_8b(loss: str = "auto", fine_tuning: bool = True, method: str = "lora") -> Profile:
    from advisor.catalog.profile_check import parse_profile_text

    return parse_profile_text(f"""schema_version: 1
model: {{id: llama-3.1-8b, sequence_length: 4096}}
training: {{single_gpu_hours: 20, precision: bf16, fine_tuning: {str(fine_tuning).lower()},
           method: {method}, batch_per_gpu: 1, activation_checkpointing: full, loss: {loss}}}
hardware: {{gpu: rtx4090, gpus_per_node: 2, intra_link: pcie4}}
economics: {{mode: own, currency: USD}}
""")


def test_a_chunked_loss_is_offered_before_more_machines_and_runs_on_one_card():
    """Llama 3.1 8B LoRA at 4,096 tokens on an RTX 4090: 26 GB with the Trainer's loss (out of
    memory), 21.6 GB chunked (fits); the change is offered, and is not where it changes
    nothing."""
    from advisor.verdict.setting_changes import other_changes

    profile = _lora_8b()
    change = next(c for c in other_changes(profile) if c.id == "loss_chunked")
    assert change.kind == "setting" and "chunked" in change.change.en
    assert "分块" in change.label.zh
    as_given, chunked = project(profile, [1]), project(change.apply(profile), [1])
    assert not as_given.fits[0] and chunked.fits[0]
    assert chunked.run_hours[0] == pytest.approx(as_given.run_hours[0])  # costs no time
    assert "loss_chunked" not in {c.id for c in other_changes(_lora_8b("chunked"))}
    pretraining = _lora_8b(fine_tuning=False, method="full")
    assert "loss_chunked" not in {c.id for c in other_changes(pretraining)}
