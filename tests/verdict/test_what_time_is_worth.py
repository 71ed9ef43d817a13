"""Who rates, the article's table or the money (issue 19, item 1; rules/README.md, "What time
is worth"): said (none included), the money; not said, the table, saying what value of a day
it assumes. The default profile opens on no contradiction, and old profiles read the same."""

from __future__ import annotations

import math

import pytest

from advisor.catalog.profile_check import parse_profile_text
from advisor.cli.commands.recommend import render_text
from advisor.profile import Profile
from advisor.verdict.recommendation import recommend
from tests.support.verdict import pitfall


def _with(profile: Profile, **economics) -> Profile:
    data = profile.model_dump(mode="json", exclude_none=True)
    data["economics"] = {**data["economics"], **economics}
    return Profile.model_validate(data)


@pytest.fixture(scope="module")
def unsaid():
    """The wizard's own defaults: 24 h runs, 4 a month, 4 x RTX 4090, value of a day not said."""
    return recommend(Profile(), lang="en")


def test_the_default_profile_is_not_said_and_opens_on_no_contradiction(unsaid):
    v, c = unsaid.verdict, unsaid.costs
    assert Profile().economics.time_value is None and not c.time_value_given
    assert v.rating == "worth_it" and v.gpus == 4  # the article's table (F17), as before
    # the figures beside it would say one GPU costs least: the headline says what that means
    assert c.best_value_gpus == 1
    note = pitfall(unsaid, "time_value_not_given")
    assert note is not None and note.severity == "warning"
    assert note.title.en.rstrip(".") in v.headline.en and note.title.zh.rstrip("。") in v.headline.zh
    assert "you have not said" in v.headline.en
    # no "net value" that silently counts time as worth nothing, no "best value: 1 GPU"
    text = render_text(unsaid, "en")
    assert "net value" not in text.split("Pitfalls:")[0]
    assert "more than 1 GPU" in text and "pays for itself if a day saved is worth at least" in text


def test_the_value_of_a_day_it_names_is_what_makes_the_count_pay(unsaid):
    """The figure in the headline is the break-even: a day worth it makes the verdict's count
    pay for itself (net value >= 0), a day worth a tenth less does not."""
    v = unsaid.verdict
    stated = unsaid.costs.day_value_to_pay(v.gpus)
    assert stated is not None and stated > 0
    assert f"at least ${math.ceil(stated):,.0f}" in v.headline.en
    for factor, pays in ((1.0, True), (0.9, False)):
        valued = recommend(_with(Profile(), time_value="revenue",
                                 value_per_day=math.ceil(stated) * factor, currency="USD"),
                           lang="en")
        net = valued.costs.net_value_per_month[valued.costs.gpus.index(v.gpus)]
        assert (net >= -1e-6) is pays, (factor, net)


def test_said_nothing_the_money_rates_and_the_table_is_context(unsaid):
    none = recommend(_with(Profile(), time_value="none"), lang="en")
    v = none.verdict
    assert (v.rating, v.gpus) == ("not_worth_it", 1)
    assert none.costs.time_value_given
    assert not any(t.rule.startswith("decision_table.") and t.stage == "decide"
                   for t in none.trace)
    context = pitfall(none, "article_table_differs")
    assert context is not None and context.severity == "info"
    assert "4 GPUs" in context.title.en and "1–3 天" in context.title.zh
    assert pitfall(none, "time_value_not_given") is None


def test_a_day_valued_the_money_decides_the_count_the_table_only_agrees():
    rich = recommend(_with(Profile(), time_value="revenue", value_per_day=5000), lang="en")
    v = rich.verdict
    assert v.rating == "worth_it" and v.gpus == rich.costs.best_value_gpus
    winner = next(t for t in rich.trace if "rating" in t.decided)
    assert winner.rule.startswith("economics.")


