"""Setups that fit before machines to buy (issue 17; F24: memory is the wall, F02: the
fewest GPUs that give the speed).

When a large model fits none of the user's own GPU counts, or fits them only far below
their compute (efficiency under ``POOR_EFFICIENCY``), the setting changes of
``setting_changes`` are tried on the user's own machines, each projected as ``project``
would: activation checkpointing, a smaller batch per GPU with accumulation, a higher ZeRO
stage, offload to host memory and, for fine-tuning, LoRA / QLoRA (a change of method); a
change that does not fit alone is tried with full checkpointing as well (a change of method
always: with its activations recomputed it often runs data parallel instead of split). Then renting
larger cards (80 GB or more, the cheapest such card the catalog's offers price) and, last,
the more machines like the user's that ``beyond`` found.

The list (``SetupOption``) is ordered: same-method changes that fit here, fastest first;
then method changes that fit here; then offloads that fit the GPUs but need more RAM than
the machine has; then rented cards; then more machines. A setting change that fits the
user's machine is therefore always listed before more machines. The verdict rests on the
first change that fits here when nothing fits as configured (same method before a change
of method), or on the first same-method change that is clearly faster when the profile fits
only poorly. Nothing is evaluated when the profile fits well (``needs_setups``), so a
recommendation that needs no change costs nothing more.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.catalog import load_catalog
from advisor.catalog.gpus import resolve_gpu
from advisor.costs import estimate_costs
from advisor.files.errors import InputError
from advisor.profile import (
    ActivationCheckpointing,
    EconomicsMode,
    IntraLink,
    Market,
    Profile,
    Task,
)
from advisor.profile.market import MARKET_CURRENCY, profile_market
from advisor.scaling.layouts.cluster import peak_tflops
from advisor.scaling.project import reference_s_per_token
from advisor.scaling.result import Projection
from advisor.text.i18n import Text
from advisor.verdict.beyond import Beyond
from advisor.verdict.facts import useful_count
from advisor.verdict.result import SetupOption
from advisor.verdict.setting_changes import (
    Change,
    accumulation,
    batch_sizes,
    checkpointing_changes,
    other_changes,
)
from advisor.verdict.shared_projections import project_shared

POOR_EFFICIENCY = 0.5  # the own GPUs give less than half their compute (speed-up / N)
CLEARLY_FASTER = 0.9  # a change replaces a poor fit when its run takes under 90 % as long
LARGE_CARD_GB = 80.0
RENT_GPUS_PER_MACHINE = 8
_ORDER = {"setting": 0, "method": 1, "host_memory": 2, "rent": 3, "more_machines": 4}
RENT_TRADE_OFF = Text(
    en="Rented by the hour: the training as configured, no purchase; the data and checkpoints "
       "move to the provider.",
    zh="按小时租用：训练配置不变，无需购买；数据和检查点要传到云上。")
MORE_TRADE_OFF = Text(
    en="More machines like yours and the network between them: bought or rented, and a run "
       "across machines to set up.",
    zh="更多与本机相同的机器及机间网络：需要购买或租用，并搭建跨机训练。")


@dataclass(frozen=True)
class Pricing:
    """The market and currency the options are priced in: ``recommend``'s ``--currency`` and
    ``--market`` when given, else the profile's (issue 18: the same money as the headline's)."""

    currency: str | None = None
    market: Market | str | None = None


@dataclass(frozen=True)
class Setups:
    options: list[SetupOption]
    applied: Profile | None = None  # the profile the verdict rests on, when changed


NONE = Setups([])


def needs_setups(profile: Profile, projection: Projection) -> bool:
    """A large transformer that fits none of the own GPU counts, or fits them poorly."""
    if profile.task not in (Task.llm, Task.nlp) or not projection.layout:
        return False
    own = [i for i, n in enumerate(projection.gpus) if n <= profile.hardware.total_gpus]
    fitting = [i for i in own if projection.fits[i]]
    if not fitting:
        return True
    return max(projection.efficiency[i] for i in fitting) < POOR_EFFICIENCY


def setups_that_fit(profile: Profile, projection: Projection, larger: Beyond,
                    lang: str | None = None, pricing: Pricing = Pricing(), *,
                    listed: bool = True) -> Setups:
    """The setups listed before more machines, and the one the verdict rests on.

    ``listed`` False: only the one the verdict rests on, priced as when listed (the only
    option then in ``options``). What can never be chosen is not searched and nothing else
    is priced: rented cards and more machines do not fit here, and a change of method is
    chosen only when no setting change fits here and the profile fits none of its own
    counts (``_chosen``). ``advisor.compare`` shows each option's verdict, not its list."""
    if not needs_setups(profile, projection):
        return NONE
    total = profile.hardware.total_gpus
    counts = sorted({1, total, *(n for n in projection.gpus if n <= total)})
    fits_own = any(ok for n, ok in zip(projection.gpus, projection.fits, strict=True)
                   if n <= total)
    options: list[SetupOption] = []
    found_by_id: dict[str, _Found] = {}

    def keep(change: Change) -> bool:
        if not listed and change.kind == "method" and (
                fits_own or any(o.fits_here for o in options)):
            return False  # a setting change, or none, is chosen before it
        found = _own(change, profile, counts, lang, pricing, priced=listed)
        if found is not None:
            options.append(found.option)
            found_by_id[found.option.id] = found
        return found is not None and found.option.kind != "host_memory"

    for change in checkpointing_changes(profile):
        keep(change)
    for batch in batch_sizes(profile):  # the largest smaller batch that fits
        if keep(accumulation(profile, batch)):
            break
    full = profile.training.activation_checkpointing == ActivationCheckpointing.full
    for change in other_changes(profile):  # alone, else with full checkpointing as well
        if not keep(change) and not full:
            keep(change.with_checkpointing())
        elif change.kind == "method" and not full:  # adapters often run faster recomputed
            keep(change.with_checkpointing())  # on more GPUs (no pipeline split)
    if listed:
        rented = _rented(profile, lang, pricing)
        if rented is not None:
            options.append(rented)
        more = _more_machines(profile, projection, larger, lang, pricing)
        if more is not None:
            options.append(more)
    options = _one_measure(projection, options)
    options.sort(key=lambda o: (_ORDER[o.kind], o.run_hours))
    chosen = _chosen(profile, projection, options)
    if chosen is None:
        return Setups(options if listed else [])
    if not listed:  # the one shown, priced as the list prices it
        found = found_by_id[chosen.id]
        options = _one_measure(projection, [found.priced(lang, pricing)])
    options = [o.model_copy(update={"applied": o.id == chosen.id}) for o in options]
    return Setups(options, found_by_id[chosen.id].profile)


