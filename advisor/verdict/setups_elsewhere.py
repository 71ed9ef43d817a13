"""The setups beyond the user's own machine (issue 17), listed after the changes that fit
there: the training as configured on rented larger cards (80 GB or more, the cheapest such
card the market's offers price), and more machines like the user's (what ``beyond`` found)."""

from __future__ import annotations

from advisor.catalog import load_catalog
from advisor.catalog.gpus import resolve_gpu
from advisor.costs import estimate_costs
from advisor.files.errors import InputError
from advisor.profile import EconomicsMode, InterLink, IntraLink, Market, Profile
from advisor.profile.market import MARKET_CURRENCY, profile_market
from advisor.scaling import default_gpu_counts
from advisor.scaling.inputs import single_gpu_speed_ratio
from advisor.scaling.layouts.eligibility import uses_layouts
from advisor.scaling.measured_memory import timed_on_mine
from advisor.scaling.parameters import load_params
from advisor.scaling.project import default_inter_link
from advisor.scaling.result import Projection
from advisor.text.i18n import Text
from advisor.verdict.beyond import Beyond
from advisor.verdict.hardware_change import hardware_set
from advisor.verdict.result import SetupOption
from advisor.verdict.retimed import retimed
from advisor.verdict.setting_changes import accumulation, batch_sizes, checkpointing_changes
from advisor.verdict.setup_pricing import Pricing, priced_option, projected_or_none
from advisor.verdict.shared_projections import memory_shared

LARGE_CARD_GB = 80.0
RENT_GPUS_PER_MACHINE = 8
RENT_TRADE_OFF = Text(
    en="Rented by the hour: the training as configured, no purchase; the data and checkpoints "
       "move to the provider.",
    zh="按小时租用：训练配置不变，无需购买；数据和检查点要传到云上。")
RENT_TRADE_OFF_CHANGED = Text(
    en="Rented by the hour, no purchase; the data and checkpoints move to the provider; the "
       "training with the change named:",
    zh="按小时租用，无需购买；数据和检查点要传到云上；训练按所列改动进行：")
MORE_TRADE_OFF = Text(
    en="More machines like yours and the network between them: bought or rented, and a run "
       "across machines to set up.",
    zh="更多与本机相同的机器及机间网络：需要购买或租用，并搭建跨机训练。")
MORE_CARDS_TRADE_OFF = Text(
    en="More of your cards in one machine that holds them: bought or rented; the training as "
       "configured.",
    zh="在一台装得下的机器里用更多同款显卡：需要购买或租用；训练配置不变。")


def _rent_gpu(profile: Profile, market: Market | str | None) -> str | None:
    """The 80 GB+ card the catalog's offers in the market the costs use (``market``, else the
    profile's: ``profile_market``) rent cheapest per GPU-hour (None: no offer there)."""
    catalog = load_catalog()
    market = profile_market(profile.economics, market)
    currency = MARKET_CURRENCY[market].value  # one currency to rank the offers in
    best: tuple[float, str] | None = None
    for gpu_id in sorted({o.gpu for o in catalog.cloud_offers if o.market_of == market}):
        try:
            spec = resolve_gpu(gpu_id)
        except (InputError, ValueError, KeyError):
            continue
        if spec.memory_gb < LARGE_CARD_GB or spec.memory_gb <= _own_memory(profile):
            continue
        price = catalog.cloud_price_per_gpu_hour(gpu_id, currency, market)
        if price is not None and (best is None or price < best[0]):
            best = (price, gpu_id)
    return best[1] if best else None


def _own_memory(profile: Profile) -> float:
    return resolve_gpu(profile.hardware.gpu, profile.hardware.intra_link).memory_gb


