"""Issue 29: one decision, made once, presented everywhere. The answer ``recommend`` gives is
weighed against every setup a comparison evaluates (the user's cards rented at the typical
price, the cheapest on-demand offer and the cheapest reservation; twice the machines or the
cards; the catalog's ready setups, bought), so no runnable point of ``compare`` beats it by
15 % or more on both time and cost per run; ``recommend``, ``costs``, ``compare``, the wizard
and the PDF name the same setup."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from advisor.catalog.profile_check import load_profile
from advisor.cli import main
from advisor.compare.compare import compare, point_candidate
from advisor.compare.result import Comparison
from advisor.compare.text import round_count
from advisor.compare.weighed import recommend
from advisor.costs.commitment import committed_share
from advisor.profile import TimeValue
from advisor.verdict.decision import beats, chosen, day_value, outscores, rivals, score
from advisor.verdict.recommendation import recommend_resting
from advisor.verdict.result import Candidate, Recommendation
from tests.support.paths import EXAMPLES, PROFILES
from tests.support.strategies import realistic_profiles

VERDICT = PROFILES / "verdict"
ALL = sorted(VERDICT.glob("*.yaml")) + sorted(EXAMPLES.glob("*.yaml"))
# a buyer of 4 × RTX 4090 whose runs the cheapest rental does faster and for a fraction
RENTS = PROFILES / "scaling" / "gan-stylegan2-4x4090.yaml"
# four blower cards bought: a ready workstation is faster and cheaper a run
BUYS = VERDICT / "four_blowers.yaml"


def beating_points(rec: Recommendation, comp: Comparison) -> list[str]:
    """The runnable points of ``comp`` (spot offers and counts no setup is built at aside)
    that beat ``rec``'s answer by the margin on both time and cost per run."""
    pick = chosen(rec, rec.candidates)
    if pick is None or pick.cost_per_run is None:
        return []
    out = []
    for option in comp.options:
        if option.id == "rent_spot":
            continue
        for p in option.points:
            if not (p.fits and p.priced and p.keeps_schedule and p.meets_deadline is not False
                    and round_count(p.gpus, option.gpus_per_node)):
                continue
            if beats(point_candidate(option.id, p, option.moved), pick):
                out.append(f"{option.id} at {p.gpus}: {p.run_hours:.1f} h, "
                           f"{p.cost_per_run:.2f} against {pick.run_hours:.1f} h, "
                           f"{pick.cost_per_run:.2f}")
    return out


def assert_never_beaten(profile) -> None:
    rec = recommend(profile, lang="en")
    beaten = beating_points(rec, compare(profile, verdicts=False))
    assert not beaten, (rec.verdict.headline.en, beaten)
    pick = chosen(rec, rec.candidates)
    runnable = [c for c in rec.candidates if c.runnable]
    if runnable:  # and by none of the candidates it weighed, its own or the comparison's
        assert pick is not None and pick.runnable, rec.verdict.headline.en
        assert not [c for c in rivals(rec.candidates, pick) if beats(c, pick)]


# PROP_EXAMPLES=300 runs a wider search by hand (CI keeps 12, derandomised).
@settings(max_examples=int(os.environ.get("PROP_EXAMPLES", "12")), deadline=None,
          derandomize=True, suppress_health_check=list(HealthCheck))
@given(profile=realistic_profiles())
def test_no_point_a_comparison_shows_beats_the_answer_over_random_profiles(profile):
    assert_never_beaten(profile)


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_no_point_a_comparison_shows_beats_the_answer_of_a_known_profile(path: Path):
    assert_never_beaten(load_profile(path))


def test_a_buyer_whose_runs_a_rental_does_faster_and_cheaper_is_told_to_rent():
    rec = recommend(load_profile(RENTS), lang="en")
    pick = chosen(rec, rec.candidates)
    assert pick is not None and pick.kind == "rent_offer"
    assert rec.summary[0].text.en.startswith("Rent ")  # 8 of the cards in one machine
    assert "setups.rented_offer" in {t.rule for t in rec.trace}
    # the reason names the setup it was chosen over, with both figures
    assert "your setup at 2 GPUs" in rec.summary[1].text.en
    assert rec.costs.deployment[rec.costs.gpus.index(rec.verdict.gpus)] == "cloud"


