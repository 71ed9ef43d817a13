"""llm-analysis (Cheng Li, on the package index) on the same published runs, as a baseline.

llm-analysis is a benchmark-only tool (``pip install llm-analysis`` into the venv; never a
dependency of the advisor). It times a step as the step's FLOPs over the GPU's peak x
``flops_efficiency`` (0.5 here: its own note that Megatron-LM reaches ~0.5). It is given the
layout the advisor's model used for the run (the published one, with the same micro-batch).
``available()`` is False when it is not installed: the benchmarks then skip this column.
"""

from __future__ import annotations

import contextlib
import io
import logging

from advisor.scaling.layouts.search import Choice
from benchmarks.llm_points import CLUSTERS, Point

FLOPS_EFFICIENCY = 0.5
_GPU_CONFIG = {"a100_sxm4_80gb": "a100-sxm-80gb", "h100_sxm": "h100-sxm-80gb",
               "v100_sxm2_32gb": "v100-sxm-32gb"}


def available() -> bool:
    try:
        import llm_analysis  # noqa: F401
    except ImportError:
        return False
    return True


def tokens_per_s_per_gpu(pt: Point, choice: Choice) -> float | None:
    """llm-analysis' tokens/s/GPU for ``pt`` at ``choice``'s layout (None: it refused)."""
    from llm_analysis.analysis import ActivationRecomputation, DSZeRO, LLMAnalysis
    from llm_analysis.config import (
        ModelConfig,
        ParallelismConfig,
        get_dtype_config_by_name,
        get_gpu_config_by_name,
    )

    logging.getLogger("__name__").setLevel(logging.ERROR)  # llm-analysis names its logger so
    lay = choice.layout
    s = pt.shape
    model = ModelConfig(name=pt.key, num_layers=s.layers, n_head=s.heads, hidden_dim=s.hidden,
                        vocab_size=s.vocab, max_seq_len=s.sequence)
    gpu = get_gpu_config_by_name(_GPU_CONFIG[CLUSTERS[pt.machines].gpu])
    zero = {"zero1": 1, "zero2": 2, "zero3": 3, "fsdp": 3, "hsdp": 3}.get(lay.sharding, 0)
    recompute = {"none": 0, "selective": 1, "full": 2}[lay.checkpointing]
    analysis = LLMAnalysis(model, gpu, get_dtype_config_by_name("w16a16e16"),
                           ParallelismConfig(tp_size=lay.tp, pp_size=lay.pp, dp_size=lay.dp),
                           flops_efficiency=FLOPS_EFFICIENCY, hbm_memory_efficiency=1.0)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            out = analysis.training(
                batch_size_per_gpu=lay.micro_batch, gradient_accumulation_steps=lay.micro_batches,
                global_batch_size=lay.micro_batch * lay.micro_batches * lay.dp,
                seq_len=s.sequence, activation_recomputation=ActivationRecomputation(recompute),
                ds_zero=DSZeRO(zero), flash_attn=pt.flash)
    except (AssertionError, ValueError, ZeroDivisionError):
        return None
    tokens = lay.micro_batch * lay.micro_batches * lay.dp * s.sequence
    return tokens / (out["latency_per_iter"] * lay.gpus)
