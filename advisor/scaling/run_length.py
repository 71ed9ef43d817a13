"""How much one run processes, and how long one GPU would take, measured or planned.

A run is measured (``single_gpu_hours``, or a single-GPU throughput with the data's size) or
planned from its size alone: tokens (``dataset_tokens`` x epochs, one epoch when none is
given) or samples x epochs. A planned run's time comes from its FLOPs at the throughput the
projection finds (``advisor.scaling.llm_compute`` for large transformers, the task's
efficiency otherwise): nobody has a one-GPU time for a 70B model.
"""

from __future__ import annotations

from advisor.profile import Profile
from advisor.scaling.inputs import sequence_length


def run_samples(profile: Profile) -> float | None:
    """Samples (sequences for language models) one run processes; None when not given."""
    t = profile.training
    if t.dataset_tokens is not None:
        return t.dataset_tokens * (t.epochs or 1.0) / sequence_length(profile)
    if t.dataset_samples is not None and t.epochs is not None:
        return float(t.dataset_samples) * t.epochs
    return None


def run_tokens(profile: Profile) -> float | None:
    """Tokens one run processes (samples x sequence length); None without the data's size."""
    t = profile.training
    if t.dataset_tokens is not None:
        return t.dataset_tokens * (t.epochs or 1.0)
    samples = run_samples(profile)
    return None if samples is None else samples * sequence_length(profile)


def one_gpu_hours(profile: Profile, samples_per_s_one_gpu: float) -> float:
    """Hours of one run on one GPU: the profile's, else its samples at the given throughput
    (measured or planned; a model too large for one GPU is timed on one with enough memory)."""
    t = profile.training
    if t.single_gpu_hours is not None:
        return t.single_gpu_hours
    samples = run_samples(profile)
    measured = profile.single_gpu_samples_per_s  # in samples, whatever unit it was given in
    if t.single_gpu_throughput and measured and samples:
        return samples / measured / 3600.0
    if samples is None or samples_per_s_one_gpu <= 0:
        raise ValueError("the run's length is unknown")
    return samples / samples_per_s_one_gpu / 3600.0
