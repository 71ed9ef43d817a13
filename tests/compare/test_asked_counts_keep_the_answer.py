"""Review 8: asking about counts (`--gpus`) is a narrower question, not another machine. A
one-GPU machine asked about 1-4 GPUs is weighed with more of its cards in one machine, as the
default weighs it (it was 4 machines of one card, $45 a run, beside the default's one rented
machine of four at $33); a note about machines of one card says "1 GPU"; a reservation's term
reads in Chinese as Chinese."""

from __future__ import annotations

from advisor.catalog.profile_check import load_profile
from advisor.compare.weighed import recommend
from advisor.scaling import project
from tests.support.paths import PROFILES

VERDICT = PROFILES / "verdict"


def test_a_one_gpu_machine_asked_about_four_gets_the_default_answer():
    profile = load_profile(VERDICT / "sdxl-lora-one-4090-day-200.yaml")
    default = recommend(profile, lang="en")
    asked = recommend(profile, gpus=[1, 2, 3, 4], lang="en")
    assert asked.summary[0].text.en == default.summary[0].text.en
    assert asked.summary[2].text.en == default.summary[2].text.en  # the same cost line
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


def test_larger_cards_rented_are_weighed_at_their_cheapest_offer_too():
    """The rented larger cards a setup list names are priced at the card's typical rate; the
    catalog's cheapest offer for the same card is weighed as well, and the answer moves to it
    when it runs the same for less (a review: $122 against $97.64 a run, 8 × A100 80GB)."""
    profile = load_profile(VERDICT / "qwen7b-full-4x4090-rents-a100-at-its-cheapest-offer.yaml")
    rec = recommend(profile)
    applied = next(o for o in rec.setups if o.applied)
    typical = next(o for o in rec.setups if o.kind == "rent")
    assert applied.kind == "rent_offer" and "cheapest offer" in applied.label.en
    same = next(c for c in rec.candidates if c.setup == typical.id and c.gpus == applied.gpus)
    assert applied.run_hours == same.run_hours  # the same card, count and run
    assert applied.cost_per_run < 0.85 * same.cost_per_run
    assert "cheapest offer" in rec.summary[0].text.en and "最便宜报价" in rec.summary[0].text.zh
