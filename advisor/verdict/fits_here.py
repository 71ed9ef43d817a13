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

from advisor.files.records import record
from advisor.profile import (
    ActivationCheckpointing,
    Profile,
    Task,
)
from advisor.scaling.fits_anywhere import MemoryAnswer
from advisor.scaling.result import Projection
from advisor.verdict.beyond import Beyond
from advisor.verdict.diffusion_recipes import lean_recipes, with_batch
from advisor.verdict.facts import useful_count
from advisor.verdict.more_cards import in_a_smaller_machine
from advisor.verdict.result import SetupOption
from advisor.verdict.retimed import retimed
from advisor.verdict.setting_changes import (
    Change,
    accumulation,
    batch_sizes,
    checkpointing_changes,
    diffusion_savings,
    other_changes,
    state_changes,
)
from advisor.verdict.setup_pricing import Pricing, priced_option, projected_or_none
from advisor.verdict.setups_elsewhere import more_machines, rented_cards
from advisor.verdict.shared_projections import memory_shared

POOR_EFFICIENCY = 0.5  # the own GPUs give less than half their compute (speed-up / N)
CLEARLY_FASTER = 0.9  # a change replaces a poor fit when its run takes under 90 % as long
# a setting before fewer bytes a number (pure 16-bit, 8-bit AdamW: other numerics), before a
# change of method
_ORDER = {"setting": 0, "numerics": 1, "method": 2, "host_memory": 3, "rent": 4,
          "more_machines": 5, "rent_offer": 6, "buy_setup": 7}



@record
class Setups:
    options: list[SetupOption]
    applied: Profile | None = None  # the profile the verdict rests on, when changed


NONE = Setups([])


def needs_setups(profile: Profile, projection: Projection) -> bool:
    """A large transformer that fits none of the own GPU counts, or fits them poorly; any
    other job that fits none of them (its batch: the article's remedies, a smaller batch per
    GPU with accumulation and activation checkpointing, F24)."""
    own = [i for i, n in enumerate(projection.gpus) if n <= profile.hardware.total_gpus]
    fitting = [i for i in own if projection.fits[i]]
    alone = owned_alone(profile)  # the cards the user has, where more are weighed around them
    if alone is not None and not any(projection.fits[i] for i in own
                                     if projection.gpus[i] <= alone):
        return True  # their own cards alone cannot run it: what would let them
    if not _planned_by_layouts(profile, projection):
        return not fitting
    if not fitting:
        return True
    return max(projection.efficiency[i] for i in fitting) < POOR_EFFICIENCY


def _planned_by_layouts(profile: Profile, projection: Projection) -> bool:
    """A transformer the layouts plan (tensor / pipeline / sharded splits, their changes)."""
    return profile.task in (Task.llm, Task.nlp) and bool(projection.layout)


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
                fits_own or any(o.fits_here and o.kind in ("setting", "numerics")
                                for o in options)):
            return False  # a setting change, or none, is chosen before it (every method is
            # weighed, as the list weighs them: the fastest that fits here is chosen)
        found = _own(change, profile, counts, lang, pricing, priced=listed,
                     host_memory=listed)
        if found is not None:
            options.append(found.option)
            found_by_id[found.option.id] = found
        return found is not None and found.option.kind != "host_memory"

    for change in checkpointing_changes(profile):
        keep(change)
    alone = owned_alone(profile)
    smaller = [accumulation(profile, b) for b in batch_sizes(profile)]
    for i, change in enumerate(smaller):  # the largest smaller batch that fits
        if keep(change):
            if alone is not None and not _fits_at(found_by_id[change.id].projection, alone):
                # and the largest the user's own cards hold, where more are weighed around them
                _keep_first_holding(smaller[i + 1:], profile, alone, keep)
            break
    full = profile.training.activation_checkpointing == ActivationCheckpointing.full
    savings = diffusion_savings(profile)  # a diffusion fine-tune's own, before the rest
    others = other_changes(profile) if _planned_by_layouts(profile, projection) else \
        [savings] if savings is not None else state_changes(profile)
    for change in others:  # alone, else with full checkpointing as well
        if not keep(change) and not full:
            keep(change.with_checkpointing())
        elif change.kind == "method" and not full:  # adapters often run faster recomputed
            keep(change.with_checkpointing())  # on more GPUs (no pipeline split)
    recipes = lean_recipes(profile)  # a diffusion full fine-tune one card does not hold yet
    if recipes and not _fits_at(projection, 1) \
            and not any(_fits_at(f.projection, 1) for f in found_by_id.values()):
        for recipe in recipes:  # the first, at the user's batch or the largest one card holds
            if _keep_first_holding([recipe, *(with_batch(recipe, c) for c in smaller)],
                                   profile, 1, keep):
                break
    if listed:
        rented = rented_cards(profile, lang, pricing)
        if rented is not None:
            options.append(rented)
        more = more_machines(profile, projection, larger, lang, pricing)
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