def test_old_profiles_read_the_same():
    """A file without time_value meant the table's rating and still gets it; one that says
    none means none (it was never the same as "not said" for the money: both count 0)."""
    base = "schema_version: 1\ntraining: {single_gpu_hours: 24, runs_per_month: 4}\n"
    left_out = parse_profile_text(base)
    said_none = parse_profile_text(base + "economics: {time_value: none}\n")
    assert left_out.economics.time_value is None
    assert said_none.economics.time_value.value == "none"
    assert recommend(left_out, lang="en").verdict.rating == "worth_it"  # F17, as before
    # both count a day saved as worth nothing; "none" also counts the move's engineer-days,
    # the user's own time, as worth nothing (issue 29): only the move's charge differs
    a, b = (recommend(p, lang="en").costs for p in (left_out, said_none))
    assert a.cost_per_run[0] == b.cost_per_run[0]  # one GPU: no move
    assert all(x.migration_cost_per_run == [0.0] * len(x.gpus) or x is a for x in (a, b))
    moves = [m for m in a.migration_cost_per_run]
    assert [round(ar - m, 9) for ar, m in zip(a.cost_per_run, moves, strict=True)] == \
        [round(br, 9) for br in b.cost_per_run]


def test_the_wizard_saves_not_said_as_left_out(tmp_path):
    from advisor.catalog.profile_check import load_profile
    from advisor.profile.writing import save_profile

    path = tmp_path / "p.yaml"
    save_profile(Profile(), path)
    assert "time_value" not in path.read_text(encoding="utf-8")
    assert load_profile(path).economics.time_value is None


def test_a_move_charged_at_a_rate_nobody_gave_says_so_when_it_decides():
    """Review 7: a student who values a day at $30 and owns two RTX 4090 was told to leave the
    second idle: the move's two days at the default $600 decided it, unsaid. The verdict now
    says so first, and with the student's own rate the second card is used."""
    from advisor.catalog.profile_check import load_profile
    from advisor.compare.weighed import recommend
    from tests.support.paths import PROFILES

    profile = load_profile(PROFILES / "verdict" / "phd-qlora-8b-2x4090-day-30.yaml")
    # in the EU market, which rents no other card that beats the student's (in the US an H100
    # at a marketplace's rate does, and the answer rents it)
    rec = recommend(profile, lang="en", market="EU")
    note = pitfall(rec, "default_day_rate_decides")
    assert note is not None and note.severity == "warning"
    assert "$600" in note.title.en and "$600" in note.title.zh
    assert rec.summary[3].text.en == note.title.en  # the main risk
    own = profile.model_copy(update={"economics": profile.economics.model_copy(
        update={"engineer_day_rate": 30.0})})
    rec = recommend(own, lang="en", market="EU")
    assert rec.verdict.gpus == 2 and pitfall(rec, "default_day_rate_decides") is None


def test_the_default_day_rate_is_said_when_it_decides_without_a_day_value():
    """A deadline with no value on a day (the date alone counts): the move at the default
    rate still decides between the one card and the four the lab owns, and the answer says
    so; its one-card plan at 97 % of the card stays the main risk (out of memory first)."""
    from advisor.catalog.profile_check import load_profile
    from advisor.compare.weighed import recommend
    from tests.support.paths import PROFILES

    profile = load_profile(PROFILES / "verdict" /
                           "lab-4xa100-qwen14b-deadline-default-day-rate.yaml")
    assert profile.economics.value_per_day is None
    rec = recommend(profile, lang="en")
    note = pitfall(rec, "default_day_rate_decides")
    assert rec.verdict.gpus == 1 and note is not None and "$1,200" in note.title.en
    assert "4 GPUs give" in note.title.en
    assert rec.summary[3].text.en == pitfall(rec, "memory_at_limit").title.en
    free = profile.model_copy(update={"economics": profile.economics.model_copy(
        update={"engineer_day_rate": 0.0})})
    rec = recommend(free, lang="en")
    assert rec.verdict.gpus == 4 and pitfall(rec, "default_day_rate_decides") is None
