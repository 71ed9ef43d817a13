"""The article's comparisons come out of the setup comparison, through its inputs: one 8-GPU
machine about 20 % faster than two 4-GPU machines (F32), an NVLink pair 30 %-2x faster than a
PCIe pair for a communication-heavy model (F25), four cards the sweet spot for power and
cooling (F22, F23: the machine around eight cards costs more per card), and the buy-vs-rent
thresholds (F31) from the article's own prices."""

from __future__ import annotations

import pytest

from advisor.catalog import load_catalog
from advisor.compare import compare
from advisor.costs import article_breakeven
from advisor.costs.breakeven import HOURS_PER_MONTH
from advisor.profile import Profile
from tests.support.compare import scaling_profile, speed_at


def test_f32_one_8gpu_machine_about_20_percent_faster_than_two_4gpu_machines():
    # The article's ResNet-50 on RTX 4090 blower cards (tests/profiles/scaling, F32).
    profile = scaling_profile("two-nodes-4-25g-blower")
    result = compare(profile, specs=["8x rtx4090 pcie4 own", "2x4 rtx4090 ethernet_25g own"],
                     verdicts=False)
    one = speed_at(result, "spec:0", 8)
    two = speed_at(result, "spec:1", 8)
    assert 1.1 <= one / two <= 1.35  # F32
    # the time per run says the same, and both are options of the same workload
    assert result.option("spec:1").point(8).run_hours / \
        result.option("spec:0").point(8).run_hours == pytest.approx(one / two, rel=1e-3)
    assert result.option("spec:1").inter_link == "ethernet_25g"
    assert result.option("spec:1").point(8).nodes == 2


def test_f25_nvlink_pair_30_percent_to_2x_faster_than_pcie_pair():
    profile = scaling_profile("gpt2-medium-pcie4")  # communication-heavy GPT-2 medium
    result = compare(profile, specs=["2x rtx3090 nvlink_bridge own", "2x rtx3090 pcie4 own"],
                     verdicts=False)
    ratio = speed_at(result, "spec:0", 2) / speed_at(result, "spec:1", 2)
    assert 1.3 <= ratio <= 2.0  # F25
    # The bridge is bought: one per pair, at the catalog's price with the market's tax.
    bridged = result.option("spec:0").point(2).capex
    plain = result.option("spec:1").point(2).capex
    catalog = load_catalog()
    tax = 1 + catalog.tax_rate(result.market)
    assert bridged - plain == pytest.approx(catalog.bridge_cost(2, result.currency) * tax)


def test_f22_f23_four_cards_are_the_sweet_spot_for_power_and_cooling():
    profile = scaling_profile("two-nodes-4-25g-blower")
    result = compare(profile, specs=["4x rtx4090 own", "8x rtx4090 own",
                                     "2x4 rtx4090 ethernet_25g own"], verdicts=False)
    four, eight, two_fours = (result.option(f"spec:{i}") for i in range(3))
    card = four.point(1).capex - load_catalog().machine_overhead(1, "USD") * (
        1 + load_catalog().tax_rate(result.market))
    machine_per_card = {n: (o.point(n).capex - n * card) / n
                        for o, n in ((four, 4), (eight, 8))}
    # F23: eight cards need dual supplies or a server board: the machine's cost per card
    # jumps (a 4-GPU workstation is the largest ordinary box).
    assert machine_per_card[8] > 1.5 * machine_per_card[4]
    # Two 4-GPU machines cost less up front than one 8-GPU server, and are slower (F32): both
    # are on the front, neither dominates the other.
    assert two_fours.point(8).capex < eight.point(8).capex
    assert two_fours.point(8).run_hours > eight.point(8).run_hours
    assert on_front(eight.point(8)) and on_front(two_fours.point(8))
    # F22: four GPUs in one machine are on the front too (the balanced choice).
    assert on_front(four.point(4))


def on_front(point) -> bool:
    """On the front, or the twin of a point there (the user's own two 4-GPU machines)."""
    return point.on_front or point.same_as is not None


def test_f31_buy_vs_rent_thresholds_from_the_articles_prices():
    catalog = load_catalog()
    art = catalog.article
    card = art.card_price_4060_class_cny
    ratio4 = catalog.machine_overhead(4, "CNY") / catalog.machine_overhead(1, "CNY")
    base = (art.workstation_4gpu_price_cny.mid - 4 * card) / ratio4
    power_4gpu_w = 4 * 160 + catalog.system_power_w(4)
    kwh = art.power_per_month_cny.mid / (power_4gpu_w / 1000 * HOURS_PER_MONTH)
    profile = Profile.model_validate({
        "training": {"single_gpu_hours": 30, "runs_per_month": 4},
        "hardware": {"gpu": "rtx4060ti_16gb", "gpus_per_node": 4},
        "economics": {"mode": "own", "currency": "CNY", "gpu_price": card,
                      "base_system_price": base,
                      "cloud_price_per_gpu_hour": art.cloud_4gpu_per_hour_cny.mid / 4,
                      "electricity_per_kwh": kwh}})
    result = compare(profile, options=None, specs=["4x rtx4060ti_16gb own"], verdicts=False)
    yours = result.option("yours").point(4)
    assert yours.capex == pytest.approx(art.workstation_4gpu_price_cny.mid)
    expected = article_breakeven(art, power_billing="per_hour").midpoint
    assert yours.breakeven_hours_per_month == pytest.approx(expected, rel=1e-9)
    # F31: renting wins below 50 training hours a month, owning above 200; the break-even
    # of the article's own prices lies between.
    assert art.rent_below_hours_per_month < 200
    assert yours.breakeven_hours_per_month < art.own_above_hours_per_month
