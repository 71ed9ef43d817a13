"""The user's GPUs rented: at the catalog's representative price, and at the market's cheapest
on-demand, spot and reserved offers for the card (``rent_the_same``); any offer as an option
(``offer_option``)."""

from __future__ import annotations

from typing import Any

from advisor.catalog import resolve_gpu
from advisor.catalog.entries import CloudOffer
from advisor.compare.option import (
    Context,
    Option,
    a_workstation,
    settled,
    shape_text,
    usual_link,
    with_changes,
)
from advisor.costs.money import unit_price
from advisor.profile import EconomicsMode, InterLink, Profile
from advisor.profile.enums import RDMA_LINKS
from advisor.text.i18n import Text
from advisor.verdict.more_cards import wider_machine

# The options at spot offers: a spot run can be stopped at any time, so no answer rests on
# one (``weighed``, and the best net value ``compare`` names: one decision in every command)
INTERRUPTIBLE = frozenset({"rent_spot", "rent_spot_whole"})



def rent_the_same(profile: Profile, ctx: Context, *, whole_machines: bool = False,
                  clusters_only: bool = False) -> list[Option]:
    """The profile's GPUs rented: at the representative price, and at the market's cheapest
    on-demand, spot and reserved offers for the card (each converted to the profile's
    currency: the option's profile is then priced at exactly that offer). ``whole_machines``:
    only offers whose instances hold as many cards as one of the profile's machines (a
    review: 8 × RTX 4090 "in one machine" at an offer that rents one card an instance).
    ``clusters_only``: several machines only at an offer of a cluster (its own network between
    them), over any network (a review: 2 machines × 8 L40S "over 100 GbE" at RunPod's)."""
    if not isinstance(profile.hardware.gpu, str):
        return []
    spec = resolve_gpu(profile.hardware.gpu, profile.hardware.intra_link)
    # the machine its counts reach (a one-GPU workstation's: a wider one; a user review:
    # "Rent 1 × RTX 3090 (typical price)" beside figures at 4 GPUs)
    shape = shape_text(wider_machine(profile) or profile)
    base = with_changes(profile, economics={"mode": EconomicsMode.cloud}, keep_measured=True)
    out: list[Option] = []
    if profile.economics.mode != EconomicsMode.cloud:
        if ctx.catalog.cloud_quote(spec.id, ctx.currency.value, ctx.market) is not None or \
                profile.economics.cloud_price_per_gpu_hour is not None:
            out.append(Option("rent_typical", "cloud",
                              Text(en=f"Rent {shape.en} (typical price)",
                                   zh=f"租用 {shape.zh}（典型价格）"),
                              settled(base, ctx), "cloud"))
            bigger = _twice_the_cards(profile, base, spec)
            if bigger is not None:  # more of the user's card, rented in one machine
                wide = shape_text(bigger)
                out.append(Option("rent_more_cards", "cloud",
                                  Text(en=f"Rent {wide.en} in one machine (typical price)",
                                       zh=f"租用单机 {wide.zh}（典型价格）"),
                                  owned_in_their_machines(profile, settled(bigger, ctx)),
                                  "cloud",
                                  min_gpus=profile.hardware.gpus_per_node + 1))
    hw = profile.hardware
    rdma = hw.nodes > 1 and hw.inter_link in RDMA_LINKS
    want = (wider_machine(profile) or profile).hardware.gpus_per_node  # cards in one machine
    offers = [o for o in ctx.catalog.offers_for(spec.id, ctx.market)
              if o.market_of == ctx.market
              and (not whole_machines or o.largest_instance >= hw.gpus_per_node)]
    for kind, word in (("on_demand", Text(en="cheapest offer", zh="最便宜报价")),
                       ("spot", Text(en="spot", zh="竞价")),
                       ("reserved", Text(en="reserved", zh="包年包月"))):
        kinds = ("on_demand", "community") if kind == "on_demand" else (kind,)
        # a cluster reservation only for a job of at least its fewest GPUs; machines joined by
        # RDMA (InfiniBand, RoCE) only from an offer of such a cluster, and by any network not
        # from a marketplace's hosts, each a single machine of its own (a user review: "Rent 32
        # × A100 (RunPod community)" on 4 machines joined by 25 GbE, $41,304 a run), nor from
        # spot machines, any of which stops the whole job when it is taken back
        pool = [o for o in offers if o.kind in kinds
                and (o.min_gpus is None or o.min_gpus <= profile.hardware.total_gpus)
                and (not rdma or o.inter_link is not None)
                and (hw.nodes == 1 or o.inter_link is not None
                     or (o.kind not in ("community", "spot") and not clusters_only))]
        if not pool:
            continue
        offer = min(pool, key=lambda o: _cheapest(ctx, o))
        out.append(offer_option(profile, ctx, offer, f"rent_{kind}", word))
        # the cheapest that rents the machine whole too, where this one rents fewer cards an
        # instance (a one-GPU machine: the wider machine its counts reach)
        whole = [o for o in pool if o.largest_instance >= want] or \
            [o for o in pool if o.largest_instance >= hw.gpus_per_node]
        if offer not in whole and whole:
            machine = min(whole, key=lambda o: _cheapest(ctx, o))
            out.append(offer_option(profile, ctx, machine, f"rent_{kind}_whole", word))
    if rdma:  # one machine of the cluster's needs no RDMA: a marketplace rents it
        one = _one_machine_offer(profile, ctx, offers)
        if one is not None:
            out.append(one)
    return out


