"""Heat and power findings follow the cards: the open-air heat pitfall only for open-air cards,
never for passive data-centre cards whatever the default (F27); the ATX-case advice and the
power supply follow the machine's draw and cooling (F23)."""

from __future__ import annotations

import re

from tests.support.paths import EXAMPLES, PROFILES
from tests.support.verdict import on_own_setups


def test_open_air_heat_pitfall_only_for_open_air_cards(recs) -> None:
    passive = recs["a100pcie2"]  # A100 PCIe: passive data-centre cards, whatever the default
    assert "thermal_throttling" not in {p.id for p in passive.pitfalls}
    # 4 x RTX 4090, open-air coolers: the rules' advice on the user's own cards (the answer
    # itself rents the same cards at an offer, as fast for far less)
    product = on_own_setups(EXAMPLES / "product-tuning-revenue-worth-it.yaml")
    assert "thermal_throttling" in {p.id for p in product.pitfalls}


def test_atx_case_advice_depends_on_draw_and_cooling(recs) -> None:
    # about 2 kW of open-air cards (the user's own, as above)
    product = on_own_setups(EXAMPLES / "product-tuning-revenue-worth-it.yaml")
    machine = next(a for a in product.advice if a.id == "machine")
    assert "need more than an ordinary ATX case" in machine.text.en
    psu = next(p for p in product.pitfalls if p.id == "psu_capacity")
    assert "ordinary ATX case" not in psu.detail.en + psu.remedy.en
    # the figures carry thousands separators (2,050 W)
    watts = float(re.search(r"about ([\d,]+) W", psu.title.en).group(1).replace(",", ""))
    supply = float(re.search(r"at least ([\d,]+) W", psu.remedy.en).group(1).replace(",", ""))
    assert supply >= watts * 1.2
    # four modest blower cards: the article's ATX case holds (the advice on the user's own
    # cards; a ready workstation bought takes the answer when the comparison's setups weigh in)
    blowers = on_own_setups(PROFILES / "verdict" / "four_blowers.yaml")
    machine = next(a for a in blowers.advice if a.id == "machine")
    assert "an ordinary ATX case with a" in machine.text.en
