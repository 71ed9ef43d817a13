"""Helper review (2026-12-06): a 70B QLoRA on four RTX 4090 was planned as an interleaved
pipeline "with Megatron-LM", which has no 4-bit NF4 layer. QLoRA's weights run under FSDP or
DeepSpeed ZeRO-3 (FSDP-QLoRA; PEFT, torchtune, Axolotl): with the parallelism left to the
advisor, every count is data parallel, sharded; a pipeline the user asks for is kept."""

from __future__ import annotations

from advisor.catalog.profile_check import parse_profile_text
from advisor.profile import Profile
from advisor.scaling import project
from advisor.verdict.more_cards import wider_machine
from advisor.verdict.recommendation import recommend


def _qlora(parallelism: str = "auto") -> Profile:
    """The reviewer's 70B QLoRA on one RTX 4090, weighed on a machine of four (more_cards)."""
    return wider_machine(parse_profile_text(f"""
task: llm
model: {{id: llama-3.1-70b, sequence_length: 2048}}
training: {{dataset_tokens: 2.0e+7, epochs: 1, batch_per_gpu: 1, precision: bf16,
           fine_tuning: true, method: qlora, activation_checkpointing: full,
           parallelism: {parallelism}, runs_per_month: 1}}
hardware: {{gpu: rtx4090, gpus_per_node: 1, intra_link: pcie4}}
economics: {{mode: own, market: US, currency: USD, owned_gpus: 1, time_value: none}}
"""))


def test_a_qlora_left_to_the_advisor_runs_sharded_data_parallel_at_every_count():
    profile = _qlora()
    assert profile.model.params_millions > 70_000  # the catalog's 70B (the id expanded)
    proj = project(profile, [2, 4])
    assert all(t == 1 for t in proj.tensor_parallel) and all(p == 1 for p in proj.pipeline_parallel)
    assert proj.fits[-1]  # FSDP-QLoRA: 35 GB of 4-bit weights over four 24 GB cards
    rec = recommend(_qlora(), lang="en")
    assert "Megatron" not in rec.verdict.headline.en


def test_a_pipeline_the_user_asks_for_is_kept():
    proj = project(_qlora("pipeline"), [4])
    assert proj.pipeline_parallel[0] > 1
