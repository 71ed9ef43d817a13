"""The conflict policy (advisor/verdict/conflict_policy.py, rules/README.md): vetoes beat the decision
table, more specific beats more general, then priority - never file order."""

from __future__ import annotations

import random

from advisor.rulebase import default_rules
from advisor.rulebase.cases import apply_changes, baseline_facts
from advisor.rulebase.conditions import AllOf, Cond
from advisor.rulebase.model import Rule
from advisor.text.i18n import Text
from advisor.verdict.conflict_policy import decide, settle_count
from advisor.verdict.engine import Firing, RuleEngine, default_engine

BASE = baseline_facts()


def verdict(changes, engine=None):
    fired = (engine or default_engine()).evaluate(apply_changes(BASE, changes), "decide")
    d = decide(fired, ("rating", "gpus"))
    return d.values["rating"], d.values["gpus"], d.gpus_at_least, d.winners["rating"]


def test_alternating_training_veto_beats_the_decision_table():
    changes = {"task": "gan", "alternating_training": True, "single_gpu_hours": 48,
               "runs_per_month": 10, "net_value_best": -50}
    assert verdict(changes) == ("not_worth_it", 1, 1, "task_heuristics.alternating_training_veto")


def test_memory_wall_veto_beats_the_decision_table():
    changes = {"single_gpu_hours": 1.5, "fits_one_gpu": False, "min_gpus_fit": 3,
               "time_value": "unsaid"}  # the table decides only when time is not valued
    rating, gpus, at_least, winner = verdict(changes)
    assert (rating, at_least, winner) == ("required", 3, "parallelism.memory_wall_veto")
    assert gpus == 1  # the table's count; the recommendation raises it to gpus_at_least


def test_memory_wall_outranks_alternating_training():
    changes = {"task": "gan", "alternating_training": True, "fits_one_gpu": False,
               "min_gpus_fit": 2, "net_value_best": -50}  # both vetoes fire
    rating, gpus, at_least, winner = verdict(changes)
    assert (rating, gpus, at_least) == ("required", 1, 2)
    assert winner == "parallelism.memory_wall_veto"


def test_more_specific_beats_more_general():
    # the table's row beats the 1-condition economics rule (net value <= 0)
    changes = {"single_gpu_hours": 5, "runs_per_month": 76, "net_value_best": -300,
               "time_value": "unsaid"}
    assert verdict(changes)[:2] == ("optional", 2)


def test_once_time_is_valued_the_money_decides_not_the_table():
    # the same workload, the user having said a day saved is worth nothing (rules/README.md)
    changes = {"single_gpu_hours": 5, "runs_per_month": 76, "net_value_best": -300,
               "time_value": "none"}
    assert verdict(changes)[:2] == ("not_worth_it", 1)
    medium = {"single_gpu_hours": 48, "runs_per_month": 10, "net_value_best": -117,
              "time_value": "none"}
    assert verdict(medium)[:2] == ("not_worth_it", 1)
    assert verdict({**medium, "time_value": "unsaid"})[:2] == ("worth_it", 4)


def test_priority_decides_between_equally_specific_rules():
    # decision_table.large_model and economics.cheapest_way_to_keep_the_schedule both test
    # two conditions (time not valued: the table's row, and the hardware a schedule saves)
    changes = {"single_gpu_hours": 400, "runs_per_month": 1, "best_value_gpus": 16,
               "time_value": "unsaid"}
    assert verdict(changes)[:2] == ("required", 8)


def _rule(rule_id, when, priority=0):
    return Rule(id=rule_id, concern="economics", when=when,
                then={"rating": "worth_it" if rule_id.endswith("a") else "optional", "gpus": 2},
                message=Text(en="m", zh="消息"), why=Text(en="w", zh="原因"), sources=("F02",),
                priority=priority, kind="verdict", facts_used=("net_value_best",))


def test_exact_ties_go_to_the_rule_id_not_the_order():
    a = _rule("economics.tie_a", Cond("net_value_best", "gt", 0))
    b = _rule("economics.tie_b", Cond("net_value_best", "gt", 1))
    for rules in ([a, b], [b, a]):
        fired = RuleEngine(rules).evaluate(BASE, "decide")
        for order in (fired, list(reversed(fired))):
            assert decide(order).winners["rating"] == "economics.tie_a"


def test_specificity_counts_conditions_before_priority():
    general = _rule("economics.general_a", Cond("net_value_best", "gt", 0), priority=99)
    specific = _rule("economics.specific_b", AllOf((Cond("net_value_best", "gt", 0),
                                                    Cond("runs_per_month", "gt", 1))))
    fired = RuleEngine([general, specific]).evaluate(BASE, "decide")
    assert decide(fired).winners["rating"] == "economics.specific_b"


def _outcome(engine, facts):
    out = []
    for stage, slots in (("decide", ("rating", "gpus")),
                         ("setup", ("parallelism", "framework", "deployment"))):
        fired = engine.evaluate(facts, stage)
        d = decide(fired, slots)
        count = settle_count(d, fired, 4).gpus if stage == "decide" else None
        out.append((d.values, d.winners, d.overridden, d.gpus_at_least, d.gpus_at_most, count,
                    [f.rule.id for f in fired]))
    return out