def test_a_ready_setup_that_beats_the_users_is_bought_and_says_so_in_both_languages():
    rec = recommend(load_profile(BUYS), lang="en")
    applied = next(o for o in rec.setups if o.applied)
    assert applied.kind == "buy_setup"
    # the 4 x RTX 3090 workstation (used cards) beats the user's four 4060 Ti: 61 % less time
    # a run for 8 % less money (issue 29: far better on one, no worse on the other); the
    # answer is that one or one that costs the user less still in money and time together
    assert rec.summary[0].text.en.startswith("Buy the 4 × RTX ")
    assert rec.summary[0].text.zh.startswith("购买 4 × RTX ")
    assert "setups.bought_setup" in {t.rule for t in rec.trace}
    pick, per_day = chosen(rec, rec.candidates), day_value(rec)
    yours = next(c for c in rec.candidates if c.setup == "as_given" and c.gpus == 4)
    used = next(c for c in rec.candidates if c.kind == "buy_setup" and c.gpus == 4
                and "3090" in c.label.en)
    assert beats(used, yours)
    assert pick is not None and score(pick, per_day) <= score(used, per_day)


def test_an_owner_of_sunk_cards_is_never_moved_to_a_purchase_by_the_value_of_a_day():
    """Owned cards cost their electricity: a ready setup bought never beats them on cost, and
    the value of a day never moves the answer to hardware bought (review 9: it bought a $90k
    server for an 8B QLoRA where renting costs a fraction; a purchase must beat the answer on
    both time and cost), with time of no value or a day worth 2,000 alike."""
    profile = load_profile(BUYS)
    for update in ({"gpu_price": 0.0, "time_value": TimeValue.none},
                   {"gpu_price": 0.0, "time_value": TimeValue.revenue,
                    "value_per_day": 2000}):
        economics = profile.economics.model_copy(update=update)
        rec = recommend(profile.model_copy(update={"economics": economics}), lang="en")
        pick = chosen(rec, rec.candidates)
        assert pick is not None and pick.kind not in ("buy_setup",), rec.verdict.headline.en
        bought = [c for c in rec.candidates if c.kind == "buy_setup" and c.runnable]
        assert bought and not any(outscores(c, pick, day_value(rec)) for c in bought)

def test_spot_offers_and_counts_no_setup_is_built_at_are_not_candidates():
    rec = recommend(load_profile(RENTS), lang="en")
    assert not [c for c in rec.candidates if c.setup == "rent_spot"]
    elsewhere = [c for c in rec.candidates if c.kind in ("rent_offer", "buy_setup")]
    assert elsewhere
    # any count inside one machine; beyond it, powers of two and whole machines
    assert all(c.nodes == 1 or c.gpus & (c.gpus - 1) == 0 or c.gpus % 4 == 0
               or c.gpus % 8 == 0 for c in elsewhere), sorted({c.gpus for c in elsewhere})
    assert {3, 5, 6, 7} & {c.gpus for c in elsewhere if c.nodes == 1}


def test_a_reservation_pays_for_the_hours_the_month_leaves_idle():
    assert committed_share(1, 73.0) == pytest.approx(10.0)  # a month held for 73 hours
    assert committed_share(20, 73.0) == 1.0  # busy all month: the hours used
    # a run longer than the term reserves whole terms: 85 days on a one-month term take three
    assert committed_share(0.1, 2047.3, 1) == pytest.approx(3 * 730 / 2047.3)
    # a three-year term for a few short runs a month: held all along, the month shared
    assert committed_share(4, 17.0, 36) == pytest.approx(730 / 4 / 17.0)


def test_a_reserved_point_in_the_comparison_carries_its_idle_hours():
    """The comparison's reserved offer costs at least its on-demand twin per hour used when
    the month's runs leave it idle; here 2 runs of about a day leave most of the month."""
    comp = compare(load_profile(VERDICT / "resnet-4x-l40s-cloud.yaml"), verdicts=False)
    reserved = next((o for o in comp.options if o.id == "rent_reserved"), None)
    if reserved is None:
        pytest.skip("no reserved offer for this card in the catalog")
    p = reserved.points[0]
    runs = p.cost_per_month / p.cost_per_run
    share = committed_share(runs, p.run_hours)
    assert share > 1.0
    assert any("idle" in n.en for n in reserved.notes)


