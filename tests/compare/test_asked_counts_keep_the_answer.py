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
