"""The one-off move to multi-GPU is part of every cost from two GPUs (spread over the horizon):
the cost model says so, with the same figures in both languages, and the cost chart's label
says the monthly line holds it (the jump from one GPU to two is mostly that move)."""

from __future__ import annotations

import re

import pytest

from advisor.catalog.profile_check import load_profile
from advisor.costs.model import estimate_costs
from advisor.profile import Profile
from advisor.scaling import project
from tests.support.paths import EXAMPLES

PROFILE = EXAMPLES / "medium-model-4gpu-worth-it.yaml"


def _report(profile):
    return estimate_costs(profile, project(profile, [1, 2, 4]), lang="en")


def _move_notes(report):
    return [t for t in report.assumption_texts if "one-off move" in t.en]


def test_the_costs_say_they_hold_the_move_spread_over_the_horizon():
    report = _report(load_profile(PROFILE))
    assert report.migration_cost_per_run[0] == 0.0 and report.migration_cost_per_run[1] > 0.0
    notes = _move_notes(report)
    assert len(notes) == 1
    note = notes[0]
    assert note.en.startswith("from 2 GPUs")
    horizon = report.horizon_months
    assert horizon > 0 and f"{horizon:g} months" in note.en
    # the total is the move's share of a run times the runs in the horizon
    total, month = (float(x.replace(",", "")) for x in re.findall(r"¥(\d[\d,]*)", note.en))
    assert month == pytest.approx(total / horizon, abs=0.5)
    # the monthly share is what the move adds to a month of runs (cost per month over cost per
    # run is the runs a month)
    runs_pm = report.cost_per_month[1] / report.cost_per_run[1]
    assert report.migration_cost_per_run[1] * runs_pm == pytest.approx(month, abs=0.5)
    assert re.findall(r"\d[\d,]*", note.en) == re.findall(r"\d[\d,]*", note.zh)  # same numbers


def test_no_move_no_note():
    profile = load_profile(PROFILE)
    moved = profile.model_copy(update={"economics": profile.economics.model_copy(
        update={"engineer_day_rate": 0.0})})
    report = _report(moved)
    assert not any(report.migration_cost_per_run)
    assert _move_notes(report) == []


def test_the_cost_chart_labels_the_monthly_line_with_the_move(qtbot):
    from ui.plots.cost import _per_month_label

    report = _report(load_profile(PROFILE))
    label = _per_month_label(report, "en")
    assert "one-off move" in label and f"{report.horizon_months:g} months" in label
    plain = report.model_copy(update={"migration_cost_per_run": [0.0] * len(report.gpus)})
    assert _per_month_label(plain, "en") == "Cost per month"


def test_the_days_of_the_move_say_what_several_machines_add():
    """Review 8: "one-off move to multi-GPU: 2 engineer-days" was printed beside $1,800, the
    three days a move across machines is charged."""
    from advisor.costs.text import render_text

    profile = load_profile(PROFILE)
    two = Profile.model_validate({**profile.model_dump(mode="json"), "hardware": {
        **profile.hardware.model_dump(mode="json"), "gpus_per_node": 2, "nodes": 2,
        "inter_link": "ethernet_25g"}})
    report = estimate_costs(two, project(two, [1, 2, 4]), lang="en")
    days = report.priced_with["migration_days"]
    extra = report.priced_with["migration_extra_days_machines"]
    assert extra > 0
    text = render_text(report, "en")
    assert f"one-off move to multi-GPU: {days:g} engineer-days ({days + extra:g} on several " \
           "machines)" in text
    assert f"（多台机器 {days + extra:g} 个）" in render_text(report, "zh")
    one = estimate_costs(load_profile(PROFILE), project(load_profile(PROFILE), [1, 2, 4]),
                         lang="en")
    assert "on several machines" not in render_text(one, "en")  # one machine: nothing to add