@pytest.mark.parametrize("path", [RENTS, BUYS, VERDICT / "llm-7b-on-4x-rtx4090.yaml"],
                         ids=lambda p: p.stem)
def test_recommend_costs_and_compare_name_the_same_setup(capsys, path: Path):
    said = {}
    for command in ("recommend", "costs", "compare"):
        assert main([command, str(path), "--format", "json"]) == 0
        out = json.loads(capsys.readouterr().out)
        summary = out["summary"] if command == "recommend" else out["recommended"]["summary"]
        said[command] = summary[0]["text"]["en"]
    assert len(set(said.values())) == 1, said


def test_the_wizard_computes_the_answer_recommend_gives():
    """The wizard's default computation is this ``recommend`` (tests/ui/test_wizard.py walks
    every example through the window and reads the card against it)."""
    from ui.window.recompute import default_recommend, effective_profile

    profile = effective_profile(load_profile(RENTS))
    assert [s.text for s in default_recommend(profile).summary] == \
        [s.text for s in recommend(profile).summary]


def test_the_pdf_opens_with_the_answer_recommend_gives(tmp_path, capsys):
    from tests.support.pdf import contains, pages_text

    out = tmp_path / "answer.pdf"
    assert main(["recommend", str(RENTS), "--pdf", str(out)]) == 0
    capsys.readouterr()
    do = recommend(load_profile(RENTS)).summary[0].text.en
    contains(pages_text(out)[0], do.split(" — ")[0])


def test_a_candidate_from_a_comparison_is_labelled_with_its_count_and_offer():
    rec = recommend(load_profile(RENTS), lang="en")
    rented: list[Candidate] = [c for c in rec.candidates if c.kind == "rent_offer"]
    assert rented
    for c in rented:
        assert c.label is not None and c.label.en.startswith(f"rent {c.gpus} × ")
        assert c.label.zh.startswith(f"租用 {c.gpus} × ")


def test_a_reserved_answer_costs_what_its_comparison_point_costs_at_the_count_it_names():
    """A reservation's idle hours depend on the run's length, so on the count: the answer
    moved to a reserved cluster charges them at the count it names, as the comparison's point
    at that count does (not at the count the policy first weighed: a 512-GPU run's idle share
    on a 256-GPU answer read $1.51 M a run where its point reads $1.18 M)."""
    profile = load_profile(EXAMPLES / "plan-70b-pretraining-from-tokens.yaml")
    rec = recommend(profile, lang="en")
    applied = next(o for o in rec.setups if o.applied)
    assert applied.id == "rent_reserved"
    comp = compare(profile, verdicts=False)
    point = next(p for o in comp.options if o.id == "rent_reserved" for p in o.points
                 if p.gpus == rec.verdict.gpus)
    assert rec.costs.cost_per_run[rec.costs.gpus.index(rec.verdict.gpus)] == pytest.approx(
        point.cost_per_run, rel=1e-6)
    assert applied.cost_per_run == pytest.approx(point.cost_per_run, rel=1e-6)


def test_a_profile_can_say_its_rental_is_reserved_for_a_term():
    """economics.reservation_term_months: whole terms are paid, idle hours too, at each count
    the share its run's length leaves idle."""
    from advisor.costs import estimate_costs
    from advisor.scaling import project

    profile = load_profile(VERDICT / "resnet-4x-l40s-cloud.yaml")
    proj = project(profile)
    hourly = estimate_costs(profile, proj)
    reserved = profile.model_copy(update={"economics": profile.economics.model_copy(
        update={"reservation_term_months": 1.0})})
    held = estimate_costs(reserved, proj)
    runs = profile.training.runs_per_month
    shares = [committed_share(runs, proj.run_hours[proj.gpus.index(n)], 1.0)
              for n in hourly.gpus]
    assert any(s > 1.0 for s in shares)
    for i, share in enumerate(shares):
        assert held.cloud_cost_per_run[i] == pytest.approx(hourly.cloud_cost_per_run[i] * share,
                                                           rel=1e-6)


