"""The rule base checks itself: unique ids, both languages, known sources, a case for every
rule both ways, no case for an unknown rule, every article fact cited somewhere, and English
texts punctuated as prose (no ASCII " - " dashes)."""

from __future__ import annotations

from collections import Counter

from advisor.rulebase import default_rules, rule_files
from advisor.rulebase.article_facts import load_facts
from advisor.rulebase.cases import load_cases
from advisor.rulebase.model import placeholders

RULES = default_rules()
CONCERNS = {"decision_table", "task_heuristics", "parallelism", "hardware_topology",
            "software_stack", "migration", "economics", "pitfalls", "setups"}


def test_one_file_per_concern():
    assert {p.stem for p in rule_files()} == CONCERNS
    assert {r.concern for r in RULES} == CONCERNS


def test_ids_are_unique_and_named_for_their_file():
    counts = Counter(r.id for r in RULES)
    assert [i for i, n in counts.items() if n > 1] == []
    assert all(r.id.startswith(r.concern + ".") for r in RULES)


def test_every_text_in_both_languages():
    for rule in RULES:
        texts = [rule.message, rule.why] + ([rule.remedy] if rule.remedy else [])
        for text in texts:
            assert text.en.strip() and text.zh.strip(), rule.id
            assert text.en != text.zh, rule.id
            # the same facts are quoted in both languages
            assert sorted(placeholders(text.en)) == sorted(placeholders(text.zh)), rule.id
            assert any("\u4e00" <= ch <= "\u9fff" for ch in text.zh), rule.id


def test_every_source_is_an_article_fact():
    known = set(load_facts())
    assert known == {f"F{i:02d}" for i in range(1, 33)}
    for rule in RULES:
        assert rule.sources and set(rule.sources) <= known, rule.id


def test_pitfalls_have_remedies_and_stable_ids():
    stable = {"thermal_throttling", "data_starvation", "vgpu_sharing", "lr_scaling",
              "comm_timeouts", "no_nvlink", "slow_internode", "alternating_training",
              "comm_bound_small_model", "memory_wall", "psu_capacity", "migration_cost"}
    produced = {r.then["pitfall"] for r in RULES if r.kind == "pitfall"}
    assert stable <= produced
    assert all(r.remedy for r in RULES if r.kind == "pitfall")


def test_every_rule_has_cases_both_ways_and_no_case_is_orphaned():
    cases = load_cases()
    ids = {r.id for r in RULES}
    by_rule = {(c.rule_id, c.outcome) for c in cases}
    assert {c.rule_id for c in cases} <= ids, "a case names an unknown rule"
    missing = sorted(f"{rid}:{outcome}" for rid in ids for outcome in ("fires", "does_not_fire")
                     if (rid, outcome) not in by_rule)
    assert missing == []


def test_case_files_match_rule_files():
    cases = load_cases()
    for case in cases:
        concern = case.file.rsplit("/", 1)[-1].removesuffix(".yaml")
        assert case.rule_id.startswith(concern + "."), case.name


def test_no_ascii_dashes_in_english_rule_texts():
    from advisor.rulebase import default_rules

    for rule in default_rules():
        for text in (rule.message, rule.why, rule.remedy):
            if text is not None and not rule.id.startswith("parallelism.memory_wall"):
                assert " - " not in text.en, rule.id
                assert "cover" not in text.zh, rule.id
