"""The answer's net value over the user's own setup, measured as the comparison measures every
setup (review 10, F3: one answer read "$20,845 a month over 1 GPU" in ``recommend`` and
``costs`` and "$118,100 a month over your setup" in ``compare``).

The rules speak of the setup the answer rests on: whether more of its GPUs pay for themselves
against one of them (the article's question, F02), so the costs table of a rented H100 weighs
8 H100s against 1 H100. What the user acts on is the move from what they have: the
comparison's baseline, the user's setup at the count ``baseline.net_value_baseline`` takes (one GPU
where it does the month's runs, the owned GPUs where it cannot, else the fewest that can).
This is that figure for the answer's count, from the comparison's own evaluation of the
user's setup and the same functions (``costs.model.time_value_per_month``), so ``recommend
--details``, ``costs`` and ``compare`` print one number for it.
"""

from __future__ import annotations

from advisor.catalog import load_catalog
from advisor.compare.answers import against
from advisor.compare.baseline import net_value_baseline
from advisor.compare.evaluate import evaluate, option_result
from advisor.compare.option import Context
from advisor.compare.options import yours
from advisor.costs.inputs import choose_currency, choose_market, owned_cards
from advisor.costs.model import keeps_schedule, time_value_per_month
from advisor.profile import Currency, Profile, TimeValue
from advisor.verdict.result import NetOverYours, Recommendation


def over_yours(profile: Profile, rec: Recommendation, currency: str | None = None,
               market: str | None = None) -> NetOverYours | None:
    """The net value a month of ``rec``'s answer over the user's setup at the comparison's
    baseline count; None where the profile puts no value on time, the answer cannot run or
    is not priced, or the user's setup has no count that does the month's runs (the
    comparison then measures against another setup)."""
    eco, runs = profile.economics, profile.training.runs_per_month
    if eco.time_value in (None, TimeValue.none) or not eco.value_per_day:
        return None
    co, n = rec.costs, rec.verdict.gpus
    if n not in co.gpus or not co.mode_priced:
        return None
    i = co.gpus.index(n)
    if co.fits and not co.fits[i]:
        return None
    catalog = load_catalog()
    where = choose_market(profile, market)
    out_currency, given_in = choose_currency(profile, where, currency)
    if out_currency != co.currency:
        return None
    option = yours(profile, Context(catalog, where, Currency(given_in)))[0]
    try:
        result = option_result(evaluate(option, catalog, out_currency))
    except (ValueError, KeyError):
        return None  # the user's setup its own figures cannot carry
    ref = net_value_baseline([result], runs, owned_cards(profile))
    base = None if ref is None else result.point(ref.gpus)
    if base is None or not keeps_schedule(runs, base.run_hours):
        return None
    per_day = catalog.convert(eco.value_per_day, given_in, out_currency)
    value = time_value_per_month(runs, base.run_hours, co.run_hours[i], per_day)
    return NetOverYours(against=against(ref, result.labelled()), gpus=ref.gpus,
                        net_value_per_month=value - (co.cost_per_month[i] - base.cost_per_month))
