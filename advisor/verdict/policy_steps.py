"""The steps of the decision that are not rules of ``rules/*.yaml`` but appear in the Why
list beside them: the count guard (``count_guard``) and the decision policy (``decision``),
each with its id, where it lives, what it does in both languages and the article facts it
rests on. ``gpu-advisor rules explain`` and the PDF's appendix read them from here."""

from __future__ import annotations

from advisor.files.records import record
from advisor.text.i18n import Text
from advisor.verdict import count_guard, decision


@record
class PolicyStep:
    rule: str
    path: str
    explanation: Text
    sources: tuple[str, ...]


STEPS = {step.rule: step for step in (
    PolicyStep(count_guard.RULE_ID, "advisor/verdict/count_guard.py", count_guard.EXPLANATION,
               count_guard.SOURCES),
    PolicyStep(decision.RULE_ID, "advisor/verdict/decision.py", decision.EXPLANATION,
               decision.SOURCES),
)}


def policy_step(rule_id: str) -> PolicyStep | None:
    """The policy step with this id (None: a rule of the rule base, or unknown)."""
    return STEPS.get(rule_id)