def test_shuffling_rule_order_changes_nothing():
    rng = random.Random(7)
    fact_sets = [apply_changes(BASE, c) for c in (
        {}, {"single_gpu_hours": 5, "runs_per_month": 76, "net_value_best": -1},
        {"single_gpu_hours": 5, "runs_per_month": 76, "net_value_best": -1,
         "time_value": "unsaid"},
        {"task": "gan", "alternating_training": True, "fits_one_gpu": False, "min_gpus_fit": 4},
        {"single_gpu_hours": 400, "time_value": "deadline", "deadline_gpus": 16, "deadline_gpus_for_time": 16,
         "economics_mode": "own", "verdict_gpus": 16, "verdict_nodes": 2},
    )]
    reference = [_outcome(default_engine(), f) for f in fact_sets]
    rules = list(default_rules())
    for _ in range(3):
        rng.shuffle(rules)
        engine = RuleEngine(rules)
        assert [_outcome(engine, f) for f in fact_sets] == reference


def test_shuffled_firings_decide_the_same():
    fired = default_engine().evaluate(apply_changes(BASE, {"time_value": "deadline",
                                                           "deadline_gpus": 2,
                                                           "deadline_gpus_for_time": 2}),
                                     "decide")
    reference = decide(fired)
    rng = random.Random(3)
    for _ in range(10):
        shuffled: list[Firing] = fired[:]
        rng.shuffle(shuffled)
        assert decide(shuffled) == reference


# Step 5 and 6: the count respects the cost model and the projection (F02)

def count(changes, considered_max=4):
    fired = default_engine().evaluate(apply_changes(BASE, changes), "decide")
    d = decide(fired, ("rating", "gpus"))
    settled = settle_count(d, fired, considered_max)
    return d.values["rating"], settled.gpus, [f.rule.id for f in settled.deciders]


# F17's medium-model row, what a day saved is worth not said: the table rates the workload
MEDIUM_ROW = {"single_gpu_hours": 48, "runs_per_month": 10, "time_value": "unsaid"}


def test_the_cost_models_count_beats_the_tables():
    rating, gpus, deciders = count({**MEDIUM_ROW, "best_value_gpus": 3, "net_value_best": 500})
    assert (rating, gpus) == ("worth_it", 3)
    assert deciders == ["economics.cheapest_way_to_keep_the_schedule"]


def test_with_revenue_the_strongest_priced_rule_decides():
    changes = {**MEDIUM_ROW, "time_value": "revenue", "day_value_covers_energy": True,
               "best_value_gpus": 3, "net_value_best": 500}
    rating, gpus, deciders = count(changes)
    assert (rating, gpus) == ("worth_it", 3)
    assert deciders == ["economics.revenue_covers_electricity"]


def test_the_tables_count_stands_when_the_cost_model_agrees():
    rating, gpus, deciders = count({**MEDIUM_ROW, "best_value_gpus": 4, "net_value_best": 500})
    assert (rating, gpus, deciders) == ("worth_it", 4, ["decision_table.medium_model_training"])


def test_a_table_count_beyond_the_hardware_is_not_cut_by_the_cost_model():
    changes = {**MEDIUM_ROW, "best_value_gpus": 2, "net_value_best": 500, "max_gpus_projected": 2}
    assert count(changes, considered_max=2)[:2] == ("worth_it", 4)  # reported as a shortfall


def test_optional_keeps_its_second_gpu():
    changes = {"single_gpu_hours": 5, "runs_per_month": 76, "net_value_best": -300,
               "best_value_gpus": 1, "time_value": "unsaid"}
    assert count(changes)[:2] == ("optional", 2)


def test_gpus_that_add_nothing_are_cut():
    changes = {**MEDIUM_ROW, "net_value_best": -1,
               "more_gpus_add_nothing": True, "useful_gpus": 3, "useful_speedup": 1.5}
    rating, gpus, deciders = count(changes)
    assert (rating, gpus) == ("worth_it", 3)
    assert deciders[-1] == "economics.extra_gpus_add_nothing"


def test_at_least_beats_at_most():
    changes = {**MEDIUM_ROW, "net_value_best": -1,
               "more_gpus_add_nothing": True, "useful_gpus": 3, "useful_speedup": 1.5,
               "time_value": "deadline", "deadline_gpus": 4, "deadline_gpus_for_time": 4}
    assert count(changes)[1] == 4


def test_no_faster_count_vetoes_more_gpus():
    changes = {**MEDIUM_ROW, "useful_gpus": 1, "useful_speedup": 1.0,
               "more_gpus_add_nothing": True}
    assert count(changes)[:2] == ("not_worth_it", 1)


def test_vgpu_veto_beats_the_decision_table():
    changes = {**MEDIUM_ROW, "virtualization": "vgpu", "efficiency_max": 0.42,
               "speedup_max": 1.69, "net_value_best": -50}  # vGPUs that pay: the money speaks
    rating, gpus, deciders = count(changes)
    assert (rating, gpus, deciders) == ("not_worth_it", 1, ["pitfalls.vgpu_veto"])

