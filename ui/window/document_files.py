"""What the document needs of files and answers, apart from its window: a path made
absolute, whether a file is there and what it holds (a profile, a draft's answers, a mapping
even when invalid), the answers the wizard holds for a profile, and the answers an nvidia-smi
import would change."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from advisor.catalog.profile_check import load_profile
from advisor.files.errors import InputError
from advisor.files.reading import read_text_file
from advisor.profile import Profile
from advisor.profile.drafts import is_draft
from advisor.profile.reading import load_profile_data


def raw_mapping(text: str, source: str, fmt: str | None) -> dict | None:
    """The file's data if it parses to a mapping (even an invalid profile), else None; read by
    the same strict readers as a profile (no recursion error on deep JSON)."""
    try:
        data, _ = load_profile_data(text, source=source, fmt=fmt)
    except InputError:
        return None
    return data if isinstance(data, dict) else None


def import_changes(answers: Any, hardware: dict[str, Any], lang: str
                   ) -> list[tuple[str, str, Any, Any]]:
    """(path, the field's title, the answer now, the imported one) for every hardware answer
    the import would change."""
    from ui.forms.field_spec import field_spec  # noqa: PLC0415

    out = []
    for key, new in hardware.items():
        path = f"hardware.{key}"
        old = answers.get(path)
        if old == new or (old in (None, "") and new in (None, "")):
            continue
        try:
            title = field_spec(path).title(lang)
        except (KeyError, ValueError, TypeError, AttributeError):
            title = path
        out.append((path, title, old, new))
    return out


def shown(value: Any) -> str:
    return "—" if value in (None, "") else str(value)


def draft_answers(path: Path) -> dict | None:
    """The answers a draft file holds as the wizard loads them; None when it is no draft."""
    try:
        text = read_text_file(path)
    except InputError:
        return None
    raw = raw_mapping(text, str(path), None) if is_draft(text) else None
    return None if raw is None else _loaded_answers(lambda scratch: scratch.load(raw))


def file_exists(path: str | Path) -> bool:
    """Whether a file is there; a name too long or a folder that cannot be read says no."""
    try:
        return Path(path).exists()
    except (OSError, ValueError):
        return False


def loaded_profile(path: Path) -> Profile | None:
    """The profile ``path`` holds now, None when it is not a valid one."""
    try:
        return load_profile(path)
    except InputError:
        return None


def absolute(path: str | Path) -> Path:
    """``path`` absolute, its folder resolved; the name itself is kept, a link included (a
    file replaced by a link is then seen as changed, not followed to another file)."""
    path = Path(path).expanduser()
    return path.parent.resolve(strict=False) / path.name


def answers_of(profile: Profile) -> dict:
    """The answers the wizard holds after loading ``profile`` (defaults merged, cooling
    fitted), without touching the window's."""
    return _loaded_answers(lambda scratch: scratch.load_profile(profile))


def _loaded_answers(load) -> dict:
    """The answers a scratch model holds after ``load(model)``."""
    from ui.window.answers import AnswerModel  # noqa: PLC0415 - a model, no widgets

    scratch = AnswerModel()
    load(scratch)
    return copy.deepcopy(scratch.data)


def default_answers() -> dict:
    return answers_of(Profile())
