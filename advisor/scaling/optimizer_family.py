"""Which optimizer a profile trains with, and its family: SGD-like or Adam-family. The
learning-rate advice (F14's linear rule is for SGD-like large-batch training) and the bytes
of optimizer state per parameter both follow it."""

from __future__ import annotations

from advisor.profile import Optimizer, Profile, Task

VISION_TASKS = (Task.image_classification, Task.object_detection, Task.segmentation)


def optimizer_of(profile: Profile) -> Optimizer:
    """The profile's optimizer; ``auto``: SGD with momentum for vision, AdamW otherwise."""
    chosen = profile.training.optimizer
    if chosen != Optimizer.auto:
        return chosen
    return Optimizer.sgd if profile.task in VISION_TASKS else Optimizer.adamw


def optimizer_family(profile: Profile) -> str:
    """``sgd`` (SGD-like: momentum SGD, LARS) or ``adam`` (Adam, AdamW, LAMB, 8-bit AdamW)."""
    return "sgd" if optimizer_of(profile) == Optimizer.sgd else "adam"
