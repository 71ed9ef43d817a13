"""When nothing considered fits: how many GPUs would, on more machines like this one (F24).

The projection is the one `project` gives for those counts: ZeRO-3 / FSDP shard the model over
every GPU, tensor parallel stays inside a machine, and the machines talk over the profile's
network (or the default one for machines of this class). With activation checkpointing off,
the same search is run with it on: a transformer's activations, not its weights, are often
what does not fit, and checkpointing is cheaper than several more machines.

``extended`` then widens the counts a recommendation considers to those machines (up to twice
the first count that fits), so the verdict's count, its costs and its best value all come from
one projection — the figures `project` and `costs` print for the same counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.files.errors import InputError
from advisor.profile import ActivationCheckpointing, Profile
from advisor.scaling.result import Projection
from advisor.verdict.projection_for import projection_for
from advisor.verdict.shared_projections import memory_shared, project_shared

BEYOND_LIMIT = 256  # the largest count searched when nothing considered fits


@dataclass(frozen=True)
class Beyond:
    """``gpus``: the smallest larger count where the profile as given fits (None: none up to
    the limit); ``gpus_checkpointing``: the smallest count that fits with activation
    checkpointing, when the profile has it off and it needs fewer GPUs; ``considered``: the
    largest count considered before the search (None: no search)."""

    gpus: int | None
    gpus_checkpointing: int | None
    considered: int | None = None


NOTHING = Beyond(None, None)


def beyond_counts(profile: Profile, top: int) -> list[int]:
    """GPU counts above ``top`` to look for a fit: the profile's own GPUs not considered, then
    whole machines like this one (2..16, 32, 64, ... machines) up to BEYOND_LIMIT GPUs, or two
    machines when one machine already holds more."""
    hw = profile.hardware
    own = range(top + 1, hw.total_gpus + 1)
    limit = max(BEYOND_LIMIT, 2 * hw.gpus_per_node)
    machines = (m * hw.gpus_per_node for m in (*range(2, 17), 32, 64, 128, 256))
    return sorted({*own, *(c for c in machines if max(top, hw.total_gpus) < c <= limit)})


def _first_fit(profile: Profile, counts: list[int]) -> int | None:
    """The smallest of 1 and ``counts`` that fits (None: none does, or it cannot be
    projected): the layouts' memory alone says it (``memory_shared``), else the projection."""
    known = memory_shared(profile, [1, *counts])
    if known is None:
        try:
            known = project_shared(profile, [1, *counts])
        except (InputError, ValueError):
            return None
    return next((n for n, ok in zip(known.gpus, known.fits, strict=True) if ok), None)


def _fit(projection: Projection) -> int | None:
    return next((n for n, ok in zip(projection.gpus, projection.fits, strict=True) if ok),
                None)


def _checkpointed_fit(profile: Profile, counts: list[int]) -> int | None:
    """The smallest of ``counts`` (> 1) that fits with activation checkpointing on, when the
    profile has it off (else None)."""
    if profile.training.activation_checkpointing != ActivationCheckpointing.none:
        return None
    training = profile.training.model_copy(
        update={"activation_checkpointing": ActivationCheckpointing.full})
    lighter = profile.model_copy(update={"training": training})
    return _first_fit(lighter, sorted({n for n in counts if n > 1}))


def beyond(profile: Profile, projection: Projection) -> Beyond:
    """Where the model would fit when no count of ``projection`` does (else NOTHING)."""
    if any(projection.fits):
        return NOTHING
    counts = beyond_counts(profile, max(projection.gpus))
    if not counts:
        return NOTHING
    gpus = _first_fit(profile, counts)
    checkpointed = _checkpointed_fit(profile, [*projection.gpus, *counts])
    if checkpointed is not None and gpus is not None and checkpointed >= gpus:
        checkpointed = None
    return Beyond(gpus, checkpointed, max(projection.gpus))


def checkpointing_saves_gpus(profile: Profile, projection: Projection) -> int | None:
    """When the model fits some count of ``projection`` but not one GPU: the smallest count
    that fits with activation checkpointing, if that is fewer GPUs (F24); else None."""
    if projection.single_gpu_fits or not any(projection.fits):
        return None
    first = _fit(projection)
    checkpointed = _checkpointed_fit(profile, [n for n in projection.gpus if n < first])
    return checkpointed


def extended(profile: Profile, projection: Projection) -> tuple[Projection, Beyond]:
    """The counts a recommendation considers: ``projection`` itself when a count fits, else
    also whole machines like this one up to twice the first count that fits (so the value of
    a few more machines can be weighed), measured speed-ups kept (``projection_for``)."""
    larger = beyond(profile, projection)
    if larger.gpus is None:
        fewer = checkpointing_saves_gpus(profile, projection)
        return projection, larger if fewer is None else Beyond(None, fewer)
    more = [c for c in beyond_counts(profile, max(projection.gpus)) if c <= 2 * larger.gpus]
    return projection_for(profile, sorted({*projection.gpus, *more})), larger


def considered(profile: Profile, gpus: list[int] | None = None) -> tuple[Projection, Beyond]:
    """The projection ``recommend`` weighs: ``projection_for(profile, gpus)``, extended to
    machines like this one when nothing there fits. ``project`` and ``costs`` show the same
    counts when no ``--gpus`` list is given, so one profile has one set of figures."""
    return extended(profile, projection_for(profile, gpus))


__all__ = ["BEYOND_LIMIT", "Beyond", "beyond", "beyond_counts", "considered", "extended"]
