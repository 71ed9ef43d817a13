"""A profile's training section with some fields set, validated once per distinct result
within one piece of work (a comparison, a recommendation).

A comparison sets the same change on the same training again and again (every option on the
user's kind of GPU tries the same setting changes; a change that does not fit is tried again
with checkpointing): the large-model example validated 40 sections a comparison, 7 of them
distinct. Inside ``validating_once()`` (entered by ``sharing_projections``) a section is
validated once per key and each caller gets a copy of its own (its nested sections shared, as
``model_copy`` shares a profile's other sections: profiles are not changed in place);
one that fails validation is not remembered (it raises again). The key is the training's
fields as its JSON writes them (worked out once per section object) and the fields set: a
validated section's fields have the types of its schema, so equal JSON means equal fields.
Outside the block it is ``model_validate`` of the merged fields, as before.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from contextvars import ContextVar
from typing import Any

from advisor.files.memo_block import memo_block
from advisor.profile import TrainingSpec

_made: ContextVar[dict[tuple[type, str, str], TrainingSpec] | None] = ContextVar(
    "changed_training", default=None)
# each section object's JSON, by identity (the object held so its id is not reused)
_json: ContextVar[dict[int, tuple[TrainingSpec, str]] | None] = ContextVar(
    "training_json", default=None)


def validating_once() -> AbstractContextManager[None]:
    """Within this block each distinct changed section is validated once (nested blocks
    share the outer one's)."""
    return memo_block(_made, _json)


def changed_training(training: TrainingSpec, update: dict[str, Any]) -> TrainingSpec:
    """``training`` with the fields of ``update`` set, validated as a whole section."""
    made, json = _made.get(), _json.get()
    if made is None or json is None:
        return _timed_as(training, training.model_validate({**training.model_dump(), **update}))
    known = json.get(id(training))
    if known is None or known[0] is not training:
        known = json[id(training)] = (training, training.model_dump_json())
    key = (type(training), known[1], repr(update))
    found = made.get(key)
    if found is None:
        found = made[key] = training.model_validate({**training.model_dump(), **update})
    return _timed_as(training, found)


def _timed_as(training: TrainingSpec, changed: TrainingSpec) -> TrainingSpec:
    """A copy of ``changed`` keeping the card ``training``'s run was timed on (not a field: its
    JSON does not hold it, so neither does the key)."""
    return changed.timed_on(training.timed_card_gb)
