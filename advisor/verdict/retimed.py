"""A measured one-GPU time carried over to a setup change (issue 17): the user timed the
training as configured, and a change that costs compute (recomputation, offload's copies, a
smaller micro-batch) or saves it (LoRA's weight gradients) must show in the run's hours."""

from __future__ import annotations

from advisor.profile import Profile
from advisor.scaling.activations import recompute_factor
from advisor.scaling.project import reference_s_per_token


def retimed(profile: Profile, changed: Profile) -> Profile:
    """``changed`` (a change of ``profile``) with ``profile``'s measured one-GPU time (one GPU
    with enough memory, as configured) scaled by the time per token on that GPU with and
    without the change: the layouts' for the transformers they plan, else the work of a step
    with and without recomputation (full checkpointing: 4 passes' worth of work instead of 3;
    a smaller batch with accumulation keeps the samples, and so the time). A planned run is
    timed by the projection already. The card the run was timed on is kept."""
    t = changed.training
    if t.single_gpu_hours is None and t.single_gpu_throughput is None:
        return changed
    before, after = reference_s_per_token(profile), reference_s_per_token(changed)
    if not before or not after:  # the data-parallel path: only recomputation changes it
        before, after = recompute_factor(profile), recompute_factor(changed)
    ratio = after / before
    if ratio == 1.0:
        return changed
    update = {}
    if t.single_gpu_hours is not None:
        update["single_gpu_hours"] = t.single_gpu_hours * ratio
    if t.single_gpu_throughput is not None:
        update["single_gpu_throughput"] = t.single_gpu_throughput / ratio
    training = t.model_validate({**t.model_dump(), **update}).timed_on(t.timed_card_gb)
    return changed.model_copy(update={"training": training})
