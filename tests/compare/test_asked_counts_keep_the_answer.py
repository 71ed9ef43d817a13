"""Review 8: asking about counts (`--gpus`) is a narrower question, not another machine. A
one-GPU machine asked about 1-4 GPUs is weighed with more of its cards in one machine, as the
default weighs it (it was 4 machines of one card, $45 a run, beside the default's one rented
machine of four at $33); a note about machines of one card says "1 GPU"; a reservation's term
reads in Chinese as Chinese."""

from __future__ import annotations

import re

from advisor.catalog.profile_check import load_profile
from advisor.compare.weighed import recommend
from advisor.scaling import project
from tests.support.paths import PROFILES

VERDICT = PROFILES / "verdict"


def test_a_one_gpu_machine_asked_about_four_gets_the_default_answer():
    profile = load_profile(VERDICT / "sdxl-lora-one-4090-day-200.yaml")
    default = recommend(profile, lang="en")
    asked = recommend(profile, gpus=[1, 2, 3, 4], lang="en")
    # the same setup (a machine rented whole at one offer), at the most of the counts asked
    # it has where the default takes more: one machine, not four machines of one card
    setup = re.compile(r"^Rent \d+ × ([^—]+)—")
    assert setup.match(asked.summary[0].text.en).group(1) == \
        setup.match(default.summary[0].text.en).group(1)
    assert asked.verdict.gpus <= 4 <= default.verdict.gpus
    assert asked.verdict.nodes == 1


def test_machines_of_one_card_are_written_in_the_singular():
    profile = load_profile(VERDICT / "sdxl-lora-one-4090-day-200.yaml")
    notes = project(profile, [1, 8]).notes  # beyond one machine of one card
    assert any("machines like this one (1 GPU each)" in n for n in notes), notes
    assert not any("1 GPUs" in n for n in notes)


def test_a_reservations_term_reads_in_chinese():
    rec = recommend(load_profile(VERDICT / "pretrain-7b-budget-20k.yaml"), lang="zh")
    do = rec.summary[0].text
    assert "1 mo" in do.en and "1 mo" not in do.zh and "1 个月" in do.zh


def test_larger_cards_rented_are_weighed_at_offers_that_rent_the_machine_whole():
    """The rented larger cards a setup list names are priced at the card's typical rate; the
    catalog's offers for the same card that rent such a machine as one instance are weighed as
    well (a review: $122 against $97.64 a run for 8 × A100 80GB; a second review: that offer
    rents one card an instance, so it cannot price a machine of eight)."""
    from advisor.catalog import load_catalog
    from advisor.compare.option import Context
    from advisor.compare.weighed import _offers_for_rented
    from advisor.profile import Currency, Market

    profile = load_profile(VERDICT / "qwen7b-full-4x4090-rents-a100-whole-machine.yaml")
    rec = recommend(profile)
    rented = next(o for o in rec.setups if o.kind == "rent")
    catalog = load_catalog()
    by_id = {o.id: o for o in catalog.cloud_offers}
    offers = _offers_for_rented(rec, Context(catalog, Market.US, Currency.USD))
    for o in offers:
        assert o.id.startswith(f"{rented.id}:")
        assert by_id[o.notes[0].en.split(":", 1)[0]].largest_instance >= 8
    single = [o for o in catalog.cloud_offers if o.gpu == "a100_pcie_80gb"
              and o.market_of == Market.US and o.largest_instance < 8]
    assert single  # RunPod's $1.19 community A100: one card an instance
    applied = next(o for o in rec.setups if o.applied)
    assert not ("A100" in applied.label.en and "RunPod" in applied.label.en)
    assert "$1.19" not in rec.summary[0].text.en
