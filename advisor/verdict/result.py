"""The Recommendation returned by ``advisor.verdict.recommendation.recommend`` (the shared contract)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, PrivateAttr

from advisor.costs.result import CostReport
from advisor.scaling.result import Projection
from advisor.text.i18n import Text

Rating = Literal["not_worth_it", "optional", "worth_it", "required"]


class Verdict(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rating: Rating
    gpus: int
    nodes: int
    parallelism: Literal["data", "zero", "fsdp", "tensor", "pipeline", "hybrid"]
    framework: Literal["ddp", "fsdp", "deepspeed", "megatron", "horovod", "torchrec", "none"]
    deployment: Literal["own", "cloud", "either"]
    headline: Text
    # Additive: False when the model fits on no GPU count of this hardware, nor on many more of
    # the same card (the headline then says it cannot run here; ``gpus`` is the hardware's).
    runnable: bool = True


class Pitfall(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    severity: Literal["info", "warning", "critical"]
    title: Text
    detail: Text
    remedy: Text
    sources: list[str]


class TraceEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rule: str
    sources: list[str]
    conclusion: dict[str, Any]
    facts: dict[str, Any] = {}  # the fact values the rule matched on
    # Added by the rule base (additive): the rule stage (decide | setup | findings) and, when a
    # stronger rule decided the same slot differently, that rule's id (conflict policy).
    stage: str = "decide"
    overridden_by: str | None = None
    # Additive: the rule's message as it fired, placeholders filled from the stage's facts
    # (the report's appendix quotes it; None in traces saved before it existed).
    message: Text | None = None
    # Additive: the verdict slots this rule supplied (rating, gpus, parallelism, framework,
    # deployment); empty for rules that decided none (or lost: see ``overridden_by``).
    decided: list[str] = []


class Advice(BaseModel):
    """Set-up advice (F13, F14, F26): one entry per topic."""

    model_config = ConfigDict(extra="forbid")

    id: str
    text: Text
    sources: list[str]


class SetupOption(BaseModel):
    """A way to run the job when it does not fit as configured, or fits poorly (issue 17): a
    setting change on the user's own machines, a change of method (LoRA / QLoRA), rented
    larger cards, or more machines like the user's (``advisor.verdict.fits_here``)."""

    model_config = ConfigDict(extra="forbid")

    id: str
    # rent_offer: the job as configured, rented at an offer; buy_setup: a ready setup bought
    # (the setups a comparison evaluates, weighed by ``advisor.compare.weighed``)
    kind: Literal["setting", "numerics", "method", "host_memory", "rent", "more_machines",
                  "rent_offer", "buy_setup"]
    label: Text
    change: Text  # what to set in the profile
    trade_off: Text  # what it costs besides the time (a change of method: its quality)
    gpus: int
    nodes: int
    fits_here: bool  # on the user's own GPUs and machine
    # over the training as configured on one GPU with enough memory (one measure for every
    # option: a change that also saves compute, such as LoRA, can exceed ``gpus``)
    speedup: float
    run_hours: float  # one run at ``gpus``
    cost_per_run: float | None  # None: not priced
    currency: str
    # the side ``cost_per_run`` is priced on ("own": bought or owned, "cloud": rented; None:
    # not priced, or not said): a profile in compare mode prices each count on the cheaper
    deployment: Literal["own", "cloud"] | None = None
    applied: bool = False  # the verdict rests on this one
    # the verdict's count differs from the option's fastest useful one (F02: the rules chose
    # fewer GPUs): the figures above are at the verdict's count, these at the fastest
    fastest_gpus: int | None = None
    fastest_run_hours: float | None = None
    # owned hardware (F31): on a machine the user has only some cards of (a one-GPU machine
    # weighed with more of its cards), the cards they have (None: not such a machine), and
    # the option on those cards alone where it fits there (None: it does not)
    owned_gpus: int | None = None
    # the user's cards sit in a smaller machine than the option's: the machine is bought too
    machine_bought: bool = False
    owned_run_hours: float | None = None
    owned_cost_per_run: float | None = None
    # The profile and projection behind the figures (not serialised): what the decision
    # policy rests the answer on when it moves there (``advisor.verdict.decision``)
    _profile: Any = PrivateAttr(default=None)
    _projection: Any = PrivateAttr(default=None)
    _larger: Any = PrivateAttr(default=None)  # what ``beyond`` found for it, where known

    @property
    def cards_bought(self) -> int:
        """The cards to buy beyond the user's own for ``gpus`` on their machine."""
        return max(0, self.gpus - self.owned_gpus) if self.owned_gpus is not None else 0

    def behind(self) -> tuple[Any, Any]:
        """(profile, projection) the option's figures come from (None, None: unknown)."""
        return self._profile, self._projection

    def resting_on(self, profile: Any, projection: Any, larger: Any = None) -> SetupOption:
        self._profile, self._projection, self._larger = profile, projection, larger
        return self

    def larger(self) -> Any:
        """What ``advisor.verdict.beyond`` found for the option's profile (None: not
        searched), so the rules see on it what they see on the setup as given."""
        return self._larger


