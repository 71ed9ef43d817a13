"""Writing profiles (YAML or JSON) atomically: an existing file is never half-written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from advisor.files.atomic import atomic_write_text
from advisor.files.yaml_lines import dump_yaml
from advisor.profile.drafts import DRAFT_HEADER, is_draft
from advisor.profile.economics import names_money
from advisor.profile.market import MARKET_CURRENCY, profile_market
from advisor.profile.model import Profile


def profile_to_data(profile: Profile) -> dict[str, Any]:
    """Plain data for YAML/JSON: enums as strings, unset optional fields left out."""
    return profile.model_dump(mode="json", exclude_none=True)


def dump_profile(profile: Profile, fmt: str = "yaml") -> str:
    data = profile_to_data(profile)
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return dump_yaml(data)


def save_profile(profile: Profile, path: str | Path, *, replace_read_only: bool = False,
                 original: str | None = None) -> str:
    """Write atomically (temporary file + rename; ``advisor.files.atomic`` refuses what must
    not be replaced, and a read-only file unless ``replace_read_only``). Prices are written
    with the currency they were entered in (the market's, if unset: never the language's).
    ``original``: the YAML text the profile was read from, whose comments, key order and
    left-out defaults the file keeps (``round_trip.edited_yaml``). Returns the text written."""
    path = Path(path)
    if profile.economics.currency is None and names_money(profile.economics):
        currency = MARKET_CURRENCY[profile_market(profile.economics)]
        profile = profile.model_copy(update={
            "economics": profile.economics.model_copy(update={"currency": currency})})
    fmt = "json" if path.suffix.lower() == ".json" else "yaml"
    text = None
    if fmt == "yaml" and original and not is_draft(original):
        from advisor.profile.round_trip import edited_yaml  # noqa: PLC0415

        text = edited_yaml(original, profile, profile_to_data(profile))
    if text is None:
        text = dump_profile(profile, fmt)
    atomic_write_text(path, text, replace_read_only=replace_read_only)
    return text


def save_draft(answers: dict, path: str | Path, *, replace_read_only: bool = False) -> None:
    """The answers as they are, valid or not, as YAML marked as a draft (atomically). JSON
    has no comments to carry the mark: a draft is YAML."""
    atomic_write_text(Path(path), DRAFT_HEADER + dump_yaml(answers),
                      replace_read_only=replace_read_only)
