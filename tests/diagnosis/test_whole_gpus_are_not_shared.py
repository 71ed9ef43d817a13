"""A diagnosis of whole GPUs names no vGPU suspect (issue 19, item 3): on bare metal or full
pass-through, a falling or capped curve cannot come from shared cards, however it looks;
only a GPU log that shows vGPU puts it back."""

from __future__ import annotations

import pytest

from advisor.diagnosis import diagnose, from_points
from advisor.profile import Profile

FALLING = from_points([1, 2, 4, 8], [100, 150, 190, 170])  # throughput falls from 4 to 8


def _ids(d) -> list[str]:
    return [s.id for s in d.suspects]


@pytest.mark.parametrize("virtualization", ["bare_metal", "passthrough"])
def test_whole_gpus_have_no_vgpu_suspect(virtualization):
    profile = Profile.model_validate({"hardware": {"virtualization": virtualization,
                                                   "gpus_per_node": 8}})
    d = diagnose(FALLING, profile)
    assert "vgpu_sharing" not in _ids(d)
    assert all("vGPU" not in e.en for s in d.suspects for e in s.evidence)


def test_without_a_profile_or_on_vgpus_the_suspect_stays():
    assert "vgpu_sharing" in _ids(diagnose(FALLING))  # nothing says the cards are whole
    shared = Profile.model_validate({"hardware": {"virtualization": "vgpu", "gpus_per_node": 8}})
    assert "vgpu_sharing" in _ids(diagnose(FALLING, shared))
    unknown = Profile.model_validate({"hardware": {"virtualization": "unknown",
                                                   "gpus_per_node": 8}})
    assert "vgpu_sharing" in _ids(diagnose(FALLING, unknown))