def _one_measure(projection: Projection, options: list[SetupOption]) -> list[SetupOption]:
    """Every option's speed-up over the training as configured on one GPU."""
    if 1 not in projection.gpus:
        return options
    base = projection.run_hours[projection.at(1)]
    return [o.model_copy(update={"speedup": base / o.run_hours}) for o in options]


@dataclass(frozen=True)
class _Found:
    """A change that runs on the user's machine: its option, its profile and projection."""

    option: SetupOption
    profile: Profile
    projection: Projection

    def priced(self, lang: str | None, pricing: Pricing) -> SetupOption:
        o = self.option
        return _option(o.id, o.kind, o.label, o.change, o.trade_off, self.profile,
                       self.projection, o.gpus, o.fits_here, lang, pricing)


def _projected(profile: Profile, counts: list[int]) -> Projection | None:
    try:
        return project_shared(profile, counts)
    except (InputError, ValueError):
        return None


def _own(change: Change, profile: Profile, counts: list[int], lang: str | None,
         pricing: Pricing, *, priced: bool = True) -> _Found | None:
    """``change`` on the user's own GPUs: where it fits, the fewest GPUs giving its speed
    (``priced`` False: its cost per run left out)."""
    try:
        changed = _retimed(profile, change.apply(profile))
    except ValueError:  # the change cannot be set on this profile
        return None
    proj = _projected(changed, counts)
    if proj is None:
        return None
    n = useful_count(proj)
    kind = change.kind
    if n is None:
        n = _host_short(proj, profile)
        if n is None or not change.training.get("offload"):
            return None
        kind = "host_memory"  # fits the GPUs, not the machine's RAM
    option = _option(change.id, kind, change.label, change.change, change.trade_off, changed,
                     proj, n, n <= profile.hardware.total_gpus and kind != "host_memory",
                     lang, pricing, priced=priced)
    return _Found(option, changed, proj)


def _retimed(profile: Profile, changed: Profile) -> Profile:
    """A measured one-GPU time (one GPU with enough memory, as configured) carried over to
    the change: scaled by the layouts' time per token on that GPU with and without it, so
    checkpointing's recomputation, offload's copies, a smaller micro-batch and LoRA's saved
    weight gradients show in the run's hours (a planned run is timed by the layouts
    already)."""
    t = changed.training
    if t.single_gpu_hours is None and t.single_gpu_throughput is None:
        return changed
    before, after = reference_s_per_token(profile), reference_s_per_token(changed)
    if not before or not after:
        return changed
    ratio = after / before
    update = {}
    if t.single_gpu_hours is not None:
        update["single_gpu_hours"] = t.single_gpu_hours * ratio
    if t.single_gpu_throughput is not None:
        update["single_gpu_throughput"] = t.single_gpu_throughput / ratio
    training = t.model_validate({**t.model_dump(), **update})
    return changed.model_copy(update={"training": training})


def _host_short(proj: Projection, profile: Profile) -> int | None:
    """The largest own count whose GPUs hold it while the RAM does not (notes say so)."""
    usable = proj.usable_memory_gb or 0.0
    own = [n for n, need in zip(proj.gpus, proj.memory_per_gpu_gb, strict=True)
           if need <= usable and n <= profile.hardware.total_gpus]
    return max(own) if own else None


