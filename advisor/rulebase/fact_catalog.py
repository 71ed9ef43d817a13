"""The facts a rule may test: each fact's name, type, allowed values or range (also used to draw
random valid fact sets for the stress test), whether it may be absent, and its stage: ``base``
facts exist before the verdict, ``verdict`` facts are added once the rating and GPU count are
known (setup, pitfall and advice rules read them), ``setup`` facts once the split and deployment
are chosen (pitfall and advice rules read them).

``FACTS`` is the vocabulary every rule is checked against at load time; ``check_facts`` holds a
fact set to it before the engine sees it (durable_rules matches flat messages of scalars: no
joins, no nesting).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from advisor.files.records import record
from advisor.profile import (
    Cooling,
    EconomicsMode,
    InputPipeline,
    InterLink,
    IntraLink,
    Precision,
    Task,
    TimeValue,
    Virtualization,
)

Scalar = str | int | float | bool

TIME_VALUE_UNSAID = "unsaid"  # economics.time_value left empty: what time is worth not said
ALTERNATING_TASKS = frozenset({Task.gan.value, Task.reinforcement_learning.value})  # F21
OBSERVATION_IDS = ("thermal_throttling", "power_capped", "data_starvation", "vgpu_sharing",
                   "pcie_link_downgraded", "laggard_gpu", "no_nvlink")
PARALLELISMS = ("data", "zero", "fsdp", "tensor", "pipeline", "hybrid")
BOTTLENECKS = ("compute", "communication", "input_pipeline", "memory", "synchronisation",
               "pipeline_bubble", "alternating_training", "virtualization")
RATINGS = ("not_worth_it", "optional", "worth_it", "required")
GPU_CLASSES = ("consumer", "workstation", "datacenter", "unknown")
# A recommendation model this large is embedding tables for the most part: its dense MLP
# stays small (DLRM, DCN), so the tables are what must be sharded (F05, F24).
EMBEDDING_HEAVY_PARAMS_MILLIONS = 1000.0
# durable_rules' JSON reader rejects exponent notation (error 204): every number sent to it is
# kept in the range Python prints without an exponent.
NUMBER_LIMIT = 1e15
NUMBER_EPSILON = 1e-4


@record
class FactSpec:
    kind: str  # str | int | float | bool
    choices: tuple[str, ...] = ()
    low: float = 0.0
    high: float = 0.0
    optional: bool = False
    stage: str = "base"  # base | verdict | setup


def _s(*choices: str, optional: bool = False, stage: str = "base") -> FactSpec:
    return FactSpec("str", tuple(choices), optional=optional, stage=stage)


def _n(kind: str, low: float, high: float, *, optional: bool = False,
       stage: str = "base") -> FactSpec:
    return FactSpec(kind, (), low, high, optional, stage)


_B = FactSpec("bool")
_VB = FactSpec("bool", stage="verdict")

FACTS: dict[str, FactSpec] = {
    # the workload
    "task": _s(*(t.value for t in Task)),
    "alternating_training": _B,
    "params_millions": _n("float", 0.001, 10_000_000),
    # one GPU's hours: a large model planned from its size is timed on one hypothetical GPU
    "single_gpu_hours": _n("float", 0.01, 10_000_000),
    "runs_per_month": _n("float", 0, 10_000),
    "monthly_gpu_hours": _n("float", 0, 1_000_000),  # one-GPU hours of work a month
    # the smallest fitting count whose month of runs fits in the month's 730 h, and its hours
    "keep_up_gpus": _n("int", 1, 100_000, optional=True),
    "keep_up_monthly_hours": _n("float", 0, 1_000_000, optional=True),
    "horizon_months": _n("float", 0.1, 120),
    "precision": _s(*(p.value for p in Precision)),
    # activation checkpointing already on (full or selective), and pure 16-bit states
    "checkpointing_on": _B,
    "pure_16bit": _B,
    "batch_per_gpu": _n("int", 1, 1_000_000),
    # the profile holds the global batch (training.global_batch): more GPUs do not grow it
    "global_batch_fixed": _B,
    # how the learning rate follows the batch (F14's linear rule is for SGD-like training)
    "optimizer_family": _s("sgd", "adam"),
    # one pass over the data or less (LLM pre-training, most fine-tuning): warm-up in steps
    "single_pass_run": _B,
    "fine_tuning": _B,
    "pretrains_llm": _B,
    "reads_tokenised_data": _B,
    "nominal_batch_framework": _B,
    # the verdict rests on a setup change (advisor.verdict.fits_here): none, a setting of the
    # same training, or a change of method (LoRA / QLoRA instead of full fine-tuning)
    "setup_change": _s("none", "setting", "method", "rent", "more_machines", "pipeline",
                       "rent_offer", "buy_setup"),
    "input_pipeline": _s(*(p.value for p in InputPipeline)),
    "workers_per_gpu": _n("int", 0, 256, optional=True),
    "user_parallelism": _s("auto", *PARALLELISMS),
    "micro_batches": _n("int", 1, 4096, optional=True),
    "has_measurements": _B,
    # which weights are trained (full, lora, qlora) and, when given, the images or samples
    # of one epoch
    "training_method": _s("full", "lora", "qlora"),
    "dataset_samples": _n("int", 1, 10**13, optional=True),
    # a diffusion fine-tune (task diffusion, advisor/scaling/diffusion.py): GB the frozen text
    # encoders and VAE and the EMA copy take on each GPU, the share of a step the encoders
    # compute (%), and one GPU's memory with the usual savings (full checkpointing, Adafactor
    # or 8-bit AdamW, cached text embeddings and latents, the EMA in host RAM) and whether
    # that fits the card; absent for other tasks
    "diffusion_frozen_gb": _n("float", 0, 1_000_000, optional=True),
    "diffusion_encoder_percent": _n("float", 0, 100, optional=True),
    "diffusion_ema_gb": _n("float", 0, 1_000_000, optional=True),
    "diffusion_lean_gb": _n("float", 0, 1_000_000, optional=True),
    "diffusion_lean_fits": FactSpec("bool", optional=True),
    # a recommender whose parameters are mostly embedding tables (F05, F24, F26): sharded
    # model parallel tables, data parallel MLP
    "embedding_heavy": _B,
    # the hardware
    "gpu_memory_gb": _n("float", 1, 4096),
    "gpu_tdp_w": _n("float", 10, 5000),
    "gpu_has_nvlink": _B,
    # the catalog's class: consumer cards ship open-air coolers, the others blowers or passive
    "gpu_class": _s(*GPU_CLASSES),
    "link": _s(*(link.value for link in IntraLink)),
    "link_is_pcie": _B,
    "inter_link": _s(*(link.value for link in InterLink)),
    "gpus_per_node": _n("int", 1, 64),
    "nodes": _n("int", 1, 4096),
    "total_gpus": _n("int", 1, 100_000),
    "gpus_you_have": _n("int", 1, 100_000),
    "virtualization": _s(*(v.value for v in Virtualization)),
    "cooling": _s(*(c.value for c in Cooling)),
    "max_temp_c": _n("float", 0, 130, optional=True),
    "hardware_imported": _B,
    # the money
    "economics_mode": _s(*(m.value for m in EconomicsMode)),
    "currency": _s("CNY", "USD", "EUR"),  # the cost report's (money facts are in it)
    "currency_sign": _s("¥", "$", "€"),  # the same, as a sentence writes money ("$1,200")
    # what a day saved is worth, as the user said it; "unsaid" when they did not (the rating
    # then follows the article's table, rules/README.md "What time is worth")
    "time_value": _s(*(t.value for t in TimeValue), TIME_VALUE_UNSAID),
    "value_per_day": _n("float", 0, 1e10, optional=True),
    "deadline_days": _n("float", 0.01, 3650, optional=True),
    "moved_before": _B,
    # the projection (F01-F08, F18-F24)
    "max_gpus_projected": _n("int", 1, 100_000),
    "speedup_2": _n("float", 0.1, 2, optional=True),
    "speedup_4": _n("float", 0.1, 4, optional=True),
    "speedup_8": _n("float", 0.1, 8, optional=True),
    "speedup_16": _n("float", 0.1, 16, optional=True),
    "efficiency_4": _n("float", 0.01, 1, optional=True),
    "efficiency_8": _n("float", 0.01, 1, optional=True),
    "gain_8_to_16": _n("float", -1, 1, optional=True),  # speedup_16 / speedup_8 - 1 (F08)
    "speedup_max": _n("float", 0.01, 100_000),  # at the largest GPU count projected
    "efficiency_max": _n("float", 0.0, 1),
    # F02: the smallest fitting count within USEFUL_GAIN of the best fitting speed-up (more GPUs
    # add nothing), and its speed-up; absent when no count projected fits
    "useful_gpus": _n("int", 1, 100_000, optional=True),
    "useful_speedup": _n("float", 0.01, 100_000, optional=True),
    "more_gpus_add_nothing": _B,  # useful_gpus is below the largest count projected
    "bottleneck_max": _s(*BOTTLENECKS),  # at the largest GPU count projected
    "fits_one_gpu": _B,
    "min_gpus_fit": _n("int", 1, 100_000, optional=True),  # absent: fits at no count projected
    # when nothing projected fits: the smallest larger count that would (ZeRO-3 / FSDP / model
    # parallel), on more machines like this one (advisor/verdict/beyond.py); absent if none up to 256
    "fit_gpus_beyond": _n("int", 1, 100_000, optional=True),
    # ... and with activation checkpointing, when it is off and would need fewer GPUs (F24)
    "fit_gpus_checkpointing": _n("int", 1, 100_000, optional=True),
    "checkpointing_fits_here": _B,  # ... and that count is within the profile's own GPUs
    "memory_per_gpu_gb": _n("float", 0, 1_000_000),  # at one GPU
    # how far above / below its estimate a language model's measured peak memory lies at most
    # in 9 runs of 10, in per cent, and one GPU's usable GB and how far over it the estimate is
    # (advisor/verdict/memory_limit.py; only where the spread was measured: language models)
    "memory_peak_over_percent": _n("float", 0, 100),
    "memory_peak_under_percent": _n("float", 0, 100),
    "one_gpu_usable_gb": _n("float", 0, 1_000_000, optional=True),
    "one_gpu_needed_gb": _n("float", 0, 1_000_000, optional=True),  # what must fit the card
    "one_gpu_short_percent": _n("float", 0, 1e9, optional=True),  # absent: one GPU fits
    "one_gpu_near_fit": _B,  # ... short of one card by less than a peak below the estimate
    # the same of one of the user's own GPUs and the training as they set it up, where the
    # answer rests on a setup change whose one-GPU figures do not say it (own_card_facts)
    "own_gpu_usable_gb": _n("float", 0, 1_000_000, optional=True),
    "own_gpu_needed_gb": _n("float", 0, 1_000_000, optional=True),
    "own_gpu_short_percent": _n("float", 0, 1e9, optional=True),
    "own_gpu_near_fit": _B,
    # the batch's activations on one GPU: more GPUs or ZeRO-3 do not shrink them (F24)
    "activation_gb": _n("float", 0, 1_000_000),
    "activations_exceed_card": _B,  # activation_gb alone is more than one card's memory
    # the costs (F02, F09-F12, F31)
    "best_value_gpus": _n("int", 1, 100_000),
    "deadline_gpus": _n("int", 1, 100_000, optional=True),
    "deadline_gpus_for_time": _n("int", 1, 100_000, optional=True),
    "deadline_gpus_for_memory": _n("int", 1, 100_000, optional=True),
    # a month, at best_value_gpus, vs one GPU; unknown (absent) when renting is the mode and no
    # cloud price is known: the figures would hold only the one-off move, not a price
    "net_value_best": _n("float", -1e12, 1e12, optional=True),
    # what net_value_best and net_value_near_best are measured against (the cost model's
    # baseline): one GPU of this setup when one can run the job, else the fewest GPUs of it
    # that can. Rule messages quote it with the value, so a verdict never reads as measured
    # against something else (a comparison measures against the user's setup)
    "net_value_base": _s("one_gpu", "owned", "fewest_that_run", "fewest_that_keep_schedule"),
    "breakeven_months": _n("float", 0, 10_000, optional=True),
    "breakeven_hours_per_month": _n("float", 0, 1_000_000, optional=True),
    # both sides priced, yet owning never beats renting within a month's 730 h (F31)
    "owning_never_pays": _B,
    # a day saved pays the extra electricity of a month, the bulk of the extra cost (F12)
    "day_value_covers_energy": _B,
    # F02 with F01's ranges: the fewest fitting GPUs whose net value a month is within
    # NEAR_BEST of the best count's, and that net value (absent when the best is not positive)
    "near_best_gpus": _n("int", 1, 100_000, optional=True),
    "net_value_near_best": _n("float", -1e12, 1e12, optional=True),
    # hardware import observations (advisor.hwimport)
    **{f"obs_{oid}": _B for oid in OBSERVATION_IDS},
    # the verdict, added before the setup / pitfall / advice rules run
    "verdict_rating": _s(*RATINGS, stage="verdict"),
    "verdict_gpus": _n("int", 1, 100_000, stage="verdict"),
    "verdict_wanted_gpus": _n("int", 1, 100_000, stage="verdict"),  # before the hardware cap
    "verdict_gpus_short": _n("int", 0, 100_000, stage="verdict"),  # wanted - verdict_gpus
    "verdict_nodes": _n("int", 1, 4096, stage="verdict"),
    "verdict_speedup": _n("float", 0.1, 100_000, stage="verdict"),
    "verdict_efficiency": _n("float", 0.01, 1, stage="verdict"),
    "verdict_projected_parallelism": _s(*PARALLELISMS, stage="verdict"),
    "verdict_bottleneck": _s(*BOTTLENECKS, stage="verdict"),
    "verdict_fits": _VB,
    # memory at the recommended count: GB per GPU, usable GB, the share planned, and a run that
    # fits within the spread of the limit (advisor/verdict/memory_limit.py)
    "verdict_memory_gb": _n("float", 0, 1_000_000, optional=True, stage="verdict"),
    "verdict_usable_gb": _n("float", 0, 1_000_000, optional=True, stage="verdict"),
    "verdict_memory_percent": _n("float", 0, 1e9, optional=True, stage="verdict"),
    "verdict_memory_at_limit": FactSpec("bool", optional=True, stage="verdict"),
    "verdict_interleaved": _VB,
    "verdict_cards_owned": _VB,
    # rented at the typical rate in machines no offer of the market rents (facts.py)
    "rented_shape_unoffered": FactSpec("bool", optional=True, stage="verdict"),
    "rented_cards_per_machine": _n("int", 1, 4096, optional=True, stage="verdict"),
    "rented_machines_joined": FactSpec("bool", optional=True, stage="verdict"),
    "rented_rate_borrowed": FactSpec("bool", optional=True, stage="verdict"),
    "nearly_free_gpus": _n("int", 1, 1_000_000, optional=True, stage="verdict"),
    "nearly_free_hours": _n("float", 0, 1e12, optional=True, stage="verdict"),
    "nearly_free_extra_pct": _n("float", 0, 100, optional=True, stage="verdict"),
    "verdict_run_hours": _n("float", 0, 1e12, optional=True, stage="verdict"),
    "verdict_micro_batches": _n("int", 1, 1_000_000, optional=True, stage="verdict"),
    "verdict_not_best_value": _VB,
    "verdict_monthly_hours": _n("float", 0, 1_000_000, stage="verdict"),
    "monthly_budget": _n("float", 0, 1e15, stage="verdict"),
    "verdict_cost_per_month": _n("float", 0, 1e15, stage="verdict"),
    "verdict_over_budget": _VB,
    "verdict_cost_per_run": _n("float", 0, 1e12, optional=True, stage="verdict"),
    "verdict_run_over_budget": FactSpec("bool", optional=True, stage="verdict"),
    "verdict_hours_over_breakeven": _n("float", 0, 1e6, optional=True, stage="verdict"),
    # what a day saved would have to be worth for the verdict's count to pay for itself
    # against the baseline (F02); absent when it saves no time or is not priced
    "verdict_day_value_to_pay": _n("float", 0, 1e12, optional=True, stage="verdict"),
    "verdict_system_w": _n("float", 0, 1e7, stage="verdict"),
    # the power supply to fit: the whole-setup draw plus 20 %, rounded up to 50 W (F23)
    "verdict_psu_w": _n("float", 0, 1.2e7, stage="verdict"),
    "verdict_global_batch": _n("int", 1, 1e12, stage="verdict"),
    "verdict_workers_low": _n("int", 0, 1e6, stage="verdict"),  # 2 per GPU (F13)
    "verdict_workers_high": _n("int", 0, 1e6, stage="verdict"),  # 4 per GPU (F13)
    # model replicas that split each batch: N for data / ZeRO / FSDP, N / tensor ways for
    # tensor and hybrid, 1 for pipeline (the global batch, F14, grows only with it)
    "verdict_data_parallel": _n("int", 1, 100_000, stage="verdict"),
    # the initial learning rate's factor for that batch: k (SGD-like, F14), at most sqrt(k)
    # for Adam-family optimizers (the square-root rule)
    "verdict_lr_factor": _n("float", 1, 100_000, stage="verdict"),
    # with a deadline (F12): the hours the runs due before it take at the verdict's count, at
    # the projection's estimate and at the slow end of its band (F01: a range, not a number),
    # the hours to the deadline, and whether only the estimate meets it
    "verdict_deadline_hours_needed": _n("float", 0, 1e8, optional=True, stage="verdict"),
    "verdict_deadline_hours_needed_slow": _n("float", 0, 1e8, optional=True, stage="verdict"),
    "verdict_deadline_hours": _n("float", 0, 1e6, optional=True, stage="verdict"),
    "verdict_move_days": _n("float", 0, 365, optional=True, stage="verdict"),
    "verdict_move_hours": _n("float", 0, 24 * 365, optional=True, stage="verdict"),
    "verdict_pipeline_stages": _n("int", 2, 100_000, optional=True, stage="verdict"),
    "verdict_micro_batches_per_stage": _n("float", 0, 1e6, optional=True, stage="verdict"),
    "day_rate_default": _n("float", 0, 1e7, optional=True, stage="verdict"),
    "day_rate_decides": FactSpec("bool", optional=True, stage="verdict"),
    "move_free_best_gpus": _n("int", 1, 100_000, optional=True, stage="verdict"),
    "move_free_gain_per_month": _n("float", 0, 1e12, optional=True, stage="verdict"),
    "move_cost_default": _n("float", 0, 1e12, optional=True, stage="verdict"),
    "verdict_deadline_hours_after_move": _n("float", 0, 1e8, optional=True, stage="verdict"),
    "verdict_deadline_missed_after_move": FactSpec("bool", optional=True, stage="verdict"),
    "verdict_deadline_missed": FactSpec("bool", optional=True, stage="verdict"),
    "verdict_deadline_tight": FactSpec("bool", optional=True, stage="verdict"),
    # the setup, added before the pitfall and advice rules run
    "verdict_deployment": _s("own", "cloud", "either", stage="setup"),
    "verdict_parallelism": _s(*PARALLELISMS, stage="setup"),
}


def scalar(value: Any) -> Scalar:
    """A value durable_rules can read: bool/str as they are, numbers finite and exponent-free."""
    kind = type(value)
    if kind is bool or kind is str:
        return value
    if kind is int:
        return value if -NUMBER_LIMIT <= value <= NUMBER_LIMIT else \
            int(max(-NUMBER_LIMIT, min(NUMBER_LIMIT, value)))
    if kind is float:
        if not math.isfinite(value):
            raise ValueError(f"fact value must be finite, got {value!r}")
        if -NUMBER_EPSILON < value < NUMBER_EPSILON:
            return 0.0
        return max(-NUMBER_LIMIT, min(NUMBER_LIMIT, round(value, 6)))
    if isinstance(value, bool | str | int | float):  # subclasses (enums): plain values
        return scalar(value.value if hasattr(value, "value") else kind.__base__(value))
    raise TypeError(f"fact values are str, int, float or bool; got {kind.__name__}")


def _type_problem(name: str, spec: FactSpec, value: Any) -> str | None:
    kind = type(value)
    if spec.kind == "bool":
        return None if kind is bool else f"fact {name} must be true or false, got {value!r}"
    if spec.kind == "str":
        return None if isinstance(value, str) and value in spec.choices else \
            f"fact {name} must be one of {spec.choices}, got {value!r}"
    if kind is bool or not isinstance(value, int | float):
        return f"fact {name} must be a number, got {value!r}"
    if spec.kind == "int" and not isinstance(value, int):
        return f"fact {name} must be a whole number, got {value!r}"
    return None


class FactSet(dict):
    """A fact set that ``check_facts`` has validated (the engine does not check it again), so
    it is read-only; ``dict(facts)`` gives a copy to change."""

    def _read_only(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("a checked fact set is read-only; change dict(facts) instead")

    __setitem__ = __delitem__ = update = pop = popitem = setdefault = clear = _read_only  # type: ignore[assignment]


def check_facts(facts: Mapping[str, Any]) -> FactSet:
    """Validate a fact set against ``FACTS``: known names, right types, allowed values."""
    if type(facts) is FactSet:
        return facts
    clean: dict[str, Scalar] = {}
    for name, value in facts.items():
        spec = FACTS.get(name)
        if spec is None:
            raise ValueError(f"unknown fact {name!r}")
        kind = type(value)
        # the common cases first, with what _type_problem and scalar give them (three fact
        # sets of ~80 facts per recommendation)
        if kind is bool and spec.kind == "bool" or kind is str and spec.kind == "str" and \
                value in spec.choices:
            clean[name] = value
            continue
        problem = _type_problem(name, spec, value)
        if problem:
            raise ValueError(problem)
        clean[name] = scalar(value)
    for name in _REQUIRED:
        if name not in clean:
            raise ValueError(f"fact {name} is missing")
    return FactSet(clean)


_REQUIRED = tuple(n for n, s in FACTS.items() if s.stage == "base" and not s.optional)
