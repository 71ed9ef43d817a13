"""Bytes per parameter of weights, gradients and optimizer states for a data-parallel model
(one that is not planned as a transformer layout): the profile's precision, optimizer and
pure 16-bit training, as the layouts count them (``layouts/methods.full_training``), scaled
by ``optimizer_bytes_per_param`` (16: mixed-precision Adam)."""

from __future__ import annotations

from advisor.profile import Profile
from advisor.scaling.layouts.states import full_training
from advisor.scaling.optimizer_family import optimizer_of
from advisor.scaling.parameters import ScalingParams

MIXED_ADAM = 16.0  # bytes per parameter of mixed-precision Adam, what the parameter assumes


def state_bytes_per_param(profile: Profile, p: ScalingParams) -> float:
    t = profile.training
    states = full_training(t.precision, optimizer_of(profile), t.pure_16bit)
    return p.optimizer_bytes_per_param * states.per_param / MIXED_ADAM
