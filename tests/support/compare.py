"""Profiles and helpers the comparison tests share: the article's workloads (F25, F32), a
small fast profile for property tests, and a comparison's points by option."""

from __future__ import annotations

from advisor.catalog.profile_check import load_profile, parse_profile_text
from advisor.compare import Comparison
from advisor.profile import Profile
from tests.support.paths import TESTS

SCALING = TESTS / "profiles" / "scaling"


def scaling_profile(name: str) -> Profile:
    return load_profile(SCALING / f"{name}.yaml")


# Two GPUs of one kind: few counts, so a comparison runs fast enough for property tests.
SMALL = """schema_version: 1
task: image_classification
model: {name: ResNet-50, params_millions: 25.6}
training: {single_gpu_hours: 24, runs_per_month: 8, batch_per_gpu: 64, precision: amp}
hardware: {gpu: rtx4090, gpus_per_node: 2, intra_link: pcie4}
economics: {mode: own, market: US, currency: USD, time_value: revenue, value_per_day: 400,
            deadline_days: 10, monthly_budget: 900}
"""


def small_profile(**economics) -> Profile:
    profile = parse_profile_text(SMALL)
    if economics:
        profile = profile.model_copy(update={
            "economics": profile.economics.model_validate(
                {**profile.economics.model_dump(), **economics})})
    return profile


def speed_at(result: Comparison, option_id: str, gpus: int) -> float:
    point = result.option(option_id).point(gpus)
    assert point is not None, (option_id, gpus)
    return point.speedup


def every_point(result: Comparison):
    """(option id, point) for every point that can run at a known price."""
    return [(o.id, p) for o in result.options for p in o.points if p.fits and p.priced]
