"""The Pareto front and the answers: no dominated point is ever an answer or recommended (the
output names what dominates it), a cheaper price never makes an option look worse, and every
option's figures are those of ``recommend`` on the option's own profile."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from advisor.catalog.profile_check import parse_profile_text
from advisor.compare import compare, options_for
from advisor.compare.answers import answers
from advisor.compare.evaluate import held_counts
from advisor.compare.pareto import Candidate, dominates, dominators, front
from advisor.compare.result import Point, PointRef
from advisor.costs import estimate_costs
from advisor.text.i18n import Text
from advisor.verdict.recommendation import recommend
from advisor.verdict.resting import resting_on
from tests.support.compare import every_point, small_profile
from tests.support.ui import EXAMPLES

# -- the front itself, on any points ------------------------------------------------------------

POINTS = st.lists(st.tuples(st.sampled_from(["a", "b", "c", "d"]), st.integers(1, 8),
                            st.floats(0.1, 1000, allow_nan=False),
                            st.floats(0.0, 1e6, allow_nan=False)),
                  min_size=1, max_size=40, unique_by=lambda t: (t[0], t[1]))


@settings(deadline=None)
@given(POINTS)
@example([("a", 1, 0.1, 1.0), ("a", 2, 0.10000000000000002, 0.0)])  # a tie in time, cheaper later
def test_nothing_on_the_front_is_dominated_and_everything_else_is(raw):
    candidates = [Candidate((o, n), h, c) for o, n, h, c in raw]
    on_front = front(candidates)
    assert on_front
    for f in on_front:
        assert not any(dominates(c, f) for c in candidates)
    beaten = dominators(candidates, on_front)
    keys = {f.key for f in on_front}
    for c in candidates:
        assert (c.key in keys) != (c.key in beaten)
        if c.key in beaten:
            assert beaten[c.key].key in keys
            winner = beaten[c.key]
            assert winner.hours <= c.hours * (1 + 1e-9) and winner.cost <= c.cost * (1 + 1e-9) + 1e-9


@settings(deadline=None)
@given(POINTS, st.floats(1, 60), st.floats(0, 1e6))
def test_every_answer_is_on_the_front(raw, deadline, budget):
    candidates = [Candidate((o, n), h, c) for o, n, h, c in raw]
    entries = []
    for c in front(candidates):
        point = Point(gpus=c.key[1], nodes=1, fits=True, priced=True, speedup=1, speedup_low=1,
                      speedup_high=1, run_hours=c.hours, runs_per_month_capacity=1,
                      cost_per_run=c.cost, cost_per_month=c.cost, deployment="own", capex=0,
                      meets_deadline=c.hours <= deadline, within_budget=c.cost <= budget,
                      net_value_per_month=-c.cost - c.hours)
        entries.append((PointRef(option=c.key[0], gpus=c.key[1]), point))
    labels = {o: Text(en=o, zh=o) for o in "abcd"}
    found = answers(entries, labels, "USD", deadline_days=deadline, budget=budget, valued=True)
    chosen = [a.point for a in found if a.point is not None]
    assert chosen
    for ref in chosen:
        me = next(c for c in candidates if c.key == (ref.option, ref.gpus))
        assert not any(dominates(c, me) for c in candidates)


# -- the whole comparison -----------------------------------------------------------------------

SPECS = ["4x rtx4090 own", "2x rtx3090 nvlink_bridge own", "4x rtx4090 cloud=0.6",
         "8x l40s pcie4 own"]
PRICES = st.fixed_dictionaries({
    "gpu_price": st.floats(300, 4000), "cloud_price_per_gpu_hour": st.floats(0.1, 3),
    "electricity_per_kwh": st.floats(0.05, 0.6), "value_per_day": st.floats(0, 3000),
    "monthly_budget": st.floats(100, 20_000), "deadline_days": st.floats(2, 60)})


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PRICES)
def test_no_dominated_option_is_ever_recommended(prices):
    result = compare(small_profile(**prices), specs=SPECS, verdicts=False)
    points = every_point(result)
    for answer in result.answers:
        if answer.point is None:
            continue
        me = result.at(answer.point)
        assert me.on_front and me.dominated_by is None
        for _, other in points:
            assert not (other.run_hours <= me.run_hours and other.cost_per_month <=
                        me.cost_per_month and (other.run_hours < me.run_hours * (1 - 1e-9) or
                                               other.cost_per_month < me.cost_per_month *
                                               (1 - 1e-9)))
    for option_id, p in points:  # the output says what dominates every dominated point
        if not p.on_front and p.same_as is None:
            assert p.dominated_by is not None, (option_id, p.gpus)
            winner = result.at(p.dominated_by)
            assert winner.on_front
            assert winner.run_hours <= p.run_hours * (1 + 1e-9)
            assert winner.cost_per_month <= p.cost_per_month * (1 + 1e-9)


def test_a_dominated_verdict_is_named_and_never_an_answer():
    result = compare(small_profile(), specs=SPECS)
    dominated = [o for o in result.options if o.verdict and o.verdict.dominated_by]
    assert dominated  # the rules pick a count per option; some of those are beaten
    answered = {(a.point.option, a.point.gpus) for a in result.answers if a.point}
    for option in dominated:
        assert (option.id, option.verdict.gpus) not in answered
        assert result.at(option.verdict.dominated_by).on_front


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PRICES, st.floats(0.05, 0.95), st.sampled_from(["gpu_price", "cloud_price_per_gpu_hour",
                                                       "electricity_per_kwh"]))
def test_a_cheaper_price_never_makes_an_option_look_worse(prices, factor, field):
    mode = "cloud" if field == "cloud_price_per_gpu_hour" else "own"

    def run(price: float):
        alt = {"name": "mine", "economics": {"mode": mode, field: price}}
        profile = small_profile(**prices)
        data = profile.model_dump(mode="json", exclude_none=True)
        data["alternatives"] = [alt]
        return compare(parse_profile_text(yaml.safe_dump(data)), specs=SPECS, verdicts=False)

    before = run(prices[field])
    after = run(prices[field] * factor)
    was, now = before.option("alt:0"), after.option("alt:0")
    for p, q in zip(was.points, now.points, strict=True):
        assert q.cost_per_month <= p.cost_per_month * (1 + 1e-12)
        assert q.cost_per_run <= p.cost_per_run * (1 + 1e-12)
        if p.on_front or p.same_as is not None:
            assert q.on_front or q.same_as is not None
        if p.dominated_by is None:
            assert q.dominated_by is None
    for answer in before.answers:
        if answer.point is not None and answer.point.option == "alt:0" and \
                answer.key != "fastest":
            again = after.answer(answer.key)
            assert again.point is not None and again.point.option == "alt:0", answer.key


@pytest.mark.parametrize("example", [p for p in EXAMPLES
                                     if "medium" in p.stem or "large-model" in p.stem
                                     or p.stem.startswith("plan-")],  # planned from size
                         ids=lambda p: p.stem)
def test_every_option_shows_the_numbers_recommend_gives_its_profile(example):
    from advisor.catalog.profile_check import load_profile

    profile = load_profile(example)
    options = options_for(profile)
    result = compare(profile, options)
    assert len(result.options) == len(options) >= 8
    for option, shown in zip(options, result.options, strict=True):
        # an offer renting fewer cards an instance than the user's machine holds: the counts
        # one instance holds (recommend --gpus 1..N)
        held = None if option.max_gpus is None else held_counts(option)
        rec = recommend(option.profile, currency=result.currency, gpus=held)
        # the figures recommend weighs for the option's own setup (before the decision policy
        # moves its answer, say to rented cards: issue 29), and its candidates at each count
        rests = resting_on(option.profile, held)
        pr = rests.projection
        co = estimate_costs(rests.profile, pr, currency=result.currency)
        own = {c.gpus: c for c in rec.candidates if c.label is None}
        for p in shown.points:
            # a reservation's point carries the hours the month's runs leave idle, and so does
            # the option's own profile (economics.reservation_term_months): the same figure
            assert option.committed == (
                option.profile.economics.reservation_term_months is not None)
            assert own[p.gpus].run_hours == p.run_hours
            if co.mode_priced:
                assert own[p.gpus].cost_per_run == pytest.approx(p.cost_per_run)
            else:
                assert own[p.gpus].cost_per_run is None
            i = pr.gpus.index(p.gpus)
            assert (p.fits, p.nodes) == (pr.fits[i], pr.nodes[i])
            assert (p.speedup, p.speedup_low, p.speedup_high) == \
                (pr.speedup[i], pr.speedup_low[i], pr.speedup_high[i])
            assert p.run_hours == pr.run_hours[i]
            assert (p.cost_per_run, p.cost_per_month, p.capex) == pytest.approx(
                (co.cost_per_run[i], co.cost_per_month[i], co.capex[i]))
        assert shown.verdict.rating == rec.verdict.rating
        assert shown.verdict.gpus == rec.verdict.gpus
        assert shown.verdict.headline == rec.verdict.headline
        if shown.verdict.setup is not None and not any(
                o.applied and o.id == shown.verdict.setup for o in rests.options):
            continue  # it rests on a setup beyond the option (rented cards): no point of it
        if held is not None and shown.verdict.gpus > option.max_gpus:
            assert not any(p.fits for p in shown.points)  # the job needs more than it holds
            continue
        at, owner = shown.point(shown.verdict.gpus), shown
        if at is None and shown.verdict.gpus < min(p.gpus for p in shown.points):
            # below where the option starts it is the user's setup, dominated as that is
            owner = next(o for o in result.options if o.kind == "yours")
            at = owner.point(shown.verdict.gpus)
        assert at is not None, (shown.id, shown.verdict.gpus)
        # "not recommended" only where the point that dominates it beats it as the decision
        # policy counts it (15 % on one, no worse on the other)
        if shown.verdict.dominated_by is not None:
            assert shown.verdict.dominated_by == at.dominated_by
        elif at.dominated_by is not None:
            # (a run moved to another card weighed as the policy weighs it: decision.as_weighed)
            from advisor.compare.compare import point_candidate
            from advisor.verdict.decision import beats

            ref = at.dominated_by
            winner = point_candidate(ref.option, result.at(ref), result.option(ref.option).moved)
            assert not beats(winner, point_candidate(owner.id, at, owner.moved))


def test_with_a_deadline_the_best_net_value_meets_it():
    """Helper review: a 25.6-day run was "Best net value" against a 20-day deadline (its net
    value counts days saved that a run past the deadline never gives)."""
    text = """