@record
class _Found:
    """A change that runs on the user's machine: its option, its profile and projection."""

    option: SetupOption
    profile: Profile
    projection: Projection

    def priced(self, lang: str | None, pricing: Pricing) -> SetupOption:
        o = self.option
        return priced_option(o.id, o.kind, o.label, o.change, o.trade_off, self.profile,
                       self.projection, o.gpus, o.fits_here, lang, pricing)


def _own(change: Change, profile: Profile, counts: list[int], lang: str | None,
         pricing: Pricing, *, priced: bool = True, host_memory: bool = True) -> _Found | None:
    """``change`` on the user's own GPUs: where it fits, the fewest GPUs giving its speed
    (``priced`` False: its cost per run left out). An offload that fits the GPUs but not the
    machine's RAM is a ``host_memory`` option (``host_memory`` False: none, as when nothing
    fits: such an option is listed, never chosen)."""
    try:
        changed = retimed(profile, change.apply(profile))
    except ValueError:  # the change cannot be set on this profile
        return None
    known = memory_shared(changed, counts)
    if known is not None and not any(known.fits) and (
            not host_memory or not change.training.get("offload")
            or _host_short(known, profile) is None):
        return None  # what follows would read only that nothing fits, nor is the RAM short
    proj = projected_or_none(changed, counts)
    if proj is None:
        return None
    n = useful_count(proj)
    kind = change.kind
    if n is None:
        n = _host_short(proj, profile)
        if n is None or not change.training.get("offload"):
            return None
        kind = "host_memory"  # fits the GPUs, not the machine's RAM
    option = priced_option(change.id, kind, change.label, change.change, change.trade_off, changed,
                     proj, n, n <= profile.hardware.total_gpus and kind != "host_memory",
                     lang, pricing, priced=priced)
    return _Found(option, changed, proj)


def owned_alone(profile: Profile) -> int | None:
    """The cards the user owns where the profile weighs a larger machine around them (a
    one-GPU machine weighed with more of its cards, ``more_cards``); None otherwise."""
    owned = profile.economics.owned_gpus
    return owned if owned and in_a_smaller_machine(profile) else None


def _fits_at(projection: Projection | None, n: int) -> bool | None:
    """Whether ``projection`` fits at ``n`` GPUs (None: not projected there)."""
    if projection is None or n not in projection.gpus:
        return None
    return projection.fits[projection.at(n)]


def _keep_first_holding(changes: list[Change], profile: Profile, n: int, keep) -> bool:
    """``keep`` the first of ``changes`` that ``n`` GPUs hold (projected at ``n`` alone);
    False when they hold none."""
    for change in changes:
        try:
            at_n = projected_or_none(change.apply(profile), [n])
        except ValueError:  # the change cannot be set on this profile
            continue
        if _fits_at(at_n, n):
            return keep(change)
    return False


def _host_short(proj: Projection | MemoryAnswer, profile: Profile) -> int | None:
    """The largest own count whose GPUs hold it while the RAM does not (notes say so); from
    a ``MemoryAnswer`` when no count fits (its every count's memory then known)."""
    usable = proj.usable_memory_gb or 0.0
    own = [n for n, need in zip(proj.gpus, proj.memory_per_gpu_gb, strict=True)
           if need <= usable and n <= profile.hardware.total_gpus]
    return max(own) if own else None


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
