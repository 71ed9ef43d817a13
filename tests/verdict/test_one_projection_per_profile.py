"""One profile, one projection: a profile's own measurements win over the model (F30), and
``recommend``, ``project`` and ``costs`` show that same measured curve (the cost model prices
it too); without measurements the shared projection is the model's."""

from __future__ import annotations

import json

import pytest

from advisor.catalog.profile_check import load_profile
from advisor.cli import main
from advisor.diagnosis.measurements import from_measured_spec
from advisor.profile import Profile
from advisor.scaling import project
from advisor.verdict.projection_for import projection_for
from advisor.verdict.recommendation import recommend
from tests.support.paths import EXAMPLES, ROOT

MEASURED = EXAMPLES / "measured-4gpu-only-1.8x-diagnose.yaml"
MEDIUM = EXAMPLES / "medium-model-4gpu-worth-it.yaml"


def test_measured_profile_uses_its_measurements(recs):
    rec = recs["measured-4gpu-only-1.8x-diagnose"]
    pr = rec.projection
    assert pr.speedup[pr.at(2)] == pytest.approx(2045 / 1210, rel=0.03)
    assert pr.speedup[pr.at(4)] == pytest.approx(2180 / 1210, rel=0.03)
    assert all(lo <= s <= hi for lo, s, hi in
               zip(pr.speedup_low, pr.speedup, pr.speedup_high, strict=True))
    assert any("measurements" in n for n in pr.notes)
    assert any("实测" in n for n in pr.notes_zh)
    v = rec.verdict
    assert pr.speedup[pr.at(v.gpus)] < 2.0, "no verdict built on the model's 3.27x"
    assert "3.2" not in v.headline.en
    # the cost model ran on the measured speed-ups too
    assert rec.costs.run_hours[rec.costs.gpus.index(4)] == pytest.approx(
        rec.costs.run_hours[0] / pr.speedup[pr.at(4)], rel=0.01)


def test_project_and_recommend_show_the_same_measured_curve(capsys) -> None:
    profile = load_profile(MEASURED)
    counts = [1, 2, 4]
    shared = projection_for(profile, counts)
    model_only = project(profile, counts)
    assert shared.speedup != model_only.speedup  # the measurements change the curve (F30)
    rec = recommend(profile, gpus=counts)
    assert rec.projection.speedup == shared.speedup
    assert main(["project", str(MEASURED), "--gpus", "1,2,4", "--format", "json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert cli["speedup"] == shared.speedup
    assert main(["recommend", str(MEASURED), "--gpus", "1,2,4", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["projection"]["speedup"] == shared.speedup
    assert abs(shared.speedup[counts.index(4)] - 1.80) < 0.05  # the measured 1.80x, not 3.1x


def test_costs_command_uses_the_measured_projection(capsys):

    from advisor.catalog.profile_check import load_profile
    from advisor.verdict.projection_for import projection_for

    path = ROOT / "examples" / \
        "measured-4gpu-only-1.8x-diagnose.yaml"
    assert main(["--lang", "en", "costs", str(path), "--gpus", "1,2,4", "--format",
                 "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = projection_for(load_profile(path), [1, 2, 4])
    assert data["run_hours"] == pytest.approx(expected.run_hours)
    assert data["run_hours"][0] / data["run_hours"][2] == pytest.approx(1.80, abs=0.02)


def test_without_measurements_the_shared_projection_is_the_model() -> None:
    profile = load_profile(MEDIUM)
    assert projection_for(profile, [1, 2, 4]) == project(profile, [1, 2, 4])


def test_measured_profile_into_the_projection_keeps_the_measurements():
    from advisor.scaling import project
    from advisor.verdict.measured_projection import with_measured_speedups

    profile = load_profile(MEDIUM).model_copy(update={"measured": None})
    data = profile.model_dump(mode="json")
    data["measured"] = {"unit": "images/s", "scaling": "weak", "points": [
        {"gpus": 1, "throughput": 1100}, {"gpus": 2, "throughput": 2190},
        {"gpus": 4, "throughput": 4350}]}
    profile = Profile.model_validate(data)
    proj = with_measured_speedups(profile, project(profile))
    for n, s in ((2, 2190 / 1100), (4, 4350 / 1100)):
        i = proj.gpus.index(n)
        assert proj.speedup[i] == pytest.approx(s, rel=0.03)
        assert proj.speedup_low[i] <= s * 1.005 <= proj.speedup_high[i] * 1.01
    assert from_measured_spec(profile.measured).gpus == (1, 2, 4)
