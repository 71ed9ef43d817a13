"""Findings for a verdict spread over several machines: the network between them, not PCIe, is the
slowest link (F08); open-air heat is counted per machine (F27); the article's "about 5x on 8"
for large language models (F19) is not quoted beside a far lower projection."""

from __future__ import annotations

from tests.support.paths import PROFILES
from tests.support.verdict import all_text, fired, pitfall, rules_pick


def _two_machines():
    """The rule base's own pick for the 7B model beyond the 4 x 4090 machine: two machines
    (the decision policy would rent A100s instead, issue 29; the rules' sentences are read)."""
    return rules_pick(PROFILES / "rules" / "llama7b-4090-two-machines.yaml")[0]


def test_two_machines_blame_the_network_not_pcie():
    r = _two_machines()
    assert r.verdict.nodes >= 2
    assert "hardware_topology.pcie_comm_bound" not in fired(r)
    text = all_text(r, "en")
    assert "GPUs talk over PCIe and communication is the bottleneck" not in text
    if r.projection.bottleneck[r.projection.at(r.verdict.gpus)] == "communication":
        assert "the network between the machines is the slowest link" in text


def test_cards_spread_over_machines_are_packed_per_machine():
    r = _two_machines()
    heat = pitfall(r, "thermal_throttling")
    assert heat is not None
    assert f"{r.verdict.gpus} open-air cards packed together" not in heat.title.en
    assert "in each machine" in heat.title.en and "每台机器" in heat.title.zh


def test_the_article_llm_figure_is_not_quoted_against_a_far_lower_projection():
    """Fully sharded over 25 GbE the 7B model's gathers swamp the step: the article's "about
    5x on 8" is not quoted as agreeing with that, only as what this setup falls short of; split
    into pipeline stages across the machines (the layout the advisor keeps by itself) it scales
    enough for the figure to stand. Both verdicts lie beyond the one machine owned: the
    per-count speed-ups up to the verdict's count are what the sentences read."""
    from advisor.catalog.profile_check import load_profile
    from advisor.profile import Profile
    from tests.support.paths import TESTS

    staged = _two_machines()
    data = load_profile(TESTS / "profiles" / "rules" / "llama7b-4090-two-machines.yaml"
                        ).model_dump(mode="json")
    data["training"]["parallelism"] = "fsdp"
    sharded = rules_pick(Profile.model_validate(data))[0]
    low = sharded.projection.efficiency[sharded.projection.at(sharded.verdict.gpus)]
    assert sharded.verdict.gpus > 1 and low < 0.4
    assert "task_heuristics.large_language_models" not in fired(sharded)
    assert "task_heuristics.large_language_models_held_back" in fired(sharded)
    text = all_text(sharded, "en")
    assert "as the projection does here" not in text and "well below that" in text
    high = staged.projection.efficiency[staged.projection.at(staged.verdict.gpus)]
    # staged it reaches about 4x on 8, on the edge of the rule's 4-6x window (4.00x with the
    # data-parallel parameters before issue 15's refit, 3.99x after): the sentence that agrees
    # speaks from 4x, the one that says how far below the figure this setup falls under it
    speed_8 = staged.projection.speedup[staged.projection.at(8)]
    assert high >= 0.4 and speed_8 >= 3.9
    assert ("task_heuristics.large_language_models" in fired(staged)) == (speed_8 >= 4.0)
    assert "5x on 8" in all_text(staged, "en")