def test_an_offer_named_in_the_headline_is_priced_in_the_currency_asked_for():
    """Helper review: `recommend --currency USD` on a CNY profile said "¥1.24/GPU-h" in the
    headline beside "$24.20 a run"."""
    profile = load_profile(EXAMPLES / "medium-model-4gpu-worth-it.yaml")
    # at one GPU the answer is an offer (the market's offers rent one card an instance)
    rec = recommend(profile, lang="en", currency="USD", gpus=[1])
    head = rec.summary[0].text.en
    assert "/GPU-h" in head and "¥" not in head and "$" in head
    assert "¥" in recommend(profile, lang="en", gpus=[1]).summary[0].text.en


def test_a_ready_setup_used_at_fewer_cards_than_it_holds_is_named_for_what_is_bought():
    """Second review: "Buy the 4 × RTX 4090 workstation — 1 GPU, buying €2,548" (the price of
    one card in a one-GPU machine) named a purchase it does not price."""
    from advisor.catalog.profile_check import parse_profile_text

    profile = parse_profile_text("""
task: image_classification
model: {id: vit-b-16}
training: {single_gpu_hours: 30, runs_per_month: 10, batch_per_gpu: 128, precision: bf16,
           input_pipeline: tuned}
hardware: {gpu: l40s, gpus_per_node: 4, intra_link: pcie4}
economics: {mode: compare, currency: EUR, market: EU, time_value: none}
""")
    rec = recommend(profile, lang="en")
    bought = [c for c in rec.candidates if c.kind == "buy_setup" and c.label is not None]
    small = [c for c in bought if c.gpus == 1]
    assert small and all(c.label.en.startswith("buy 1 × ") and "in a machine like the" in
                         c.label.en for c in small)
    assert all("装在" in c.label.zh for c in small)


def test_cards_owned_need_no_price_to_be_compared():
    """A card the catalog has no purchase price for, owned: the comparison prices the user's
    own setup at the counts owned (electricity, the one-off move) and names it, where it once
    left it off the chart and named a rental at the same speed for 2.3 times the money."""
    profile = load_profile(VERDICT / "lab-owns-4x-a100-40gb-no-card-price.yaml")
    comp = compare(profile, verdicts=False)
    yours = next(o for o in comp.options if o.id == "yours")
    owned = [p for p in yours.points if p.gpus <= 4]
    assert owned and all(p.priced for p in owned)
    # the best net value is the owned cards, or more of them rented in one machine (8 in the
    # time 4 take), never the same 4 rented
    assert comp.answer("net_value").point.option in ("yours", "rent_more_cards")
    rented = next(o for o in comp.options if o.id == "rent_typical")
    at_four = next(p for p in rented.points if p.gpus == 4)
    assert at_four.dominated_by is not None and at_four.dominated_by.option == "yours"
    # more cards than owned still need the card's price
    more = next(o for o in comp.options if o.id == "more_cards")
    assert not any(p.priced for p in more.points)
    assert any("no card price" in n.en and "Twice the cards" in n.en for n in comp.notes)
    assert not any("no card price" in n.en and "Your setup" in n.en for n in comp.notes)
    rec = recommend(profile, lang="en", gpus=[1, 2, 4])  # at the counts owned
    assert rec.summary[0].text.en.startswith("Worth it: 4 GPUs")
    assert "own hardware" in rec.summary[0].text.en


def test_asking_about_fewer_counts_weighs_the_same_setups_at_them():
    """``recommend --gpus`` weighs the setups a comparison evaluates at the counts asked, so
    it never answers with one the default weighs and rejects: buying two more RTX 3090s
    ($63 a run) where renting four is as fast for $37."""
    profile = load_profile(VERDICT / "owns-2x3090-asks-about-4.yaml")
    asked = recommend(profile, gpus=[1, 2, 4], lang="en")
    default = recommend(profile, lang="en")
    # unasked, a third card bought is the answer (3 GPUs); asked with 3, the same answer
    assert default.verdict.gpus == 3
    assert recommend(profile, gpus=[1, 2, 3, 4], lang="en").summary[0].text.en == \
        default.summary[0].text.en
    assert asked.summary[0].text.en.startswith("Rent 4 × ")
    pick = chosen(asked, asked.candidates)
    assert pick is not None and set(asked.projection.gpus) <= {1, 2, 4}
    assert not [c for c in rivals(asked.candidates, pick) if beats(c, pick)]


