"""One setup option with its figures at a GPU count (``SetupOption``), projected as ``project``
would (once per comparison: ``shared_projections``) and priced in the market and currency
``recommend`` was asked for (issue 18: the list's money is the headline's)."""

from __future__ import annotations

from advisor.costs.result import CostReport
from advisor.files.errors import InputError
from advisor.files.records import record
from advisor.profile import EconomicsMode, Market, Profile
from advisor.scaling.result import Projection
from advisor.text.i18n import Text
from advisor.verdict.more_cards import in_a_smaller_machine
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
    cost, currency, costs, side = None, "", None, None
    if priced:
        costs = costs_shared(profile, proj, lang=lang, currency=pricing.currency,
                             market=pricing.market)
        cost = _cost_at(costs, n)
        currency = costs.currency
        side = costs.side_at(n) if cost is not None else None
    owned = _owned_part(profile, proj, costs) if here else {}
    return SetupOption(id=oid, kind=kind, label=label, change=change, trade_off=trade_off,
                       gpus=n, nodes=proj.nodes[i], fits_here=here,
                       speedup=proj.speedup[i], run_hours=proj.run_hours[i],
                       cost_per_run=cost, currency=currency, deployment=side,
                       **owned).resting_on(profile, proj)


def _cost_at(costs: CostReport | None, n: int) -> float | None:
    if costs is None or not costs.mode_priced or n not in costs.gpus:
        return None
    return costs.cost_per_run[costs.gpus.index(n)]


def _owned_part(profile: Profile, proj: Projection, costs: CostReport | None) -> dict:
    """On a machine the user owns only some cards of (F31: owned hardware is sunk, the rest
    is bought, or in compare mode rented where renting costs less), the cards they own and
    the option's figures on those alone where it fits."""
    eco = profile.economics
    owned = eco.owned_gpus
    if eco.mode not in (EconomicsMode.own, EconomicsMode.compare) or owned is None \
            or owned >= profile.hardware.total_gpus:
        return {}
    if not owned:  # nothing owned: a larger machine than the user's one-GPU one is bought whole
        return {"owned_gpus": 0, "machine_bought": True} if in_a_smaller_machine(profile) \
            else {}
    out: dict = {"owned_gpus": owned, "machine_bought": in_a_smaller_machine(profile)}
    if owned in proj.gpus and proj.fits[proj.at(owned)]:
        out["owned_run_hours"] = proj.run_hours[proj.at(owned)]
        out["owned_cost_per_run"] = _cost_at(costs, owned)
    return out


def projected_or_none(profile: Profile, counts: list[int]) -> Projection | None:
    """``profile`` projected at ``counts``; None when a setting cannot be projected there."""
    try:
        return project_shared(profile, counts)
    except (InputError, ValueError):
        return None
