"""Which profiles the layout engine projects (``uses_layouts``), apart from the engine itself:
the projection asks for every profile, and a data-parallel one then needs none of the
layout modules (``tests/cli/test_fast_start.py`` holds ``project`` to that).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from advisor.profile import Offload, Parallelism, Profile, Task, TrainingMethod
from advisor.scaling.memory import single_gpu_fits

if TYPE_CHECKING:
    from advisor.scaling.parameters import ScalingParams

LAYOUT_CHOICES = (Parallelism.tensor, Parallelism.pipeline, Parallelism.hsdp)


def uses_layouts(profile: Profile, memory_gb: float, p: ScalingParams) -> bool:
    """Language models (``llm``; an ``nlp`` transformer when it is split, does not fit one
    GPU, fine-tunes with LoRA / QLoRA or offloads; a mixture of experts, whose compute follows
    its active parameters and whose experts may be split) take the layouts; everything else
    the data-parallel model."""
    t = profile.training
    if profile.task not in (Task.llm, Task.nlp):
        return False
    if (profile.task == Task.llm and t.planned_from_size) or profile.model.is_moe:
        return True  # decided before any memory estimate
    return (bool(t.tensor_parallel) or bool(t.pipeline_parallel)
            or t.parallelism in LAYOUT_CHOICES or t.method != TrainingMethod.full
            or t.offload != Offload.none or not single_gpu_fits(profile, memory_gb, p))