def test_a_card_that_runs_the_job_with_a_setting_change_is_weighed_against_more_cards():
    """A one-GPU machine weighed with more of its cards, whose card holds the job only with a
    setting change: both answers are weighed by the user's criterion (money plus time at a
    day's worth). Time worth nothing: the owned card with the change, as ``--gpus`` says."""
    profile = load_profile(VERDICT / "student-owns-4090-lora-8b.yaml")
    rec = recommend(profile, lang="en")
    applied = next(o for o in rec.setups if o.applied)
    assert applied.kind == "setting" and rec.verdict.gpus == 1
    assert rec.costs.deployment[rec.costs.gpus.index(1)] == "own"
    asked = recommend(profile, gpus=[1, 2, 4], lang="en")
    assert asked.summary[0].text.en == rec.summary[0].text.en
    pick = chosen(rec, rec.candidates)
    assert pick is not None and pick.cost_per_run < 1.0  # the card's electricity


def test_the_same_cards_rented_for_less_are_the_answer_under_the_margin():
    """Reviews 3 and 5: one projection (the same cards at the same count) rented at two
    prices: the cheaper one beats by any 1 % or more, the margin being for figures that may
    err, which here err alike. Owning against renting keeps the margin (owning's figures rest
    on a horizon and a use)."""
    from advisor.verdict.decision import same_cards_rented_for_less

    def cand(hours, cost, side, setup="x"):
        return Candidate(setup=setup, gpus=64, nodes=8, run_hours=hours, cost_per_run=cost,
                         runnable=True, deployment=side)

    typical, reserved = cand(406.7, 108_517, "cloud"), cand(406.7, 99_329, "cloud")
    assert beats(reserved, typical) and same_cards_rented_for_less(reserved, typical)
    assert not beats(cand(406.7, 99_329, "own"), typical)  # owning: the margin stands
    assert not beats(cand(406.0, 99_329, "cloud"), typical)  # another projection
    assert not beats(cand(406.7, 107_900, "cloud"), typical)  # within 1 %
    profile = load_profile(VERDICT / "pretrain-7b-1t-h100-cloud.yaml")
    rec = recommend(profile, lang="en")
    assert rec.summary[0].text.en.startswith("Rent 64 × H100")
    assert "reserved" in rec.summary[0].text.en and "as fast, for 5% less" in \
        rec.summary[1].text.en


def test_a_monthly_budget_binds_where_a_setup_keeps_to_it():
    """Review 5, item 1: economics.monthly_budget was compare's alone; recommend answered
    $21,703 a month under a $20,000 budget that the same GPUs reserved keep to."""
    from tests.support.verdict import pitfall

    rec = recommend(load_profile(VERDICT / "pretrain-7b-budget-20k.yaml"), lang="en")
    i = rec.costs.gpus.index(rec.verdict.gpus)
    assert rec.costs.cost_per_month[i] <= 20_000
    assert "budget of $20,000" in rec.summary[1].text.en
    assert pitfall(rec, "over_budget") is None
    # review 8: one run every five months, each a month's reservation: on average only
    average = pitfall(rec, "budget_on_average")
    assert average is not None and "met on average only" in average.title.en
    over = recommend(load_profile(VERDICT / "finetune-8b-budget-300.yaml"), lang="en")
    said = pitfall(over, "over_budget")  # none keeps to it: the best over it, and said
    assert said is not None and "over the budget of $300" in said.title.en
    pick = chosen(over, over.candidates)
    assert pick is not None and pick.runnable


def test_recommend_and_the_comparisons_best_net_value_name_the_same_setup():
    """Reviews 7 and 8 (N1, N2): with a day worth $5,000, compare's best net value (32 rented
    H100s on twice the machines, 6.0 days a run) was not recommend's answer (16 at 11.8 days
    for 2 % less money); and net values measured against a baseline that cannot do the
    month's runs all bent towards the same month. Both now name one setup and count."""
    profile = load_profile(VERDICT / "llm13b-h100-rented-day-5000.yaml")
    rec = recommend(profile, lang="en")
    comp = compare(profile, verdicts=False, answer=rec)
    answer = comp.answer("net_value")
    assert answer is not None and answer.point is not None
    point = comp.at(answer.point)
    assert rec.verdict.gpus == answer.point.gpus == 32
    assert point.run_hours == pytest.approx(rec.projection.run_hours[
        rec.projection.gpus.index(32)], rel=1e-6)
    assert "with a day saved worth $5,000 to you" in rec.summary[1].text.en
    # the baseline the comparison measures against can do the month's runs
    base = comp.at(comp.baseline)
    assert base.keeps_schedule


