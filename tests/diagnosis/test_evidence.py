"""Suspect ranking as an expert reads the evidence: the shipped example, direct (GPU-log)
evidence over inferred suspicion, the link blamed on physical grounds, human link names."""

from __future__ import annotations

import pytest

from advisor.catalog.profile_check import load_profile
from advisor.diagnosis import diagnose, from_measured_spec, from_points, read_gpu_logs
from advisor.diagnosis.evidence import INFERRED_CAP, Board
from advisor.diagnosis.suspect_telemetry import LAGGING_WEIGHT
from advisor.diagnosis.text_report import render_text
from advisor.diagnosis.wording import label
from advisor.profile import IntraLink, Profile
from tests.support.paths import ROOT, TESTS

ROOT = ROOT
FIXTURES = TESTS / "fixtures" / "diagnosis"
EXAMPLE = ROOT / "examples" / "measured-4gpu-only-1.8x-diagnose.yaml"


@pytest.fixture(scope="module")
def example():
    profile = load_profile(EXAMPLE)
    return profile, from_measured_spec(profile.measured)


def _ids(d) -> list[str]:
    return [s.id for s in d.suspects]


def test_the_example_is_coherent_a_starved_loader_is_the_first_suspect(example):
    profile, series = example
    # The comment blames the loader; the profile must carry that evidence (workers per GPU).
    assert profile.training.dataloader_workers is not None
    assert profile.training.dataloader_workers < 2  # F13: 2-4 per GPU
    assert "per GPU" in EXAMPLE.read_text(encoding="utf-8").split("schema_version")[0]
    d = diagnose(series, profile)
    assert _ids(d)[:2] == ["input_pipeline", "interconnect"]
    first = d.suspects[0]
    assert first.score - d.suspects[1].score > 0.1
    text = " ".join(e.en for e in first.evidence)
    assert "worker" in text and "levels off" in text


def test_a_levelling_curve_without_a_profile_still_points_at_the_loader():
    d = diagnose(from_points([1, 2, 4], [100.0, 170.0, 180.0]))
    assert d.fit.plateau and _ids(d)[0] == "input_pipeline"


def _bert_on_geforce_pcie() -> Profile:
    return Profile.model_validate({
        "task": "nlp", "model": {"name": "BERT-large", "params_millions": 340},
        "training": {"single_gpu_hours": 20, "batch_per_gpu": 8, "precision": "amp",
                     "input_pipeline": "tuned", "dataloader_workers": 4},
        "hardware": {"gpu": "rtx3090", "gpus_per_node": 4, "intra_link": "pcie4"}})


@pytest.mark.parametrize("values", [[100, 160, 230], [100, 150, 200], [100, 175, 290]])
def test_a_big_gradient_on_pcie_without_peer_to_peer_puts_the_link_first(values):
    d = diagnose(from_points([1, 2, 4], [float(v) for v in values], unit="sequences/s"),
                 _bert_on_geforce_pcie())
    assert _ids(d)[0] == "interconnect"
    text = " ".join(e.en for e in d.suspects[0].evidence)
    assert "PCIe 4.0" in text and "peer-to-peer" in text and "MB of gradients" in text


@pytest.mark.parametrize(("log", "first"), [
    ("dmon-8gpu-lagging-gpu5.txt", "lagging_gpu"),
    ("dmon-4gpu-hot-gpu2.txt", "thermal_throttling"),
    ("dmon-4gpu-starved-input-pipeline.txt", "input_pipeline"),
])
def test_gpu_logs_with_the_shipped_example_put_the_observed_cause_first(example, log, first):
    profile, series = example
    d = diagnose(series, profile, read_gpu_logs([FIXTURES / log]))
    assert d.suspects[0].id == first
    assert d.suspects[0].score - d.suspects[1].score > 0.1


@pytest.mark.parametrize("values", [[100, 170, 180], [100, 160, 230], [100, 185, 340]])
def test_a_lagging_gpu_seen_in_a_log_outranks_any_curve(values):
    telemetry = read_gpu_logs([FIXTURES / "dmon-8gpu-lagging-gpu5.txt"])
    for profile in (None, _bert_on_geforce_pcie()):
        d = diagnose(from_points([1, 2, 4], [float(v) for v in values], unit="sequences/s"),
                     profile, telemetry)
        assert d.suspects[0].id == "lagging_gpu"


