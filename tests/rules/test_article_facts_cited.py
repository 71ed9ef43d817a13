"""Every article fact F01-F32 is encoded somewhere: by a rule, or by the projection, cost
model, hardware import or diagnosis (their ``CITED_FACTS``)."""

from __future__ import annotations

import advisor.costs
import advisor.diagnosis
import advisor.hwimport
import advisor.scaling
from advisor.rulebase import default_rules
from advisor.rulebase.article_facts import load_facts


def cited_by_rules() -> set[str]:
    return {s for rule in default_rules() for s in rule.sources}


def cited_by_code() -> set[str]:
    return (set(advisor.scaling.CITED_FACTS) | set(advisor.costs.CITED_FACTS)
            | set(advisor.hwimport.CITED_FACTS) | set(advisor.diagnosis.CITED_FACTS))


def test_every_article_fact_is_cited():
    facts = set(load_facts())
    assert len(facts) == 32
    assert sorted(facts - cited_by_rules() - cited_by_code()) == []


def test_code_cites_only_real_facts():
    assert cited_by_code() <= set(load_facts())


def test_the_rules_alone_cite_the_decision_and_pitfall_facts():
    # the verdict, the pitfalls and the setup advice come from rules, not from code
    must = {"F02", "F12", "F13", "F14", "F15", "F16", "F17", "F18", "F19", "F20", "F21",
            "F22", "F23", "F24", "F25", "F26", "F27", "F28", "F29", "F30", "F31", "F32"}
    assert sorted(must - cited_by_rules()) == []
