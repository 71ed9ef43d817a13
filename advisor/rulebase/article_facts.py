"""The source article's facts F01–F32 in both languages, for the "why" views (wizard, report).

Data: ``resources/article/facts.yaml``. Rules and the projection cite these ids.
"""

from __future__ import annotations

import re
from functools import cache

import yaml

from advisor.files.paths import resources_dir
from advisor.text.i18n import Text

FACT_ID = re.compile(r"^F\d{2}$")


@cache
def load_facts() -> dict[str, Text]:
    """Every fact by id (``F01`` … ``F32``), in id order."""
    path = resources_dir() / "article" / "facts.yaml"
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    facts: dict[str, Text] = {}
    for fact_id, text in sorted(raw["facts"].items()):
        if not FACT_ID.match(fact_id):
            raise ValueError(f"{path}: bad fact id {fact_id!r}")
        facts[fact_id] = Text(en=text["en"], zh=text["zh"])
    return facts


@cache
def load_gists() -> dict[str, Text]:
    """The facts that carry a gist: the claim without the article's example hardware and its
    prices (F31's "4060-class, ¥15,000" has no place in a report on H100s in dollars)."""
    path = resources_dir() / "article" / "facts.yaml"
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    return {fact_id: Text(en=text["gist"]["en"], zh=text["gist"]["zh"])
            for fact_id, text in raw["facts"].items() if isinstance(text.get("gist"), dict)}


def fact_text(fact_id: str, lang: str = "en", *, gist: bool = False) -> str:
    """The fact's sentence in ``lang`` (``gist``: its claim alone, where it has one, for the
    views of one profile); an unknown id says so instead of failing."""
    if gist and fact_id in load_gists():
        return load_gists()[fact_id].get(lang)
    fact = load_facts().get(fact_id)
    if fact is None:
        return f"{fact_id}: " + ("（未知的文章事实编号）" if lang == "zh" else "(unknown article fact)")
    return fact.get(lang)


def article_title(lang: str = "en") -> str:
    path = resources_dir() / "article" / "facts.yaml"
    source = yaml.safe_load(path.read_text(encoding="utf-8"))["source"]
    return source["title_zh"] if lang == "zh" else source["title_en"]
