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
- ``alternative``: the profile's own ``alternatives:``;
- ``change``: setting changes of the same hardware. **Extension point**: issue 17 ("Fine-tuning
  and setups that fit") is not built yet; it adds its changes with ``register_source`` (a
  function of the profile and the context returning Options of kind ``change``), and they are
  compared like any other option.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from advisor.catalog import Catalog, resolve_gpu
from advisor.catalog.entries import CloudOffer, ReadySetup
from advisor.costs.money import unit_price
from advisor.profile import (
    Currency,
    EconomicsMode,
    InterLink,
    IntraLink,
    Market,
    Profile,
    apply_alternative,
)
from advisor.profile.labels import INTER_LINK, INTRA_LINK
from advisor.scaling.inputs import single_gpu_speed_ratio
from advisor.scaling.project import default_inter_link
from advisor.text.i18n import Text

MAX_TOTAL_GPUS = 64  # the largest setup a comparison evaluates


@dataclass(frozen=True)
class Option:
    """One setup to compare: ``profile`` is the whole profile it stands for (the workload of
    the user's profile, this option's hardware and money), evaluated as ``recommend`` would."""

    id: str
    kind: str
    label: Text
    profile: Profile
    deployment: str  # own | cloud
    spec: str | None = None
    notes: tuple[Text, ...] = ()
    # The smallest GPU count that belongs to this option: more machines, or more cards in one,
    # start where the user's setup ends (below it they are the user's setup again).
    min_gpus: int = 1


@dataclass(frozen=True)
class Context:
    """What every option source needs: the catalog, the market the money lives in, and the
    currency the profile's own prices are written in."""

    catalog: Catalog
    market: Market
    currency: Currency
    extras: dict[str, Any] = field(default_factory=dict)


OptionSource = Callable[[Profile, Context], list[Option]]
_SOURCES: list[tuple[str, OptionSource]] = []


def register_source(name: str, source: OptionSource) -> None:
    """Add a source of options (issue 17's setting changes register here)."""
    if name not in {n for n, _ in _SOURCES}:
        _SOURCES.append((name, source))


def unregister_source(name: str) -> None:
    _SOURCES[:] = [(n, s) for n, s in _SOURCES if n != name]


def settled(profile: Profile, ctx: Context) -> Profile:
    """``profile`` with its market and currency written in, so the option stands on its own:
    ``recommend`` on it prices it the same wherever it runs."""
    economics = profile.economics.model_copy(update={"market": ctx.market,
                                                     "currency": ctx.currency})
    return profile.model_copy(update={"economics": economics})


def _with(profile: Profile, hardware: dict[str, Any] | None = None,
          economics: dict[str, Any] | None = None, keep_measured: bool = False) -> Profile:
    update: dict[str, Any] = {"alternatives": []}
    if hardware:
        update["hardware"] = profile.hardware.model_validate(
            {**profile.hardware.model_dump(), **hardware})
    if economics:
        update["economics"] = profile.economics.model_validate(
            {**profile.economics.model_dump(), **economics})
    if not keep_measured:
        update["measured"] = None
    changed = profile.model_copy(update=update)
    return on_its_gpu(profile, changed)


def on_its_gpu(original: Profile, changed: Profile) -> Profile:
    """``changed`` with the workload's one-GPU run time moved to its own card: the user timed
    a run (or its throughput) on their card, and another card trains it as many times faster
    as its sustained TFLOP/s (``advisor.scaling.inputs.single_gpu_speed_ratio``). A custom
    card of the user's keeps the time they gave."""
    a, b = original.hardware, changed.hardware
    if not (isinstance(a.gpu, str) and isinstance(b.gpu, str)):
        return changed
    mine, theirs = resolve_gpu(a.gpu, a.intra_link), resolve_gpu(b.gpu, b.intra_link)
    if mine.id == theirs.id:
        return changed
    ratio = single_gpu_speed_ratio(original, mine, theirs)
    t = original.training
    update: dict[str, Any] = {}
    if t.single_gpu_hours is not None:
        update["single_gpu_hours"] = t.single_gpu_hours / ratio
    if t.single_gpu_throughput is not None:
        update["single_gpu_throughput"] = t.single_gpu_throughput * ratio
    training = t.model_validate({**t.model_dump(), **update})
    return changed.model_copy(update={"training": training})


def speed_note(original: Profile, option: Profile) -> Text | None:
    """What the option assumes of one run on its card, when that is not the user's card."""
    a, b = original.training.run_hours_one_gpu, option.training.run_hours_one_gpu
    if abs(a - b) <= 1e-9 * max(a, 1.0):
        return None
    mine = gpu_name(original.hardware.gpu, original.hardware.intra_link)
    theirs = gpu_name(option.hardware.gpu, option.hardware.intra_link)
    return Text(en=f"one run on one {theirs}: {b:,.1f} h (your {a:,.1f} h on one {mine}, "
                   f"scaled by sustained TFLOP/s at your precision)",
                zh=f"一张 {theirs} 跑一次：{b:,.1f} 小时（你在一张 {mine} 上为 {a:,.1f} 小时，"
                   "按该精度下的实际算力折算）")


