"""Diagnosis core: Karp–Flatt, F30 grades, measurements CSV, refit and ranked suspects."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.diagnosis import (
    CITED_FACTS,
    GpuSamples,
    diagnose,
    from_measured_spec,
    from_points,
    from_samples,
    grade,
    parse_measurements_csv,
    read_gpu_logs,
    read_measurements_csv,
    scaling_metrics,
    thresholds,
)
from advisor.diagnosis.metrics import amdahl_speedup, karp_flatt, karp_flatt_trend
from advisor.diagnosis.refit import fit_amdahl, refit
from advisor.files.errors import InputError
from advisor.profile import MeasuredSpec, Profile
from advisor.scaling.parameters import load_params
from advisor.scaling.physics import DataParallelInputs, speedup
from tests.support.paths import TESTS

FIXTURES = TESTS / "fixtures" / "diagnosis"
POOR_4 = from_points([1, 2, 4], [100.0, 170.0, 180.0], unit="images/s")  # "only 1.8x on 4"


# ---- Karp–Flatt and Amdahl --------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(serial=st.floats(0.001, 0.6),
       counts=st.lists(st.sampled_from([2, 3, 4, 6, 8, 16, 32, 64]), min_size=1, max_size=5,
                       unique=True))
def test_karp_flatt_recovers_the_serial_fraction_of_amdahl_data(serial, counts):
    gpus = sorted({1, *counts})
    series = from_points(gpus, [amdahl_speedup(serial, n) * 50.0 for n in gpus])
    m = scaling_metrics(series)
    assert m.karp_flatt[0] is None
    for e in m.karp_flatt[1:]:
        assert e == pytest.approx(serial, abs=1e-9)
    if len(gpus) >= 3:
        assert m.trend == "flat"


@settings(max_examples=25, deadline=None)
@given(serial=st.floats(0.002, 0.5))
def test_amdahl_fit_recovers_a_known_serial_fraction(serial):
    gpus = [1, 2, 4]
    series = from_points(gpus, [amdahl_speedup(serial, n) for n in gpus])
    assert fit_amdahl(series) == pytest.approx(serial, rel=0.02)


def test_karp_flatt_trend_reads_rising_and_falling():
    assert karp_flatt_trend([1, 2, 4, 8], [None, 0.05, 0.10, 0.16]) == "rising"
    assert karp_flatt_trend([1, 2, 4, 8], [None, 0.25, 0.14, 0.08]) == "falling"
    assert karp_flatt_trend([1, 2], [None, 0.2]) == "unknown"
    assert karp_flatt(1.8, 4) == pytest.approx((1 / 1.8 - 0.25) / 0.75)


def test_speedup_relative_to_a_baseline_above_one_gpu():
    m = scaling_metrics(from_points([8, 16], [800.0, 1440.0]))
    assert m.speedup == (8.0, 14.4)  # the 8-GPU baseline is taken as ideal
    assert m.karp_flatt[1] == pytest.approx(karp_flatt(1.8, 2))


# ---- F30 grades ---------------------------------------------------------------------------

@pytest.mark.parametrize(("gpus", "speedup", "level"), [
    (4, 1.8, "poor"), (4, 2.2, "below_normal"), (4, 2.5, "normal"), (4, 2.9, "normal"),
    (4, 3.0, "well_tuned"), (4, 4.4, "superlinear"),
    (8, 3.9, "poor"), (8, 4.5, "below_normal"), (8, 5.2, "normal"), (8, 6.5, "well_tuned"),
])
def test_f30_grades(gpus, speedup, level):
    assert grade(gpus, speedup).level == level


def test_f30_thresholds_are_the_articles_at_4_and_8():
    assert thresholds(4) == pytest.approx((2.0, 2.5, 3.0))
    assert thresholds(8) == pytest.approx((4.0, 5.0, 6.0))


def test_poor_on_8_gpus_says_find_the_lagging_gpu_with_dmon():
    g = grade(8, 3.5)
    assert "nvidia-smi dmon" in g.message.en and "nvidia-smi dmon" in g.message.zh
    assert "communication and data loading" in grade(4, 1.8).message.en
    assert g.sources == ("F30",)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 63))
def test_thresholds_grow_with_the_gpu_count_and_stay_below_ideal(n):
    lo, mid, hi = thresholds(n)
    lo2, mid2, hi2 = thresholds(n + 1)
    assert lo < mid < hi <= n
    assert lo2 > lo and mid2 > mid and hi2 > hi


# ---- measurements CSV ---------------------------------------------------------------------

def test_csv_with_header_unit_and_comments():
    s = parse_measurements_csv("# run of 2026-11-29\ngpus,throughput,unit\n4,360,images/s\n"
                               "1,100,images/s\n\n2,190,images/s\n", source="m.csv")
    assert s.gpus == (1, 2, 4) and s.throughput == (100.0, 190.0, 360.0)
    assert s.unit == "images/s"


def test_csv_without_header_and_step_times_weak_and_strong():
    s = parse_measurements_csv("1,100\n2,180\n", source="x.csv")
    assert s.gpus == (1, 2) and s.unit == "samples/s"
    weak = parse_measurements_csv("gpus,step_time_s\n1,0.5\n4,0.625\n", source="t.csv")
    assert scaling_metrics(weak).speedup[1] == pytest.approx(3.2)  # 4 × 0.5 / 0.625
    strong = parse_measurements_csv("gpus,step_time_s\n1,0.5\n4,0.2\n", source="t.csv",
                                    scaling="strong")
    assert scaling_metrics(strong).speedup[1] == pytest.approx(2.5)


@pytest.mark.parametrize(("text", "line", "words"), [
    ("gpus,throughput\n1,100\n2,abc\n", 3, "not a number"),
    ("gpus,throughput\n1,100\n1,120\n", 3, "already given on line 2"),
    ("gpus,throughput\n1,100\n", 2, "two or more"),
    ("gpus,speed_of_light\n1,100\n2,150\n", 1, "second column"),
    ("cards,throughput\n1,100\n2,150\n", 1, "first column"),
    ("1,100\n2,-5\n", 2, "positive"),
    ("1,100\n2.5,150\n", 2, "whole number"),
    ("1,100\n2\n", 2, "expected"),
])
def test_csv_errors_name_file_and_line(text, line, words):
    with pytest.raises(InputError) as exc:
        parse_measurements_csv(text, source="bad.csv")
    message = exc.value.render("en")
    assert f"bad.csv:{line}:" in message and words in message
    assert exc.value.render("zh") != message


def test_csv_file_errors(tmp_path):
    with pytest.raises(InputError, match="file not found"):
        read_measurements_csv(tmp_path / "missing.csv")
    empty = tmp_path / "empty.csv"
    empty.write_text("# nothing\n", encoding="utf-8")
    with pytest.raises(InputError, match="no measurements"):
        read_measurements_csv(empty)
    mixed = tmp_path / "mixed.csv"
    mixed.write_text("1,100,images/s\n2,150,tokens/s\n", encoding="utf-8")
    with pytest.raises(InputError, match="mixed units"):
        read_measurements_csv(mixed)


def test_profile_measured_section_with_step_times():
    spec = MeasuredSpec(unit="images/s", scaling="weak",
                        points=[{"gpus": 4, "step_time_s": 0.5}, {"gpus": 1, "step_time_s": 0.4}])
    s = from_measured_spec(spec)
    assert s.gpus == (1, 4)
    assert scaling_metrics(s).speedup[1] == pytest.approx(3.2)


# ---- refit ----------------------------------------------------------------------------------

def _inputs(**kw) -> DataParallelInputs:
    base = dict(params_millions=110.0, grad_bytes_per_param=4.0, step_compute_s=0.25,
                gpus_per_node=16, busbw_intra_gbs=20.0, latency_intra_s=10e-6,
                multi_socket_pcie=False, pipeline_stall=0.02)
    base.update(kw)
    return DataParallelInputs(**base)


def test_refit_recovers_the_projections_own_parameters_and_extrapolates():
    params = load_params()
    truth = params.with_values(busbw_efficiency=0.3)
    true_inputs = _inputs(pipeline_stall=0.05)
    gpus = [1, 2, 4, 8]
    measured = speedup(np.array(gpus, float), true_inputs, truth)
    series = from_points(gpus, [float(v) * 100 for v in measured])
    fit = refit(series, _inputs(), params, [1, 2, 4, 8, 16])
    assert fit.parameters["busbw_efficiency"] == pytest.approx(0.3, rel=0.15)
    assert fit.parameters["pipeline_stall"] == pytest.approx(0.05, rel=0.15)
    expected_16 = float(speedup(np.array([1.0, 16.0]), true_inputs, truth)[1])
    assert fit.at(16) == pytest.approx(expected_16, rel=0.02)
    assert not fit.plateau
    i = fit.gpus.index(16)
    assert fit.speedup_low[i] < fit.at(16) < fit.speedup_high[i]
    assert fit.speedup_high[i] - fit.speedup_low[i] > fit.speedup_high[1] - fit.speedup_low[1]


def test_refit_uses_a_capacity_cap_when_the_curve_levels_off():
    d = diagnose(POOR_4)
    assert d.fit is not None and d.fit.plateau
    assert d.fit.parameters["loader_capacity"] == pytest.approx(1.75, rel=0.05)
    # The cap is per machine: on one 16-GPU machine the speed-up stays near it ...
    one_box = diagnose(POOR_4, Profile.model_validate({
        "training": {"single_gpu_hours": 10}, "hardware": {"gpus_per_node": 16}}))
    assert one_box.fit.plateau and one_box.fit.speedup[one_box.fit.gpus.index(16)] < 2.5
    # ... while four 4-GPU machines (the default's size) each bring their own loader.
    assert 2.5 < d.fit.speedup[d.fit.gpus.index(16)] <= 4 * 1.75 * 1.01


def test_refit_beats_amdahl_on_a_communication_bound_series():
    params = load_params()
    truth_inputs = _inputs(pipeline_stall=0.0)
    truth = params.with_values(busbw_efficiency=0.15)
    gpus = np.array([1.0, 2.0, 4.0, 8.0, 16.0])
    s = speedup(gpus, truth_inputs, truth)
    series = from_points([1, 2, 4], [float(v) for v in s[:3]])
    fit = refit(series, truth_inputs, params, [1, 2, 4, 8, 16])
    serial = fit_amdahl(series)
    err_refit = abs(fit.at(16) / s[4] - 1)
    err_amdahl = abs(amdahl_speedup(serial, 16) / s[4] - 1)
    assert err_refit < 0.05 < err_amdahl


# ---- diagnosis and suspects ---------------------------------------------------------------

def test_diagnosis_of_a_poor_4_gpu_run():
    d = diagnose(POOR_4)
    assert d.grade is not None and d.grade.level == "poor" and d.grade.gpus == 4
    assert d.measured.karp_flatt_trend == "rising"
    assert d.measured.grades == [None, "normal", "poor"]
    ids = [s.id for s in d.suspects]
    assert {"input_pipeline", "interconnect"} <= set(ids[:2])
    assert all(0 < s.score < 1 for s in d.suspects)
    assert [s.score for s in d.suspects] == sorted((s.score for s in d.suspects), reverse=True)
    assert d.notes  # no profile: says what it assumed


@pytest.mark.parametrize(("log", "gpus", "values", "first"), [
    ("dmon-4gpu-starved-input-pipeline.txt", [1, 2, 4], [100, 170, 180], "input_pipeline"),
    ("dmon-4gpu-hot-gpu2.txt", [1, 2, 4], [100, 170, 180], "thermal_throttling"),
    ("dmon-8gpu-lagging-gpu5.txt", [1, 2, 4, 8], [100, 185, 340, 380], "lagging_gpu"),
])
def test_dmon_logs_put_the_right_suspect_first(log, gpus, values, first):
    telemetry = read_gpu_logs([FIXTURES / log])
    d = diagnose(from_points(gpus, [float(v) for v in values]), telemetry=telemetry)
    assert d.suspects[0].id == first
    assert str(FIXTURES / log) in d.sources or d.sources


def test_the_hot_gpu_is_blamed_on_heat_not_as_a_separate_laggard():
    telemetry = read_gpu_logs([FIXTURES / "dmon-4gpu-hot-gpu2.txt"])
    d = diagnose(POOR_4, telemetry=telemetry)
    thermal = next(s for s in d.suspects if s.id == "thermal_throttling")
    assert any("GPU 2" in e.en for e in thermal.evidence)
    lagging = [s for s in d.suspects if s.id == "lagging_gpu"]
    assert not lagging or lagging[0].score < 0.3


def test_an_idle_log_is_no_evidence_of_starvation():
    idle = read_gpu_logs([FIXTURES / "dmon-s-pucm-4gpu-fb-bar1-idle.txt"])
    with_log = diagnose(POOR_4, telemetry=idle)
    without = diagnose(POOR_4)
    pipeline = {s.id: s.score for s in with_log.suspects}["input_pipeline"]
    assert pipeline == {s.id: s.score for s in without.suspects}["input_pipeline"]


def test_plain_samples_find_a_lagging_gpu():
    gpus = [GpuSamples(i, sm_util_pct=[97, 99, 98], temp_c=[65, 66, 66],
                       sm_clock_mhz=[1400] * 3 if i == 1 else [1950] * 3) for i in range(4)]
    d = diagnose(from_points([1, 2, 4], [100, 190, 330]), telemetry=from_samples(gpus))
    assert d.suspects[0].id == "lagging_gpu"
    assert "GPU 1" in d.suspects[0].evidence[0].en


def test_profile_clues_vgpu_and_alternating_training():
    profile = Profile.model_validate({
        "task": "gan", "hardware": {"virtualization": "vgpu", "gpus_per_node": 8}})
    d = diagnose(from_points([1, 2, 4, 8], [100, 150, 190, 200]), profile)
    ids = [s.id for s in d.suspects]
    assert "vgpu_sharing" in ids and "alternating_training" in ids
    assert all(s.remedy.en and s.remedy.zh for s in d.suspects)


def test_well_scaling_run_has_a_good_grade_and_few_suspects():
    d = diagnose(from_points([1, 2, 4, 8], [100, 196, 388, 760]))
    assert d.grade is not None and d.grade.level == "well_tuned" and d.grade.gpus == 4
    assert all(s.score < 0.5 for s in d.suspects)


def test_cited_facts_are_article_facts():
    from advisor.rulebase.article_facts import load_facts

    assert "F30" in CITED_FACTS and "F03" in CITED_FACTS
    assert set(CITED_FACTS) <= set(load_facts())


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("0123456789,.-# \nabe")), max_size=80))
def test_any_csv_text_gives_a_series_or_an_input_error(text):
    try:
        series = parse_measurements_csv(text, source="fuzz.csv")
    except InputError as exc:
        assert exc.render("en").startswith("fuzz.csv")
    else:
        assert len(series.gpus) >= 2 and all(v > 0 for v in series.throughput)


def test_an_idle_power_capped_gpu_is_no_suspect_and_idle_logs_are_noted():
    # real `nvidia-smi -q` of ten idle A40s, two with "SW Power Cap: Active" at P8
    idle = read_gpu_logs([FIXTURES / "a40-10gpu-550-two-sw-power-cap-active.txt"])
    d = diagnose(from_points([1, 2, 4], [100.0, 190.0, 360.0]), telemetry=idle)
    assert "power_throttling" not in [s.id for s in d.suspects]
    assert any("no GPU at work" in n.en for n in d.notes)


def test_a_vgpu_host_log_makes_vgpu_sharing_the_first_suspect():
    log = read_gpu_logs([FIXTURES / "a16-nutanix-host-vgpu-sriov-470-i0-attached4-x4-link.txt"])
    assert "vgpu_sharing" in log.observations
    # "8 GPUs" that run like 2 (F29): throughput levels off and then falls
    d = diagnose(from_points([1, 2, 4, 8], [100.0, 180.0, 200.0, 190.0]), telemetry=log)
    assert d.suspects[0].id == "vgpu_sharing"


@settings(max_examples=15, deadline=None)
@given(effs=st.lists(st.floats(0.2, 1.1), min_size=2, max_size=4),
       step_time=st.booleans(), strong=st.booleans())
def test_any_plausible_measurement_gives_a_finite_ordered_fit(effs, step_time, strong):
    gpus = [1, 2, 4, 8, 16][: len(effs) + 1]
    speed = [1.0] + [n * e for n, e in zip(gpus[1:], effs, strict=True)]
    scaling = "strong" if strong else "weak"
    if step_time:  # the same speed-ups written as step times
        values = [(n if scaling == "weak" else 1) / s for n, s in zip(gpus, speed, strict=True)]
    else:
        values = [100.0 * s for s in speed]
    d = diagnose(from_points(gpus, values, step_time=step_time, scaling=scaling))
    assert d.measured.speedup == pytest.approx(speed, rel=1e-3)
    f = d.fit
    assert f is not None and f.gpus[0] == 1 and f.speedup[0] == 1.0
    for lo, s, hi in zip(f.speedup_low, f.speedup, f.speedup_high, strict=True):
        assert np.isfinite([lo, s, hi]).all() and 0 < lo <= s <= hi
    assert [x.score for x in d.suspects] == sorted((x.score for x in d.suspects), reverse=True)