def _option(oid: str, kind: str, label: Text, change: Text, trade_off: Text,
            profile: Profile, proj: Projection, n: int, here: bool,
            lang: str | None, pricing: Pricing, *, priced: bool = True) -> SetupOption:
    i = proj.at(n)
    cost, currency = None, ""
    if priced:
        costs = estimate_costs(profile, proj, lang=lang, currency=pricing.currency,
                               market=pricing.market)
        cost = costs.cost_per_run[costs.gpus.index(n)] if costs.mode_priced \
            and n in costs.gpus else None
        currency = costs.currency
    return SetupOption(id=oid, kind=kind, label=label, change=change, trade_off=trade_off,
                       gpus=n, nodes=proj.nodes[i], fits_here=here,
                       speedup=proj.speedup[i], run_hours=proj.run_hours[i],
                       cost_per_run=cost, currency=currency)


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


def _rented(profile: Profile, lang: str | None, pricing: Pricing) -> SetupOption | None:
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
        economics = profile.economics.model_validate({
            **profile.economics.model_dump(), "mode": EconomicsMode.cloud,
            "cloud_price_per_gpu_hour": None})  # its currency and market: the profile's
        training = _timed_on(profile, spec)
    except ValueError:
        return None
    rented = profile.model_copy(update={"hardware": hardware, "economics": economics,
                                        "training": training, "measured": None})
    counts = [1, 2, 4, 8]
    training = rented.training.model_copy(
        update={"activation_checkpointing": ActivationCheckpointing.full})
    for candidate in (rented, rented.model_copy(update={"training": training})):
        proj = _projected(candidate, counts)
        if proj is None or not any(proj.fits):
            continue
        costs = estimate_costs(candidate, proj, lang=lang, currency=pricing.currency,
                               market=pricing.market)
        fitting = [n for n, ok in zip(proj.gpus, proj.fits, strict=True) if ok]
        n = min(fitting, key=lambda k: (costs.cost_per_run[costs.gpus.index(k)]
                                        if costs.mode_priced else k, -k))
        name = spec.name.replace("NVIDIA ", "")
        ck = candidate is not rented
        return _option(
            f"rent_{gpu_id}", "rent",
            Text(en=f"rent {n} × {name} ({spec.memory_gb:.0f} GB)"
                    + (" with full activation checkpointing" if ck else ""),
                 zh=f"租用 {n} × {name}（{spec.memory_gb:.0f} GB）"
                    + ("，开启完整激活重计算" if ck else "")),
            Text(en=f"hardware.gpu: {gpu_id}, economics.mode: cloud",
                 zh=f"hardware.gpu: {gpu_id}，economics.mode: cloud"),
            RENT_TRADE_OFF, candidate, proj, n, False, lang, pricing)
    return None


def _timed_on(profile: Profile, spec):
    """A measured one-GPU time moved to another card by its peak at the precision (a planned
    run needs no moving: the layouts time it)."""
    t = profile.training
    mine = resolve_gpu(profile.hardware.gpu, profile.hardware.intra_link)
    ratio = peak_tflops(spec, t.precision) / peak_tflops(mine, t.precision)
    update = {}
    if t.single_gpu_hours is not None:
        update["single_gpu_hours"] = t.single_gpu_hours / ratio
    if t.single_gpu_throughput is not None:
        update["single_gpu_throughput"] = t.single_gpu_throughput * ratio
    return t.model_validate({**t.model_dump(), **update}) if update else t


def _more_machines(profile: Profile, projection: Projection, larger: Beyond,
                   lang: str | None, pricing: Pricing) -> SetupOption | None:
    """The more machines like the user's that the model needs as configured (``beyond``)."""
    n = larger.gpus
    if n is None or n not in projection.gpus:
        return None
    per = profile.hardware.gpus_per_node
    machines = -(-n // per)
    return _option("more_machines", "more_machines",
                   Text(en=f"{n} GPUs on {machines} machines like yours",
                        zh=f"{n} 张卡，{machines} 台与本机相同的机器"),
                   Text(en=f"hardware.nodes: {machines}", zh=f"hardware.nodes: {machines}"),
                   MORE_TRADE_OFF, profile, projection, n, False, lang, pricing)


def _chosen(profile: Profile, projection: Projection,
            options: list[SetupOption]) -> SetupOption | None:
    here = [o for o in options if o.fits_here]
    own = [i for i, n in enumerate(projection.gpus) if n <= profile.hardware.total_gpus]
    fitting = [i for i in own if projection.fits[i]]
    if not fitting:
        return here[0] if here else None  # same method first: the list is ordered so
    best = min(projection.run_hours[i] for i in fitting)
    faster = [o for o in here if o.kind == "setting" and o.run_hours < CLEARLY_FASTER * best]
    return faster[0] if faster else None
