"""The reader's language: which one the system asks for, and picking a text by it.

Kept free of pydantic (``advisor.text.i18n`` holds the ``Text`` model) so that the command
line's front door (``--version``, ``--help``, the parser) starts without building models.
"""

from __future__ import annotations

import locale
import os
from typing import Literal

Lang = Literal["en", "zh"]
LANGS: tuple[Lang, ...] = ("en", "zh")


def system_lang() -> Lang:
    """The user's language from the environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else the
    platform locale; Chinese locales give ``zh``, anything else ``en``."""
    forced = os.environ.get("GPU_ADVISOR_LANG", "")
    if forced in LANGS:
        return forced  # type: ignore[return-value]
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    try:
        code = locale.getlocale()[0] or ""
    except ValueError:
        code = ""
    return "zh" if code.lower().startswith(("zh", "chinese")) else "en"


def pick(lang: str, en: str, zh: str) -> str:
    return zh if lang == "zh" else en
