"""The set-up advice follows how the model is split: tensor parallelism gets Megatron-LM and no
learning-rate scaling (F14 scales with data-parallel replicas, and there are none); a
recommender with huge embedding tables shards them with TorchRec or HugeCTR, and the headline
names that framework too (F05, F26)."""

from __future__ import annotations

from tests.support.paths import ROOT
from tests.support.verdict import on_own_setups, rules_case


def test_no_learning_rate_scaling_without_data_parallel_replicas():
    # the rules' advice on the user's own A6000s (a comparison's ready setup, bought, would
    # take the answer: tests/compare/test_one_decision_everywhere.py)
    rec = on_own_setups(ROOT / "tests" / "profiles" / "scaling" / "tensor-parallel-a6000.yaml")
    assert rec.verdict.parallelism == "tensor" and rec.verdict.gpus == 2
    assert "lr_scaling" not in {p.id for p in rec.pitfalls}
    assert "learning_rate" not in {a.id for a in rec.advice}
    assert rec.verdict.framework == "deepspeed"
    advice = {a.id: a.text for a in rec.advice}
    assert "Megatron-LM" in advice["framework"].en and "Megatron-LM" in advice["parallelism"].en
    assert "ZeRO stage 3 or FSDP splits" not in advice["parallelism"].en


def test_huge_recommender_shards_its_embeddings(recs) -> None:
    rec = recs["recsys"]
    assert rec.verdict.parallelism == "hybrid"
    advice = " ".join(a.text.en for a in rec.advice)
    assert "TorchRec" in advice and "HugeCTR" in advice and "embedding" in advice
    assert "Shard the model: DeepSpeed ZeRO" not in advice
    sources = {s for a in rec.advice for s in a.sources}
    assert {"F05", "F26"} <= sources
    memory = next(p for p in rec.pitfalls if p.id == "memory_wall")
    assert "embedding" in memory.title.en and "FSDP" not in memory.remedy.en


def test_a_recommendation_model_names_the_embedding_framework_in_its_headline():
    """The headline said "with PyTorch DDP" while the set-up said the tables need TorchRec or
    HugeCTR: the framework slot is now TorchRec (the dense MLP runs under its DDP)."""
    r = rules_case("dlrm-2x8-a100-25gbe-vgpu")
    assert r.verdict.framework == "torchrec"
    assert "with TorchRec (or HugeCTR)" in r.verdict.headline.en
    assert "用 TorchRec（或 HugeCTR）" in r.verdict.headline.zh
    assert "PyTorch DDP" not in r.verdict.headline.en.split(";")[0]
