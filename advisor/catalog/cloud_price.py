"""A representative cloud price per GPU-hour for one GPU, not the cheapest seller's.

One seller's lowest price (a marketplace's cheapest host) would make renting look cheaper than
anyone pays. The price used is the median of the offers for that GPU in the profile's market
(China, the US, the EU: where the GPUs are rented, whatever the currency of the report) when
there are at least three. With fewer, comparable offers join, tier by tier, until there are
three or more:

1. this GPU's on-demand / community offers in the market;
2. offers for GPUs of the same class (consumer, workstation, datacenter) and the same
   generation (Ampere, Ada, Hopper, ...) in that market whose tensor throughput is within a
   factor of three, scaled by the ratio of tensor TFLOPS (a rental market prices cards of one
   class and generation roughly by speed), the closest GPU first, one GPU's offers at a time,
   only as many GPUs as it takes to reach three. Low-confidence offers (approximate, tutorial
   or article figures) never stand in for another GPU;
3. this GPU's on-demand / community offers in the other markets, converted;
4. comparable GPUs' offers in the other markets, as in 2, converted;
5. this GPU's spot and reserved offers (a spot instance can be taken away mid-run, a
   reservation commits for months: neither is what renting when needed costs).

Where the market rents the GPU not at all (no offer of its own there), it is priced as where
it is rented: 3, then 4, then 2. The same card abroad, and the cards it is rented beside there,
are a closer price than another card at home scaled by tensor throughput (in the EU, where the
catalog's only A10G offers are AWS Frankfurt's, an A10 or A40 would otherwise be priced as
AWS's A10G times 1.8 or 2.1, above the A100 the same marketplaces rent for less; issue 32).

A GPU without a single offer of its own is priced from comparable cards' offers (tiers 2 and
4): of the same class and generation, the market's first, then other markets' (an H800 rents
like an H100 abroad, not like an L40S at home), else of the nearest generation that has one
within the factor of three (the article's RTX 4060 Ti rents like an RTX 3090 scaled by speed,
not at the article's ¥35 an hour). With none
of those either, renting it is left uncosted and the user is asked for a price. Every offer
used is named, so the assumptions can say where the price comes from.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from advisor.catalog.entries import CloudOffer
from advisor.catalog.gpus import GpuSpec
from advisor.files.records import record
from advisor.text.i18n import Text

MIN_OFFERS = 3
COMPARABLE_TFLOPS_FACTOR = 3.0

Convert = Callable[[float, str, str], float]


@record
class PricedOffer:
    """One offer as it enters the median: its price per GPU-hour in the report's currency,
    scaled to the GPU asked for when it is another GPU's offer."""

    offer: CloudOffer
    per_gpu_hour: float
    scaled_from: str | None = None  # the offer's GPU name when scaled by tensor throughput

    @property
    def label(self) -> Text:
        who = self.offer.provider_text
        if self.scaled_from is None:
            return who
        return Text(en=f"{who.en}: {self.scaled_from}, scaled by tensor TFLOPS",
                    zh=f"{who.zh}的 {self.scaled_from} 报价，按张量算力折算")


def low_confidence(offer: CloudOffer) -> bool:
    """An approximate figure (a tutorial's, the article's): fine for its own GPU, never scaled
    to another one."""
    return str(offer.confidence or "").strip().lower().startswith("low")


def _steady(offer: CloudOffer) -> bool:
    return offer.kind in ("on_demand", "community")


GENERATIONS = ("turing", "volta", "ampere", "ada", "hopper", "blackwell")