task: llm
model: {name: 7B pretrain, params_millions: 6740, layers: 32, hidden_size: 4096,
        attention_heads: 32, sequence_length: 4096, vocab_size: 32000}
training: {dataset_tokens: 2.0e+11, global_batch: 512, batch_per_gpu: 2, precision: bf16,
           input_pipeline: tuned, runs_per_month: 1}
hardware: {gpu: h100_sxm, gpus_per_node: 8, nodes: 4, intra_link: nvswitch,
           inter_link: infiniband_ndr, cooling: server}
economics: {mode: cloud, currency: USD, time_value: deadline, value_per_day: 20000,
            deadline_days: 20}
"""
    result = compare(parse_profile_text(text), verdicts=False)
    best = next(a for a in result.answers if a.key == "net_value")
    assert best.point is not None and result.at(best.point).meets_deadline is not False


def test_an_options_verdict_on_another_setup_names_it():
    """Review 3, item 9: an option that cannot run as given read "worth it: 8 GPUs, cloud
    rental", none of its own rows at 8 GPUs; the line names the setup the verdict rests on."""
    from advisor.catalog.profile_check import load_profile
    from advisor.compare.compare import compare
    from advisor.compare.text import render_text
    from tests.support.paths import PROFILES

    comp = compare(load_profile(PROFILES / "verdict" / "llama70b-qlora-one-a6000.yaml"))
    moved = [o for o in comp.options if o.verdict is not None and o.verdict.setup is not None]
    assert moved
    for lang, word in (("en", ", on: "), ("zh", "，基于：")):
        text = render_text(comp, lang)
        for o in moved:
            line = next(x for x in text.splitlines()
                        if x.strip().startswith(f"[{comp.options.index(o) + 1}]") and
                        (":" in x or "：" in x) and word.strip(", ，") in x)
            assert o.verdict.headline.get(lang).startswith(line.split(word)[1])


