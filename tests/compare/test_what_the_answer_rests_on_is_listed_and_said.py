"""A third review of the money answers (2026-12-08): compare left out the answer's own setup
where another option had its id, and named a worse best net value; the answer's first line
left out the change its figures carry; rented ready setups joined single machines over
Ethernet into clusters no offer sells; a card's memory was said twice."""

from __future__ import annotations

from advisor.catalog.profile_check import load_profile
from advisor.compare import compare
from advisor.compare.weighed import recommend
from tests.support.paths import PROFILES

FOUR = PROFILES / "compare" / "cn-70b-a100-40gb-answer-four-machines.yaml"
LORA = PROFILES / "compare" / "eu-3080-full-finetune-answer-carries-lora.yaml"


def test_compare_lists_the_answers_machines_and_names_it_the_best_net_value():
    profile = load_profile(FOUR)
    rec = recommend(profile, lang="en")
    assert rec.verdict.nodes == 4 and rec.verdict.gpus == 32
    comp = compare(profile, verdicts=False, answer=rec)
    answer = comp.option("answer")
    assert answer.label.en.startswith("The answer's setup: 32 GPUs on 4 machines")
    assert answer.point(32) is not None and answer.point(32).fits
    best = comp.answer("net_value")
    assert best.point.option == "answer" and best.point.gpus == 32


def test_the_first_line_names_the_change_the_answers_figures_carry():
    rec = recommend(load_profile(LORA), lang="en")
    applied = next(o for o in rec.setups if o.applied)
    _, behind = applied.behind()
    do_en, do_zh = rec.summary[0].text.en, rec.summary[0].text.zh
    assert "LoRA" in do_en and "LoRA" in do_zh, do_en
    assert "method: lora" in applied.change.en  # and the Set line says how


def test_rented_ready_setups_join_machines_only_at_a_clusters_offer():
    comp = compare(load_profile(PROFILES / "compare" / "cloud-3080-cannot-hold-rents-not-buys.yaml"),
                   verdicts=False)
    for option in comp.options:
        if option.id.startswith("rent:") and ":machines:" in option.id:
            assert option.inter_link.startswith(("infiniband", "roce")), option.id


def test_a_cards_memory_is_said_once():
    rec = recommend(load_profile(FOUR), lang="en")
    for o in rec.setups:
        assert "GB) (" not in o.label.en and "96GB (China) (96 GB)" not in o.label.en
