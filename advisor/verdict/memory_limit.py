"""Memory at the card's limit: where a peak-memory estimate cannot tell "fits" from "out of
memory" (issue 31).

Leaving each source out, the published peak of a language-model fine-tune lies between
``memory_peak_under_estimate`` (4.5 %) below and ``memory_peak_over_estimate`` (19 %) above the
advisor's estimate in 8 runs of 10 (``benchmarks/memory_by_source.py``): the estimate errs low
more often than high. So a plan that fits with its estimate above ``1 / (1 + over)`` of the
usable memory may still run out of memory, and one short of the card by no more than
``1 / (1 - under)`` may still run there. The verdict says which side it is on and how close,
so a user neither starts a long run that stops on out-of-memory, nor pays for more GPUs
because of an estimate a few per cent over what one card holds.

Only where that spread was measured: language models whose memory is estimated — not set by
a run on one GPU the profile states, which lowers the estimate onto the card's edge
(``estimate_applies``).
"""

from __future__ import annotations

from typing import Any

from advisor.catalog.gpus import resolve_gpu
from advisor.profile import Profile, Task
from advisor.scaling.layouts.eligibility import uses_layouts
from advisor.scaling.measured_memory import memory_estimate
from advisor.scaling.parameters import ScalingParams, load_params
from advisor.scaling.result import Projection
from advisor.verdict.projection_for import projection_for


def estimate_applies(profile: Profile) -> bool:
    """The measured spread speaks for this profile's memory: a language model, its memory
    estimated rather than set by a run on one GPU the profile states (module docstring): a
    measured single-GPU throughput lowers the layouts' estimate onto the card's edge
    (``layouts.engine.measured_activation_scale``), and on the data-parallel path a stated
    run time does too (``measured_memory.memory_estimate``)."""
    if profile.task != Task.llm or profile.training.single_gpu_throughput is not None:
        return False
    p = load_params()
    gpu = resolve_gpu(profile.hardware.gpu, profile.hardware.intra_link)
    if uses_layouts(profile, gpu.memory_gb, p):
        return True  # the layouts lower their estimate only for a measured throughput
    return memory_estimate(profile, gpu.memory_gb, p).note is None


def memory_share(projection: Projection, i: int) -> tuple[float, float] | None:
    """(GB each GPU needs, GB usable on each) at the projection's ``i``-th count, or None where
    the projection says no usable memory. What it needs is what must fit the card: the usable
    memory less the margin (paged optimizer states, which move to host RAM when the card is
    full, need no room of their own)."""
    margins = projection.memory_margin_gb
    if not margins or i >= len(margins) or not projection.usable_memory_gb:
        return None
    usable = float(projection.usable_memory_gb)
    needed = usable - float(margins[i])
    return (needed, usable) if usable > 0.0 and needed > 0.0 else None


def at_limit(fits: bool, share: float, p: ScalingParams) -> bool:
    """A plan at the limit (``share``: GB needed over GB usable): it fits, but a peak the
    measured spread puts above the estimate would not; or it is short of the card, but a peak
    the spread puts below the estimate would fit. A plan short of host RAM, not of the card
    (share at most 1), is neither."""
    if fits:
        return share * (1.0 + p.memory_peak_over_estimate) > 1.0
    return 1.0 < share <= 1.0 / (1.0 - p.memory_peak_under_estimate)


def one_gpu_facts(projection: Projection, p: ScalingParams, applies: bool) -> dict[str, Any]:
    """The base facts: the measured spread (in per cent) and, where one GPU is projected and
    does not fit its memory, how far over it is and whether a peak below the estimate would
    fit."""
    facts: dict[str, Any] = {"memory_peak_over_percent": 100.0 * p.memory_peak_over_estimate,
                             "memory_peak_under_percent": 100.0 * p.memory_peak_under_estimate,
                             "one_gpu_near_fit": False}
    at_one = memory_share(projection, 0) if applies and projection.gpus \
        and projection.gpus[0] == 1 else None
    if at_one is None:
        return facts
    memory, usable = at_one
    facts["one_gpu_usable_gb"] = usable
    facts["one_gpu_needed_gb"] = memory
    share = memory / usable
    if not projection.single_gpu_fits and share > 1.0:  # short of the card (not of host RAM)
        facts["one_gpu_short_percent"] = 100.0 * (share - 1.0)
        facts["one_gpu_near_fit"] = at_limit(False, share, p)
    return facts


def own_card_facts(asked: Profile | None, resting: Profile, resting_near_fit: bool,
                   p: ScalingParams) -> dict[str, Any]:
    """Whether one of the user's own GPUs nearly holds the training as they set it up, where
    the answer rests on another profile (other cards, another method, a setting changed) whose
    own one-GPU figures do not say so already: then ``one_gpu_facts`` reads that profile, and
    the card the user has would never be checked (the answer may rent or buy for an estimate a
    few per cent over it). ``asked``: the profile as the user gave it (None: not known)."""
    facts: dict[str, Any] = {"own_gpu_near_fit": False}
    if asked is None or resting_near_fit or _same_one_gpu(asked, resting) \
            or not estimate_applies(asked):
        return facts
    own = one_gpu_facts(projection_for(asked, [1]), p, True)
    if not own["one_gpu_near_fit"]:
        return facts
    return {"own_gpu_near_fit": True, "own_gpu_short_percent": own["one_gpu_short_percent"],
            "own_gpu_needed_gb": own["one_gpu_needed_gb"],
            "own_gpu_usable_gb": own["one_gpu_usable_gb"]}


def _same_one_gpu(asked: Profile, resting: Profile) -> bool:
    """One GPU of ``resting`` is one GPU of ``asked``: the same card, model and training (a
    machine of more such cards, or other prices, change nothing on one card)."""
    return (asked.task == resting.task and asked.model == resting.model
            and asked.training == resting.training
            and asked.hardware.gpu == resting.hardware.gpu
            and asked.hardware.intra_link == resting.hardware.intra_link)


def verdict_memory_facts(projection: Projection, i: int, p: ScalingParams,
                         applies: bool) -> dict[str, Any]:
    """The verdict's memory per GPU, its cards' usable memory, the share planned and whether a
    run that fits is within the measured spread of the limit."""
    at = memory_share(projection, i) if applies else None
    if at is None:
        return {}
    memory, usable = at
    share = memory / usable
    fits = bool(projection.fits[i])
    return {"verdict_memory_gb": memory, "verdict_usable_gb": usable,
            "verdict_memory_percent": 100.0 * share,
            "verdict_memory_at_limit": fits and at_limit(fits, share, p)}


def counts_at_limit(projection: Projection, p: ScalingParams) -> list[tuple[int, float, bool]]:
    """(GPU count, share of the usable memory needed, fits) of every count at the limit."""
    out = []
    for i, n in enumerate(projection.gpus):
        at = memory_share(projection, i)
        if at is None:
            continue
        share = at[0] / at[1]
        fits = bool(projection.fits[i])
        if at_limit(fits, share, p):
            out.append((n, share, fits))
    return out
