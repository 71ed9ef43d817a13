"""Every derived number is bounded as the inputs are (issue 20, items 6, 8, 9, 10 and 14):
measured points that divided by zero, overflowed or found no count are refused at their line;
a fit never extrapolates above N; super-linear measured speed-ups beyond the allowance are
refused with the reason; ``--format json`` is strict; numpy never warns on stderr."""

from __future__ import annotations

import json
import warnings

import pytest

from advisor.catalog.profile_check import parse_profile_text
from advisor.cli import main
from advisor.diagnosis import from_points
from advisor.files.errors import InputError
from advisor.profile.bounds import SUPERLINEAR_ALLOWANCE
from advisor.verdict.projection_for import projection_for

HEAD = """schema_version: 1
task: image_classification
model: {name: measured, params_millions: 25}
training: {single_gpu_hours: 10, runs_per_week: 1}
hardware: {gpu: rtx4090, gpus_per_node: 4, intra_link: pcie4}
economics: {mode: cloud, currency: USD}
"""


def _measured(*points: str, scaling: str = "weak") -> str:
    rows = "".join(f"    - {{{p}}}\n" for p in points)
    return HEAD + f"measured:\n  scaling: {scaling}\n  points:\n{rows}"


def _write(tmp_path, text: str, name: str = "p.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture(autouse=True)
def _numpy_warnings_are_errors():
    """78 of 10,000 random profiles printed numpy RuntimeWarnings: none may reach stderr."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        yield


@pytest.mark.parametrize("command", ["recommend", "project", "costs", "diagnose"])
def test_a_thousandfold_drop_is_refused_not_divided_by(command, tmp_path, capsys):
    """{gpus: 1, throughput: 100000}, {gpus: 2, throughput: 1}: ZeroDivisionError."""
    path = _write(tmp_path, _measured("gpus: 1, throughput: 100000", "gpus: 2, throughput: 1"))
    assert main([command, path]) == 2
    err = capsys.readouterr().err
    assert "p.yaml:11: measured.points[1].throughput: 2 GPUs measured" in err
    assert "1,000 times slower" in err


def test_an_overflowing_ratio_is_refused(tmp_path, capsys):
    """1e-300 then 1e12: "fact value must be finite, got inf"."""
    path = _write(tmp_path, _measured("gpus: 1, throughput: 1e-300", "gpus: 2, throughput: 1e12"))
    assert main(["recommend", path]) == 2
    assert "measured.points[0].throughput: must be ≥ 1e-09" in capsys.readouterr().err


@pytest.mark.parametrize(("training", "expected"), [
    ("{single_gpu_hours: 5e-324, runs_per_week: 1}", "training.single_gpu_hours: must be ≥ 0.01"),
    ("{single_gpu_throughput: 1e-300, dataset_samples: 10000000, epochs: 100, runs_per_week: 1}",
     "training.single_gpu_throughput: dataset_samples x epochs at this throughput is a run of "
     "more than 100,000 h on one GPU"),
    ("{single_gpu_throughput: 1e-6, dataset_samples: 10000000000, epochs: 1000, "
     "runs_per_week: 1}", "is a run of more than 100,000 h on one GPU"),
    ("{single_gpu_throughput: 100000, dataset_samples: 10, epochs: 1, runs_per_week: 1}",
     "is a run of only 0.0001 s on one GPU"),
])
def test_derived_run_hours_are_bounded_like_single_gpu_hours(training, expected, tmp_path,
                                                             capsys):
    """single_gpu_hours: 5e-324, or throughput 1e-300 with a huge data set: StopIteration."""
    text = HEAD.replace("training: {single_gpu_hours: 10, runs_per_week: 1}",
                        f"training: {training}")
    assert main(["recommend", _write(tmp_path, text)]) == 2
    assert expected in capsys.readouterr().err


def test_strong_scaling_points_beyond_the_box_give_at_most_n(tmp_path):
    """Strong scaling 1 GPU → 100, 489 GPUs → 47,648: 8.02x at 4 GPUs ("efficiency 200 %")."""
    profile = parse_profile_text(_measured("gpus: 1, throughput: 100",
                                           "gpus: 489, throughput: 47648", scaling="strong"))
    projection = projection_for(profile, [1, 2, 3, 4])
    assert all(s <= n for n, s in zip(projection.gpus, projection.speedup, strict=True))
    assert all(e <= 1.0 for e in projection.efficiency)
    assert all(h <= n for n, h in zip(projection.gpus, projection.speedup_high, strict=True))


def test_points_at_one_and_100000_gpus_say_nothing_above_n_at_4(tmp_path, capsys):
    """1 and 100,000 GPUs on a 4-GPU box: 132x at 4 and "Worth it"."""
    profile = parse_profile_text(_measured("gpus: 1, throughput: 1000",
                                           "gpus: 100000, throughput: 110000000"))
    projection = projection_for(profile, [1, 2, 4])
    assert projection.speedup[-1] <= 4.0


def test_a_millionfold_speed_up_is_refused_with_the_reason(tmp_path, capsys):
    """1,000,000x on 2 GPUs was accepted."""
    path = _write(tmp_path, _measured("gpus: 1, throughput: 1", "gpus: 2, throughput: 1000000"))
    assert main(["diagnose", path]) == 2
    err = capsys.readouterr().err
    assert f"more than {SUPERLINEAR_ALLOWANCE:.0%} above linear (2x)" in err
    assert main(["--lang", "zh", "diagnose", path]) == 2
    assert "高出 25% 以上" in capsys.readouterr().err


def test_super_linear_within_the_allowance_is_kept_and_the_fit_stays_at_most_n():
    profile = parse_profile_text(_measured("gpus: 1, throughput: 100", "gpus: 2, throughput: 220",
                                           "gpus: 4, throughput: 440"))
    projection = projection_for(profile, [1, 2, 3, 4, 8])
    at = dict(zip(projection.gpus, projection.speedup, strict=True))
    assert at[2] == pytest.approx(2.2) and at[4] == pytest.approx(4.4)  # measured: kept (F30)
    assert at[3] <= 3.0 and at[8] <= 8.0  # not measured: never above N


def test_a_csv_and_typed_points_are_held_to_the_same_bounds(tmp_path, capsys):
    csv = tmp_path / "m.csv"
    csv.write_text("gpus,throughput\n1,100000\n2,1\n", encoding="utf-8")
    assert main(["diagnose", str(csv)]) == 2
    assert "m.csv:3: 2 GPUs measured" in capsys.readouterr().err
    with pytest.raises(InputError, match="a measured value must be from"):
        from_points([1, 2], [1.0, float("inf")])  # the wizard's table accepts any float
    with pytest.raises(InputError, match="above linear"):
        from_points([1, 2], [1.0, 3.0])


def test_diagnose_json_is_strict_for_extreme_accepted_points(tmp_path, capsys):
    """NaN and Infinity came out of diagnose --format json for such points."""
    path = _write(tmp_path, _measured("gpus: 1, throughput: 1e-9", "gpus: 2, throughput: 2.5e-9",
                                      "gpus: 100000, throughput: 1e-4"))
    assert main(["diagnose", path, "--format", "json"]) == 0
    json.loads(capsys.readouterr().out, parse_constant=pytest.fail)


@pytest.mark.parametrize("command", ["recommend", "project", "costs"])
def test_gpu_counts_are_bounded_the_same_everywhere(command, tmp_path, capsys):
    """recommend --gpus 1,1000000000: "the setup considered has 1000000000"."""
    path = _write(tmp_path, HEAD)
    assert main([command, path, "--gpus", "1,1000000000"]) == 2
    assert "--gpus: must be whole numbers from 1 to 100,000" in capsys.readouterr().err
    assert main([command, path, "--gpus", ",".join(str(n) for n in range(1, 400))]) == 2
    assert "at most 256" in capsys.readouterr().err
    assert main([command, path, "--gpus", "9" * 5000]) == 2