def _one_machine_offer(profile: Profile, ctx: Context, offers: list[CloudOffer]
                       ) -> Option | None:
    """The cheapest on-demand offer of single machines (no RDMA between them) as one machine
    of the user's, for the counts one machine holds: a cluster offer is needed only across
    machines, and a job that a machine runs well need not pay for one."""
    singles = [o for o in offers if o.kind in ("on_demand", "community") and o.inter_link is None
               and (o.min_gpus is None or o.min_gpus <= profile.hardware.gpus_per_node)]
    clusters = [o for o in offers if o.kind in ("on_demand", "community")
                and o.inter_link is not None]
    if not singles:
        return None
    # one of the user's machines whole, where an offer rents one
    whole = [o for o in singles if o.largest_instance >= profile.hardware.gpus_per_node]
    offer = min(whole or singles, key=lambda o: _cheapest(ctx, o))
    if clusters and _per_hour(ctx, offer) >= min(_per_hour(ctx, o) for o in clusters):
        return None  # the cluster's own offer is as cheap: it is listed already
    machine = with_changes(profile, hardware={"nodes": 1, "inter_link": InterLink.none},
                           keep_measured=True)
    return offer_option(machine, ctx, offer, "rent_one_machine",
                        Text(en="one machine, cheapest offer", zh="单台机器，最便宜报价"))


def owned_in_their_machines(original: Profile, changed: Profile) -> Profile:
    """``changed`` (rented in machines of more cards than the user's) with the user's owned
    cards in their own machines: owning that setup buys the larger machine too (a user review:
    "owning pays off after 7.5 months" for 4 rented RTX 4090s, counting two cards bought for
    a 2-card box, where owning them in a 4-card machine pays off after 18)."""
    held = original.economics.owned_per_machine or original.hardware.gpus_per_node
    if changed.hardware.gpus_per_node <= held or \
            changed.economics.owned_per_machine is not None:
        return changed
    return changed.model_copy(update={
        "economics": changed.economics.owning_machines_of(held)})


def _twice_the_cards(profile: Profile, base: Profile, spec) -> Profile | None:
    """``base`` (rented) in one machine of twice the user's cards, where the user's machine is
    a workstation of up to four PCIe cards that they own or would buy (review 10: four owned
    RTX 4090s were sent to buy a second box for $12,924 to meet a deadline, where an 8-card
    machine of the same cards rents for $21 a run; marketplaces rent such machines whole)."""
    if not a_workstation(profile, spec):
        return None
    return with_changes(base, hardware={"gpus_per_node": profile.hardware.gpus_per_node * 2},
                        keep_measured=True)


def _cheapest(ctx: Context, offer: CloudOffer) -> tuple[float, int, str]:
    """Offers by price; at one price, the one whose instances rent the fewest cards (RunPod's
    H100s at $3.99 rent 1 to 8 a machine where Lambda's rents 8 only)."""
    return _per_hour(ctx, offer), offer.gpus_per_instance, offer.id


def _per_hour(ctx: Context, offer: CloudOffer) -> float:
    """The offer's price a GPU-hour in the profile's currency."""
    return ctx.catalog.convert(offer.per_gpu_hour, offer.currency.value, ctx.currency.value)


