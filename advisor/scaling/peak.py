"""A GPU's dense peak at the training precision: what MFU and the compute time are measured
against (the data-parallel model and the large-model layouts both read it).

An "fp32" job on a card with TF32 tensor cores (Ampere and later) does not run all of its
work in full fp32: the frameworks' defaults route part of it to TF32. PyTorch runs
convolutions in TF32 by default (``torch.backends.cudnn.allow_tf32`` is True) while its
matmuls stay in fp32 unless the user enables them (``allow_tf32`` /
``set_float32_matmul_precision``, off since 1.12); TensorFlow (2.4 and later) and JAX run
both in TF32. So a convolutional network in fp32 on an A100 runs at the TF32 rate, while a
transformer in PyTorch runs its matmuls at the fp32 rate (where an RTX 3090, whose fp32 peak
is higher, is faster). ``FP32_RUN_IN_TF32`` is the share of the work each task runs in TF32;
the peak is the time-weighted blend of the two rates.
"""

from __future__ import annotations

from advisor.catalog.gpus import GpuSpec, has_fp8
from advisor.profile import Precision, Task

SIXTEEN_BIT = (Precision.fp16, Precision.bf16, Precision.amp, Precision.fp8)
# FP8 training (Transformer Engine, torchao float8) runs the linear layers' GEMMs in FP8 and
# keeps the rest in 16 bits: attention's soft-max, normalisation, the optimizer and the
# collectives. Of a 16-bit step's compute time the GEMMs FP8 takes over are about 70 %, and
# they run 1.8x as fast (the tensor cores' 2x, less the per-tensor scaling and casts): about
# 1.45x the 16-bit rate end to end, inside the 1.3-1.75x published FP8 training runs report
# (FP8-LM, Peng et al. 2023, arXiv:2310.18313). Assumptions, not a fit.
FP8_GEMM_SHARE = 0.7
FP8_GEMM_SPEEDUP = 1.8
# generations whose tensor cores run TF32
TF32_GENERATIONS = frozenset({"ampere", "ada", "hopper", "blackwell"})
# share of an fp32 job's FLOPs that framework defaults run in TF32 on those cards:
# convolutional networks all of it (cuDNN), transformers and recommenders' MLPs none of it
# (PyTorch's matmuls); speech models half (convolutional front-end, transformer body); a
# network of unknown kind two thirds (its convolutions, and its matmuls under TensorFlow or
# JAX, run in TF32; only PyTorch's matmuls stay in fp32). An assumption, not a fit.
FP32_RUN_IN_TF32 = {Task.image_classification: 1.0, Task.object_detection: 1.0,
                    Task.segmentation: 1.0, Task.gan: 1.0, Task.speech_recognition: 0.5,
                    Task.reinforcement_learning: 2.0 / 3.0, Task.other: 2.0 / 3.0,
                    Task.nlp: 0.0, Task.llm: 0.0, Task.recommendation: 0.0}


def _tf32_rate(gpu: GpuSpec) -> float:
    return max(gpu.tflops_fp32, gpu.tflops_fp16_dense / 2.0)


def tf32_tflops(gpu: GpuSpec) -> float:
    """The TF32 tensor-core peak: half the 16-bit rate on cards that have it."""
    if (gpu.generation or "").lower() in TF32_GENERATIONS:
        return _tf32_rate(gpu)
    return gpu.tflops_fp32


def peak_tflops(gpu: GpuSpec, precision: Precision, task: Task = Task.llm) -> float:
    """Dense peak at a precision: tensor cores for 16-bit, TF32 at half their rate, fp32 as
    the frameworks run it by default on the task's kind of network (module docstring)."""
    if precision == Precision.fp8 and has_fp8(gpu):
        return gpu.tflops_fp16_dense / (FP8_GEMM_SHARE / FP8_GEMM_SPEEDUP + 1.0 - FP8_GEMM_SHARE)
    if precision in SIXTEEN_BIT:  # FP8 on a card without it is refused when the profile is read
        return gpu.tflops_fp16_dense
    if precision == Precision.tf32:  # said by the user: their card runs it
        return _tf32_rate(gpu)
    share = FP32_RUN_IN_TF32.get(task, 2.0 / 3.0)
    fast = tf32_tflops(gpu)
    if share <= 0.0 or fast <= gpu.tflops_fp32:
        return gpu.tflops_fp32
    return 1.0 / (share / fast + (1.0 - share) / gpu.tflops_fp32)