def test_the_answers_setup_is_compared_where_no_option_holds_it():
    """Review 6: the verdict rested on rented A100s that the comparison did not evaluate, and
    the Compare page named as fastest and best value setups the answer had beaten. The
    answer's setup is now an option, priced as rented (the user's A6000 is not its card)."""
    from advisor.catalog.profile_check import load_profile
    from advisor.compare.compare import compare
    from advisor.compare.weighed import recommend
    from tests.support.paths import PROFILES

    profile = load_profile(PROFILES / "verdict" / "llama70b-qlora-one-a6000.yaml")
    comp = compare(profile, verdicts=False)
    answer = comp.option("answer")
    assert answer.label.en.startswith("The answer's setup: rent 8 × A100")
    assert answer.label.zh.startswith("答案所用的配置：")
    rec = recommend(profile, lang="en")
    at = answer.point(rec.verdict.gpus)
    assert at is not None and at.on_front
    assert at.cost_per_run == pytest.approx(rec.costs.cost_per_run[
        rec.costs.gpus.index(rec.verdict.gpus)], rel=1e-6)
    assert comp.answer("net_value").point.option == "answer"
    assert at.capex > 0 or at.deployment == "cloud"  # not the user's owned A6000
    # review 5: the rented card inherited the user's owned cards ("already paid for")
    changed, _ = next(o for o in rec.setups if o.applied).behind()
    assert changed.economics.owned_gpus == 0 and changed.economics.gpu_price is None


def test_no_answer_option_where_the_answer_rests_on_a_listed_setup():
    from advisor.catalog.profile_check import load_profile
    from advisor.compare.compare import compare
    from tests.support.paths import EXAMPLES

    comp = compare(load_profile(EXAMPLES / "medium-model-4gpu-worth-it.yaml"), verdicts=False)
    assert all(o.id != "answer" for o in comp.options)


def test_a_table_cell_never_reads_a_run_of_minutes_as_zero_hours():
    """Review 5: "h/run 0.0, runs/mo 9,999.0" for a run of minutes read as sentinel values."""
    from advisor.compare.text import _hours_cell, _runs_cell

    assert _hours_cell(0.0079) == "0.0079" and _hours_cell(0.014) == "0.014"
    assert _hours_cell(2.34) == "2.3" and _hours_cell(1234.5) == "1,234.5"
    assert _runs_cell(12_000) == "> 9,999" and _runs_cell(156.14) == "156.1"
