"""One projection per distinct input within one piece of work (a comparison, a recommendation).

A comparison evaluates each option as ``recommend`` would, and several options or steps of
one option ask the scaling model the same question: the user's setup and the same GPUs rented
differ only in money, a setup change the verdict rests on is projected once in the search for
it and again as the verdict's projection, a rented 80 GB card is tried for every workstation
that cannot hold the model. Inside ``sharing_projections()``, ``project_shared`` answers a
question it has already answered with the same ``Projection``; outside, it is ``project``.

The key is everything ``project`` reads: the whole profile as its pydantic model dumps it,
less the fields the scaling model never reads (``NOT_PROJECTED``: the money and the other
setups; ``tests/architecture/test_projection_inputs.py`` fails when advisor/scaling starts to
read one), the GPU's resolved spec (the catalog and the user's overrides), and the counts
as ``project`` normalises them. A field added to the profile is in the key by itself. The
scaling parameters are the shipped ones, loaded once per process (``load_params``); a caller
with other parameters calls ``project`` itself. Projections are never changed in place
(``with_measured_speedups`` and the cost model copy), so one object can serve every asker.

Some questions are asked only to learn that nothing fits: a setting change that does not fit
the user's GPUs is dropped (``fits_here``, unless offload fits the GPUs but not the RAM),
and the search for more machines reads only the first count that fits (``beyond``).
``memory_shared`` answers them before projecting: from the projection when it was made already, else from the
layouts' memory alone (``memory_answer``), once per key; the projection is then made only
when it is read.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from advisor.catalog import resolve_gpu
from advisor.catalog.override_location import one_override_state
from advisor.files.errors import InputError
from advisor.files.memo_block import memo_block
from advisor.profile import Profile
from advisor.scaling import default_gpu_counts, project
from advisor.scaling.fits_anywhere import MemoryAnswer, memory_answer
from advisor.scaling.layouts.shared_memory import sharing_memory
from advisor.scaling.result import Projection
from advisor.verdict.changed_training import validating_once
from advisor.verdict.shared_costs import sharing_costs

# Profile fields the projection does not read: what it costs, and the other setups to compare.
NOT_PROJECTED = frozenset({"economics", "alternatives"})

_memo: ContextVar[dict[tuple[str, str, tuple[int, ...]], Projection] | None] = ContextVar(
    "shared_projections", default=None)
_memory: ContextVar[dict[tuple[str, str, tuple[int, ...]], MemoryAnswer | None] | None] = \
    ContextVar("shared_memory", default=None)
# each profile object's key (by identity, the object held so its id is not reused): a question
# asked of memory first and then projected is keyed once; profiles are not changed in place
# (each setup change is a copy), so an object's key holds for the block
_keys: ContextVar[dict[tuple[int, tuple[int, ...] | None],
                       tuple[Profile, tuple[str, str, tuple[int, ...]]]] | None] = ContextVar(
    "shared_keys", default=None)


@contextmanager
def sharing_projections() -> Iterator[None]:
    """Within this block each distinct projection is computed once (nested blocks share the
    outer block's projections), the user's override file is read as it was when the block
    began (``one_override_state``), each changed training section is validated once
    (``validating_once``), the memory of each distinct set of layouts is computed once
    (``scaling.layouts.shared_memory``) and each distinct cost report is made once
    (``shared_costs``); the memo is dropped when the outermost block ends."""
    # one catalog for the whole block, one stat; each changed training validated once
    with memo_block(_memo, _memory, _keys), one_override_state(), validating_once(), \
            sharing_memory(), sharing_costs():
        yield


def projection_key(profile: Profile, gpus: list[int] | None
                   ) -> tuple[str, str, tuple[int, ...]]:
    """What ``project(profile, gpus)`` depends on, as a hashable key."""
    hw = profile.hardware
    counts = tuple(sorted(set(map(int, gpus or default_gpu_counts(hw.total_gpus,
                                                                    hw.gpus_per_node)))))
    # the fields' values as text: every field of the spec, without building its serializer
    # (GpuSpec defers it; the compiled table is read without validating)
    spec = repr(resolve_gpu(hw.gpu, hw.intra_link).__dict__)
    # the card a moved training's run was timed on is no field: its JSON does not hold it
    moved = profile.training.timed_card_gb
    return (profile.model_dump_json(exclude=set(NOT_PROJECTED))
            + ("" if moved is None else f"|timed on {moved!r} GB"), spec, counts)


def project_shared(profile: Profile, gpus: list[int] | None = None) -> Projection:
    """``project(profile, gpus)``, computed once per key inside ``sharing_projections``.
    A question that raises (a GPU the catalog does not know, a count below one) is not
    remembered: it raises again from ``project``."""
    memo = _memo.get()
    if memo is None:
        return project(profile, gpus)
    try:
        key = _key_of(profile, gpus)
    except (InputError, ValueError, KeyError):
        return project(profile, gpus)
    found = memo.get(key)
    if found is None:
        found = memo[key] = project(profile, gpus)
    return found


def memory_shared(profile: Profile, gpus: list[int] | None) -> MemoryAnswer | None:
    """What ``project(profile, gpus)`` says of memory (``MemoryAnswer``), from its projection
    when it was made already, else from the layouts' memory, once per key inside
    ``sharing_projections``; None when only the projection can tell (a profile the layouts
    do not model, a question it refuses: the caller's projection then answers, or raises,
    as before)."""
    memo, known = _memo.get(), _memory.get()
    if memo is None or known is None:
        return _answer(profile, gpus)
    try:
        key = _key_of(profile, gpus)
    except (InputError, ValueError, KeyError):
        return None
    found = memo.get(key)
    if found is not None:
        return MemoryAnswer.of(found)
    if key not in known:
        known[key] = _answer(profile, gpus)
    return known[key]


def _key_of(profile: Profile, gpus: list[int] | None) -> tuple[str, str, tuple[int, ...]]:
    """``projection_key``, worked out once per profile object and counts inside the block."""
    keys = _keys.get()
    asked = (id(profile), None if gpus is None else tuple(gpus))
    known = keys.get(asked) if keys is not None else None
    if known is not None and known[0] is profile:
        return known[1]
    key = projection_key(profile, gpus)
    if keys is not None:
        keys[asked] = (profile, key)
    return key


def _answer(profile: Profile, gpus: list[int] | None) -> MemoryAnswer | None:
    try:
        return memory_answer(profile, gpus)
    except (InputError, ValueError, KeyError):
        return None


__all__ = ["NOT_PROJECTED", "memory_shared", "project_shared", "projection_key",
           "sharing_projections"]