def rented_cards(profile: Profile, lang: str | None, pricing: Pricing) -> SetupOption | None:
    """The workload as configured on rented 80 GB+ cards: the cheapest count that fits."""
    gpu_id = _rent_gpu(profile, pricing.market)
    if gpu_id is None:
        return None
    spec = resolve_gpu(gpu_id)
    link = IntraLink.nvswitch if spec.nvlink == "sxm" else IntraLink.pcie4
    try:  # a measured run moved to the faster card may leave the bounds a run may have
        hardware = profile.hardware.model_validate({
            **profile.hardware.model_dump(), "gpu": gpu_id,
            "gpus_per_node": RENT_GPUS_PER_MACHINE, "nodes": 1, "intra_link": link,
            "inter_link": "none", "host_memory_gb": None, "max_gpu_temp_c": None,
            "allreduce_busbw_gbs": None, "cooling": "server"})
        # its currency and market: the profile's; the user's card price and the cards they
        # own are of another kind (review 5: a rented H200 read "already paid for")
        economics = profile.economics.model_validate({
            **profile.economics.model_dump(), "mode": EconomicsMode.cloud,
            "cloud_price_per_gpu_hour": None, "gpu_price": None, "owned_gpus": 0})
        training = _timed_on(profile, spec)
    except ValueError:
        return None
    rented = profile.model_copy(update={"hardware": hardware, "economics": economics,
                                        "training": training, "measured": None})
    # every count of one rented machine, as its costs and the comparison show them (review 11:
    # a 3-GPU point of the same rental beat the answer at 4 and was no candidate)
    counts = default_gpu_counts(RENT_GPUS_PER_MACHINE, RENT_GPUS_PER_MACHINE)
    name = spec.name.replace("NVIDIA ", "")
    where = hardware_set(profile.hardware, hardware)  # the link too, where it differs
    best: tuple[float, SetupOption] | None = None
    for candidate, change in _rented_candidates(rented):
        proj = projected_or_none(candidate, counts)
        if proj is None or not any(proj.fits):
            continue
        costs = estimate_costs(candidate, proj, lang=lang, currency=pricing.currency,
                               market=pricing.market)
        fitting = [n for n, ok in zip(proj.gpus, proj.fits, strict=True) if ok]
        n = min(fitting, key=lambda k: (costs.cost_per_run[costs.gpus.index(k)]
                                        if costs.mode_priced else k, -k))
        # the memory said where the card's name does not say it ("H20 96GB (96 GB)")
        said = f"{spec.memory_gb:.0f}GB" in name.replace(" ", "")
        size_en, size_zh = ("", "") if said else (f" ({spec.memory_gb:.0f} GB)",
                                                  f"（{spec.memory_gb:.0f} GB）")
        option = priced_option(
            f"rent_{gpu_id}", "rent",
            Text(en=f"rent {n} × {name}{size_en}"
                    + (f" + {change.label.en}" if change else ""),  # as compare writes it
                 zh=f"租用 {n} × {name}{size_zh}"
                    + (f" + {change.label.zh}" if change else "")),
            Text(en=f"{where.en}, economics.mode: cloud"
                    + (f", {change.change.en}" if change else ""),
                 zh=f"{where.zh}，economics.mode: cloud"
                    + (f"，{change.change.zh}" if change else "")),
            RENT_TRADE_OFF if change is None else Text(
                en=f"{RENT_TRADE_OFF_CHANGED.en} {change.trade_off.en}",
                zh=f"{RENT_TRADE_OFF_CHANGED.zh}{change.trade_off.zh}"),
            candidate, proj, n, False, lang, pricing)
        if change is None:
            return option  # as configured: nothing to weigh it against
        # a smaller batch or recomputation: the one that runs a run for less (or sooner)
        key = option.cost_per_run if option.cost_per_run is not None else option.run_hours
        if best is None or key < best[0]:
            best = (key, option)
    return best[1] if best else None


def _timed_on(profile: Profile, spec):
    """A measured one-GPU time moved to another card as ``compare`` moves it
    (``advisor.scaling.inputs.single_gpu_speed_ratio``: the sustained rate at the workload's
    precision and task, tensor peak and memory bandwidth both; a planned run needs no moving:
    the layouts time it). One ratio everywhere, so a rented card's hours read the same here,
    in the comparison and in the answer weighed against it."""
    t = profile.training
    mine = resolve_gpu(profile.hardware.gpu, profile.hardware.intra_link)
    ratio = single_gpu_speed_ratio(profile, mine, spec)
    update = {}
    if t.single_gpu_hours is not None:
        update["single_gpu_hours"] = t.single_gpu_hours / ratio
    if t.single_gpu_throughput is not None:
        update["single_gpu_throughput"] = t.single_gpu_throughput * ratio
    moved = t.model_validate({**t.model_dump(), **update}) if update else t
    return timed_on_mine(profile, moved, mine.memory_gb)


def _rented_candidates(rented: Profile):
    """The training as configured on the rented machine, else the largest smaller batch per
    GPU with accumulation that fits one card (a job the layouts do not plan: the layouts pick
    their own micro-batch) and full activation checkpointing, each with the change it carries (None: as
    configured). The recomputation costs its time there too (a review: 28 min on 8 rented
    A100 read as if checkpointing were free)."""
    yield rented, None
    gpu = resolve_gpu(rented.hardware.gpu, rented.hardware.intra_link)
    if not uses_layouts(rented, gpu.memory_gb, load_params()):
        for batch in batch_sizes(rented):
            change = accumulation(rented, batch)
            changed = retimed(rented, change.apply(rented))
            one = memory_shared(changed, [1]) or projected_or_none(changed, [1])
            if one is not None and one.fits[0]:  # the memory alone: projected once, below
                yield changed, change
                break
    full = checkpointing_changes(rented)
    if full:
        change = full[-1]  # full recomputation: the cheapest saving there is
        yield retimed(rented, change.apply(rented)), change


def more_machines(profile: Profile, projection: Projection, larger: Beyond,
                   lang: str | None, pricing: Pricing) -> SetupOption | None:
    """The more machines like the user's that the model needs as configured (``beyond``)."""
    n = larger.gpus
    if n is None or n not in projection.gpus:
        return None
    hw = profile.hardware
    machines = -(-n // hw.gpus_per_node)
    # the network the projection assumed where the profile names none (else the line makes
    # a profile of several machines without one, which is refused)
    link = hw.inter_link if hw.inter_link != InterLink.none else default_inter_link(profile)
    wider = hw.model_copy(update={"nodes": machines, "inter_link": link})
    return priced_option("more_machines", "more_machines",
                   Text(en=f"{n} GPUs on {machines} machines like yours",
                        zh=f"{n} 张卡，{machines} 台与本机相同的机器"),
                   hardware_set(hw, wider, ("nodes",)),
                   MORE_TRADE_OFF, profile, projection, n, False, lang, pricing)
