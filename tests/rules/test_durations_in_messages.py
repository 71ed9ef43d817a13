"""A rule's message says run times as the CLI does ("6 min", "3.5 days"), never "0.0 h a run
instead of 0.1 h" (a six-minute BERT run's nearly-free pitfall read so): ``{fact:duration}``
writes hours in minutes, hours or days, the times of one message in one unit."""

from __future__ import annotations

from advisor.rulebase import default_rules
from advisor.rulebase.model import format_text
from tests.rules.test_schema import GOOD, problems


def test_a_duration_placeholder_writes_minutes_hours_or_days_in_both_languages():
    text = "{a:duration} instead of {b:duration}"
    assert format_text(text, {"a": 1 / 60, "b": 0.1}, "en") == "1 min instead of 6 min"
    assert format_text(text, {"a": 1 / 60, "b": 0.1}, "zh") == "1 分钟 instead of 6 分钟"
    assert format_text(text, {"a": 30.0, "b": 72.0}, "en") == "1.2 days instead of 3.0 days"
    # a time too small for the other's unit keeps its own
    assert format_text(text, {"a": 0.25, "b": 480.0}, "en") == "15 min instead of 20.0 days"


def test_the_nearly_free_pitfall_of_a_six_minute_run_reads_in_minutes():
    rule = next(r for r in default_rules() if r.id == "economics.nearly_free_speedup")
    said = rule.render(rule.message, {"nearly_free_gpus": 4, "nearly_free_hours": 0.03,
                                      "verdict_run_hours": 0.1, "nearly_free_extra_pct": 3.0})
    assert said.en == "4 GPUs would take 2 min a run instead of 6 min for 3 % more a run"
    assert "2 分钟" in said.zh and "6 分钟" in said.zh and "小时" not in said.zh


def test_no_rule_message_writes_a_run_time_in_fixed_hours():
    for rule in default_rules():
        for text in (rule.message, rule.why, rule.remedy):
            if text is None:
                continue
            for name in ("verdict_run_hours", "nearly_free_hours", "verdict_deadline_hours",
                         "verdict_deadline_hours_needed", "verdict_move_hours"):
                assert f"{{{name}:," not in text.en and f"{{{name}:." not in text.en, rule.id


def test_a_duration_of_a_fact_that_is_no_number_is_refused_at_load(tmp_path):
    broken = GOOD.replace("{max_temp_c:.0f} C", "{task:duration} C").replace(
        "{max_temp_c:.0f} 度", "{task:duration} 度")
    _, rendered = problems(tmp_path, broken)
    assert "{task:duration} needs a number of hours" in rendered