def test_asking_for_counts_never_stretches_a_one_machine_offer():
    """Review 7: `recommend --gpus 64,128` answered "rent 128 H100 (one machine, cheapest offer:
    vast.ai)" on 16 machines of an assumed InfiniBand, a marketplace offer of single machines
    the comparison keeps to 8 GPUs; and "needs at least 64 GPUs" where 4 hold the model."""
    profile = load_profile(VERDICT / "moe16b-64-owned-h100-roce.yaml")
    asked = recommend(profile, gpus=[64, 128], lang="en")
    for c in asked.candidates:
        if c.kind == "rent_offer" and "one machine" in c.label.en:
            assert c.gpus <= 8, c.label.en
    assert "one machine" not in asked.summary[0].text.en
    assert "at least 4 GPUs" in asked.summary[1].text.en
    default = recommend(profile, lang="en")
    # one answer, asked or not, where the default's count is one asked (unasked, twice the
    # machines may be rented: 256 GPUs, a count not asked)
    if default.verdict.gpus in (64, 128):
        assert asked.summary[0].text.en == default.summary[0].text.en
    else:
        assert default.verdict.gpus > 128 and default.verdict.deployment == "cloud"


def test_the_profiles_alternatives_are_weighed_as_compare_weighs_them():
    """Review 9: compare's best net value was the rented H100 the profile names, which
    recommend never weighed (21 % less in money and time at the student's $30 a day)."""
    profile = load_profile(VERDICT / "phd-qlora-8b-2x4090-alternatives.yaml")
    rec = recommend(profile, lang="en")
    assert rec.summary[0].text.en.startswith("Rent 1 × H100")
    comp = compare(profile, verdicts=False, answer=rec)
    best = comp.answer("net_value")
    assert best is not None and best.point is not None and best.point.gpus == rec.verdict.gpus
    assert comp.option(best.point.option).gpu == "h100_sxm"


def test_a_budget_no_option_keeps_is_not_pushed_further_over_by_the_value_of_a_day():
    """Review 9: with every option over a $300 budget the answer moved to $771 a month for the
    time it saves; with a budget the policy weighs money first (decision.policy_day_value)."""
    profile = load_profile(VERDICT / "sdxl-h100-cloud-budget-300.yaml")
    rec = recommend(profile, lang="en")
    month = rec.costs.cost_per_month[rec.costs.gpus.index(rec.verdict.gpus)]
    # no move for the time it saves: the rules' own pick on the user's setup stands, or a
    # cheaper one a month
    own, _ = recommend_resting(profile, lang="en")
    own_month = own.costs.cost_per_month[own.costs.gpus.index(own.verdict.gpus)]
    assert month <= own_month + 1e-6 and "with a day saved worth" not in rec.summary[1].text.en


def test_a_budget_every_setup_keeps_to_leaves_the_value_of_a_day_to_weigh():
    """A user review: any monthly budget, $100,000 included, turned the value of a day off,
    and the answer went from 16 GPUs (4.9 h a run) to 8 (9.9 h), $53 a month cheaper against
    $1,175 a month of the user's time; compare's best net value said "weighs money first".
    A budget rules out the setups over it; among the rest time still weighs, as without it."""
    path = VERDICT / "fullft8b-h100-budget-every-setup-keeps.yaml"
    profile = load_profile(path)
    rec = recommend(profile, lang="en")
    unbudgeted = profile.model_copy(update={"economics": profile.economics.model_copy(
        update={"monthly_budget": None})})
    free = recommend(unbudgeted, lang="en")
    assert (rec.verdict.gpus, rec.verdict.nodes) == (free.verdict.gpus, free.verdict.nodes)
    assert rec.verdict.gpus == 16 and "with a day saved worth" in rec.summary[1].text.en
    comp = compare(profile, verdicts=False, answer=rec)
    best = comp.answer("net_value")
    assert best is not None and best.point is not None and best.point.gpus == 16
    assert "money first" not in best.why.en
