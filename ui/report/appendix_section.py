"""The appendix: every rule that fired, what it concluded, and the article facts it rests on.

Fact texts come from ``advisor.article_facts`` (one copy of the text, shared with the wizard).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from advisor.article_facts import article_title, fact_text
from advisor.recommendation_model import Recommendation
from ui.report import labels as L
from ui.report.formatting import colon, esc, number

# The title is read from facts.yaml on every call; once per process is enough.
_article_title = cache(article_title)


def _value(value: Any, lang: str) -> str:
    """A conclusion or fact value, short: bilingual dicts in the report's language."""
    if isinstance(value, dict) and set(value) == {"en", "zh"}:
        return str(value[lang if lang == "zh" else "en"])
    if isinstance(value, bool):
        return (L.YES if value else L.NO).get(lang)
    if isinstance(value, float):
        return number(value)
    if isinstance(value, list):
        return ", ".join(_value(v, lang) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_value(v, lang)}" for k, v in value.items())
    return str(value)


def _pairs(values: dict[str, Any], lang: str) -> str:
    return "; ".join(f'<span class="code">{esc(k)}</span> = {esc(_value(v, lang))}'
                     for k, v in values.items())


def appendix_html(rec: Recommendation, lang: str) -> str:
    parts = [f'<h2 class="pagebreak">{esc(L.H_APPENDIX.get(lang))}</h2>',
             f'<p class="muted">{esc(L.ARTICLE.get(lang).format(title=_article_title(lang)))}</p>']
    if not rec.trace:
        parts.append(f"<p>{esc(L.NO_RULES.get(lang))}</p>")
    for number_, entry in enumerate(rec.trace, start=1):
        parts.append(f'<h3>{number_}. {esc(L.RULE.get(lang))} '
                     f'<span class="code">{esc(entry.rule)}</span></h3>')
        if entry.conclusion:
            parts.append(f"<p><b>{esc(L.CONCLUSION.get(lang))}{colon(lang)}</b>"
                         f"{_pairs(entry.conclusion, lang)}</p>")
        if entry.facts:
            parts.append(f"<p><b>{esc(L.MATCHED_ON.get(lang))}{colon(lang)}</b>{_pairs(entry.facts, lang)}</p>")
        facts = "".join(f"<li><b>{esc(fact_id)}</b> {esc(fact_text(fact_id, lang))}</li>"
                        for fact_id in entry.sources)
        if facts:
            parts.append(f"<ul>{facts}</ul>")
    return "".join(parts)
