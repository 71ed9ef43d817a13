"""Writing profiles (YAML or JSON) atomically: an existing file is never half-written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from advisor.files.atomic import atomic_write_text
from advisor.files.yaml_lines import dump_yaml
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


def save_profile(profile: Profile, path: str | Path, *, replace_read_only: bool = False) -> None:
    """Write atomically (temporary file + rename; ``advisor.files.atomic`` refuses what must
    not be replaced, and a read-only file unless ``replace_read_only``). Prices are written
    with the currency they were entered in (the market's, if unset: never the language's)."""
    path = Path(path)
    if profile.economics.currency is None and names_money(profile.economics):
        currency = MARKET_CURRENCY[profile_market(profile.economics)]
        profile = profile.model_copy(update={
            "economics": profile.economics.model_copy(update={"currency": currency})})
    fmt = "json" if path.suffix.lower() == ".json" else "yaml"
    atomic_write_text(path, dump_profile(profile, fmt), replace_read_only=replace_read_only)


# The first line of a profile saved with answers that are not valid yet (the desktop app's
# drafts): the readers report such a file as a draft, and the app saves over it again.
DRAFT_MARK = "# gpu-advisor draft:"
DRAFT_HEADER = (f"{DRAFT_MARK} some answers are not valid yet; the advisor names them when "
                "the file is opened\n")


def is_draft(text: str) -> bool:
    """Whether ``text`` is a draft profile (its first line is the draft mark)."""
    return text.lstrip("\ufeff").startswith(DRAFT_MARK)


def save_draft(answers: dict, path: str | Path, *, replace_read_only: bool = False) -> None:
    """The answers as they are, valid or not, as YAML marked as a draft (atomically). JSON
    has no comments to carry the mark: a draft is YAML."""
    atomic_write_text(Path(path), DRAFT_HEADER + dump_yaml(answers),
                      replace_read_only=replace_read_only)
