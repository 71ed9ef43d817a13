"""One setup option with its figures at a GPU count (``SetupOption``), projected as ``project``
would (once per comparison: ``shared_projections``) and priced in the market and currency
``recommend`` was asked for (issue 18: the list's money is the headline's)."""

from __future__ import annotations

from advisor.files.errors import InputError
from advisor.files.records import record
from advisor.profile import Market, Profile
from advisor.scaling.result import Projection
from advisor.text.i18n import Text
from advisor.verdict.result import SetupOption
from advisor.verdict.shared_costs import costs_shared
from advisor.verdict.shared_projections import project_shared


@record
class Pricing:
    """The market and currency the options are priced in: ``recommend``'s ``--currency`` and
    ``--market`` when given, else the profile's (issue 18: the same money as the headline's)."""

    currency: str | None = None
    market: Market | str | None = None


def priced_option(oid: str, kind: str, label: Text, change: Text, trade_off: Text,
            profile: Profile, proj: Projection, n: int, here: bool,
            lang: str | None, pricing: Pricing, *, priced: bool = True) -> SetupOption:
    i = proj.at(n)
    cost, currency = None, ""
    if priced:
        costs = costs_shared(profile, proj, lang=lang, currency=pricing.currency,
                             market=pricing.market)
        cost = costs.cost_per_run[costs.gpus.index(n)] if costs.mode_priced \
            and n in costs.gpus else None
        currency = costs.currency
    return SetupOption(id=oid, kind=kind, label=label, change=change, trade_off=trade_off,
                       gpus=n, nodes=proj.nodes[i], fits_here=here,
                       speedup=proj.speedup[i], run_hours=proj.run_hours[i],
                       cost_per_run=cost, currency=currency).resting_on(profile, proj)


def projected_or_none(profile: Profile, counts: list[int]) -> Projection | None:
    """``profile`` projected at ``counts``; None when a setting cannot be projected there."""
    try:
        return project_shared(profile, counts)
    except (InputError, ValueError):
        return None
