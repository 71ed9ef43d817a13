"""gpu-advisor rules list / explain: generated from the rule files, in both languages."""

from __future__ import annotations

import re

from advisor.cli import main
from advisor.cli.commands.rules import template_text
from advisor.rulebase import default_rules, rule_by_id


def test_list_shows_every_rule(capsys):
    assert main(["rules", "list", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    for rule in default_rules():
        assert rule.id in out and template_text(rule.message.en, "en") in out
    assert "{verdict_gpus" not in out  # placeholders read as the facts' names


def test_explain_has_no_english_operators_in_chinese(capsys):
    """Review 4: "is false", "is known" and raw placeholders in the Chinese explanation."""
    assert main(["rules", "explain", "economics.breakeven_says_rent", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "is false" not in out and "is known" not in out and "为否" in out and "已知" in out
    assert "{breakeven_hours_per_month" not in out and "{每月超过多少小时自建更划算}" in out


def test_explain_in_chinese_comes_from_the_yaml(capsys):
    assert main(["rules", "explain", "pitfalls.starved_pipeline", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    rule = rule_by_id("pitfalls.starved_pipeline")
    assert rule.message.zh in out and rule.why.zh in out and rule.remedy.zh in out
    assert "F28" in out and "rules/pitfalls.yaml:" in out
    # facts in words, their ids beside them (review 3: raw ids alone in the Chinese output)
    assert "数据加载方式 [input_pipeline] = 喂不饱 (starved)" in out
    assert main(["rules", "explain", "economics.deadline_needs_more_gpus", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "{单卡放得下时赶上截止时间的最少卡数}" in out
    assert "{deadline_gpus_for_time}" not in out.split("\n", 2)[2]


def test_explain_unknown_rule_exits_2(capsys):
    assert main(["rules", "explain", "no.such_rule"]) == 2
    assert "unknown rule" in capsys.readouterr().err


def test_the_count_guard_step_is_explained_too(capsys):
    """Review 5: the Why list showed policy.as_fast_smaller_count, which `rules explain` did
    not know."""
    assert main(["rules", "explain", "policy.as_fast_smaller_count", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "冲突处理策略的最后一步" in out and "F02" in out and "F20" in out
    assert main(["rules", "explain", "pitfalls.more_gpus_would_keep_up", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "{keep_up_gpus}" not in out and "已知" in out
    assert main(["rules", "explain", "economics.unpriced_no_gain", "--lang", "zh"]) == 0
    assert "[net_value_best] 未知" in capsys.readouterr().out


def test_every_policy_step_the_why_list_shows_is_explained(capsys, recs):
    """Issue 29: the decision policy's step (policy.best_candidate) is in the Why list of
    moved answers; `rules explain` knows it as it knows the count guard's."""
    shown = {t.rule for rec in recs.values() for t in rec.trace if t.rule.startswith("policy.")}
    assert "policy.best_candidate" in shown
    for rule in shown:
        for lang, words in (("en", "Not a rule of rules/*.yaml"), ("zh", "这不是 rules/*.yaml")):
            assert main(["rules", "explain", rule, "--lang", lang]) == 0
            out = capsys.readouterr().out
            assert out.startswith(rule) and words in out and "F02" in out


def test_rules_explain_in_chinese_has_no_raw_values(capsys) -> None:
    assert main(["--lang", "zh", "rules", "explain", "decision_table.medium_model_training"]) == 0
    out = capsys.readouterr().out
    assert "否决：否" in out and "结论：评级：划算，卡数：4 卡" in out
    assert not re.search(r"否决=|rating=|=False|=True", out)
