"""What a comparison returns (the contract shared by the CLI, the wizard's compare page and the
PDF): every option at every GPU count it was evaluated at, the Pareto front of time per run
against monthly cost, the answers, and what dominates each dominated point.

Money is in ``currency`` and prices are ``market``'s; hours are wall-clock hours. A point's
figures are those of ``recommend`` on the option's profile (``Option.profile``), taken from
its projection and cost report, never recomputed.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from advisor.text.i18n import Text

OptionKind = Literal["yours", "more", "setup", "cloud", "alternative", "spec", "change"]


class PointRef(BaseModel):
    """One option at one GPU count."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    option: str
    gpus: int


class Point(BaseModel):
    model_config = ConfigDict(extra="forbid")

    gpus: int
    nodes: int
    fits: bool
    priced: bool  # False: renting with no cloud price (no cost to compare)
    speedup: float
    speedup_low: float
    speedup_high: float
    run_hours: float
    runs_per_month_capacity: float  # runs one set of this hardware finishes in 730 hours
    cost_per_run: float
    cost_per_month: float
    deployment: Literal["own", "cloud"]
    capex: float  # cards, machines, network, bridges, tax: what owning it costs up front
    # Owning against renting the same GPUs (None when a side has no price or owning never
    # pays): training hours a month above which owning wins over the horizon, and the months
    # after which owning has cost less at the planned usage.
    breakeven_hours_per_month: float | None = None
    breakeven_months: float | None = None
    time_value_per_month: float | None = None  # value of the time saved vs the baseline
    net_value_per_month: float | None = None  # time value - (cost - baseline cost)
    meets_deadline: bool | None = None
    within_budget: bool | None = None
    # one set of it does the month's runs in a month's 730 hours (issue 29: an answer must;
    # None when it cannot run at all)
    keeps_schedule: bool | None = None
    on_front: bool = False
    dominated_by: PointRef | None = None  # a point faster and cheaper (or as fast, cheaper)
    # The same time and cost as another option's point on the front (an exact tie: the one
    # listed first stands for both on the front)
    same_as: PointRef | None = None


class OptionVerdict(BaseModel):
    """The rule base's verdict on the option's profile (``recommend``), in short."""

    model_config = ConfigDict(extra="forbid")

    rating: str
    gpus: int
    deployment: str
    runnable: bool
    headline: Text
    dominated_by: PointRef | None = None  # when the verdict's own point is dominated
    # the setup change or listed setup the verdict rests on (None: the option as it is); a
    # setup beyond the option (rented cards) has no point among the option's
    setup: str | None = None


class OptionResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    kind: OptionKind
    label: Text
    gpu: str
    gpu_name: str
    gpus_per_node: int
    intra_link: str
    inter_link: str
    deployment: Literal["own", "cloud"]
    spec: str | None = None  # the --option text it came from
    points: list[Point]
    verdict: OptionVerdict | None = None
    notes: list[Text] = []  # what this option assumes (prices, offers, machines)
    # the setting change its figures carry (issue 29: every option says which it has, as
    # recommend would rest on it: checkpointing, offload, LoRA …); None: none
    change: Text | None = None
    dominated: bool = False  # every point that fits is dominated by another option's
    # its time is the user's timed run moved to another card (``decision.MOVED_CARD_ERROR``)
    moved: bool = False

    def labelled(self) -> Text:
        """The option's name with the setting change its figures carry."""
        if self.change is None:
            return self.label
        return Text(en=f"{self.label.en} + {self.change.en}",
                    zh=f"{self.label.zh} + {self.change.zh}")

    def point(self, gpus: int) -> Point | None:
        return next((p for p in self.points if p.gpus == gpus), None)


class Answer(BaseModel):
    """One question the comparison answers, and the point that answers it (None: no option
    does; ``why`` says so)."""

    model_config = ConfigDict(extra="forbid")

    key: Literal["deadline", "budget", "net_value", "fastest", "cheapest"]
    point: PointRef | None
    why: Text


class Comparison(BaseModel):
    model_config = ConfigDict(extra="forbid")

    currency: str
    market: str
    options: list[OptionResult]
    front: list[PointRef]  # ascending time per run (descending monthly cost)
    answers: list[Answer]
    baseline: PointRef | None  # what net values are measured against (your setup's fewest)
    notes: list[Text] = []
    price_warnings: list[Text] = []  # catalog prices used older than 12 months, or undated

    def option(self, option_id: str) -> OptionResult:
        return next(o for o in self.options if o.id == option_id)

    def at(self, ref: PointRef) -> Point:
        found = self.option(ref.option).point(ref.gpus)
        if found is None:
            raise KeyError(ref)
        return found

    def answer(self, key: str) -> Answer | None:
        return next((a for a in self.answers if a.key == key), None)
