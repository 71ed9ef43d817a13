"""The appendix: every rule that fired, what it says and why, what it concluded, and the text of
the article facts it rests on.

One copy of every text: the rule's message as it fired comes with the trace (rendered by
``advisor.verdict.recommendation`` from ``rules/*.yaml``), its reason from the rule base
(``advisor.rulebase``), fact texts from ``advisor.rulebase.article_facts``.
"""

from __future__ import annotations

from functools import cache

from advisor.rulebase import rule_by_id
from advisor.rulebase.article_facts import article_title, fact_text
from advisor.rulebase.model import format_text
from advisor.verdict.policy_steps import policy_step
from advisor.verdict.result import Recommendation, TraceEntry
from ui.report import labels as L
from ui.report.formatting import colon, esc
from ui.results.fact_labels import conclusion_text, facts_text

# The title is read from facts.yaml on every call; once per process is enough.
_article_title = cache(article_title)


def rule_text(entry: TraceEntry, lang: str) -> tuple[str, str]:
    """(message, why) of the fired rule: the message as it fired (``TraceEntry.message``); for
    a trace saved without it, the rule base's template filled from the matched facts, or no
    message when its placeholders need facts the trace did not keep. Empty for an unknown
    rule."""
    rule = rule_by_id(entry.rule)
    step = policy_step(entry.rule) if rule is None else None
    if step is not None and entry.message is not None:  # a policy step, not a rule
        return entry.message.get(lang), step.explanation.get(lang)
    if entry.message is not None:
        return entry.message.get(lang), rule.why.get(lang) if rule is not None else ""
    if rule is None:
        return "", ""
    try:
        message = format_text(rule.message.get(lang), entry.facts)
    except (KeyError, ValueError, IndexError):
        message = ""
    return message, rule.why.get(lang)


def _entry_html(number_: int, entry: TraceEntry, lang: str) -> str:
    c = colon(lang)
    parts = [f'<h3>{number_}. {esc(L.RULE.get(lang))} <span class="code">{esc(entry.rule)}</span>'
             "</h3>"]
    message, why = rule_text(entry, lang)
    if message:
        parts.append(f"<p><i>{esc(message)}</i></p>")
    if why:
        parts.append(f"<p><b>{esc(L.WHY.get(lang))}{c}</b>{esc(why)}</p>")
    if entry.overridden_by:
        overridden = L.OVERRIDDEN.get(lang).format(rule=entry.overridden_by)
        parts.append(f'<p class="muted">{esc(overridden)}</p>')
    # In words, as the wizard's Why tab shows them: no raw ids or True/False (review 2 #11).
    if entry.conclusion:
        parts.append(f"<p><b>{esc(L.CONCLUSION.get(lang))}{c}</b>"
                     f"{esc(conclusion_text(entry.conclusion, lang))}</p>")
    if entry.facts:
        parts.append(f"<p><b>{esc(L.MATCHED_ON.get(lang))}{c}</b>"
                     f"{esc(facts_text(entry.facts, lang))}</p>")
    facts = "".join(f"<li><b>{esc(fact_id)}</b> {esc(fact_text(fact_id, lang, gist=True))}</li>"
                    for fact_id in entry.sources)
    if facts:
        parts.append(f"<ul>{facts}</ul>")
    return "".join(parts)


def appendix_html(rec: Recommendation, lang: str) -> str:
    title = L.ARTICLE.get(lang).format(title=_article_title(lang))
    parts = [f'<h2 class="pagebreak">{esc(L.H_APPENDIX.get(lang))}</h2>',
             f'<p class="muted">{esc(title)}</p>']
    if not rec.trace:
        parts.append(f"<p>{esc(L.NO_RULES.get(lang))}</p>")
    parts += [_entry_html(i, entry, lang) for i, entry in enumerate(rec.trace, start=1)]
    return "".join(parts)
