"""One option of a comparison (``Option``: a whole profile standing for a setup) and what
every source of options shares: its context, a profile with fields changed, the workload's
one-GPU time moved to another card, and how a setup is named in both languages."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from advisor.catalog import Catalog, resolve_gpu
from advisor.profile import Currency, EconomicsMode, IntraLink, Market, Profile
from advisor.profile.labels import INTER_LINK, INTRA_LINK
from advisor.scaling.inputs import single_gpu_speed_ratio
from advisor.scaling.measured_memory import timed_on_mine
from advisor.text.i18n import Text

MAX_TOTAL_GPUS = 4096  # the largest setup a comparison evaluates (issue 32: clusters at their real scale)


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
    # The largest GPU count the option can have: a rental offer whose instances hold fewer
    # cards than the user's machine rents no more in one machine (None: no such bound)
    max_gpus: int | None = None
    # A reserved (committed) offer: paid for every hour of its term, so its points charge the
    # hours a month's runs leave idle (``advisor.costs.commitment.committed_share``)
    committed: bool = False
    term_months: int | None = None  # the reservation's term (None: not stated)
    # A rental offer: its words without the price ("cheapest offer: RunPod") and its price a
    # GPU-hour in ``offer_currency``; None: the catalog's typical price, or not rented
    offer_head: Text | None = None
    offer_price: float | None = None
    offer_currency: str | None = None

    @property
    def offer_words(self) -> Text | None:
        """The offer in a few words: "cheapest offer: RunPod, $0.86/GPU-h"."""
        return self.offer_words_in(self.offer_currency or "")  # in its own currency

    def offer_words_in(self, currency: str, convert=None) -> Text | None:
        """The offer in a few words, its price in ``currency`` (``convert(amount, from, to)``
        where that is not the offer's)."""
        if self.offer_head is None or self.offer_price is None or self.offer_currency is None:
            return None
        from advisor.costs.money import unit_price

        price, unit = self.offer_price, self.offer_currency
        if convert is not None and currency != unit:
            price, unit = convert(price, unit, currency), currency
        per = unit_price(price, unit)
        return Text(en=f"{self.offer_head.en}, {per}/GPU-h",
                    zh=f"{self.offer_head.zh}，每卡时 {per}")


@dataclass(frozen=True)
class Context:
    """What every option source needs: the catalog, the market the money lives in, and the
    currency the profile's own prices are written in."""

    catalog: Catalog
    market: Market
    currency: Currency
    extras: dict[str, Any] = field(default_factory=dict)


def settled(profile: Profile, ctx: Context) -> Profile:
    """``profile`` with its market and currency written in, so the option stands on its own:
    ``recommend`` on it prices it the same wherever it runs."""
    economics = profile.economics.model_copy(update={"market": ctx.market,
                                                     "currency": ctx.currency})
    return profile.model_copy(update={"economics": economics})


def with_changes(profile: Profile, hardware: dict[str, Any] | None = None,
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
    as its sustained TFLOP/s (``advisor.scaling.inputs.single_gpu_speed_ratio``); a custom
    card by its data-sheet numbers (a review: every rented card ran a custom card's 10 hours,
    "moved by the two cards' speed ratio")."""
    a, b = original.hardware, changed.hardware
    mine, theirs = resolve_gpu(a.gpu, a.intra_link), resolve_gpu(b.gpu, b.intra_link)
    if a.gpu == b.gpu or (isinstance(a.gpu, str) and isinstance(b.gpu, str)
                          and mine.id == theirs.id):
        return changed
    ratio = single_gpu_speed_ratio(original, mine, theirs)
    t = original.training
    update: dict[str, Any] = {}
    if t.single_gpu_hours is not None:
        update["single_gpu_hours"] = t.single_gpu_hours / ratio
    if t.single_gpu_throughput is not None:
        update["single_gpu_throughput"] = t.single_gpu_throughput * ratio
    # derived, not typed: the bounds a user's input is held to (0.01-100,000 h) do not apply
    # to the same run moved to a far slower or faster card (issue 35: a T4 at 113,000 h)
    training = timed_on_mine(original, t.model_copy(update=update), mine.memory_gb)
    # the cards the user owns are theirs, not another kind's: a setup of other cards is
    # bought (or rented) whole (an HGX H100 bought by the owner of one RTX 4090 read $3.99 a
    # run, its first H100 taken as already owned)
    economics = changed.economics.model_copy(update={"owned_gpus": None})
    return changed.model_copy(update={"training": training, "economics": economics})


def speed_note(original: Profile, option: Profile) -> Text | None:
    """What the option assumes of one run on its card, when that is not the user's card (a
    run planned from the model's size has no time to move: the projection plans it on each
    option's card from that card's own specs)."""
    a, b = original.run_hours_one_gpu, option.run_hours_one_gpu  # in any throughput unit
    if a is None or b is None or abs(a - b) <= 1e-9 * max(a, 1.0):
        return None
    mine = gpu_name(original.hardware.gpu, original.hardware.intra_link)
    theirs = gpu_name(option.hardware.gpu, option.hardware.intra_link)
    return Text(en=f"one run on one {theirs}: {b:,.1f} h (your {a:,.1f} h on one {mine}, "
                   f"scaled by sustained TFLOP/s at your precision)",
                zh=f"一张 {theirs} 跑一次：{b:,.1f} 小时（你在一张 {mine} 上为 {a:,.1f} 小时，"
                   "按该精度下的实际算力折算）")


def owned(profile: Profile) -> dict[str, Any]:
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
            hw.intra_link != usual_link(resolve_gpu(hw.gpu, hw.intra_link).id, hw.gpus_per_node):
        link = INTRA_LINK.get(hw.intra_link.value)
        inside = Text(en=f", {link.en}", zh=f"，{link.zh}") if link else inside
    if hw.nodes == 1:
        return Text(en=f"{hw.gpus_per_node} × {name}{inside.en}",
                    zh=f"{hw.gpus_per_node} × {name}{inside.zh}")
    link = INTER_LINK.get(hw.inter_link.value, Text(en=hw.inter_link.value,
                                                    zh=hw.inter_link.value))
    return Text(en=f"{hw.nodes} machines × {hw.gpus_per_node} {name}{inside.en} ({link.en})",
                zh=f"{hw.nodes} 台 × {hw.gpus_per_node} 卡 {name}{inside.zh}（{link.zh}）")


def a_workstation(profile: Profile, spec) -> bool:
    """One machine of up to four PCIe cards without a bridge: a workstation whose cards a
    machine of twice as many holds (an 8-GPU server: F23, F32), bought or rented."""
    hw = profile.hardware
    return hw.nodes == 1 and spec.nvlink != "sxm" and hw.gpus_per_node <= 4 and \
        hw.intra_link != IntraLink.nvlink_bridge


def usual_link(gpu: str, per_node: int) -> IntraLink:
    """The link a machine of ``per_node`` of these cards usually has."""
    spec = resolve_gpu(gpu)
    if spec.nvlink == "sxm":
        return IntraLink.nvswitch if per_node > 4 else IntraLink.nvlink
    return {3: IntraLink.pcie3, 5: IntraLink.pcie5}.get(spec.pcie_gen or 4, IntraLink.pcie4)
