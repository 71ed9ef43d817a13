"""Bilingual text for the core (English and Simplified Chinese).

The core returns both languages; presenters choose one. Qt strings use Qt Linguist instead.
"""

from __future__ import annotations

import locale
import os
from typing import Literal

from pydantic import BaseModel, ConfigDict

Lang = Literal["en", "zh"]
LANGS: tuple[Lang, ...] = ("en", "zh")


class Text(BaseModel):
    """A user-facing sentence in both languages."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    en: str
    zh: str

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en

    def format(self, **values: object) -> Text:
        return Text(en=self.en.format(**values), zh=self.zh.format(**values))


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
