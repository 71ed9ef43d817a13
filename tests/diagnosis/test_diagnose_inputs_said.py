"""Review 4: a run measured on more GPUs than the profile's hardware holds is said, not
passed over: the profile's machines and links are not the ones that ran."""

from __future__ import annotations

from advisor.catalog.profile_check import parse_profile_text
from advisor.diagnosis import diagnose
from advisor.diagnosis.measurements import from_measured_spec

PROFILE = """schema_version: 1
task: image_classification
model: {name: ResNet-50, params_millions: 25.6}
training: {single_gpu_hours: 30, runs_per_week: 2, batch_per_gpu: 128, precision: amp}
hardware: {gpu: rtx3090, gpus_per_node: 4, intra_link: pcie4}
economics: {mode: own, currency: CNY}
measured:
  unit: images/s
  scaling: weak
  points:
    - {gpus: 1, throughput: 1000}
    - {gpus: %d, throughput: %d}
"""


def _notes(gpus: int, throughput: int) -> list[str]:
    profile = parse_profile_text(PROFILE % (gpus, throughput))
    return [n.en for n in diagnose(from_measured_spec(profile.measured), profile).notes]


def test_more_gpus_measured_than_the_hardware_holds_is_said():
    assert any("more than the profile's hardware holds (4)" in n for n in _notes(16, 9000))


def test_a_run_within_the_hardware_is_not():
    assert not any("more than the profile's hardware" in n for n in _notes(4, 3000))


def test_a_csv_option_given_with_a_profile_that_says_otherwise_is_refused(capsys):
    from advisor.cli import main
    from tests.support.paths import EXAMPLES

    profile = str(EXAMPLES / "measured-4gpu-only-1.8x-diagnose.yaml")
    assert main(["diagnose", profile, "--scaling", "strong"]) == 2
    assert "--scaling: 'strong' is for a CSV's rows" in capsys.readouterr().err
    assert main(["diagnose", profile, "--scaling", "weak"]) == 0  # what the profile says
