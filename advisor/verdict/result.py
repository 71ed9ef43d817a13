"""The Recommendation returned by ``advisor.verdict.recommendation.recommend`` (the shared contract)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

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
    framework: Literal["ddp", "fsdp", "deepspeed", "horovod", "torchrec", "none"]
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