class Candidate(BaseModel):
    """One setup the recommendation evaluated, at one GPU count (issue 29): the setup its
    figures rest on (``as_given``, or the id of the setup change applied) or a listed setup's
    id, with its time and cost per run. ``runnable`` False says why (``not_runnable``): the
    model does not fit (``memory``), no price (``unpriced``), one set of it cannot do the
    month's runs (``schedule``), or it misses the deadline (``deadline``)."""

    model_config = ConfigDict(extra="forbid")

    setup: str
    gpus: int
    nodes: int
    run_hours: float
    cost_per_run: float | None
    runnable: bool
    not_runnable: Literal["memory", "unpriced", "schedule", "deadline", "budget"] | None = None
    label: Text | None = None  # a listed setup's name; None: the setup the figures rest on
    # the kind of setup change (SetupOption.kind), None for the training as configured; a
    # change of method trains something else, so it never beats one that keeps the method
    kind: str | None = None
    # "own" or "cloud" where the costs say which side the figure is priced on (None: unknown)
    deployment: str | None = None
    # its time is the user's timed run moved to another card by the cards' speed ratio
    # (``TrainingSpec.timed_card_gb``), not projected on the card it was timed on
    moved: bool = False


class SummaryLine(BaseModel):
    """One of the five lines every answer opens with (``advisor.verdict.summary``): ``key``
    do | why | cost | risk | next."""

    model_config = ConfigDict(extra="forbid")

    key: Literal["do", "why", "cost", "risk", "next"]
    text: Text


class NetOverYours(BaseModel):
    """The answer's net value a month over the user's own setup, as the comparison measures
    every setup (``advisor.compare.over_yours``; review 10, F3)."""

    model_config = ConfigDict(extra="forbid")

    against: Text  # "your setup (2 × RTX 4090, own) at 1 GPU"
    gpus: int  # the count of the user's setup it is measured against
    net_value_per_month: float


class Recommendation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    verdict: Verdict
    projection: Projection
    costs: CostReport
    pitfalls: list[Pitfall]
    advice: list[Advice] = []
    trace: list[TraceEntry]
    # Additive: the GPU count every net value is compared with (one GPU, or the smallest count
    # considered that can run the job; None when none can).
    baseline_gpus: int | None = 1
    # Additive: what the verdict's count assumes beyond the profile's machines (how many
    # machines like it, the network between them and its adapters), in both languages.
    assumed: list[Text] = []
    # Additive: the setups that make the job fit before more machines, ordered (issue 17);
    # empty when the profile fits its own GPUs well. When one is ``applied`` the verdict,
    # projection and costs are those of the profile with that change.
    setups: list[SetupOption] = []
    # Additive (issue 29): every setup evaluated, at each count, and whether it can run the
    # user's schedule; the verdict is never beaten by 15 % on both time and cost per run by a
    # runnable one (``advisor.verdict.decision``).
    candidates: list[Candidate] = []
    # Additive (issue 29): the answer in five lines, what every presenter shows first
    summary: list[SummaryLine] = []
    # Additive (review 10, F3): the answer's net value over the user's own setup, the figure
    # ``compare`` prints for it (the costs' own, ``costs.net_value_per_month``, is over the
    # setup the answer rests on); None where time has no value or the setup cannot be it
    over_yours: NetOverYours | None = None

    def over_yours_apart(self) -> NetOverYours | None:
        """``over_yours`` where it is another figure than the costs' own net value at the
        answer: the answer rests on another setup, the comparison measures against another
        count of the user's (the owned GPUs), or the two differ by a unit of money or more;
        None where they are one figure."""
        oy, co, n = self.over_yours, self.costs, self.verdict.gpus
        if oy is None:
            return None
        same = not any(o.applied for o in self.setups) and oy.gpus == self.baseline_gpus \
            and n in co.gpus and abs(co.net_value_per_month[co.gpus.index(n)]
                                     - oy.net_value_per_month) < 0.5
        return None if same else oy
