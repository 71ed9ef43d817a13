"""A GPU's dense peak at the training precision: what MFU and the compute time are measured
against (the data-parallel model and the large-model layouts both read it)."""

from __future__ import annotations

from advisor.catalog.gpus import GpuSpec
from advisor.profile import Precision

SIXTEEN_BIT = (Precision.fp16, Precision.bf16, Precision.amp)


def peak_tflops(gpu: GpuSpec, precision: Precision) -> float:
    """Dense peak at a precision: tensor cores for 16-bit, TF32 at half their rate."""
    if precision in SIXTEEN_BIT:
        return gpu.tflops_fp16_dense
    if precision == Precision.tf32:
        return max(gpu.tflops_fp32, gpu.tflops_fp16_dense / 2.0)
    return gpu.tflops_fp32
