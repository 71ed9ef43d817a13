"""Broken rule files are refused at load time with the file, the line and the rule id."""

from __future__ import annotations

import textwrap

import pytest

from advisor.files.errors import InputError
from advisor.rulebase import load_rule_file, load_rules

GOOD = """\
concern: pitfalls
rules:
  - id: pitfalls.example
    when:
      all:
        - {fact: max_temp_c, op: ge, value: 84}
    then: {pitfall: thermal_throttling, severity: warning}
    message: {en: "Hot at {max_temp_c:.0f} C", zh: "温度 {max_temp_c:.0f} 度"}
    why: {en: "Cards slow down above 84 C.", zh: "超过 84 度会降频。"}
    remedy: {en: "Add fans.", zh: "加风扇。"}
    sources: [F27]
"""


def write(tmp_path, text, name="pitfalls.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def problems(tmp_path, text, name="pitfalls.yaml"):
    path = write(tmp_path, text, name)
    with pytest.raises(InputError) as err:
        load_rule_file(path)
    rendered = err.value.render("en")
    assert err.value.source == str(path)
    assert rendered.startswith(str(path) + ":")
    return err.value.problems, rendered


def test_good_file_loads(tmp_path):
    (rule,) = load_rule_file(write(tmp_path, GOOD))
    assert rule.id == "pitfalls.example" and rule.line == 3 and rule.kind == "pitfall"


@pytest.mark.parametrize("old,new,line,words", [
    ("op: ge", "op: greater", 6, "unknown operator 'greater'"),
    ('zh: "温度 {max_temp_c:.0f} 度"', 'xx: "x"', 8, "message.zh is missing"),
    ("sources: [F27]", "sources: [F27, F33]", 11, "unknown source 'F33'"),
    ("fact: max_temp_c", "fact: max_temperature", 6, "unknown fact 'max_temperature'"),
    ("value: 84}", "value: hot}", 6, "must be a number"),
    ("value: 84}", "value: 0.00001}", 6, "between"),
    ("severity: warning", "severity: fatal", 7, "severity must be one of"),
    ("{max_temp_c:.0f} C", "{task_name} C", 8, "quotes {task_name}"),
    ('    remedy: {en: "Add fans.", zh: "加风扇。"}\n', "", 3, "needs a remedy"),
    ("id: pitfalls.example", "id: hardware.example", 3, "id must be 'pitfalls."),
    ("op: ge, value: 84", "op: is_true", 6, "needs a true/false fact"),
    ("sources: [F27]", "sources: [F27]\n    priority: high", 12, "priority must be"),
])
def test_broken_rule_names_file_line_and_rule(tmp_path, old, new, line, words):
    assert old in GOOD
    found, rendered = problems(tmp_path, GOOD.replace(old, new))
    assert any(p.line == line for p in found), rendered
    assert words in rendered, rendered
    assert "rule " in rendered


def test_verdict_rules_cannot_read_verdict_facts(tmp_path):
    text = GOOD.replace("concern: pitfalls", "concern: economics").replace(
        "pitfalls.example", "economics.example").replace(
        "{pitfall: thermal_throttling, severity: warning}", "{rating: worth_it, gpus: 4}").replace(
        "fact: max_temp_c, op: ge, value: 84", "fact: verdict_gpus, op: ge, value: 2").replace(
        "{max_temp_c:.0f}", "x")
    _, rendered = problems(tmp_path, text, "economics.yaml")
    assert "cannot read verdict facts" in rendered and "economics.example" in rendered


def test_fact_reference_must_be_guaranteed(tmp_path):
    text = GOOD.replace("concern: pitfalls", "concern: economics").replace(
        "pitfalls.example", "economics.example").replace(
        "{pitfall: thermal_throttling, severity: warning}",
        "{rating: required, gpus: {fact: deadline_gpus}}").replace("{max_temp_c:.0f}", "x")
    _, rendered = problems(tmp_path, text, "economics.yaml")
    assert "deadline_gpus may be absent" in rendered


def test_mixed_conclusion_is_refused(tmp_path):
    text = GOOD.replace("{pitfall: thermal_throttling, severity: warning}",
                        "{pitfall: thermal_throttling, severity: warning, rating: worth_it}")
    _, rendered = problems(tmp_path, text)
    assert "mixes or misnames" in rendered


def test_yaml_syntax_error_names_line(tmp_path):
    found, _ = problems(tmp_path, GOOD.replace("    then: {pitfall", "    then: [pitfall"))
    assert found[0].line is not None


def test_duplicate_id_across_files(tmp_path):
    write(tmp_path, GOOD)
    second = GOOD.replace("concern: pitfalls", "concern: pitfalls")
    other = tmp_path / "more"
    other.mkdir()
    (other / "pitfalls.yaml").write_text(second, encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_rules([tmp_path / "pitfalls.yaml", other / "pitfalls.yaml"])
    rendered = err.value.render("en")
    assert "duplicate rule id" in rendered and "pitfalls.example" in rendered
    assert ":3:" in rendered or rendered.count(":3") >= 1


def test_duplicate_id_in_one_file(tmp_path):
    body = GOOD.split("rules:\n", 1)[1]
    with pytest.raises(InputError) as err:
        load_rules([write(tmp_path, GOOD + body)])
    assert "duplicate rule id" in err.value.render("en")


def test_chinese_rendering_of_errors(tmp_path):
    path = write(tmp_path, GOOD.replace("op: ge", "op: bigger"))
    with pytest.raises(InputError) as err:
        load_rule_file(path)
    assert "未知运算符" in err.value.render("zh")


def test_no_python_in_rules(tmp_path):
    # YAML tags that construct objects are refused by the safe loader
    text = GOOD.replace("value: 84}", "value: !!python/object/apply:os.system ['true']}")
    found, rendered = problems(tmp_path, text)
    assert found[0].line == 6


def test_duplicate_key_in_a_rule(tmp_path):
    text = GOOD.replace("    sources: [F27]\n", "    sources: [F27]\n    sources: [F28]\n")
    found, rendered = problems(tmp_path, text)
    assert "duplicate key 'sources'" in rendered and found[0].line == 12