def representative_offers(offers: Sequence[CloudOffer], gpu: GpuSpec, currency: str,
                          specs: dict[str, GpuSpec], convert: Convert,
                          market: object = None) -> list[PricedOffer]:
    """The offers whose median is the representative price, in tier order (see the module).
    ``market``: where the GPUs are rented (default: the market of ``currency``)."""
    from advisor.profile.market import CURRENCY_MARKET

    where = market if market is not None else CURRENCY_MARKET.get(currency)  # type: ignore

    def own(o: CloudOffer) -> PricedOffer:
        return PricedOffer(o, convert(o.per_gpu_hour, o.currency.value, currency))

    mine = [o for o in offers if o.gpu == gpu.id]
    generations = [gpu.generation] if mine else _by_distance(gpu.generation)

    def comparable(o: CloudOffer, generation: str | None) -> PricedOffer | None:
        other = specs.get(o.gpu)
        if other is None or other.id == gpu.id or gpu.gpu_class is None or \
                other.gpu_class != gpu.gpu_class or other.tflops_fp16_dense <= 0 or \
                generation is None or other.generation != generation or low_confidence(o):
            return None
        ratio = gpu.tflops_fp16_dense / other.tflops_fp16_dense
        if not 1 / COMPARABLE_TFLOPS_FACTOR <= ratio <= COMPARABLE_TFLOPS_FACTOR:
            return None
        return PricedOffer(o, convert(o.per_gpu_hour, o.currency.value, currency) * ratio,
                           other.name)

    here = [o for o in offers if o.market_of == where and _steady(o)]
    abroad = [o for o in offers if o.market_of != where and _steady(o)]
    pool: list[PricedOffer] = []

    def add(tier: list[PricedOffer]) -> None:
        if len(pool) < MIN_OFFERS:
            pool.extend(tier)

    def add_comparables(market: list[CloudOffer], generation: str | None) -> bool:
        by_gpu: dict[str, list[PricedOffer]] = {}
        for o in market:
            priced = comparable(o, generation)
            if priced is not None:
                by_gpu.setdefault(o.gpu, []).append(priced)
        for other in sorted(by_gpu, key=lambda g: (_distance(gpu, specs[g]), g)):
            add(by_gpu[other])  # the closest GPU first, one GPU's offers at a time
        return bool(by_gpu)

    mine_here = [own(o) for o in mine if o.market_of == where and _steady(o)]
    mine_abroad = [own(o) for o in mine if o.market_of != where and _steady(o)]
    add(mine_here)
    if mine:
        if mine_here:
            add_comparables(here, gpu.generation)
            add(mine_abroad)
            add_comparables(abroad, gpu.generation)
        else:  # not rented here: priced as where it is rented (module)
            add(mine_abroad)
            add_comparables(abroad, gpu.generation)
            add_comparables(here, gpu.generation)
        add([own(o) for o in mine if not _steady(o)])
        return pool
    # No offer of its own: its generation's cards here, then abroad, then the nearest
    # generation that has any (the same silicon abroad beats another generation here).
    for generation in generations:
        found = add_comparables(here, generation)
        found = add_comparables(abroad, generation) or found
        if found:
            break
    return pool


def _by_distance(generation: str | None) -> list[str | None]:
    """The card's own generation, then the others, nearest first (for a card without an
    offer of its own)."""
    if generation not in GENERATIONS:
        return [generation]
    at = GENERATIONS.index(generation)
    return sorted(GENERATIONS, key=lambda g: (abs(GENERATIONS.index(g) - at),
                                             GENERATIONS.index(g) < at))


def _distance(a: GpuSpec, b: GpuSpec) -> float:
    return abs(math.log(a.tflops_fp16_dense / b.tflops_fp16_dense))


def describe(pool: Sequence[PricedOffer]) -> Text:
    """"median of 3 offers: A; B (RTX 5090 scaled by tensor TFLOPS)" in both languages, each
    provider named once (one offer: "only one offer: A")."""
    groups: dict[str, tuple[Text, list[PricedOffer]]] = {}
    for p in pool:
        who = p.offer.provider_text
        groups.setdefault(who.en, (who, []))[1].append(p)
    parts_en, parts_zh = [], []
    for who, offers in groups.values():
        scaled = sorted({p.scaled_from for p in offers if p.scaled_from})
        own = sum(1 for p in offers if p.scaled_from is None)
        count_en = f" ×{len(offers)}" if len(offers) > 1 else ""
        if scaled:
            names = ", ".join(scaled)
            mine_en = "this GPU and " if own else ""
            mine_zh = "本卡及 " if own else ""
            parts_en.append(f"{who.en}{count_en} ({mine_en}{names} scaled by tensor TFLOPS)")
            parts_zh.append(f"{who.zh}{count_en}（{mine_zh}{names} 按张量算力折算）")
        else:
            parts_en.append(f"{who.en}{count_en}")
            parts_zh.append(f"{who.zh}{count_en}")
    en, zh = "; ".join(parts_en), "；".join(parts_zh)
    if len(pool) == 1:
        return Text(en=f"only one offer: {en}", zh=f"仅有一个报价：{zh}")
    return Text(en=f"median of {len(pool)} offers: {en}",
                zh=f"{len(pool)} 个报价的中位数：{zh}")


def median_price(pool: Sequence[PricedOffer]) -> float:
    import statistics  # here: its import (random, fractions, decimal) is not every start's

    return statistics.median(p.per_gpu_hour for p in pool)
