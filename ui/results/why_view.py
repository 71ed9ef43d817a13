"""Why: the rules that fired, in order, each with the article's facts it encodes (their text)."""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QTextBrowser

from advisor.rulebase.article_facts import fact_text
from ui.app.theme import muted_hex
from ui.results.fact_labels import conclusion_text, facts_text


def trace_html(rec: Any, lang: str) -> str:
    heading = escape(QCoreApplication.translate("Why", "Why this recommendation"))
    intro = escape(QCoreApplication.translate(
        "Why", "Each rule that fired, what it concluded, the numbers it matched and the facts "
               "of the article it encodes."))
    none_text = escape(QCoreApplication.translate("Why", "No rule fired."))
    matched = escape(QCoreApplication.translate("Why", "Matched:"))
    overridden = QCoreApplication.translate("Why", "overridden by %1")
    muted = muted_hex()  # from the palette: read in a dark theme too
    parts = [f"<h3>{heading}</h3>", f"<p style='color:{muted}'>{intro}</p>"]
    if not rec.trace:
        parts.append(f"<p>{none_text}</p>")
    for number, entry in enumerate(rec.trace, start=1):
        # Conclusions and matched facts in words, never raw ids or True/False (review 2 #11).
        conclusion = conclusion_text(entry.conclusion, lang)
        lost = getattr(entry, "overridden_by", None)
        style = f" style='color:{muted}'" if lost else ""
        parts.append(f"<p style='margin-bottom:2px'><b{style}>{number}. {escape(entry.rule)}"
                     f"</b> → <span{style}>{escape(conclusion)}</span>"
                     + (f" <i style='color:{muted}'>({escape(overridden.replace('%1', lost))})</i>"
                        if lost else "") + "</p>")
        if entry.facts:
            parts.append(f"<p style='margin:0 0 2px 14px;color:{muted}'>"
                         f"{matched} {escape(facts_text(entry.facts, lang))}"
                         f"</p>")
        for source in entry.sources:
            parts.append(f"<p style='margin:0 0 2px 14px'><b>{escape(source)}</b> "
                         f"{escape(fact_text(source, lang, gist=True))}</p>")
        parts.append("<p style='margin:0 0 8px 0'></p>")
    return "".join(parts)


class WhyView(QTextBrowser):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._html = ""
        self.rules: list[str] = []

    def show_recommendation(self, rec: Any, lang: str) -> None:
        self.rules = [entry.rule for entry in rec.trace]
        html = trace_html(rec, lang)
        if html != self._html:  # a rich-text layout is costly: only when it changed
            self._html = html
            self.setHtml(html)
