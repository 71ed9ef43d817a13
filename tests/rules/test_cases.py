"""Every rule against its fixture cases (rules/cases/): it fires where it must and stays silent
where it must not - through durable_rules and through the reference meaning of ``when``."""

from __future__ import annotations

import pytest

from advisor.rulebase import rule_by_id
from advisor.rulebase.cases import load_cases
from advisor.rulebase.conditions import evaluate
from advisor.verdict.engine import default_engine

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case(case):
    rule = rule_by_id(case.rule_id)
    assert rule is not None, f"{case.file}: unknown rule {case.rule_id}"
    fired = {f.rule.id for f in default_engine().evaluate(case.facts, rule.stage)}
    expected = case.outcome == "fires"
    assert (rule.id in fired) is expected, f"{case.name} in {case.file}"
    assert evaluate(rule.when, case.facts) is expected, "reference meaning disagrees"


def test_fired_rules_report_the_values_they_read():
    case = next(c for c in CASES if c.rule_id == "pitfalls.hot_gpu" and c.outcome == "fires")
    firing = next(f for f in default_engine().evaluate(case.facts, "findings")
                  if f.rule.id == "pitfalls.hot_gpu")
    assert firing.facts == {"max_temp_c": case.facts["max_temp_c"],
                            "verdict_deployment": case.facts["verdict_deployment"]}
    assert firing.conclusion == {"pitfall": "thermal_throttling", "severity": "critical"}