def _own(profile: Profile) -> dict[str, Any]:
    return {"mode": EconomicsMode.cloud if profile.economics.mode == EconomicsMode.cloud
            else EconomicsMode.own}


def gpu_name(gpu: Any, link: Any = None) -> str:
    spec = resolve_gpu(gpu, link)
    return spec.name.replace("NVIDIA GeForce ", "").replace("NVIDIA ", "")


def shape_text(profile: Profile) -> Text:
    """"4 × RTX 4090", "2 × RTX 3090, NVLink bridge", "2 machines × 4 RTX 4090 (25 GbE
    Ethernet)" in both languages: the link inside a machine when it is not the card's usual
    one."""
    hw = profile.hardware
    name = gpu_name(hw.gpu, hw.intra_link)
    inside = Text(en="", zh="")
    if isinstance(hw.gpu, str) and hw.gpus_per_node > 1 and \
            hw.intra_link != _usual_link(resolve_gpu(hw.gpu, hw.intra_link).id, hw.gpus_per_node):
        link = INTRA_LINK.get(hw.intra_link.value)
        inside = Text(en=f", {link.en}", zh=f"，{link.zh}") if link else inside
    if hw.nodes == 1:
        return Text(en=f"{hw.gpus_per_node} × {name}{inside.en}",
                    zh=f"{hw.gpus_per_node} × {name}{inside.zh}")
    link = INTER_LINK.get(hw.inter_link.value, Text(en=hw.inter_link.value,
                                                    zh=hw.inter_link.value))
    return Text(en=f"{hw.nodes} machines × {hw.gpus_per_node} {name}{inside.en} ({link.en})",
                zh=f"{hw.nodes} 台 × {hw.gpus_per_node} 卡 {name}{inside.zh}（{link.zh}）")


# -- the sources -------------------------------------------------------------------------------

def yours(profile: Profile, ctx: Context) -> list[Option]:
    mine = settled(_with(profile, economics=_own(profile), keep_measured=True), ctx)
    deployment = "cloud" if mine.economics.mode == EconomicsMode.cloud else "own"
    shape = shape_text(mine)
    how = Text(en="own", zh="自建") if deployment == "own" else Text(en="rented", zh="租用")
    return [Option("yours", "yours", Text(en=f"Your setup ({shape.en}, {how.en})",
                                          zh=f"你的配置（{shape.zh}，{how.zh}）"),
                   mine, deployment)]


def more_of_the_same(profile: Profile, ctx: Context) -> list[Option]:
    hw = profile.hardware
    base = _with(profile, economics=_own(profile), keep_measured=True)
    out: list[Option] = []
    spec = resolve_gpu(hw.gpu, hw.intra_link)
    if hw.total_gpus * 2 <= MAX_TOTAL_GPUS:
        link = hw.inter_link if hw.inter_link != InterLink.none else \
            default_inter_link(profile, spec)
        twice = settled(_with(base, hardware={"nodes": hw.nodes * 2, "inter_link": link},
                              keep_measured=True), ctx)
        shape = shape_text(twice)
        out.append(Option("more_machines", "more", Text(en=f"Twice the machines ({shape.en})",
                                                        zh=f"机器加倍（{shape.zh}）"),
                          twice, "cloud" if base.economics.mode == EconomicsMode.cloud
                          else "own", min_gpus=hw.total_gpus + 1))
    if hw.nodes == 1 and spec.nvlink != "sxm" and hw.gpus_per_node <= 4 and \
            hw.intra_link != IntraLink.nvlink_bridge:
        bigger = settled(_with(base, hardware={"gpus_per_node": hw.gpus_per_node * 2},
                               keep_measured=True), ctx)
        shape = shape_text(bigger)
        out.append(Option("more_cards", "more",
                          Text(en=f"Twice the cards in one machine ({shape.en})",
                               zh=f"单机卡数加倍（{shape.zh}）"),
                          bigger, "cloud" if base.economics.mode == EconomicsMode.cloud
                          else "own", min_gpus=hw.gpus_per_node + 1))
    return out


