"""Fine-tuning profiles of issue 17: a 7B full fine-tune on 2 x RTX 4090 and on 8 x L40S."""

from __future__ import annotations

from typing import Any

from advisor.profile import Profile

LLAMA_7B = {"name": "Llama-2-7B", "params_millions": 6740, "layers": 32, "hidden_size": 4096,
            "attention_heads": 32, "sequence_length": 4096, "vocab_size": 32000}


def fine_tune(gpu: str, gpus: int, batch: int, tokens: float, **training: Any) -> Profile:
    """A full fine-tune of Llama-2-7B for one pass over ``tokens`` on one machine."""
    return Profile.model_validate({
        "task": "llm", "model": LLAMA_7B,
        "training": {"dataset_tokens": tokens, "epochs": 1, "batch_per_gpu": batch,
                     "precision": "bf16", "fine_tuning": True, "runs_per_month": 2,
                     **training},
        "hardware": {"gpu": gpu, "gpus_per_node": gpus, "nodes": 1, "intra_link": "pcie4"},
        "economics": {"mode": "own", "currency": "USD", "time_value": "none"}})


def on_two_4090s(**training: Any) -> Profile:
    return fine_tune("rtx_4090", 2, 4, 2e8, **training)


def on_eight_l40s(**training: Any) -> Profile:
    """FSDP fixed with 8 samples per GPU: the batch does not fit the cards unless the
    activations are recomputed."""
    return fine_tune("l40s", 8, 8, 1e9, **{"parallelism": "fsdp", **training})
