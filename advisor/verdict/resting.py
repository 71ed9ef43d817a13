"""What a recommendation's figures rest on (issue 17): the profile as given, or with the
setup change that makes it fit the user's machine, its projection and the machines beyond it;
and the list of setups, the one the verdict rests on shown at the verdict's count.
``recommend`` and ``advisor.compare`` both evaluate through ``resting_on``, so an option's
figures are ``recommend``'s."""

from __future__ import annotations

from dataclasses import replace

from advisor.files.records import record
from advisor.profile import Profile
from advisor.scaling.result import Projection
from advisor.verdict.beyond import NOTHING, Beyond, considered, extended
from advisor.verdict.fits_here import Setups, needs_setups, setups_that_fit
from advisor.verdict.headline import recounted
from advisor.verdict.more_cards import wider_machine
from advisor.verdict.pipeline_fix import pipeline_fixed
from advisor.verdict.projection_for import projection_for
from advisor.verdict.result import Recommendation, SetupOption
from advisor.verdict.setup_pricing import Pricing


def at_verdict(options: list[SetupOption], rec: Recommendation) -> list[SetupOption]:
    """The option the verdict rests on, at the verdict's own count: the rules may settle on
    fewer GPUs than the option's fastest useful count (F02: time saved that does not pay),
    and the list then says what the headline says."""
    n = rec.verdict.gpus
    proj, costs = rec.projection, rec.costs
    out = []
    for o in options:
        if o.applied and n != o.gpus and rec.verdict.runnable and n in proj.gpus:
            i = proj.at(n)
            hours = proj.run_hours[i]
            cost = costs.cost_per_run[costs.gpus.index(n)] \
                if costs.mode_priced and n in costs.gpus else None
            o = o.model_copy(update={"gpus": n, "nodes": proj.nodes[i], "run_hours": hours,
                                     "speedup": o.speedup * o.run_hours / hours,
                                     "cost_per_run": cost, "fastest_gpus": o.gpus,
                                     "fastest_run_hours": o.run_hours,
                                     "label": recounted(o.label, n)})
        out.append(o)
    return out


@record
class Resting:
    """What a recommendation's figures rest on: the profile (the user's, or the user's with
    the setup change ``applied``), its projection and what ``beyond`` found, and the setups
    listed (issue 17)."""

    profile: Profile
    projection: Projection
    larger: Beyond
    options: list[SetupOption]
    applied: SetupOption | None = None
    asked: Profile | None = None  # the profile as the user gave it (its own card's facts)

    def with_asked(self, asked: Profile) -> Resting:
        return replace(self, asked=asked)


def resting_on(profile: Profile, counts: list[int] | None = None,
               lang: str | None = None, pricing: Pricing = Pricing(), *,
               listed: bool = True, card_first: bool = False) -> Resting:
    """The projection ``recommend`` weighs (``considered``) and, when a setup change fits the
    user's machine where the profile as given does not (well), the change's (issue 17: a
    setting change that fits here comes before more machines). ``advisor.compare`` evaluates
    its options through this too, so their figures are ``recommend``'s; it shows no list of
    setups (``listed`` False: ``options`` holds only the change applied, if any, and the
    machines the profile as given would need are not searched when a change is applied).
    ``card_first``: a one-GPU machine's card that cannot hold the job rests on the setting
    change that fits it, where one does (``card_first_possible``), before more of its cards."""
    asked = profile
    wide = wider_machine(profile)
    if wide is not None and counts is not None and max(counts) > wide.hardware.gpus_per_node:
        wide = None  # counts past a machine of its cards: machines like the user's (--gpus)
    if card_first and wide is not None and listed:
        here = _on_the_card_first(profile, lang, pricing)
        if here is not None:
            return here.with_asked(asked)
    profile = wide or profile  # a one-GPU machine weighed against more of its cards
    if listed:
        projection, larger = considered(profile, counts)
        setups = setups_that_fit(profile, projection, larger, lang, pricing)
        fixed = pipeline_fixed(profile, projection, lang, pricing)  # F28: the loader first
        if fixed is not None:
            setups = Setups([*setups.options, fixed], setups.applied)
    else:
        projection, larger, setups = _applied_first(profile, counts, lang, pricing)
    applied = next((o for o in setups.options if o.applied), None)
    if setups.applied is None or applied is None:
        return Resting(profile, projection, larger, setups.options, asked=asked)
    projection, larger = considered(setups.applied, counts)
    return Resting(setups.applied, projection, larger, setups.options, applied, asked)


def card_first_possible(profile: Profile) -> bool:
    """A one-GPU machine weighed against more of its cards whose card cannot hold the job as
    given: a setting change on that card is another answer (``recommend`` weighs both)."""
    return wider_machine(profile) is not None and not projection_for(profile, [1]).fits[0]


def _on_the_card_first(profile: Profile, lang: str | None, pricing: Pricing
                       ) -> Resting | None:
    """A one-GPU machine whose card cannot hold the job as given, where a setting change
    makes it fit that card (issue 17: a change that runs here comes before more cards): the
    setups listed for the card the user has, and the one chosen weighed against more of its
    cards, as ``--gpus`` asks of the machine as it is. None: no change fits the card."""
    projection, larger = considered(profile, None)
    setups = setups_that_fit(profile, projection, larger, lang, pricing)
    applied = next((o for o in setups.options if o.applied), None)
    if setups.applied is None or applied is None:
        return None
    changed = wider_machine(setups.applied) or setups.applied
    projection, larger = considered(changed, None)
    return Resting(changed, projection, larger, setups.options, applied)


def _applied_first(profile: Profile, counts: list[int] | None, lang: str | None,
                   pricing: Pricing) -> tuple[Projection, Beyond, Setups]:
    """``considered`` and the setup change chosen, without the search for more machines
    (``beyond``) when nothing fits the profile's own counts and a change that fits is chosen:
    the verdict then rests on the change, and only a listed "more machines" would read that
    search. The choice reads the own counts alone (``setups_that_fit``), where the widened
    projection and this one agree: nothing fits there (fitting is each count's memory).

    When that search chose nothing, it is not run again on the widened projection unless
    that projection fits an own count: the widening adds only counts above the own ones, so
    the search would ask the same questions of the same own counts and, nothing fitting
    there, choose nothing again."""
    base = projection_for(profile, counts)
    total = profile.hardware.total_gpus
    tried = None
    if max(base.gpus) >= total and not any(base.fits) and needs_setups(profile, base):
        tried = setups_that_fit(profile, base, NOTHING, lang, pricing, listed=False)
        if tried.applied is not None:
            return base, NOTHING, tried
    projection, larger = extended(profile, base)
    if tried is not None and not any(ok for n, ok in zip(projection.gpus, projection.fits,
                                                         strict=True) if n <= total):
        return projection, larger, tried
    return projection, larger, setups_that_fit(profile, projection, larger, lang, pricing,
                                               listed=False)
