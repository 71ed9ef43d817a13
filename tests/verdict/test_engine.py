"""The durable_rules adapter: compiled once, no threads, one session per evaluation, every
known crash path closed, the same answers as the reference meaning of the rules."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from advisor.rulebase.cases import baseline_facts
from advisor.rulebase.conditions import AllOf, AnyOf, Cond, Not, evaluate, to_durable
from advisor.rulebase.model import Rule
from advisor.text.i18n import Text
from advisor.verdict.engine import RuleEngine, default_engine


def make_rule(rule_id, when, then=None, stage_kind="pitfall"):
    then = then or {"pitfall": "thermal_throttling", "severity": "info"}
    return Rule(id=rule_id, concern=rule_id.split(".")[0], when=when, then=then,
                message=Text(en="m", zh="消息"), why=Text(en="w", zh="原因"), sources=("F27",),
                remedy=Text(en="r", zh="对策"), kind=stage_kind,
                facts_used=tuple(sorted({c.fact for c in _leaves(when)})))


def _leaves(node):
    from advisor.rulebase.conditions import leaves
    return leaves(node)


BASE = baseline_facts()


def test_default_engine_is_compiled_once_and_starts_no_thread():
    before = set(threading.enumerate())
    first = default_engine()
    assert default_engine() is first
    first.evaluate(BASE, "decide")
    first.evaluate(BASE, "findings")
    assert set(threading.enumerate()) == before


def test_any_firing_twice_is_reported_once():
    both = AnyOf((Cond("max_temp_c", "ge", 80), Cond("max_temp_c", "ge", 84)))
    engine = RuleEngine([make_rule("pitfalls.twice", both)])
    fired = engine.evaluate({**BASE, "max_temp_c": 90}, "findings")
    assert [f.rule.id for f in fired] == ["pitfalls.twice"]


def test_negative_conditions_do_not_loop_on_the_engine_state():
    # `$nex` alone would also match durable_rules' own state document and fire forever
    engine = RuleEngine([make_rule("pitfalls.unknown_temp", Not(Cond("max_temp_c", "exists")))])
    facts = dict(BASE)
    facts.pop("max_temp_c", None)
    assert [f.rule.id for f in engine.evaluate(facts, "findings")] == ["pitfalls.unknown_temp"]
    assert engine.evaluate({**BASE, "max_temp_c": 50}, "findings") == []


def test_nothing_matches_is_safe_and_leaves_no_state():
    engine = RuleEngine([make_rule("pitfalls.never", Cond("max_temp_c", "gt", 1000))])
    for _ in range(50):  # unmatched facts followed by state deletion used to crash
        assert engine.evaluate(BASE, "findings") == []
    ruleset = engine._host.get_ruleset(engine._names["findings"])
    with pytest.raises(Exception):  # noqa: B017 - durable_rules raises its own error type
        ruleset.get_state("s0")


@pytest.mark.parametrize("value", [1e-7, 1e20, -3e-9, 123456.1234567])
def test_numbers_durable_cannot_parse_are_normalised(value):
    engine = RuleEngine([make_rule("pitfalls.big", Cond("net_value_best", "gt", 1000))])
    fired = engine.evaluate({**BASE, "net_value_best": value}, "findings")
    assert bool(fired) is (value > 1000)


def test_bad_facts_are_refused_before_the_engine():
    engine = default_engine()
    with pytest.raises(ValueError, match="unknown fact"):
        engine.evaluate({**BASE, "nested": 1})
    with pytest.raises(ValueError, match="one of"):
        engine.evaluate({**BASE, "task": "poetry"})
    with pytest.raises(ValueError, match="finite"):
        engine.evaluate({**BASE, "net_value_best": float("nan")})
    with pytest.raises(ValueError, match="missing"):
        engine.evaluate({k: v for k, v in BASE.items() if k != "task"})
    with pytest.raises(ValueError, match="true or false"):
        engine.evaluate({**BASE, "fits_one_gpu": 1})


def test_threads_share_the_engine_safely():
    engine = default_engine()
    variants = [{**BASE, "max_temp_c": t, "verdict_gpus": g} for t in (60, 90) for g in (1, 4)]
    expected = [sorted(f.rule.id for f in engine.evaluate(v, "findings")) for v in variants]
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda v: sorted(f.rule.id for f in engine.evaluate(
            v, "findings")), variants * 25))
    assert results == expected * 25


def test_compiled_expressions_match_the_reference_meaning():
    tree = AllOf((Cond("task", "in", ("gan", "nlp")),
                  Not(AnyOf((Cond("max_temp_c", "lt", 84), Cond("cooling", "ne", "liquid")))),
                  Cond("fits_one_gpu", "is_false")))
    engine = RuleEngine([make_rule("pitfalls.tree", tree)])
    for task in ("gan", "llm"):
        for temp in (None, 70, 90):
            for cooling in ("liquid", "open_air"):
                for fits in (True, False):
                    facts = {**BASE, "task": task, "cooling": cooling, "fits_one_gpu": fits}
                    facts.pop("max_temp_c", None)
                    if temp is not None:
                        facts["max_temp_c"] = temp
                    fired = bool(engine.evaluate(facts, "findings"))
                    assert fired is evaluate(tree, facts), facts
    assert "$or" in str(to_durable(tree))


def test_conclusions_resolve_fact_references():
    from advisor.rulebase.model import FactRef
    rule = make_rule("economics.pay", Cond("net_value_best", "gt", 0),
                     {"rating": "worth_it", "gpus": FactRef("best_value_gpus")}, "verdict")
    (firing,) = RuleEngine([rule]).evaluate(BASE, "decide")
    assert firing.conclusion == {"rating": "worth_it", "gpus": BASE["best_value_gpus"]}
    assert firing.facts == {"net_value_best": BASE["net_value_best"]}
