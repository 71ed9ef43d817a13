"""How each GPU's batch and the accumulation steps change when GPUs are added.

``training.keep_batch: per_gpu`` (weak scaling): every GPU keeps its batch and its
accumulation steps; the global batch grows with the GPUs. ``global`` (strong scaling, e.g. to
keep the learning rate): the global batch of the single-GPU run, ``batch x accumulation``, is
shared out: first with fewer accumulation steps, then with a smaller batch per GPU (never
below one sample). Smaller per-GPU steps keep their fixed costs (launches, the optimizer step)
and exchange gradients more often per sample, so strong scaling scales worse (# F03).
"""

from __future__ import annotations

import numpy as np

from advisor.profile import KeepBatch, Profile


def scaled_batches(profile: Profile, gpus: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(per-GPU batch at N over the profile's batch, micro-batches per optimizer step at N),
    one value per GPU count."""
    n = np.asarray(gpus, dtype=float)
    t = profile.training
    k0 = float(t.gradient_accumulation_steps)
    if t.keep_batch == KeepBatch.per_gpu:
        return np.ones_like(n), np.full_like(n, k0)
    steps = np.maximum(k0 / n, 1.0)  # fewer micro-batches per optimizer step first
    per_gpu = t.batch_per_gpu * k0 / (n * steps)  # then smaller batches
    batch = np.maximum(per_gpu, 1.0)
    return batch / t.batch_per_gpu, steps