def offer_option(profile: Profile, ctx: Context, offer: CloudOffer, option_id: str,
                 word: Text | None = None) -> Option:
    """``profile`` rented at ``offer``'s price per GPU-hour (in the profile's currency), on one
    of its instances where the profile is one machine or larger than an instance: as many of
    the cards as the instance holds, up to the machine the profile's counts reach (a
    one-GPU workstation's reach a wider one), and no count beyond (``Option.max_gpus``)."""
    price = _per_hour(ctx, offer)
    economics = {"mode": EconomicsMode.cloud, "cloud_price_per_gpu_hour": price,
                 # a reservation is paid for its whole term: the costs charge its idle hours
                 # at every count (``advisor.costs.commitment``)
                 "reservation_term_months": float(offer.term_months or 1)
                 if offer.kind == "reserved" else None}
    hw = profile.hardware
    size = offer.largest_instance
    smaller = size < hw.gpus_per_node  # no machine of the user's size at this price
    per: int | None = None  # the cards of the one instance rented (None: the user's machines)
    if smaller:
        per = size
    elif hw.nodes == 1:  # never fewer than its smallest instance rents (Lambda's 8x only)
        per = max(min(size, (wider_machine(profile) or profile).hardware.gpus_per_node),
                  offer.gpus_per_instance)
    hardware: dict[str, Any] = {}
    if per is not None and per != hw.gpus_per_node:  # one instance of its size
        hardware = {"gpus_per_node": per, "nodes": 1, "inter_link": InterLink.none,
                    "intra_link": offer.intra_link or usual_link(offer.gpu, per)}
    elif per is None and offer.inter_link is not None:  # (per None: several machines)
        # a cluster's machines joined by the cluster's own network (a review: sfcompute's
        # InfiniBand cluster timed over the user's 100 GbE, 247 days a run for 189)
        hardware = {"inter_link": offer.inter_link}
    changed = owned_in_their_machines(profile, settled(with_changes(
        profile, hardware=hardware, economics=economics, keep_measured=True), ctx))
    who = offer.provider_text
    kind = word or Text(en=offer.kind.replace("_", "-"), zh=offer.kind)
    term = term_zh = ""
    if offer.term_months:
        term, term_zh = f", {offer.term_months} mo", f"，{offer.term_months} 个月"
    rate = unit_price(price, ctx.currency.value)
    shape = shape_text(changed)
    label = Text(en=f"Rent {shape.en}: {who.en} {kind.en}{term} ({rate}/GPU-h)",
                 zh=f"租用 {shape.zh}：{who.zh}{kind.zh}{term_zh}（每卡时 {rate}）")
    # the instance as the catalog names it, its prices included, in both languages (a user
    # review: the Chinese note named the provider alone)
    note = Text(en=f"{offer.id}: {offer.instance or offer.provider}, {offer.dated.en}",
                zh=f"{offer.id}：{who.zh}" + (f"，{offer.instance}" if offer.instance else "")
                   + f"，{offer.dated.zh}")
    if smaller:
        cards = Text(en="one card" if size == 1 else f"{size} cards",
                     zh="一张卡" if size == 1 else f"{size} 张卡")
        note = Text(en=f"{note.en}; rents {cards.en} an instance: up to {size} GPU"
                       f"{'s' if size > 1 else ''} in one machine at this price",
                    zh=f"{note.zh}；每个实例{cards.zh}：按此价格单机最多 {size} 卡")
    committed = offer.kind == "reserved"
    if committed:
        note = Text(en=f"{note.en}; reserved: paid for every hour of the term, idle ones too",
                    zh=f"{note.zh}；包年包月：整个期限的每小时都要付费，闲置时也一样")
    # the term in the reader's words ("包年包月，1 个月", not ", 1 mo": review 8)
    head = Text(en=f"{kind.en}{term}: {who.en}", zh=f"{kind.zh}{term_zh}：{who.zh}")
    # a reservation of a cluster rents at least its fewest GPUs, an instance its cards: no
    # smaller count at its price (a review: 1 × A100 at $1.99 from an offer of 8-GPU
    # instances at $15.92 an hour, a run 8 times dearer than said)
    return Option(option_id, "cloud", label, changed, "cloud", notes=(note,),
                  min_gpus=max(offer.min_gpus or 1, offer.gpus_per_instance), max_gpus=per,
                  committed=committed, term_months=offer.term_months,
                  offer_head=head, offer_price=price, offer_currency=ctx.currency.value)


