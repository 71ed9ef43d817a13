"""Third-review defects of the diagnosis: near-linear measurements must be fittable (the refit
may make communication and overheads cheap, never faster than the link), never blame the
link; a per-machine capacity cap is worded as such; Chinese text says 数据加载进程 and its
fit table holds no characters that Chinese terminals draw two columns wide."""

from __future__ import annotations

import json
import unicodedata

import pytest

from advisor.catalog.profile_check import load_profile
from advisor.cli import main
from advisor.diagnosis import diagnose
from advisor.diagnosis.measurements import from_measured_spec, from_points
from advisor.diagnosis.refit import BOUNDS
from advisor.profile import Profile
from tests.support.paths import ROOT

EXAMPLES = ROOT / "examples"
MEDIUM = EXAMPLES / "medium-model-4gpu-worth-it.yaml"
# the reviewer's /tmp/rv3/m.csv: 1.99x / 3.95x / 7.73x
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


LEVELLING = "gpus,throughput\n1,100\n2,190\n4,350\n8,500\n"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_capacity_cap_is_worded_per_machine(tmp_path, capsys, lang):
    path = tmp_path / "m.csv"
    path.write_text(LEVELLING, encoding="utf-8")
    assert main(["--lang", lang, "diagnose", str(path), "--format", "json"]) == 0
    fit = json.loads(capsys.readouterr().out)["fit"]
    assert fit["plateau"]
    assert fit["speedup"][fit["gpus"].index(16)] > fit["speedup"][fit["gpus"].index(8)]
    assert main(["--lang", lang, "diagnose", str(path)]) == 0
    text = capsys.readouterr().out
    assert ("within one machine" in text.lower()) if lang == "en" else ("在一台机器内" in text)
    assert ("its own data loader" in text) if lang == "en" else ("自己的数据加载" in text)


def test_zh_loader_workers_are_processes():
    profile = Profile.model_validate({
        "training": {"single_gpu_hours": 10, "dataloader_workers": 1},
        "hardware": {"gpus_per_node": 4}})
    d = diagnose(from_points([1, 2, 4], [100.0, 150.0, 180.0]), profile)
    zh = " ".join(e.zh for s in d.suspects for e in s.evidence)
    assert "数据加载进程" in zh and "worker" not in zh


def test_zh_fit_table_has_no_ambiguous_width_characters(tmp_path, capsys):
    path = tmp_path / "m.csv"
    path.write_text(LEVELLING, encoding="utf-8")
    assert main(["--lang", "zh", "diagnose", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    for word in ("拟合值", "吞吐"):
        head = next(i for i, line in enumerate(lines) if word in line and "（" not in line)
        for row in lines[head:head + 5]:
            wide = [ch for ch in row if unicodedata.east_asian_width(ch) == "A"]
            assert not wide, (row, wide)
