"""Issue 35, "done when": over the whole profile schema (fine-tuning, layouts, measured points,
economics; ``tests/support/strategies.profiles``), ``recommend``, ``project``, ``costs`` and
``compare`` end with an answer or a documented input error, and every figure they give is
finite and bounded: a speed-up never above the GPU count, no negative cost. Fixed seed
(derandomised), bounded examples."""

from __future__ import annotations

import math
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.compare import compare
from advisor.costs import estimate_costs
from advisor.files.errors import InputError
from advisor.profile import Profile
from advisor.scaling import project
from advisor.verdict.recommendation import recommend
from tests.support.strategies import economics_specs, profiles

EXAMPLES = int(os.environ.get("PROP_EXAMPLES", "12"))


@st.composite
def any_profiles(draw) -> Profile:
    data = draw(profiles()).model_dump(mode="json", exclude_none=True)
    data["economics"] = draw(economics_specs())
    try:
        return Profile.model_validate(data)
    except ValueError:
        return draw(profiles())


def _finite(values, where: str) -> None:
    for v in values:
        if v is not None:
            assert math.isfinite(v), where


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(profile=any_profiles())
def test_every_command_ends_cleanly_with_bounded_figures(profile):
    try:
        proj = project(profile)
    except InputError:
        return  # a documented refusal, with its message
    _finite(proj.speedup + proj.run_hours + proj.memory_per_gpu_gb, "projection")
    for n, s in zip(proj.gpus, proj.speedup, strict=True):
        assert 0 < s <= n * (1 + 1e-6), (n, s)
    costs = estimate_costs(profile, proj, lang="en")
    _finite(costs.cost_per_run + costs.cost_per_month + costs.capex, "costs")
    assert min(costs.cost_per_run + costs.cost_per_month + costs.capex) >= 0
    rec = recommend(profile, lang="en")
    assert rec.verdict.headline.en and rec.verdict.headline.zh
    assert len(rec.summary) == 5
    result = compare(profile, verdicts=False)
    for option in result.options:
        for p in option.points:
            _finite([p.speedup, p.run_hours, p.cost_per_month, p.cost_per_run], option.id)
            assert p.speedup <= p.gpus * (1 + 1e-6)
            if p.priced:
                assert p.cost_per_month >= 0 and p.cost_per_run >= 0
