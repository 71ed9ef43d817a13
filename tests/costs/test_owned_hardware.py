"""Issue 29: hardware the user already owns is sunk. A setup within it costs its electricity
only; a larger one buys only the cards and machines beyond it; with time_value none the
move's engineer-days are the user's own time, worth nothing unless a day rate is given."""

from __future__ import annotations

from advisor.costs import estimate_costs
from advisor.profile import Profile
from advisor.scaling import project


def _owner(**economics) -> Profile:
    return Profile.model_validate({
        "task": "image_classification",
        "model": {"name": "ConvNeXt-T", "params_millions": 28.6},
        "training": {"single_gpu_hours": 40, "runs_per_month": 4, "batch_per_gpu": 64,
                     "precision": "amp"},
        "hardware": {"gpu": "rtx3090", "gpus_per_node": 4, "intra_link": "pcie4"},
        "economics": {"mode": "own", "currency": "USD", **economics}})


def _costs(profile: Profile, gpus=(1, 2, 4, 8)):
    return estimate_costs(profile, project(profile, list(gpus)), lang="en")


def test_four_owned_3090s_cost_their_electricity_only():
    owned = _costs(_owner(gpu_price=0, time_value="none"))
    assert owned.capex[:3] == [0.0, 0.0, 0.0]  # 1, 2 and 4 cards: in the machine owned
    assert owned.migration_cost_per_run == [0.0] * 4  # the user's own time, worth nothing
    energy = owned.energy_cost_per_run
    assert owned.cost_per_run[:3] == energy[:3]
    # the eight-card setup buys a second machine only (the cards cost 0 as said)
    assert 0 < owned.capex[3] < 20_000
    assert any("hardware you own: 4 cards in 1 machine" in a for a in owned.assumptions)


def test_owned_cards_count_only_the_increment():
    some = _costs(_owner(gpu_price=1000, owned_gpus=2, time_value="none"))
    none = _costs(_owner(gpu_price=1000, time_value="none"))
    i2, i4 = some.gpus.index(2), some.gpus.index(4)
    assert some.capex[i2] == 0.0
    # four cards in the owned machine: two new cards, no new machine
    assert some.capex[i4] == 2 * 1000
    assert none.capex[i4] > 4 * 1000  # nothing owned: four cards and the machine


def test_a_day_rate_given_still_charges_the_move():
    charged = _costs(_owner(gpu_price=0, time_value="none", engineer_day_rate=500))
    assert charged.migration_cost_per_run[1] > 0
    said_nothing = _costs(_owner(gpu_price=0))  # not said: the default day rate
    assert said_nothing.migration_cost_per_run[1] > 0


def test_owning_the_cards_is_a_field_the_wizard_asks():
    from advisor.profile.economics import EconomicsSpec

    meta = EconomicsSpec.model_fields["owned_gpus"]
    assert meta.json_schema_extra["title_zh"] and "sunk" in (meta.description or "")
