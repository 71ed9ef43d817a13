"""How the report writes numbers: money, durations, speed-ups, plain numbers, tables."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ui.report.formatting import colon, esc, hours, money, number, percent, table, times


@pytest.mark.parametrize(("value", "currency", "text"), [
    (112.25, "CNY", "¥112"), (60.0, "CNY", "¥60.00"), (1216.3, "CNY", "¥1,216"),
    (-44300, "USD", "−$44,300"), (0, "USD", "$0.00"), (None, "CNY", "—"),
    (math.inf, "CNY", "—"), (5, "EUR", "€5.00"), (5, "GBP", "GBP 5.00"),
])
def test_money(value, currency, text):
    assert money(value, currency) == text


@pytest.mark.parametrize(("value", "en", "zh"), [
    (0.6667, "40 min", "40 分钟"), (15.74, "15.7 h", "15.7 小时"),
    (48, "2.0 days (48 h)", "2.0 天（48 小时）"), (400, "16.7 days (400 h)", "16.7 天（400 小时）"),
    (None, "—", "—"),
])
def test_hours(value, en, zh):
    assert hours(value, "en") == en
    assert hours(value, "zh") == zh


def test_small_formats():
    assert times(3.049) == "3.05×" and percent(0.763) == "76 %" and times(None) == "—"
    assert number(10.8333) == "10.83" and number(4) == "4" and number(3000.0) == "3,000"
    assert number(0.5, 1) == "0.5" and number(None) == "—"
    assert colon("zh") == "：" and colon("en") == ": "
    assert esc('<a href="x">&') == "&lt;a href=&quot;x&quot;&gt;&amp;"


def test_table_aligns_numbers_and_spans_group_rows():
    html = table(["A", "B"], [["Group"], ["x", "1"]])
    assert '<td colspan="2">Group</td>' in html
    assert '<td align="left">x</td><td align="right">1</td>' in html


@settings(max_examples=60, deadline=None)
@given(st.floats(min_value=-1e9, max_value=1e9, allow_nan=False))
def test_money_keeps_sign_and_magnitude(value):
    text = money(value, "CNY")
    assert text.startswith("−¥" if value < 0 else "¥")
    digits = text.lstrip("−¥").replace(",", "")
    assert abs(float(digits) - abs(value)) <= 0.5


@settings(max_examples=60, deadline=None)
@given(st.floats(min_value=0, max_value=1e6, allow_nan=False))
def test_hours_always_names_a_unit(value):
    assert any(unit in hours(value, "en") for unit in ("min", " h", "days"))
    assert any(unit in hours(value, "zh") for unit in ("分钟", "小时", "天"))
