"""gpu-advisor rules list / explain: generated from the rule files, in both languages."""

from __future__ import annotations

from advisor.cli import main
from advisor.rulebase import default_rules, rule_by_id


def test_list_shows_every_rule(capsys):
    assert main(["rules", "list", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    for rule in default_rules():
        assert rule.id in out and rule.message.en in out


def test_explain_in_chinese_comes_from_the_yaml(capsys):
    assert main(["rules", "explain", "pitfalls.starved_pipeline", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    rule = rule_by_id("pitfalls.starved_pipeline")
    assert rule.message.zh in out and rule.why.zh in out and rule.remedy.zh in out
    assert "F28" in out and "rules/pitfalls.yaml:" in out
    # facts in words, their ids beside them (review 3: raw ids alone in the Chinese output)
    assert "数据加载方式 [input_pipeline] = starved" in out
    assert main(["rules", "explain", "economics.deadline_needs_more_gpus", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "{赶上截止时间的最少卡数}" in out and "{deadline_gpus}" not in out.split("\n", 2)[2]


def test_explain_unknown_rule_exits_2(capsys):
    assert main(["rules", "explain", "no.such_rule"]) == 2
    assert "unknown rule" in capsys.readouterr().err
