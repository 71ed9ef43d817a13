"""Why: the rules that fired, in order, each with the article's facts it encodes (their text)."""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QTextBrowser

from advisor.article_facts import fact_text


def _value_text(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, dict):
        return "; ".join(f"{k} = {_value_text(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_value_text(v) for v in value)
    return str(value)


def trace_html(rec: Any, lang: str) -> str:
    heading = escape(QCoreApplication.translate("Why", "Why this recommendation"))
    intro = escape(QCoreApplication.translate(
        "Why", "Each rule that fired, what it concluded, the numbers it matched and the facts "
               "of the article it encodes."))
    none_text = escape(QCoreApplication.translate("Why", "No rule fired."))
    matched = escape(QCoreApplication.translate("Why", "Matched:"))
    parts = [f"<h3>{heading}</h3>", f"<p style='color:#555'>{intro}</p>"]
    if not rec.trace:
        parts.append(f"<p>{none_text}</p>")
    for number, entry in enumerate(rec.trace, start=1):
        conclusion = _value_text(entry.conclusion)
        parts.append(f"<p style='margin-bottom:2px'><b>{number}. {escape(entry.rule)}</b>"
                     f" → {escape(conclusion)}</p>")
        if entry.facts:
            parts.append(f"<p style='margin:0 0 2px 14px;color:#555'>"
                         f"{matched} {escape(_value_text(entry.facts))}"
                         f"</p>")
        for source in entry.sources:
            parts.append(f"<p style='margin:0 0 2px 14px'><b>{escape(source)}</b> "
                         f"{escape(fact_text(source, lang))}</p>")
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
