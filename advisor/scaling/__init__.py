"""How fast 1...N GPUs will train a workload: a physical step-time model, fitted on published
measurements, with a low/high band and the bottleneck at each GPU count.

High level: ``project(profile, gpus) -> Projection``. Low level, for benchmark series and for
per-user refits: ``speedup(gpus, DataParallelInputs, ScalingParams)`` and ``breakdown``.
"""

from __future__ import annotations

from advisor.scaling.parameters import FITTED, ScalingParams, load_params
from advisor.scaling.physics import DataParallelInputs, StepBreakdown, breakdown, speedup
from advisor.scaling.project import default_gpu_counts, project
from advisor.scaling.result import Projection

# Article facts (shared/domain/seed-facts.md) the projection encodes, and where.
CITED_FACTS: dict[str, str] = {
    "F01": "typical 4 GPUs 2.5-3.5x, 8 GPUs 4-6x: typical input pipeline + PCIe links",
    "F03": "Amdahl: alternating training caps the parallel share (physics.breakdown)",
    "F04": "data parallel 4 -> 2.8-3.3x, 8 -> 5-5.5x: calibration of pipeline_stall_typical",
    "F05": "model parallel only when the model does not fit; 2 GPUs ~1.5x (model_parallel)",
    "F06": "pipeline bubble (p-1)/(m+p-1): 4 GPUs ~3x, < 2x with few micro-batches",
    "F07": "gradient all-reduce is the non-parallel part; ring 2(N-1)/N x bytes / busbw",
    "F08": "beyond 8 GPUs without NVLink/InfiniBand the inter-node tier dominates",
    "F18": "image/detection/speech: small gradients per compute, > 3x on 4 GPUs",
    "F19": "large NLP: big gradients, lower but ~5x on 8",
    "F20": "small models on fast GPUs: communication time exceeds compute",
    "F21": "GAN / RL alternating training: often < 1.5x",
    "F24": "from 16 GPUs or big models: ZeRO-3 / FSDP or the memory wall (memory.py)",
    "F25": "NVLink vs PCIe 4.0: 30 %-2x for communication-heavy models (links.py)",
    "F27": "thermal throttling of packed cards above ~84 degC (inputs.thermal_terms)",
    "F28": "data-pipeline starvation: stall and loader capacity (inputs.pipeline_terms)",
    "F29": "vGPU: '8 GPUs' that run like 2 (inputs.vgpu_sharing)",
    "F32": "one 8-GPU node ~20 % faster than two 4-GPU nodes (rings through the network)",
}

__all__ = ["CITED_FACTS", "FITTED", "DataParallelInputs", "Projection", "ScalingParams",
           "StepBreakdown", "breakdown", "default_gpu_counts", "load_params", "project",
           "speedup"]
