"""Extrapolation beyond the measurements: where the machines end (aligned with the projection),
what the network between machines costs even when a loader cap binds (F08: two machines never
more than double one), and how wide the band is when the fit has no degrees of freedom left."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from advisor.cli import main
from advisor.diagnosis import diagnose, from_points
from advisor.diagnosis import refit as refit_module
from advisor.diagnosis.context import run_context
from advisor.profile import InterLink, Profile
from advisor.scaling.parameters import load_params
from advisor.scaling.project import DEFAULT_INTER_LINK
from tests.support.diagnosis import diagnose_json
from tests.support.paths import EXAMPLES

PARAMS = load_params()


def _notes(d) -> str:
    return " ".join(n.en for n in d.notes)


def _profile(**hardware) -> Profile:
    return Profile.model_validate({"training": {"single_gpu_hours": 10},
                                   "hardware": {"gpus_per_node": 4, **hardware}})


def test_a_csv_with_8_measured_gpus_does_not_speak_of_4_per_machine(tmp_path, capsys):
    csv = tmp_path / "m.csv"
    csv.write_text("gpus,throughput\n1,100\n2,190\n4,360\n8,600\n", encoding="utf-8")
    assert main(["diagnose", str(csv), "--up-to", "8"]) == 0
    out = capsys.readouterr().out
    assert "Beyond" not in out and "4 GPUs per machine" not in out
    assert "8 to a machine" in out  # the assumed machine holds what was measured
    assert main(["diagnose", str(csv)]) == 0  # default: up to 16, beyond one 8-GPU machine
    out = capsys.readouterr().out
    assert "Beyond 8 GPUs" in out and "25 GbE Ethernet" in out and "Beyond 4" not in out


def test_no_note_when_the_extrapolation_stays_on_the_machine():
    d = diagnose(from_points([1, 2, 4], [100, 190, 350]), _profile(gpus_per_node=8), up_to=8)
    assert "Beyond" not in _notes(d)
    d = diagnose(from_points([1, 2, 4], [100, 190, 350]), _profile(), up_to=4)
    assert "Beyond" not in _notes(d)


def test_beyond_the_machine_it_adds_machines_on_the_default_network_as_the_projection():
    series = from_points([1, 2, 4], [100, 190, 350])
    ctx = run_context(series, _profile(), PARAMS, 16)
    hw = ctx.profile.hardware
    assert (hw.gpus_per_node, hw.nodes, hw.inter_link) == (4, 4, DEFAULT_INTER_LINK)
    assert DEFAULT_INTER_LINK == InterLink.ethernet_25g
    assert ctx.inputs.busbw_inter_gbs > 0
    d = diagnose(series, _profile(), up_to=16)
    assert "Beyond 4 GPUs (one machine)" in _notes(d) and "25 GbE Ethernet" in _notes(d)
    assert "25 GbE" in " ".join(n.zh for n in d.notes)
    # The network is in the extrapolation: 25 GbE between machines is slower than InfiniBand.
    fast = diagnose(series, _profile(inter_link="infiniband_ndr"), up_to=16)
    assert d.fit.speedup[d.fit.gpus.index(16)] < fast.fit.speedup[fast.fit.gpus.index(16)]
    assert d.fit.speedup[:3] == pytest.approx(fast.fit.speedup[:3], abs=1e-3)


def test_a_named_network_is_used_and_named():
    profile = _profile(nodes=2, inter_link="infiniband_hdr")
    d = diagnose(from_points([1, 2, 4], [100, 190, 350]), profile, up_to=32)
    assert "Beyond 8 GPUs (2 machines)" in _notes(d) and "InfiniBand HDR" in _notes(d)
    ctx = run_context(from_points([1, 2, 4], [100, 190, 350]), profile, PARAMS, 32)
    assert ctx.profile.hardware.inter_link == InterLink.infiniband_hdr
    assert ctx.profile.hardware.nodes == 8  # 32 GPUs, 4 to a machine


# ---- the band with at most one degree of freedom -------------------------------------------

EXACT = from_points([1, 2, 4], [100.0, 185.0, 320.0])  # 2 ratios, 2 free parameters


def _log_width(d, n: int) -> float:
    i = d.fit.gpus.index(n)
    return math.log(d.fit.speedup_high[i] / d.fit.speedup_low[i])


def test_an_exact_fit_still_has_a_band_with_parameter_uncertainty():
    d = diagnose(EXACT, up_to=16)
    assert d.fit.rms_log_residual < 0.03  # two parameters through two ratios: near exact
    # floor per doubling and the leave-one-out spread, both beyond the largest measured count
    i = d.fit.gpus.index(16)
    if d.fit.speedup_high[i] < 16:  # not clipped at ideal
        assert _log_width(d, 16) >= 2 * refit_module.BAND_Z * \
            refit_module.EXTRAPOLATION_LOG_SD_PER_DOUBLING * 2 - 1e-6
    assert _log_width(d, 16) > _log_width(d, 8) > 0


def test_leave_one_out_widens_the_band_of_an_exact_fit(monkeypatch):
    wide = diagnose(EXACT, up_to=16)
    monkeypatch.setattr(refit_module, "LEAVE_ONE_OUT_SCALE", 0.0)
    narrow = diagnose(EXACT, up_to=16)
    assert _log_width(wide, 8) > _log_width(narrow, 8) + 1e-4
    # measured counts keep the measurement's band
    assert _log_width(wide, 4) == pytest.approx(_log_width(narrow, 4))


def test_leave_one_out_is_only_for_fits_with_at_most_one_degree_of_freedom():
    free = refit_module._free_parameters(refit_module.FREE, run_context(
        EXACT, None, PARAMS, 16).inputs, PARAMS)
    fn = lambda g, v: np.asarray(g, dtype=float)  # noqa: E731 - any curve will do here
    out = np.array([8.0, 16.0])
    outcome = refit_module.fit(fn, free, np.array([2.0, 4.0, 8.0, 16.0]),
                               np.log([2.0, 4.0, 8.0, 16.0]), 1, 0.02)
    sd = refit_module._leave_one_out_sd(fn, free, outcome, np.array([2.0, 4.0, 8.0, 16.0]),
                                        np.log([2.0, 4.0, 8.0, 16.0]), 1, out)
    assert np.all(sd == 0)  # 4 ratios, 2 parameters: the residuals speak for themselves


def test_measurements_on_more_gpus_than_the_profile_holds_resize_the_machine():
    series = from_points([1, 2, 4, 8], [100, 190, 350, 600])
    d = diagnose(series, _profile(), up_to=8)
    assert "8 GPUs were measured but the profile's machine holds 4" in _notes(d)
    assert "Beyond" not in _notes(d)
    ctx = run_context(series, _profile(), PARAMS, 8)
    assert (ctx.profile.hardware.gpus_per_node, ctx.profile.hardware.nodes) == (8, 1)


def test_second_machine_over_ethernet_costs_something(tmp_path, capsys):
    f = diagnose_json(tmp_path, capsys)["fit"]
    assert f["parameters"].get("loader_capacity")  # the loader cap binds here
    s8, s16 = f["speedup"][f["gpus"].index(8)], f["speedup"][f["gpus"].index(16)]
    assert s16 < 1.98 * s8  # 25 GbE all-reduce between the machines is not free (F08)
    assert s16 > s8
    hi8, hi16 = (f["speedup_high"][f["gpus"].index(n)] for n in (8, 16))
    assert hi16 <= 2.0 * hi8 + 1e-3  # two machines never more than double the band's top


def test_measured_example_two_machines_below_double(capsys):
    assert main(["diagnose", str(EXAMPLES / "measured-4gpu-only-1.8x-diagnose.yaml"),
                 "--format", "json"]) == 0
    f = json.loads(capsys.readouterr().out)["fit"]
    s4, s8 = f["speedup"][f["gpus"].index(4)], f["speedup"][f["gpus"].index(8)]
    assert s8 < 1.98 * s4
