"""Setups that fit before more machines (issue 17), pitfalls (severity, what happens, the
remedy, the article's facts) and set-up advice."""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QTextBrowser

from advisor.verdict.setup_text import HEADING, setup_line
from ui.app.theme import muted_hex

SEVERITY_COLORS = {"critical": "#b3261e", "warning": "#c98a00", "info": "#1f5fbf"}
SEVERITY_ORDER = {"critical": 0, "warning": 1, "info": 2}


def severity_text(severity: str) -> str:
    return {"critical": QCoreApplication.translate("Pitfalls", "Critical"),
            "warning": QCoreApplication.translate("Pitfalls", "Warning"),
            "info": QCoreApplication.translate("Pitfalls", "Note")}.get(severity, severity)


def pitfalls_html(rec: Any, lang: str) -> str:
    heading = escape(QCoreApplication.translate("Pitfalls", "Pitfalls"))
    none_text = escape(QCoreApplication.translate("Pitfalls", "No pitfalls for these answers."))
    remedy_text = escape(QCoreApplication.translate("Pitfalls", "Remedy:"))
    advice_text = escape(QCoreApplication.translate("Pitfalls", "Set-up advice"))
    muted = muted_hex()  # from the palette: read in a dark theme too
    parts: list[str] = []
    if getattr(rec, "setups", None):  # the changes that fit here, in the verdict's order
        parts.append(f"<h3>{escape(HEADING.get(lang))}</h3><ol>")
        parts += [f"<li>{'<b>' if o.applied else ''}{escape(setup_line(o, lang))}"
                  f"{'</b>' if o.applied else ''}</li>" for o in rec.setups]
        parts.append("</ol>")
    parts.append(f"<h3>{heading}</h3>")
    pitfalls = sorted(rec.pitfalls, key=lambda p: SEVERITY_ORDER.get(p.severity, 9))
    if not pitfalls:
        parts.append(f"<p>{none_text}</p>")
    for pitfall in pitfalls:
        color = SEVERITY_COLORS.get(pitfall.severity, "#444")
        sources = ", ".join(pitfall.sources)
        parts.append(
            f"<p style='margin-bottom:2px'><span style='background:{color};color:white;'>"
            f"&nbsp;{escape(severity_text(pitfall.severity))}&nbsp;</span> "
            f"<b>{escape(pitfall.title.get(lang))}</b> "
            f"<span style='color:{muted}'>({escape(sources)})</span></p>"
            f"<p style='margin:0 0 0 14px'>{escape(pitfall.detail.get(lang))}</p>"
            f"<p style='margin:0 0 10px 14px'><b>{remedy_text}</b> "
            f"{escape(pitfall.remedy.get(lang))}</p>")
    if rec.advice:
        parts.append(f"<h3>{advice_text}</h3><ul>")
        for advice in rec.advice:
            parts.append(f"<li>{escape(advice.text.get(lang))} "
                         f"<span style='color:{muted}'>({escape(', '.join(advice.sources))})"
                         f"</span></li>")
        parts.append("</ul>")
    return "".join(parts)


class PitfallsView(QTextBrowser):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._html = ""
        self.setOpenExternalLinks(False)
        self.pitfall_ids: list[str] = []

    def show_recommendation(self, rec: Any, lang: str) -> None:
        self.pitfall_ids = [p.id for p in rec.pitfalls]
        html = pitfalls_html(rec, lang)
        if html != self._html:  # a rich-text layout is costly: only when it changed
            self._html = html
            self.setHtml(html)
