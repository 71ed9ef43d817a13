"""The answer's net value over the user's own setup is one figure in recommend, costs and
compare (review 10, F3: a rented answer read "$20,845 a month over 1 GPU" in recommend and
"$118,100 a month over your setup" in compare, each over its own baseline)."""

from __future__ import annotations

import pytest

from advisor.catalog.profile_check import load_profile
from advisor.cli import main
from advisor.compare.compare import compare
from advisor.compare.weighed import recommend
from advisor.costs.money import money
from advisor.profile import TimeValue
from tests.support.paths import EXAMPLES

RENTS_ANOTHER = EXAMPLES / "research-deadline-worth-it.yaml"  # 4 owned 4090s; rents 8


def test_the_answer_on_another_setup_carries_compares_figure_over_your_setup():
    profile = load_profile(RENTS_ANOTHER)
    rec = recommend(profile, lang="en")
    assert any(o.applied for o in rec.setups)  # the answer rests on another setup
    over = rec.over_yours
    assert over is not None and over.against.en.startswith("your setup (4 × RTX 4090")
    comp = compare(profile, verdicts=False, answer=rec)
    best = comp.answer("net_value")
    assert best is not None and best.point is not None
    point = comp.at(best.point)
    assert point.run_hours == pytest.approx(rec.costs.run_hours[
        rec.costs.gpus.index(rec.verdict.gpus)])
    assert comp.baseline is not None and comp.baseline.option == "yours"
    assert comp.baseline.gpus == over.gpus
    assert point.net_value_per_month == pytest.approx(over.net_value_per_month, rel=1e-9)
    # and over the setup the answer rests on, the costs' own figure is another one
    n = rec.costs.gpus.index(rec.verdict.gpus)
    assert abs(rec.costs.net_value_per_month[n] - over.net_value_per_month) > 1.0


@pytest.mark.parametrize("command", [["recommend", "--details"], ["costs"], ["compare"]])
def test_every_command_prints_the_one_figure(command, capsys):
    rec = recommend(load_profile(RENTS_ANOTHER), lang="en")
    figure = money(rec.over_yours.net_value_per_month, rec.costs.currency)
    for lang in ("en", "zh"):
        assert main(["--lang", lang, command[0], str(RENTS_ANOTHER), *command[1:]]) == 0
        assert figure in capsys.readouterr().out, (command, lang)


def test_no_value_on_time_gives_no_figure_over_your_setup():
    profile = load_profile(RENTS_ANOTHER)
    none = profile.model_copy(update={"economics": profile.economics.model_copy(
        update={"time_value": TimeValue.none})})
    assert recommend(none, lang="en").over_yours is None
