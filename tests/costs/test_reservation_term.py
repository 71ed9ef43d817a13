"""A reservation is paid for its whole term: held for fewer months than the term, the runs of
those months carry it all (a review: $0.80 an hour of AWS's 3-year L40S reservation read as
$584 a month for a 3-month plan, $21,024 committed; RunPod on demand was $628)."""

from __future__ import annotations

import pytest

from advisor.catalog.profile_check import parse_profile_text
from advisor.compare.weighed import recommend
from advisor.costs.commitment import committed_share

THREE_MONTHS = """
task: nlp
model: {name: X, params_millions: 355}
training: {single_gpu_hours: 20, runs_per_day: 1.2, horizon_months: 3, batch_per_gpu: 32,
           precision: bf16, input_pipeline: tuned}
hardware: {gpu: l40s, gpus_per_node: 1, intra_link: pcie4, cooling: server}
economics: {mode: cloud, currency: USD, time_value: none}
"""


def test_a_term_longer_than_the_plan_is_paid_whole():
    busy = committed_share(36.0, 20.0, 1.0)  # the month's runs nearly fill a 1-month term
    assert committed_share(36.0, 20.0, 36.0, 36.0) == pytest.approx(busy)
    assert committed_share(36.0, 20.0, 36.0, 3.0) == pytest.approx(12 * busy)
    assert committed_share(36.0, 20.0, 12.0, 13.0) == pytest.approx(24 / 13 * busy)
    assert committed_share(36.0, 20.0, 36.0) == pytest.approx(busy)  # no plan said: a term
    assert committed_share(1.0, 2000.0, 36.0, 3.0) >= 12.0  # busy all along, still 36 months


def test_a_three_year_reservation_is_not_the_answer_for_three_months_of_runs():
    rec = recommend(parse_profile_text(THREE_MONTHS), lang="en")
    assert "reserved" not in rec.summary[0].text.en
    assert rec.costs.cost_per_month[rec.costs.gpus.index(rec.verdict.gpus)] <= 650
