"""Whether a projection fits any of its counts, answered without projecting.

Some questions are asked only to learn that nothing fits (a setting change that does not fit
the user's GPUs is dropped, a search for more machines that finds none returns nothing):
for a profile the layouts model, the candidates' memory alone answers it
(``layouts.engine.any_layout_fits``: no step time, no pick, no notes).
"""

from __future__ import annotations

from advisor.catalog.gpus import resolve_gpu
from advisor.profile import Profile
from advisor.scaling.layouts.eligibility import uses_layouts
from advisor.scaling.links import link_figures
from advisor.scaling.parameters import ScalingParams, load_params
from advisor.scaling.project import _check_counts, _network, default_gpu_counts


def any_count_fits(profile: Profile, gpus: list[int] | None = None,
                   params: ScalingParams | None = None) -> bool | None:
    """``any(project(profile, gpus, params).fits)``, from the layouts' memory; None when only
    the projection can tell (a profile the layouts do not model, a measured batch that
    corrects the estimate). Raises where ``project`` raises before its layouts (the counts,
    the GPU)."""
    p = params or load_params()
    counts = _check_counts(gpus or default_gpu_counts(profile.hardware.total_gpus))
    gpu = resolve_gpu(profile.hardware.gpu, profile.hardware.intra_link)
    if not uses_layouts(profile, gpu.memory_gb, p):
        return None
    from advisor.scaling.layouts.engine import any_layout_fits  # a layout profile's own import

    hw = profile.hardware
    inter_link, _ = _network(profile, counts[-1], gpu)
    links = link_figures(hw.intra_link, inter_link, gpu, hw.gpus_per_node,
                         hw.allreduce_busbw_gbs)
    return any_layout_fits(profile, counts, gpu, links, p)
