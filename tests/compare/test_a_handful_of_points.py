"""Issue 29, class 6: a comparison shows a handful of meaningful points unless asked for all
(counts a setup is built at, never odd cross-machine counts by default), and its "fastest" is
the fastest that pays for itself, never a million a month for a run whose time is worth
nothing."""

from __future__ import annotations

from advisor.catalog.profile_check import load_profile
from advisor.compare import compare
from advisor.compare.text import answered_counts, render_text, round_count, shown_points
from tests.support.paths import EXAMPLES

MEDIUM = EXAMPLES / "medium-model-4gpu-worth-it.yaml"
LEARNING = EXAMPLES / "personal-learning-resnet-not-worth-it.yaml"


def test_round_counts_are_any_inside_one_machine_then_powers_of_two_or_whole_machines():
    assert all(round_count(n, 4) for n in (1, 2, 3, 4, 8, 12, 16, 64))
    assert all(round_count(n, 8) for n in range(1, 9))
    assert not any(round_count(n, 4) for n in (5, 6, 7, 9, 10, 11, 13, 14))
    assert round_count(6, 6) and round_count(12, 6) and not round_count(9, 6)


def test_the_default_table_shows_a_handful_of_built_counts():
    result = compare(load_profile(MEDIUM))
    for option in result.options:
        shown = shown_points(option, answers=answered_counts(result, option))
        assert 1 <= len(shown) <= 4, option.id
        verdict = option.verdict.gpus if option.verdict is not None else None
        answers = answered_counts(result, option)
        for p in shown:  # an odd count only where it is the option's verdict or an answer
            assert round_count(p.gpus, option.gpus_per_node) or p.gpus in answers \
                or p.gpus == verdict, (option.id, p.gpus)
    every = sum(len(o.points) for o in result.options)
    default_rows = render_text(result, "en").count("\n")
    assert render_text(result, "en", True).count("\n") - default_rows >= every // 3


def test_every_answer_has_its_row():
    result = compare(load_profile(MEDIUM))
    for answer in result.answers:
        if answer.point is None:
            continue
        option = next(o for o in result.options if o.id == answer.point.option)
        shown = shown_points(option, answers=answered_counts(result, option))
        assert answer.point.gpus in {p.gpus for p in shown}, answer.key


def test_the_fastest_pays_for_itself():
    result = compare(load_profile(MEDIUM))
    fastest = next(a for a in result.answers if a.key == "fastest")
    assert fastest.point is not None
    point = result.at(fastest.point)
    assert point.net_value_per_month is not None and point.net_value_per_month >= 0
    all_fastest = min(p.run_hours for o in result.options for p in o.points
                      if p.on_front and p.keeps_schedule is not False)
    assert point.run_hours > all_fastest  # not the fastest at any price
    assert "pays for its extra cost" in fastest.why.en


def test_no_fastest_when_time_saved_is_worth_nothing():
    result = compare(load_profile(LEARNING))
    fastest = next(a for a in result.answers if a.key == "fastest")
    assert fastest.point is None and "counts as nothing" in fastest.why.en


def test_an_option_with_nothing_to_show_shows_its_largest_count_that_runs():
    """Review 10 (F4): an 8-GPU rental whose verdict rests on two machines and none of whose
    points answers or is on the front read "1 GPU: does not fit"."""
    result = compare(load_profile(MEDIUM))
    option = next(o for o in result.options if o.id == "rent_typical")
    alone = option.model_copy(update={
        "verdict": option.verdict.model_copy(update={"gpus": 64}),
        "points": [p.model_copy(update={"on_front": False, "fits": p.gpus > 1})
                   for p in option.points]})
    shown = shown_points(alone)
    assert [p.gpus for p in shown] == [max(p.gpus for p in alone.points)]
    assert shown[0].fits
