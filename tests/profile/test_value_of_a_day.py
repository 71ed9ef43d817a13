"""A deadline or revenue makes a day saved worth something: without economics.value_per_day the
profile check asks for it at the time_value line instead of counting the day as worth 0 (a
deadline with its date alone is fine; learning needs no value), and the CLI says so and exits 2
(F02, F12)."""

from __future__ import annotations

import pytest

from advisor.catalog.profile_check import parse_profile_text
from advisor.cli import main
from tests.support.profiles import HEAD, problems

REVENUE = (HEAD + "hardware: {gpu: rtx4090, gpus_per_node: 2}\n"
           "economics:\n  mode: own\n  currency: USD\n  time_value: revenue\n")


def test_revenue_without_a_value_per_day_names_the_field_at_the_time_value_line():
    [problem] = problems(REVENUE)
    assert problem.path == "economics.value_per_day"
    assert problem.line == 7  # the time_value line that asks for it
    assert "economics.value_per_day" in problem.message_en
    assert "economics.value_per_day" in problem.message_zh and "收入" in problem.message_zh


def test_a_deadline_needs_its_worth_or_its_date():
    text = REVENUE.replace("revenue", "deadline")
    [problem] = problems(text)
    assert problem.path == "economics.value_per_day"
    assert "deadline_days" in problem.message_en and "deadline_days" in problem.message_zh
    dated = parse_profile_text(text + "  deadline_days: 0.5\n")  # the date alone counts
    assert dated.economics.value_per_day is None and dated.economics.deadline_days == 0.5


@pytest.mark.parametrize("extra", ["  value_per_day: 300\n", "  value_per_day: 0\n"])
def test_a_given_value_is_accepted(extra):
    assert parse_profile_text(REVENUE + extra).economics.value_per_day is not None


def test_learning_needs_no_value():
    assert parse_profile_text(REVENUE.replace("revenue", "none")).economics.value_per_day is None


def test_the_cli_says_so_and_exits_2(tmp_path, capsys):
    path = tmp_path / "p.yaml"
    path.write_text(REVENUE, encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    assert f"{path}:7: economics.value_per_day:" in capsys.readouterr().err
    assert main(["--lang", "zh", "recommend", str(path)]) == 2
    assert "economics.value_per_day" in capsys.readouterr().err
