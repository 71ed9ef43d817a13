"""A model chosen from the catalog in the wizard (issue 32): what choosing it answers, and a
profile saved as the id plus what the user changed.

Choosing ``llama-3.1-8b`` in the model list sets the model's id, its name and every size and
shape field the catalog entry gives (parameters, layers, hidden size, heads, key/value heads,
vocabulary, FLOPs per sample …), clears the shape fields it does not give (a ResNet chosen
after a Llama has no layers), and sets the task unless the user chose one. A field typed
afterwards overrides the entry; Save then writes ``model: {id: …}`` with only the fields that
differ from the entry (the reader fills the rest from the catalog, ``expand_model_id``), the
file's comments and key order kept as for any profile (``advisor.profile.round_trip``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from advisor.catalog.models import entry_profile_fields, find_model
from advisor.catalog.profile_check import parse_profile_text
from advisor.files.atomic import atomic_write_text
from advisor.files.errors import InputError
from advisor.files.yaml_lines import dump_yaml
from advisor.profile import ModelSpec, Profile
from advisor.profile.drafts import is_draft
from advisor.profile.economics import names_money
from advisor.profile.market import MARKET_CURRENCY, profile_market
from advisor.profile.writing import dump_profile, profile_to_data, save_profile

# The model's size and shape: a field a catalog entry does not give is cleared on choosing it
SHAPE_FIELDS = ("params_millions", "flops_per_sample_gflops", "layers", "hidden_size",
                "attention_heads", "kv_heads", "vocab_size")


def model_answers(model_id: str | None, task_chosen: bool) -> dict[str, Any]:
    """The answers (by dotted path) choosing ``model_id`` in the list sets; ``task_chosen``:
    the user picked the task, which then stays. None: no catalog model (the fields stay as
    they are, now the user's own model's). An id the catalog does not know only sets the id
    (the answers' validation names the closest ones at the field)."""
    entry = find_model(model_id) if model_id else None
    if entry is None:
        return {"model.id": model_id}
    given = entry_profile_fields(entry)
    out: dict[str, Any] = {"model.id": entry.id}
    for key in SHAPE_FIELDS:
        if key in ModelSpec.model_fields:
            out[f"model.{key}"] = given.get(key)
    out.update({f"model.{key}": value for key, value in given.items()})
    if not task_chosen:
        out["task"] = entry.task.value
    return out


def _with_currency(profile: Profile) -> Profile:
    """Prices written with the currency they were entered in (as ``save_profile`` does)."""
    if profile.economics.currency is None and names_money(profile.economics):
        currency = MARKET_CURRENCY[profile_market(profile.economics)]
        return profile.model_copy(update={
            "economics": profile.economics.model_copy(update={"currency": currency})})
    return profile


def trimmed_data(profile: Profile) -> dict[str, Any] | None:
    """The profile's data with the model fields its catalog entry gives alike left out (and
    the task where it is the entry's); None when it names no catalog model."""
    entry = find_model(profile.model.id) if profile.model.id else None
    if entry is None:
        return None
    data = profile_to_data(profile)
    model = dict(data.get("model") or {})
    for key, value in entry_profile_fields(entry).items():
        if key in model and model[key] == value:
            del model[key]
    model["id"] = entry.id
    data["model"] = {"id": entry.id, **{k: v for k, v in model.items() if k != "id"}}
    if data.get("task") == entry.task.value:
        del data["task"]
    return data


def _reads(text: str, fmt: str) -> Profile | None:
    try:
        return parse_profile_text(text, fmt=fmt)
    except InputError:
        return None


def save_keeping_id(profile: Profile, path: str | Path, *, replace_read_only: bool = False,
                    original: str | None = None) -> str:
    """``save_profile``, but a profile that names a catalog model is written as its id plus
    what differs from the entry, when that reads back as the same profile (else in full).
    Returns the text written."""
    path = Path(path)
    profile = _with_currency(profile)
    data = trimmed_data(profile)
    if data is None:
        return save_profile(profile, path, replace_read_only=replace_read_only,
                            original=original)
    fmt = "json" if path.suffix.lower() == ".json" else "yaml"
    text = None
    if fmt == "yaml" and original and not is_draft(original):
        from advisor.profile.round_trip import edited_yaml  # noqa: PLC0415 - Save only

        try:  # the text edited must read back, without the catalog, as the data given
            bare = Profile.model_validate(data)
        except ValidationError:
            bare = None
        text = edited_yaml(original, bare, data) if bare is not None else None
    if text is None:
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n" if fmt == "json" \
            else dump_yaml(data)
    if _reads(text, fmt) != _reads(dump_profile(profile, fmt), fmt):  # something was lost
        return save_profile(profile, path, replace_read_only=replace_read_only,
                            original=original)
    atomic_write_text(path, text, replace_read_only=replace_read_only)
    return text
