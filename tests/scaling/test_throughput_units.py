"""The single-GPU throughput in the unit a log prints (samples, images, tokens or frames per
second, audio samples per second), and a rate no GPU could reach flagged as a likely unit
mistake naming the field (advisor/scaling/throughput_check.py)."""

from __future__ import annotations

import pytest

from advisor.catalog.gpus import resolve_gpu
from advisor.catalog.profile_check import parse_profile_text
from advisor.files.errors import InputError
from advisor.profile import Profile
from advisor.scaling import project
from advisor.scaling.throughput_check import impossible_throughput

GPUS = [1, 2, 4, 8]


def llm(rate: float, unit: str = "samples", sequence: int | None = 2048, **model) -> Profile:
    return Profile.model_validate({
        "task": "llm",
        "model": {"name": "gpt", "params_millions": 1300, "sequence_length": sequence, **model},
        "training": {"single_gpu_throughput": rate, "throughput_unit": unit,
                     "dataset_samples": 10**6, "epochs": 1, "batch_per_gpu": 8,
                     "precision": "bf16", "input_pipeline": "tuned"},
        "hardware": {"gpu": "a100_sxm4_80gb", "gpus_per_node": 8, "intra_link": "nvswitch"}})


def _same(a, b):
    assert a.speedup == pytest.approx(b.speedup, rel=1e-6)
    assert a.step_time_s == pytest.approx(b.step_time_s, rel=1e-6)
    assert a.run_hours == pytest.approx(b.run_hours, rel=1e-6)


def test_tokens_per_second_with_a_sequence_length_project_as_samples_per_second():
    _same(project(llm(20_000.0, "tokens"), GPUS), project(llm(20_000.0 / 2048), GPUS))


def test_frames_and_audio_samples_convert_by_their_count_per_sample():
    def speech(rate: float, unit: str, **extra) -> Profile:
        return Profile.model_validate({
            "task": "speech_recognition",
            "model": {"name": "tts", "params_millions": 45, "sequence_length": 570},
            "training": {"single_gpu_throughput": rate, "throughput_unit": unit,
                         "dataset_samples": 10**5, "epochs": 1, "batch_per_gpu": 32, **extra},
            "hardware": {"gpu": "a100_sxm4_80gb", "gpus_per_node": 8,
                         "intra_link": "nvswitch"}})
    samples = project(speech(200.0, "samples"), GPUS)
    _same(project(speech(200.0 * 570, "frames"), GPUS), samples)
    _same(project(speech(200.0 * 8192, "audio_samples", audio_samples_per_sample=8192), GPUS),
          samples)
    _same(project(speech(200.0, "images"), GPUS), samples)


@pytest.mark.parametrize(("text", "field"), [
    ("training: {single_gpu_throughput: 5000, throughput_unit: tokens, dataset_samples: 100000000, "
     "epochs: 1}", "model.sequence_length"),
    ("training: {single_gpu_throughput: 5000, throughput_unit: frames, dataset_samples: 100000000, "
     "epochs: 1}", "model.sequence_length"),
    ("training: {single_gpu_throughput: 5000, throughput_unit: audio_samples, "
     "dataset_samples: 100000000, epochs: 1}", "training.audio_samples_per_sample"),
])
def test_a_unit_without_its_count_per_sample_is_an_error_naming_the_field(text, field):
    with pytest.raises(InputError) as caught:
        parse_profile_text("task: nlp\n" + text + "\n")
    problem = caught.value.problems[0]
    assert problem.path == field and problem.line == 2
    assert field in problem.message_en and field in problem.message_zh


def test_a_token_rate_entered_as_samples_is_flagged_in_both_languages():
    # 20,000 tokens/s typed as samples/s: 20,000 x 6 x 1.3 B x 2048 tokens is 320,000 TFLOP/s
    r = project(llm(20_000.0), [1, 8])
    en = next(n for n in r.notes if "training.single_gpu_throughput" in n)
    assert "TFLOP/s" in en and "tokens per second counted as samples" in en
    assert "training.throughput_unit" in en
    zh = next(n for n in r.notes_zh if "training.single_gpu_throughput" in n)
    assert "单位" in zh and "token" in zh


def test_without_a_sequence_length_the_check_assumes_a_short_one():
    spec = resolve_gpu("a100_sxm4_80gb")
    assert impossible_throughput(llm(20_000.0, sequence=None), spec) is not None
    assert impossible_throughput(llm(20_000.0 / 2048, sequence=None), spec) is None


def test_a_rate_a_gpu_can_reach_is_never_flagged():
    from benchmarks.scaling_series import load_series
    from benchmarks.series_profiles import profile_for

    series, _ = load_series()
    for s in series:  # every published single-GPU rate of the data set, in its own unit
        p = profile_for(s)
        assert impossible_throughput(p, resolve_gpu(p.hardware.gpu, p.hardware.intra_link)) \
            is None, s.sid
