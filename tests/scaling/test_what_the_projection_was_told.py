"""The projection's notes and terms use what the user said (issue 19, item 3): the vGPUs per
card they gave is not "assumed"; a card never sold with open-air coolers (an RTX A6000 is a
blower card) is projected with its own cooling when the profile leaves the default."""

from __future__ import annotations

from advisor.profile import Profile
from advisor.scaling import project
from advisor.scaling.inputs import thermal_terms
from advisor.scaling.parameters import load_params


def _profile(**hardware) -> Profile:
    return Profile.model_validate({"hardware": {"gpus_per_node": 8, **hardware}})


def test_vgpus_per_card_given_are_said_as_given():
    given = project(_profile(gpu="a100_pcie_80gb", virtualization="vgpu",
                             vgpus_per_physical_gpu=2))
    notes = " ".join(given.notes)
    assert "You said 2 vGPUs share each physical card" in notes
    assert "assumes" not in notes
    assert "你填写了每张物理卡切分为 2 个 vGPU" in " ".join(given.notes_zh)
    guessed = project(_profile(gpu="a100_pcie_80gb", virtualization="vgpu"))
    assert "the low end assumes" in " ".join(guessed.notes)  # not given: an assumption


def test_a_blower_card_left_at_the_default_cooling_is_projected_as_a_blower():
    from advisor.catalog import resolve_gpu

    params = load_params()
    a6000 = resolve_gpu("rtx_a6000")
    default = thermal_terms(_profile(gpu="rtx_a6000"), params, a6000)
    blower = thermal_terms(_profile(gpu="rtx_a6000", cooling="blower"), params, a6000)
    assert default == blower and default[0] == params.throttle_per_card_blower
    geforce = resolve_gpu("rtx4090")
    assert thermal_terms(_profile(gpu="rtx4090"), params, geforce)[0] == \
        params.throttle_per_card_open_air  # GeForce cards do ship open-air coolers
