"""The setups a comparison weighs, each a whole profile: the same workload on other hardware
or other money (an ``Option``), so every figure comes from ``recommend``'s own pipeline.

Where options come from (``default_options``; the CLI and the wizard add ``--option`` specs
and ``--setup`` ids):

- ``yours``: the profile as given, owned (or rented, when its mode is cloud);
- ``more``: more of the same cards: twice the machines over the profile's network (or the one
  such machines usually have), and, for a workstation of up to four cards, one machine with
  twice as many (an 8-GPU server: F23, F32);
- ``cloud``: the same GPUs rented: at the catalog's representative price, and the market's
  cheapest on-demand, spot and reserved offers for the card where published;
- ``setup``: the ready setups of the catalog for this market (``resources/catalog/setups.yaml``);
- ``rented_setups``: those setups' cards rented at the market's cheapest on-demand and reserved
  offers, where the profile rents or compares owning with renting;
- ``alternative``: the profile's own ``alternatives:``;
- ``change``: setting changes of the same hardware. **Extension point**: issue 17 ("Fine-tuning
  and setups that fit") is not built yet; it adds its changes with ``register_source`` (a
  function of the profile and the context returning Options of kind ``change``), and they are
  compared like any other option.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from advisor.catalog import resolve_gpu
from advisor.catalog.entries import ReadySetup
from advisor.compare.option import (
    MAX_TOTAL_GPUS,
    Context,
    Option,
    a_workstation,
    on_its_gpu,
    owned,
    settled,
    shape_text,
    speed_note,
    with_changes,
)
from advisor.compare.rent import INTERRUPTIBLE, RDMA_LINKS, rent_the_same
from advisor.profile import EconomicsMode, InterLink, Profile, apply_alternative
from advisor.scaling.project import default_inter_link
from advisor.text.i18n import Text

OptionSource = Callable[[Profile, Context], list[Option]]
_SOURCES: list[tuple[str, OptionSource]] = []


def register_source(name: str, source: OptionSource) -> None:
    """Add a source of options (issue 17's setting changes register here)."""
    if name not in {n for n, _ in _SOURCES}:
        _SOURCES.append((name, source))


def unregister_source(name: str) -> None:
    _SOURCES[:] = [(n, s) for n, s in _SOURCES if n != name]


# -- the sources -------------------------------------------------------------------------------

def yours(profile: Profile, ctx: Context) -> list[Option]:
    economics = owned(profile)
    if profile.economics.mode == EconomicsMode.compare and profile.economics.owned_gpus is None:
        # the cards the costs of the profile count as owned, not every card (owning is what
        # the profile weighs: with no card price, own hardware read "sunk" at the electricity
        # alone here while recommend, the cards unpriced, rented)
        from advisor.costs.inputs import resolve_inputs

        held = resolve_inputs(profile, ctx.catalog).owned_gpus
        economics.update(profile.economics.owning(held).model_dump(
            include={"owned_gpus", "gpu_price"}))
    mine = settled(with_changes(profile, economics=economics, keep_measured=True), ctx)
    deployment = "cloud" if mine.economics.mode == EconomicsMode.cloud else "own"
    shape = shape_text(mine)
    how = Text(en="own", zh="自建") if deployment == "own" else Text(en="rented", zh="租用")
    owned_gpus = mine.economics.owned_gpus
    total = mine.hardware.total_gpus
    if deployment == "own" and owned_gpus is not None and 0 < owned_gpus < total:
        # the cards owned and the rest bought, not "own" for all (review 7: 64 of 128 owned)
        how = Text(en=f"own: {owned_gpus} owned, {total - owned_gpus} to buy",
                   zh=f"自建：已有 {owned_gpus} 张，另买 {total - owned_gpus} 张")
    return [Option("yours", "yours", Text(en=f"Your setup ({shape.en}, {how.en})",
                                          zh=f"你的配置（{shape.zh}，{how.zh}）"),
                   mine, deployment)]


def more_of_the_same(profile: Profile, ctx: Context) -> list[Option]:
    """More of the user's cards: twice the machines, bought, or, where the profile compares
    owning with renting, each count on the cheaper side, as ``recommend`` prices its own "more
    machines" (review 11: recommend rented a second machine of H100s at $322 a run that the
    comparison only offered bought); and a workstation's cards doubled in one machine, bought
    (``rent.py`` rents that machine: ``rent_more_cards``)."""
    hw = profile.hardware
    compared = profile.economics.mode == EconomicsMode.compare
    economics = {"mode": EconomicsMode.compare} if compared else owned(profile)
    if profile.economics.owns_every_card:
        # "0": the cards the profile has are owned; the ones added are bought
        # (``EconomicsSpec.owning``)
        economics.update(profile.economics.owning(hw.total_gpus).model_dump(
            include={"owned_gpus", "gpu_price"}))
    base = with_changes(profile, economics=economics, keep_measured=True)
    out: list[Option] = []
    spec = resolve_gpu(hw.gpu, hw.intra_link)
    if hw.total_gpus * 2 <= MAX_TOTAL_GPUS:
        link = hw.inter_link if hw.inter_link != InterLink.none else \
            default_inter_link(profile, spec)
        twice = settled(with_changes(base, hardware={"nodes": hw.nodes * 2, "inter_link": link},
                              keep_measured=True), ctx)
        shape = shape_text(twice)
        out.append(Option("more_machines", "more", Text(en=f"Twice the machines ({shape.en})",
                                                        zh=f"机器加倍（{shape.zh}）"),
                          twice, "cloud" if base.economics.mode == EconomicsMode.cloud
                          else "own", min_gpus=hw.total_gpus + 1))
    if a_workstation(profile, spec):
        bought = with_changes(profile, economics={**economics, **owned(profile)},
                              keep_measured=True)
        bigger = settled(with_changes(bought, hardware={"gpus_per_node": hw.gpus_per_node * 2},
                               keep_measured=True), ctx)
        # the cards the user owns sit in their machine of gpus_per_node: a machine of twice
        # as many is bought with the cards added (its chassis was left out when cards were
        # owned: 8 x RTX 4090 without the 8-GPU machine read $1,071 a month, not $2,520)
        bigger = bigger.model_copy(update={
            "economics": bigger.economics.owning_machines_of(hw.gpus_per_node)})
        shape = shape_text(bigger)
        out.append(Option("more_cards", "more",
                          Text(en=f"Twice the cards in one machine ({shape.en})",
                               zh=f"单机卡数加倍（{shape.zh}）"),
                          bigger, "cloud" if bought.economics.mode == EconomicsMode.cloud
                          else "own", min_gpus=hw.gpus_per_node + 1))
    return out


def setup_option(profile: Profile, ctx: Context, setup: ReadySetup) -> Option:
    """A ready setup, owned: the catalog's card and machine prices (the user's own prices are
    for their hardware; their site's electricity and PUE still apply)."""
    same_gpu = isinstance(profile.hardware.gpu, str) and \
        resolve_gpu(profile.hardware.gpu, profile.hardware.intra_link).id == setup.gpu
    hardware: dict[str, Any] = {
        "gpu": setup.gpu, "gpus_per_node": setup.gpus_per_node, "nodes": setup.max_nodes,
        "intra_link": setup.intra_link, "inter_link": setup.inter_link,
        "cooling": setup.cooling or resolve_gpu(setup.gpu).default_cooling,
        "virtualization": "bare_metal", "vgpus_per_physical_gpu": None,
        "max_gpu_temp_c": None, "allreduce_busbw_gbs": None}
    # bought whole at the catalog's prices: none of its cards is one the user owns (the owner
    # of four RTX 4090 was told to buy the 4 x RTX 4090 workstation at the price of its power)
    economics: dict[str, Any] = {"mode": EconomicsMode.own, "base_system_price": None,
                                 "owned_gpus": 0}
    if not same_gpu:
        economics.update(gpu_price=None, cloud_price_per_gpu_hour=None)
    elif profile.economics.gpu_price == 0:  # 0: the user's cards are owned, not the price
        economics.update(gpu_price=None)
    changed = settled(with_changes(profile, hardware=hardware, economics=economics), ctx)
    note = speed_note(profile, changed)
    return Option(f"setup:{setup.id}", "setup", setup.name_text, changed, "own",
                  notes=(note,) if note else ())


def ready_setups(profile: Profile, ctx: Context) -> list[Option]:
    return [setup_option(profile, ctx, s) for s in ctx.catalog.setups
            if s.market is None or s.market == ctx.market]


def rented_setups(profile: Profile, ctx: Context) -> list[Option]:
    """The ready setups' cards rented at the market's cheapest on-demand and reserved offers
    (one machine at any offer, its instances bounding the counts, and the cheapest that rents
    the machine whole; several machines only at a cluster's offer; spot aside:
    ``INTERRUPTIBLE``), one set for each card the user has not got (theirs: ``rent_the_same``). A review found a cloud user whose RTX 3080
    cannot hold the model told to buy 64 H100s, $2,657,722 of hardware, where the catalog
    rents the same cluster by the month: the setups were weighed bought and never rented.
    Where the user rents or weighs renting (``economics.mode`` cloud or compare); an owner's
    answer stays on hardware owned or bought, and their own cards rented (``rent_the_same``)."""
    if profile.economics.mode == EconomicsMode.own:
        return []
    own = resolve_gpu(profile.hardware.gpu, profile.hardware.intra_link).id \
        if isinstance(profile.hardware.gpu, str) else None
    # one setup a card, the largest (the 2 × RTX 3090 with a bridge and the 4-card workstation
    # rent as the same instances)
    largest: dict[str, ReadySetup] = {}
    for setup in ctx.catalog.setups:
        if (setup.market is None or setup.market == ctx.market) and setup.gpu != own:
            held = largest.get(setup.gpu)
            if held is None or setup.gpus_per_node * setup.max_nodes > \
                    held.gpus_per_node * held.max_nodes:
                largest[setup.gpu] = setup
    out: list[Option] = []
    for setup in largest.values():
        bought = setup_option(profile, ctx, setup)
        rented = with_changes(bought.profile, economics={"mode": EconomicsMode.cloud},
                              keep_measured=True)
        # one machine at any offer for the card (its instances bound the counts), and a
        # cluster's machines only at a cluster's offer (its own one machine is the first)
        one = with_changes(rented, hardware={"nodes": 1, "inter_link": InterLink.none},
                           keep_measured=True)
        offered = [(f"rent:{setup.id}:{o.id}", o) for o in rent_the_same(one, ctx)]
        if rented.hardware.nodes > 1:  # from one machine more than the first's counts
            more = rented.hardware.gpus_per_node + 1
            offered += [(f"rent:{setup.id}:machines:{o.id}",
                         dataclasses.replace(o, min_gpus=max(o.min_gpus, more)))
                        for o in rent_the_same(rented, ctx, whole_machines=True,
                                               clusters_only=True)
                        if o.profile.hardware.nodes > 1]
        out += [dataclasses.replace(o, id=option_id, notes=(*bought.notes, *o.notes))
                for option_id, o in offered if o.id not in INTERRUPTIBLE]
    return out


def alternatives(profile: Profile, ctx: Context) -> list[Option]:
    out = []
    for i, alt in enumerate(profile.alternatives):
        changed = on_its_gpu(profile, apply_alternative(profile, alt, i))
        deployment = "cloud" if changed.economics.mode == EconomicsMode.cloud else "own"
        if changed.economics.mode == EconomicsMode.compare:
            changed = with_changes(changed, economics={"mode": EconomicsMode.own}, keep_measured=True)
        # The alternative's own market and currency, when it sets them; else the profile's.
        market = changed.economics.market or ctx.market
        currency = changed.economics.currency or ctx.currency
        alt_ctx = Context(ctx.catalog, market, currency)
        note = speed_note(profile, changed)
        out.append(Option(f"alt:{i}", "alternative", Text(en=alt.name, zh=alt.label("zh")),
                          settled(changed, alt_ctx), deployment,
                          notes=(note,) if note else ()))
    return out


OFFERS = ("rent_on_demand", "rent_reserved", "rent_one_machine")  # rent_the_same's offers


def more_at_offers(profile: Profile, ctx: Context) -> list[Option]:
    """More of the user's cards rented at the market's cheapest offers for the card (twice
    the cards in one machine; twice the machines where a cluster's offer joins them by
    InfiniBand or RoCE: a marketplace rents single machines, not ones joined by a fast
    network), beside the same priced at the card's typical rate: a review found two machines
    of two RTX 3090s rented at ¥2.40 a GPU-hour where an offer for the card is ¥0.76."""
    return offers_for_more([*more_of_the_same(profile, ctx), *rent_the_same(profile, ctx)], ctx)


def offers_for_more(options: list[Option], ctx: Context) -> list[Option]:
    """``more_at_offers`` of options ``more_of_the_same`` and ``rent_the_same`` built already
    (the others are passed over)."""
    out: list[Option] = []
    for option in options:
        if option.id not in ("more_machines", "rent_more_cards"):
            continue
        if option.id == "more_machines" and option.profile.hardware.inter_link not in RDMA_LINKS:
            continue
        rented = option.profile.model_copy(update={"economics": option.profile.economics
                                                   .model_copy(update={"mode": EconomicsMode.cloud})})
        # (one machine of a cluster is the user's own count again: not more machines)
        offers = OFFERS if option.id == "rent_more_cards" else OFFERS[:2]
        out += [dataclasses.replace(o, id=f"{option.id}:{o.id}",
                                    min_gpus=max(option.min_gpus, o.min_gpus))
                for o in rent_the_same(rented, ctx, whole_machines=True) if o.id in offers]
    return out


register_source("yours", yours)
register_source("more", more_of_the_same)
register_source("cloud", rent_the_same)
register_source("more_offers", more_at_offers)
register_source("setups", ready_setups)
register_source("rented_setups", rented_setups)
register_source("alternatives", alternatives)


def default_options(profile: Profile, ctx: Context, *, catalog_options: bool = True
                    ) -> list[Option]:
    """Every source's options (``catalog_options`` False: only yours and the profile's
    alternatives, as when the user names the other options)."""
    out: list[Option] = []
    for name, source in _SOURCES:
        if not catalog_options and name not in ("yours", "alternatives"):
            continue
        out.extend(source(profile, ctx))
    return out
