"""Near-linear measurements are fitted (F30): the refit may make communication and per-step
overheads cheap, never faster than the link (its parameters stay in their bounds, the bus
efficiency at most 1), follows the points within 3 %, and never blames the link for a run that
scales well, even on a slow one."""

from __future__ import annotations

import pytest

from advisor.catalog.profile_check import load_profile
from advisor.diagnosis import diagnose
from advisor.diagnosis.measurements import from_points
from advisor.diagnosis.refit import BOUNDS
from advisor.profile import Profile
from tests.support.paths import EXAMPLES

MEDIUM = EXAMPLES / "medium-model-4gpu-worth-it.yaml"
# 1.99x / 3.95x / 7.73x on 2, 4 and 8 GPUs
NEAR_LINEAR = ([1, 2, 4, 8], [1100.0, 2190.0, 4350.0, 8500.0])
LINK_SUSPECTS = ("interconnect", "small_model_communication")


def _check_near_linear(d) -> None:
    f = d.fit
    assert f is not None and not f.plateau
    for n, s in zip(d.measured.gpus, d.measured.speedup, strict=True):
        i = f.gpus.index(n)
        assert f.speedup[i] == pytest.approx(s, rel=0.03), (n, f.speedup[i], s)
        assert f.speedup_low[i] <= s * 1.005 and s <= f.speedup_high[i] * 1.005
    assert f.rms_log_residual < 0.03
    for name, value in f.parameters.items():
        lo, hi = BOUNDS[name]
        assert lo <= value <= hi, (name, value)
    assert f.parameters["busbw_efficiency"] <= 1.0
    assert not d.suspects or d.suspects[0].id not in LINK_SUSPECTS
    # more GPUs beyond the data never lose speed here (cheap exchange between machines too)
    assert f.speedup[f.gpus.index(16)] > f.speedup[f.gpus.index(8)]


def test_near_linear_without_profile_is_fitted():
    _check_near_linear(diagnose(from_points(*NEAR_LINEAR, unit="samples/s")))


def test_near_linear_with_profile_is_fitted():
    d = diagnose(from_points(*NEAR_LINEAR, unit="images/s"), load_profile(MEDIUM))
    _check_near_linear(d)


@pytest.mark.parametrize("values", [[100, 198, 395], [100, 196, 388, 760]])
def test_near_linear_on_a_slow_link_never_blames_the_link(values):
    bert = Profile.model_validate({
        "task": "nlp", "model": {"name": "BERT-large", "params_millions": 340},
        "training": {"single_gpu_hours": 20, "batch_per_gpu": 8, "precision": "amp"},
        "hardware": {"gpu": "rtx3090", "gpus_per_node": 8, "intra_link": "pcie4"}})
    gpus = [1, 2, 4, 8][:len(values)]
    d = diagnose(from_points(gpus, [float(v) for v in values], unit="sequences/s"), bert)
    assert d.fit.rms_log_residual < 0.03
    assert d.fit.parameters["busbw_efficiency"] <= 1.0
    assert not d.suspects or d.suspects[0].id not in LINK_SUSPECTS
