"""Review 3, item 5: a deadline counts the days before the first run on several GPUs can
start (F16: the quickest first move takes a day; F32: several machines add more), in the
cost model's deadline count and the comparison's points. (The decision policy's runnable
candidates do not yet: a deadline only hardware bought for it meets would move the answer to
a server bought for one run while no faster card is weighed rented.)"""

from __future__ import annotations

import pytest

from advisor.catalog import load_catalog
from advisor.catalog.profile_check import load_profile
from advisor.compare.compare import compare
from advisor.costs.migration import days_before_first_run
from advisor.costs.model import meets_deadline
from tests.support.paths import PROFILES

PROFILE = PROFILES / "verdict" / "startup-7b-full-2-day-deadline.yaml"


def test_the_move_comes_before_the_first_run_on_several_gpus():
    m = load_catalog().migration
    assert days_before_first_run(1, 1, moved_before=False) == 0.0
    assert days_before_first_run(4, 1, moved_before=False) == pytest.approx(m.days_low)
    assert days_before_first_run(4, 1, moved_before=True) == 0.0
    assert days_before_first_run(16, 2, moved_before=True) == \
        pytest.approx(m.extra_days_multi_machine)
    assert meets_deadline(2, 2.0, 44.0) and not meets_deadline(2, 2.0, 44.0, 1.0)


def test_the_comparison_counts_the_move():
    profile = load_profile(PROFILE)
    comp = compare(profile, verdicts=False)
    answer = comp.answer("deadline")
    assert answer is not None and answer.point is not None
    point = comp.at(answer.point)
    assert point.run_hours + 24.0 <= 48.0  # the runs due after a day's move
    three = [p for o in comp.options for p in o.points if p.gpus == 3 and p.fits and p.priced]
    assert three and all(p.meets_deadline is False for p in three)  # 44 h + a day > 48 h


def test_a_team_that_has_moved_before_starts_at_once():
    profile = load_profile(PROFILE)
    moved = profile.model_copy(update={"economics": profile.economics.model_copy(
        update={"moved_to_multi_gpu_before": True})})
    comp = compare(moved, verdicts=False)
    three = [p for o in comp.options for p in o.points if p.gpus == 3 and p.fits and p.priced
             and abs(p.run_hours - 44.0) < 0.5]
    assert three and all(p.meets_deadline for p in three)
