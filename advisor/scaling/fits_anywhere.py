"""What a layout projection's memory alone says, answered without projecting.

Some questions are asked only to learn that nothing fits (a setting change that does not fit
the user's GPUs is dropped, a search for more machines that finds none returns nothing), or
how far the smallest layout misses (offload that fits the GPUs but not the machine's RAM):
for a profile the layouts model, the candidates' memory alone answers them
(``layouts.engine.kept_memory``: no step time, no pick, no notes).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from advisor.catalog.gpus import resolve_gpu
from advisor.profile import Profile
from advisor.scaling.layouts.eligibility import uses_layouts
from advisor.scaling.links import link_figures
from advisor.scaling.parameters import ScalingParams, load_params
from advisor.scaling.project import _check_counts, _network, default_gpu_counts
from advisor.scaling.result import Projection


@dataclass(frozen=True)
class MemoryAnswer:
    """A projection's ``gpus``, ``fits``, ``memory_per_gpu_gb`` and ``usable_memory_gb`` as
    ``project`` gives them, except that ``memory_per_gpu_gb`` is None at a count that fits
    when only memory was computed (the layout kept there is the fastest)."""

    gpus: list[int]
    fits: list[bool]
    memory_per_gpu_gb: list[float | None]
    usable_memory_gb: float | None

    @classmethod
    def of(cls, projection: Projection) -> MemoryAnswer:
        return cls(projection.gpus, projection.fits, projection.memory_per_gpu_gb,
                   projection.usable_memory_gb)


def memory_answer(profile: Profile, gpus: list[int] | None = None,
                  params: ScalingParams | None = None) -> MemoryAnswer | None:
    """``MemoryAnswer.of(project(profile, gpus, params))`` from the layouts' memory; None when
    only the projection can tell (a profile the layouts do not model, a measured batch that
    corrects the estimate). Raises where ``project`` raises before its layouts (the counts,
    the GPU)."""
    p = params or load_params()
    counts = _check_counts(gpus or default_gpu_counts(profile.hardware.total_gpus,
                                                          profile.hardware.gpus_per_node))
    gpu = resolve_gpu(profile.hardware.gpu, profile.hardware.intra_link)
    if not uses_layouts(profile, gpu.memory_gb, p):
        return None
    from advisor.scaling.layouts.engine import kept_memory  # a layout profile's own import

    hw = profile.hardware
    inter_link, _ = _network(profile, counts[-1], gpu)
    links = link_figures(hw.intra_link, inter_link, gpu, hw.gpus_per_node,
                         hw.allreduce_busbw_gbs)
    found = kept_memory(profile, counts, gpu, links, p)
    if found is None:
        return None
    kept, usable = found
    # rounded as the projection rounds them (layout_projection)
    shown = np.round(np.array([np.nan if gb is None else gb for gb in kept]), 2).tolist()
    return MemoryAnswer(gpus=counts, fits=[gb is None for gb in kept],
                        memory_per_gpu_gb=[None if gb is None else x
                                           for gb, x in zip(kept, shown, strict=True)],
                        usable_memory_gb=round(usable, 3))
