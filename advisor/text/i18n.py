"""Bilingual text for the core (English and Simplified Chinese).

The core returns both languages; presenters choose one. Qt strings use Qt Linguist instead.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from advisor.text.lang import LANGS, Lang, pick, system_lang

__all__ = ["LANGS", "Lang", "Text", "pick", "system_lang"]


class Text(BaseModel):
    """A user-facing sentence in both languages."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    en: str
    zh: str

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en

    def format(self, **values: object) -> Text:
        return Text(en=self.en.format(**values), zh=self.zh.format(**values))
