"""A setup's Set line, followed as a recipe, makes a profile that loads: the machine's link
and the network between machines are said where they differ from the profile's (a review:
"Set hardware.gpu: h20, gpus_per_node: 8" on a PCIe profile kept intra_link pcie4, which an
H20 cannot use; "Set hardware.nodes: 2" on one machine left no network between the two; 18 of
74 such lines over the examples and repro profiles made a profile that was refused)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from advisor.catalog.profile_check import load_profile
from advisor.compare.weighed import recommend
from benchmarks.set_lines import followed
from tests.support.paths import EXAMPLES, PROFILES
from tests.support.strategies import realistic_profiles


@pytest.mark.parametrize("path", [
    PROFILES / "verdict" / "llm-7b-on-4x-rtx4090.yaml",  # rented H20s: an SXM server
    PROFILES / "scaling" / "recsys-dlrm-25b-a100.yaml",  # bought pairs of bridged RTX 3090s
    EXAMPLES / "plan-7b-on-one-8xh100.yaml",  # twice the machines, InfiniBand
])
def test_every_set_line_of_the_answer_makes_a_profile_that_loads(path):
    profile = load_profile(path)
    rec = recommend(profile, lang="en")
    lines = [o.change for o in rec.setups if o.change.en.startswith("hardware.")]
    assert lines
    for line in lines:
        assert followed(profile, line.en) is not None
        assert line.zh.replace("，", ", ") == line.en or "；" in line.zh


def test_a_rented_server_says_its_link_and_more_machines_their_network():
    profile = load_profile(PROFILES / "verdict" / "llm-7b-on-4x-rtx4090.yaml")
    assert profile.hardware.intra_link.value == "pcie4" and profile.hardware.nodes == 1
    rec = recommend(profile, lang="en")
    rented = next(o for o in rec.setups if o.kind == "rent")
    assert "gpu: h20, gpus_per_node: 8, intra_link: nvswitch" in rented.change.en
    more = next(o for o in rec.setups if o.kind == "more_machines")
    assert more.change.en == f"hardware.nodes: {more.nodes}, inter_link: ethernet_25g"
    assert followed(profile, more.change.en).hardware.nodes == more.nodes


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(realistic_profiles())
def test_no_set_line_makes_a_profile_that_is_refused(profile):
    for option in recommend(profile, lang="en").setups:
        followed(profile, option.change.en)
