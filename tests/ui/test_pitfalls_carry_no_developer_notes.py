"""Review D5: what the Pitfalls & advice tab shows is the explanation alone; a developer's note
("review 5: …", "issue 12: …") about why a rule reads as it does stays a YAML comment."""

from __future__ import annotations

import re

from advisor.rulebase import default_rules

NOTE = re.compile(r"\b(review|issue|reviewer|TODO|FIXME)\s*#?\d*\s*[:：]", re.IGNORECASE)


def test_no_rule_text_the_user_reads_holds_a_developers_note():
    found = []
    for rule in default_rules():
        for name in ("message", "why", "remedy"):
            text = getattr(rule, name)
            if text is None:
                continue
            for lang in ("en", "zh"):
                if NOTE.search(getattr(text, lang)):
                    found.append(f"{rule.id}.{name}.{lang}")
    assert found == []


def test_the_sharded_memory_wall_explains_without_a_note():
    rule = next(r for r in default_rules() if r.id == "parallelism.memory_wall_sharded")
    assert rule.why.en.endswith("which is what lets it run.")
    assert "review" not in rule.why.en.lower()
