"""Bytes per parameter of weights, gradients and optimizer states for a data-parallel model
(one that is not planned as a transformer layout): the profile's precision, optimizer and
pure 16-bit training, as the layouts count them (``layouts/methods.full_training``; Adafactor,
which the layouts do not count, as ``diffusion.training_states`` does), scaled by
``optimizer_bytes_per_param`` (16: mixed-precision Adam). A diffusion model's are everything
one GPU holds of it (``diffusion.diffusion_states``: its trained part, EMA and frozen
encoders) per denoiser parameter."""

from __future__ import annotations

from advisor.profile import Profile, Task
from advisor.scaling.diffusion import diffusion_states, training_states
from advisor.scaling.optimizer_family import optimizer_of
from advisor.scaling.parameters import ScalingParams

MIXED_ADAM = 16.0  # bytes per parameter of mixed-precision Adam, what the parameter assumes


def state_bytes_per_param(profile: Profile, p: ScalingParams) -> float:
    if profile.task == Task.diffusion:
        return diffusion_states(profile, p).total / (profile.model.params_millions * 1e6)
    t = profile.training
    states = training_states(t.precision, optimizer_of(profile), t.pure_16bit)
    return p.optimizer_bytes_per_param * states.per_param / MIXED_ADAM