def test_inferred_clues_are_capped_below_one_direct_observation():
    board = Board()
    for _ in range(6):
        board.add("interconnect", 0.45, "curve", "曲线")
    board.add("lagging_gpu", LAGGING_WEIGHT, "log", "日志", direct=True)
    ranked = board.ranked()
    assert ranked[0].id == "lagging_gpu"
    assert ranked[1].score == pytest.approx(INFERRED_CAP)


def test_busy_gpus_in_a_log_count_against_a_starving_pipeline(example):
    profile, series = example
    without = diagnose(series, profile)
    busy = diagnose(series, profile, read_gpu_logs([FIXTURES / "dmon-4gpu-hot-gpu2.txt"]))
    before = next(s for s in without.suspects if s.id == "input_pipeline")
    after = next(s for s in busy.suspects if s.id == "input_pipeline")
    assert after.score < before.score
    assert after.evidence[-1].en.startswith("Against it")


# ---- human names for enum values (F25) ---------------------------------------------------

@pytest.mark.parametrize(("value", "en"), [
    ("pcie3", "PCIe 3.0"), ("pcie4", "PCIe 4.0"), ("pcie5", "PCIe 5.0"), ("nvlink", "NVLink"),
    ("nvswitch", "NVSwitch"), ("ethernet_25g", "25 GbE Ethernet"),
    ("infiniband_hdr", "InfiniBand HDR")])
def test_links_have_human_names_in_both_languages(value, en):
    name = label(value)
    assert name.en == en and name.zh and "_" not in name.zh


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_diagnosis_text_uses_human_link_names(example, lang):
    profile, series = example
    for link in ("pcie3", "pcie4", "pcie5"):
        p = profile.model_copy(update={"hardware": profile.hardware.model_copy(
            update={"intra_link": IntraLink(link)})})
        text = render_text(diagnose(series, p), lang)
        assert link.upper() not in text and link not in text
        assert label(link).get(lang) in text


def test_storage_and_task_are_named_for_people():
    profile = Profile.model_validate({
        "task": "gan", "training": {"single_gpu_hours": 10, "storage": "network"},
        "hardware": {"gpus_per_node": 8}})
    d = diagnose(from_points([1, 2, 4, 8], [100, 150, 190, 200]), profile)
    text = " ".join(e.get(lang) for s in d.suspects for e in s.evidence for lang in ("en", "zh"))
    assert "reinforcement_learning" not in text and "Task is gan" not in text
    assert "a GAN" in text and "network storage" in text


def test_a_diagnosis_on_nvswitch_never_says_use_nvlink():
    """Review 4: the interconnect remedy told an NVSwitch H200 machine to "use NVLink"."""

    from advisor.catalog.profile_check import load_profile
    from advisor.diagnosis import diagnose
    from advisor.diagnosis.measurements import from_measured_spec

    profile = load_profile(TESTS / "fixtures" / "diagnosis" /
                           "h200-nvswitch-strong-8gpu-plateau.yaml")
    result = diagnose(from_measured_spec(profile.measured), profile)
    link = next(s for s in result.suspects if s.id == "interconnect")
    assert "already have NVLink" in link.remedy.en and "已经有 NVLink" in link.remedy.zh


def test_zh_loader_workers_are_processes():
    profile = Profile.model_validate({
        "training": {"single_gpu_hours": 10, "dataloader_workers": 1},
        "hardware": {"gpus_per_node": 4}})
    d = diagnose(from_points([1, 2, 4], [100.0, 150.0, 180.0]), profile)
    zh = " ".join(e.zh for s in d.suspects for e in s.evidence)
    assert "数据加载进程" in zh and "worker" not in zh


def test_the_diagnosis_counts_one_data_loader_worker_in_the_singular():
    from advisor.diagnosis import diagnose
    from advisor.diagnosis.measurements import from_measured_spec

    profile = load_profile(ROOT / "examples" /
                           "measured-4gpu-only-1.8x-diagnose.yaml")
    result = diagnose(from_measured_spec(profile.measured), profile)
    evidence = " ".join(e.en for s in result.suspects for e in s.evidence)
    assert "worker(s)" not in evidence and "1 data-loader worker per GPU" in evidence
