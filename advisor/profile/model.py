"""The workload profile: everything the advisor needs to know about one training job.

Every field carries its unit (in its name or ``unit``), bounds, English and Chinese titles and
help, so the wizard and the CLI can be generated from the model alone (see ``field_meta``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from advisor.profile.alternatives import MAX_ALTERNATIVES, Alternative
from advisor.profile.economics import EconomicsSpec
from advisor.profile.enums import Offload, Task, TrainingMethod
from advisor.profile.field_meta import StrictSection, meta
from advisor.profile.hardware import HardwareSpec
from advisor.profile.measured import MeasuredSpec
from advisor.profile.workload import ModelSpec, TrainingSpec

SCHEMA_VERSION = 1


class Profile(StrictSection):
    """One training workload and the hardware and money around it."""

    schema_version: Literal[1] = SCHEMA_VERSION
    task: Task = meta("Task", "任务类型", "What kind of model you train.", "训练的模型类型。",
                      default=Task.image_classification)
    model: ModelSpec = Field(default_factory=ModelSpec)
    training: TrainingSpec = Field(default_factory=lambda: TrainingSpec(single_gpu_hours=24))
    hardware: HardwareSpec = Field(default_factory=HardwareSpec)
    economics: EconomicsSpec = Field(default_factory=EconomicsSpec)
    measured: MeasuredSpec | None = None
    # Other setups for the same workload, compared side by side (gpu-advisor compare, the
    # wizard's compare page): each a name and the hardware/economics fields it changes.
    alternatives: list[Alternative] = Field(default_factory=list, max_length=MAX_ALTERNATIVES)
    notes: str = Field(default="", max_length=10_000)

    @model_validator(mode="after")
    def _tensor_parallel_divides_heads(self) -> Profile:
        """Tensor parallel splits the attention heads: 3 ways cannot split 32 heads."""
        tp, heads = self.training.tensor_parallel, self.model.attention_heads
        if tp and heads and heads % tp:
            raise ValueError("training.tensor_parallel must divide model.attention_heads")
        return self

    @model_validator(mode="after")
    def _methods_for_transformers(self) -> Profile:
        """LoRA / QLoRA and offload are modelled on the transformer layouts (advisor.scaling.
        layouts): a language model's task."""
        if self.task in (Task.llm, Task.nlp):
            return self
        if self.training.method != TrainingMethod.full:
            raise ValueError("training.method: LoRA and QLoRA apply to transformer language "
                             "models (task llm or nlp)")
        if self.training.offload != Offload.none:
            raise ValueError("training.offload applies to transformer language models (task "
                             "llm or nlp)")
        return self


def default_profile() -> Profile:
    return Profile()