def rent_the_same(profile: Profile, ctx: Context) -> list[Option]:
    """The profile's GPUs rented: at the representative price, and at the market's cheapest
    on-demand, spot and reserved offers for the card (each converted to the profile's
    currency: the option's profile is then priced at exactly that offer)."""
    if not isinstance(profile.hardware.gpu, str):
        return []
    spec = resolve_gpu(profile.hardware.gpu, profile.hardware.intra_link)
    shape = shape_text(profile)
    base = _with(profile, economics={"mode": EconomicsMode.cloud}, keep_measured=True)
    out: list[Option] = []
    if profile.economics.mode != EconomicsMode.cloud:
        if ctx.catalog.cloud_quote(spec.id, ctx.currency.value, ctx.market) is not None or \
                profile.economics.cloud_price_per_gpu_hour is not None:
            out.append(Option("rent_typical", "cloud",
                              Text(en=f"Rent {shape.en} (typical price)",
                                   zh=f"租用 {shape.zh}（典型价格）"),
                              settled(base, ctx), "cloud"))
    offers = [o for o in ctx.catalog.offers_for(spec.id, ctx.market)
              if o.market_of == ctx.market]
    for kind, word in (("on_demand", Text(en="cheapest offer", zh="最便宜报价")),
                       ("spot", Text(en="spot", zh="竞价")),
                       ("reserved", Text(en="reserved", zh="包年包月"))):
        kinds = ("on_demand", "community") if kind == "on_demand" else (kind,)
        pool = [o for o in offers if o.kind in kinds]
        if not pool:
            continue
        offer = min(pool, key=lambda o: (ctx.catalog.convert(o.per_gpu_hour, o.currency.value,
                                                              ctx.currency.value), o.id))
        out.append(offer_option(profile, ctx, offer, f"rent_{kind}", word))
    return out


def offer_option(profile: Profile, ctx: Context, offer: CloudOffer, option_id: str,
                 word: Text | None = None, shape_from_offer: bool = False) -> Option:
    """``profile`` rented at ``offer``'s price per GPU-hour (in the profile's currency);
    ``shape_from_offer``: on the offer's instances (its GPU, size and link) instead."""
    price = ctx.catalog.convert(offer.per_gpu_hour, offer.currency.value, ctx.currency.value)
    economics = {"mode": EconomicsMode.cloud, "cloud_price_per_gpu_hour": price}
    hardware: dict[str, Any] = {}
    if shape_from_offer:
        size = offer.largest_instance
        hardware = {"gpu": offer.gpu, "gpus_per_node": size,
                    "intra_link": offer.intra_link or _usual_link(offer.gpu, size)}
    changed = settled(_with(profile, hardware=hardware, economics=economics,
                            keep_measured=not shape_from_offer), ctx)
    who = offer.provider_text
    kind = word or Text(en=offer.kind.replace("_", "-"), zh=offer.kind)
    term = ""
    if offer.term_months:
        term = f", {offer.term_months} mo"
    per = unit_price(price, ctx.currency.value)
    shape = shape_text(changed)
    label = Text(en=f"Rent {shape.en}: {who.en} {kind.en}{term} ({per}/GPU-h)",
                 zh=f"租用 {shape.zh}：{who.zh}{kind.zh}{term}（每卡时 {per}）")
    note = Text(en=f"{offer.id}: {offer.instance or offer.provider}, {offer.as_of or 'undated'}",
                zh=f"{offer.id}：{who.zh}，{offer.as_of or '无日期'}")
    return Option(option_id, "cloud", label, changed, "cloud", notes=(note,))


def _usual_link(gpu: str, per_node: int) -> IntraLink:
    spec = resolve_gpu(gpu)
    if spec.nvlink == "sxm":
        return IntraLink.nvswitch if per_node > 4 else IntraLink.nvlink
    return {3: IntraLink.pcie3, 5: IntraLink.pcie5}.get(spec.pcie_gen or 4, IntraLink.pcie4)


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
    economics: dict[str, Any] = {"mode": EconomicsMode.own, "base_system_price": None}
    if not same_gpu:
        economics.update(gpu_price=None, cloud_price_per_gpu_hour=None)
    changed = settled(_with(profile, hardware=hardware, economics=economics), ctx)
    note = speed_note(profile, changed)
    return Option(f"setup:{setup.id}", "setup", setup.name_text, changed, "own",
                  notes=(note,) if note else ())


def ready_setups(profile: Profile, ctx: Context) -> list[Option]:
    return [setup_option(profile, ctx, s) for s in ctx.catalog.setups
            if s.market is None or s.market == ctx.market]


def alternatives(profile: Profile, ctx: Context) -> list[Option]:
    out = []
    for i, alt in enumerate(profile.alternatives):
        changed = on_its_gpu(profile, apply_alternative(profile, alt, i))
        deployment = "cloud" if changed.economics.mode == EconomicsMode.cloud else "own"
        if changed.economics.mode == EconomicsMode.compare:
            changed = _with(changed, economics={"mode": EconomicsMode.own}, keep_measured=True)
        # The alternative's own market and currency, when it sets them; else the profile's.
        market = changed.economics.market or ctx.market
        currency = changed.economics.currency or ctx.currency
        alt_ctx = Context(ctx.catalog, market, currency)
        note = speed_note(profile, changed)
        out.append(Option(f"alt:{i}", "alternative", Text(en=alt.name, zh=alt.label("zh")),
                          settled(changed, alt_ctx), deployment,
                          notes=(note,) if note else ()))
    return out


register_source("yours", yours)
register_source("more", more_of_the_same)
register_source("cloud", rent_the_same)
register_source("setups", ready_setups)
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
