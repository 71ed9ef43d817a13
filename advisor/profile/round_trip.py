"""Save keeps what the user wrote (issue 33): the profile's new values written into the text
it was read from, so comments, key order and the keys left at their defaults stay as they
were (ruamel.yaml's round-trip mode). A key the profile no longer holds is removed; a new
value at its default is not added. The result is read back and must give the very profile
saved; when it does not, or the text cannot be edited so, the caller writes a plain dump."""

from __future__ import annotations

import io
from typing import Any

from advisor.profile.model import Profile


def _defaults() -> dict[str, Any]:
    return Profile().model_dump(mode="json", exclude_none=True)


def _merge(target: Any, new: dict[str, Any], default: dict[str, Any] | None) -> None:
    for key in [k for k in target if k not in new]:
        del target[key]
    for key, value in new.items():
        below = default.get(key) if isinstance(default, dict) else None
        if key in target:
            if isinstance(value, dict) and hasattr(target[key], "items"):
                _merge(target[key], value, below if isinstance(below, dict) else None)
            elif target[key] != value:
                target[key] = value
        elif not (isinstance(default, dict) and key in default and below == value):
            target[key] = value


_PERIODS = {"runs_per_week": 52 / 12, "runs_per_day": 365 / 12}


def _runs_as_written(doc: Any, data: dict[str, Any]) -> dict[str, Any]:
    """Runs a week or a day, as the user wrote them, while they still give the same runs a
    month (the profile holds runs a month only)."""
    written, new = doc.get("training"), data.get("training")
    if not hasattr(written, "get") or not isinstance(new, dict):
        return data
    for key, factor in _PERIODS.items():
        value = written.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool) and \
                round(value * factor, 6) == new.get("runs_per_month"):
            section = {k: v for k, v in new.items() if k != "runs_per_month"}
            section[key] = value
            return {**data, "training": section}
    return data


def edited_yaml(original: str, profile: Profile, data: dict[str, Any]) -> str | None:
    """``original`` with ``data`` (the profile as saved) written into it; None when that is
    not possible or would not read back as ``profile``."""
    try:
        from ruamel.yaml import YAML  # noqa: PLC0415 - only Save needs it
        from ruamel.yaml.comments import CommentedMap  # noqa: PLC0415
    except ImportError:
        return None
    from advisor.profile.reading import parse_profile_text  # noqa: PLC0415 - cycle

    rt = YAML(typ="rt")
    rt.preserve_quotes = True
    rt.width = 4096  # a line the user wrote is never wrapped
    try:
        doc = rt.load(original)
        if not isinstance(doc, CommentedMap):
            return None
        data = _runs_as_written(doc, data)
        _merge(doc, data, _defaults())
        out = io.StringIO()
        rt.dump(doc, out)
        text = out.getvalue()
        if parse_profile_text(text, fmt="yaml") != profile:
            return None
    except Exception:  # noqa: BLE001 - any failure: the plain dump is written instead
        return None
    return text
