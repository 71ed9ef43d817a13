"""The workload profile: everything the advisor needs to know about one training job.

Every field carries its unit (in its name or ``unit``), bounds, English and Chinese titles and
help, so the wizard and the CLI can be generated from the model alone (see ``field_meta``).
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from advisor.files.model_defaults import empty_list
from advisor.profile.alternatives import MAX_ALTERNATIVES, Alternative
from advisor.profile.economics import EconomicsSpec
from advisor.profile.enums import LossKernel, Offload, Optimizer, Task, TrainingMethod
from advisor.profile.field_meta import StrictSection, meta
from advisor.profile.hardware import HardwareSpec
from advisor.profile.measured import MeasuredSpec
from advisor.profile.workload import PER_SEQUENCE, ModelSpec, TrainingSpec, run_hours_problem

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
    alternatives: list[Alternative] = Field(default_factory=empty_list, max_length=MAX_ALTERNATIVES)
    notes: str = Field(default="", max_length=10_000)

    @model_validator(mode="after")
    def _sequence_for_token_rates(self) -> Profile:
        """A rate in tokens (frames) per second is a rate in samples only through the tokens
        (frames) one sample holds: the sequence length, which a default would only guess."""
        t = self.training
        if t.throughput_unit not in PER_SEQUENCE or t.single_gpu_throughput is None:
            return self
        if self.model.sequence_length is None:
            raise PydanticCustomError(
                "sequence_length_missing", "a throughput in {unit} needs {at}",
                {"unit": t.throughput_unit.value, "at": "model",
                 "at_path": ("sequence_length",), "line_at": "training.throughput_unit"})
        hours = self.run_hours_one_gpu
        if t.single_gpu_hours is None and hours is not None:  # bounded like single_gpu_hours
            problem = run_hours_problem(hours, "training", "single_gpu_throughput")
            if problem is not None:
                raise problem
        return self

    @property
    def throughput_items_per_sample(self) -> float:
        """How many of the single-GPU throughput's units one sample of the batch holds: 1 for
        samples and images, the sequence length for tokens and frames, the audio samples per
        sample for audio samples."""
        return self.training.items_per_sample(self.model.sequence_length)

    @property
    def single_gpu_samples_per_s(self) -> float | None:
        """The user's own single-GPU throughput in samples per second (given in any unit, or
        implied by a run's length), None when only the hours are known."""
        return self.training.samples_per_s(self.throughput_items_per_sample)

    @property
    def run_hours_one_gpu(self) -> float | None:
        """Hours of one run on one GPU, from the run time or from throughput × data (in any
        unit); None when the run is planned from its size (the projection's
        ``run_hours_one_gpu`` has it)."""
        return self.training.run_hours_for(self.throughput_items_per_sample)

    @property
    def fine_tunes(self) -> bool:
        """Whether a run fine-tunes a pretrained model (issue 29): said so (``fine_tuning``, or
        a LoRA / QLoRA method); else shown by the profile, unless ``fine_tuning: false`` is
        written: a language model named as a fine-tune (``fine_tuned_name``), or one of a
        billion parameters or more trained on fewer tokens than it has parameters
        (pre-training reads tens of tokens per parameter; a fine-tuning set is far smaller)."""
        t = self.training
        if t.is_fine_tuning:
            return True
        if "fine_tuning" in t.model_fields_set or self.task not in (Task.llm, Task.nlp):
            return False
        if fine_tuned_name(self.model.name):
            return True
        params = self.model.params_millions * 1e6
        return params >= 1e9 and t.dataset_tokens is not None and t.dataset_tokens < params

    @model_validator(mode="after")
    def _tensor_parallel_divides_heads(self) -> Profile:
        """Tensor parallel splits the attention heads: 3 ways cannot split 32 heads."""
        tp, heads = self.training.tensor_parallel, self.model.attention_heads
        kv = self.model.kv_heads  # Megatron-LM splits the key/value heads (query groups) too
        for field, count in (("attention_heads", heads), ("kv_heads", kv)):
            if tp and count and count % tp:  # named at its own line, with both numbers
                raise PydanticCustomError(
                    "tensor_parallel_heads",
                    f"{tp} must divide model.{field} ({count}): tensor parallel splits the "
                    "heads",
                    {"at": "training", "at_path": ("tensor_parallel",),
                     "message_zh": f"{tp} 必须整除 model.{field}（{count}）：张量并行按头切分"})
        return self

    @model_validator(mode="after")
    def _methods_for_transformers(self) -> Profile:
        """LoRA / QLoRA and offload are modelled on the transformer layouts (advisor.scaling.
        layouts): a language model's task; and on a diffusion model's denoiser (advisor.scaling.
        diffusion). Adafactor is counted on the data-parallel path only: not yet for a
        language model, which the layouts may plan."""
        if self.task in (Task.llm, Task.nlp):
            if self.training.optimizer == Optimizer.adafactor:
                raise ValueError("training.optimizer: adafactor is not modelled for language "
                                 "models (task llm or nlp) yet; choose adamw or adamw_8bit")
            return self
        if self.training.loss != LossKernel.auto:
            raise ValueError("training.loss applies to language models (task llm or nlp)")
        if self.task == Task.diffusion:
            return self
        if self.training.method != TrainingMethod.full:
            raise ValueError("training.method: LoRA and QLoRA apply to transformer language "
                             "models (task llm or nlp) and diffusion models (task diffusion)")
        if self.training.offload != Offload.none:
            raise ValueError("training.offload applies to transformer language models (task "
                             "llm or nlp) and diffusion models (task diffusion)")
        return self


_FINE_TUNED = re.compile(
    r"fine[-_ ]?tun|\bsft\b|instruct|\bchat\b|\bq?lora\b|alpaca|vicuna|\brlhf\b|\bdpo\b"
    r"|微调|指令", re.IGNORECASE)


def fine_tuned_name(name: str) -> bool:
    """A model name that says fine-tuning: "Llama-2-7B fine-tune", "Qwen2-7B-Instruct",
    "chatglm-6b chat", "Mistral-7B SFT", "LoRA on Llama", "微调"."""
    return bool(_FINE_TUNED.search(name.replace("_", " ")))


def default_profile() -> Profile:
    return Profile()
