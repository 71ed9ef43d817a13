"""A profile's large transformer over several GPU counts: the layout kept at each count.

``uses_layouts`` says when the projection takes this path: a language model (task ``llm``, or
an ``nlp`` transformer) that does not fit one GPU with plain data parallel or whose profile
fixes tensor or pipeline parallel, or an ``llm`` planned from its size. ``layout_curve`` searches every count
(``search.best_layout``) with what the profile fixes, plus one hypothetical GPU with enough
memory: the reference a speed-up is measured against (F05, F24).
"""

from __future__ import annotations

from dataclasses import replace

from advisor.catalog.gpus import GpuSpec
from advisor.files.records import record
from advisor.profile import (
    ActivationCheckpointing,
    KeepBatch,
    Offload,
    Parallelism,
    Profile,
    TrainingMethod,
)
from advisor.scaling.card_memory import usable_gb
from advisor.scaling.inputs import grad_bytes_per_param
from advisor.scaling.layouts.cluster import Cluster, cluster_of
from advisor.scaling.layouts.eligibility import uses_layouts as uses_layouts  # re-exported
from advisor.scaling.layouts.layout import Candidates
from advisor.scaling.layouts.methods import states_for
from advisor.scaling.layouts.offload import HOST_USABLE_FRACTION, shardings
from advisor.scaling.layouts.search import (
    Choice,
    Fixed,
    choose_many,
    enumerate_layouts,
    kept_by_memory,
)
from advisor.scaling.layouts.shape import ModelShape, shape_of
from advisor.scaling.layouts.states import StateBytes
from advisor.scaling.links import LinkFigures
from advisor.scaling.llm_compute import LlmParams, load_llm_params
from advisor.scaling.measured_memory import MEASURED_MARGIN, measured_batch_runs
from advisor.scaling.parameters import ScalingParams

_SHARDING = {Parallelism.data: ("none",), Parallelism.zero1: ("zero1",),
             Parallelism.zero2: ("zero2",), Parallelism.zero3: ("zero3",),
             Parallelism.fsdp: ("fsdp",), Parallelism.hsdp: ("hsdp",)}


def states_of(profile: Profile, shape: ModelShape | None = None) -> StateBytes:
    """The profile's method (full, LoRA, QLoRA), optimizer and offload (``methods.py``):
    mixed-precision Adam 2 + 2 + 12 bytes; AMP (autocast) keeps fp32 weights and gradients:
    4 + 4 + 8."""
    return states_for(profile, shape or shape_of(profile))


def fixed_of(profile: Profile, gpus_per_node: int,
             default_micro_batches_per_stage: float = 2.0) -> Fixed:
    """What the profile fixes. An explicit pipeline without a micro-batch count splits each
    step into ``default_micro_batches_per_stage`` x p micro-batches (F06: m = 2p gives 4
    GPUs about 3x)."""
    t = profile.training
    chosen = t.parallelism != Parallelism.auto
    tp, pp = t.tensor_parallel, t.pipeline_parallel
    if t.parallelism in _SHARDING:  # a data-parallel family: no split unless degrees given
        tp, pp = tp or 1, pp or 1
    elif t.parallelism == Parallelism.tensor:  # layers split inside a machine, replicas beyond
        pp = pp or 1
    elif t.parallelism == Parallelism.pipeline:  # the layers staged over the GPUs
        tp = tp or 1
    ep = None
    if t.offload != Offload.none:  # offload runs data parallel, sharded (offload.py)
        tp = pp = ep = 1
    if t.method == TrainingMethod.qlora and not chosen:
        # QLoRA's 4-bit weights (bitsandbytes, torchao NF4) run under FSDP or DeepSpeed ZeRO-3
        # (FSDP-QLoRA; PEFT, torchtune, Axolotl): data parallel, sharded; Megatron-LM and
        # NeMo split no NF4 layer by tensor or pipeline
        tp, pp = tp or 1, pp or 1
    return Fixed(tp=tp, pp=pp, ep=ep,
                 sharding=shardings(t.offload, _SHARDING.get(t.parallelism)),
                 micro_batch=t.batch_per_gpu if chosen else None,
                 interleave=t.pipeline_interleave,
                 max_micro_batch=t.batch_per_gpu,
                 min_tp=2 if t.parallelism == Parallelism.tensor else 1,
                 min_pp=2 if t.parallelism == Parallelism.pipeline else 1,
                 one_pipeline=t.parallelism == Parallelism.pipeline and not pp,
                 pipeline_micro_batches=t.micro_batches,
                 micro_batches_per_stage=default_micro_batches_per_stage
                 if t.parallelism == Parallelism.pipeline else None)


@record
class LayoutCurve:
    shape: ModelShape
    cluster: Cluster
    usable_gb: float
    choices: list[Choice]  # one per count
    reference: Choice  # one GPU with enough memory
    states: StateBytes = StateBytes()  # the method's and offload's bytes per parameter
    # one GPU's memory as estimated before a measured run corrected it (None: not corrected)
    estimated_one_gpu_gb: float | None = None
    # the usable GB of the card a moved training's run was timed on (None: this card)
    timed_usable_gb: float | None = None
    # the correction held only the activations to that card: the rest alone exceeded it
    activations_only: bool = False

    def tokens_per_s_per_gpu(self, i: int) -> float:
        c = self.choices[i]
        return c.tokens_per_step / (c.step_s * c.layout.gpus)

    @property
    def reference_tokens_per_s(self) -> float:
        return self.reference.tokens_per_step / self.reference.step_s


@record
class _Search:
    """A profile's search over its counts: the machines, the method's states, what the
    profile fixes, each count's global batch and the one GPU with enough memory that a
    speed-up is measured against."""

    gpus_per_node: int
    counts: list[int]
    batches: list[int]
    checkpointing: str
    fixed: Fixed
    loose: Fixed  # where what the profile fixes cannot run on a count
    reference: tuple[int, Fixed]  # the one GPU's batch and what it fixes
    cluster: Cluster
    states: StateBytes
    grads: float
    usable: float
    q: LlmParams

    def groups(self, shape: ModelShape) -> list[Candidates]:
        """Each count's candidates, then the reference's."""
        per_node, ck = self.gpus_per_node, self.checkpointing
        groups = [enumerate_layouts(shape, n, per_node, batch, ck, self.fixed)
                  for n, batch in zip(self.counts, self.batches, strict=True)]
        # what the profile fixes cannot run on n GPUs (degrees that do not divide it): the
        # nearest split that can
        groups = [g if g.size else enumerate_layouts(shape, n, per_node, batch, ck, self.loose)
                  for g, n, batch in zip(groups, self.counts, self.batches, strict=True)]
        one, fixed = self.reference
        groups.append(enumerate_layouts(shape, 1, per_node, one, ck, fixed))
        return groups

    @property
    def limits(self) -> list[float]:
        """Each count's usable memory, then the reference's (none)."""
        return [self.usable] * len(self.counts) + [float("inf")]

    @property
    def host_usable_gb(self) -> float:
        return self.cluster.host_memory_gb * HOST_USABLE_FRACTION

    def choose(self, shape: ModelShape) -> list[Choice | None]:
        return choose_many(shape, self.groups(shape), self.cluster, self.states, self.q,
                           self.grads, self.limits, self.q.context_overhead_gb,
                           host_usable_gb=self.host_usable_gb)


def _search(profile: Profile, counts: list[int], gpu: GpuSpec, links: LinkFigures,
            p: ScalingParams, q: LlmParams | None) -> tuple[_Search, ModelShape]:
    t = profile.training
    hw = profile.hardware
    shape = shape_of(profile)
    one = t.global_batch or t.batch_per_gpu * t.gradient_accumulation_steps
    offloading = t.offload != Offload.none
    states = states_of(profile, shape)
    search = _Search(
        gpus_per_node=hw.gpus_per_node, counts=counts,
        # the global batch a step holds: the profile's, else the one-GPU batch when it is kept
        # as GPUs are added (keep_batch: global; issue 29: the layout's global batch is the
        # one the learning-rate text names), else the one-GPU batch on every GPU
        batches=[t.global_batch or t.batch_per_gpu * t.gradient_accumulation_steps
                 * (1 if t.keep_batch == KeepBatch.global_ else n) for n in counts],
        checkpointing=ActivationCheckpointing(t.activation_checkpointing).value,
        fixed=fixed_of(profile, hw.gpus_per_node, p.default_microbatches_per_stage),
        loose=Fixed(max_micro_batch=t.batch_per_gpu, tp=1 if offloading else None,
                    pp=1 if offloading else None, ep=1 if offloading else None,
                    sharding=shardings(t.offload, None)),
        reference=(one, Fixed(micro_batch=min(t.batch_per_gpu, one),
                              sharding=shardings(t.offload, _reference_sharding(t, states)))),
        cluster=cluster_of(gpu, links, t.precision, hw.gpus_per_node, p.busbw_efficiency,
                           hw.host_memory_gb),
        states=states, grads=grad_bytes_per_param(profile),
        usable=usable_gb(gpu.memory_gb, p), q=q or load_llm_params())
    return search, shape


def _reference_sharding(t, states: StateBytes) -> tuple[str, ...] | None:
    """What the one GPU a speed-up is measured against shards: whatever is fastest, except
    that a fine-tune the profile runs under DeepSpeed ZeRO-3 runs it on one GPU too, paying
    its fetch / release hooks there (``llm_compute.host_per_micro_batch_s``: Qwen's 1.8B
    full-parameter runs on one A100, benchmarks/finetune_speed.py)."""
    chosen = _SHARDING.get(t.parallelism)
    return chosen if chosen == ("zero3",) and states.eager_layers else None


def layout_curve(profile: Profile, counts: list[int], gpu: GpuSpec, links: LinkFigures,
                 p: ScalingParams, q: LlmParams | None = None) -> LayoutCurve:
    search, shape = _search(profile, counts, gpu, links, p, q)
    usable = search.usable
    chosen = search.choose(shape)
    estimated = None
    timed_gb = profile.training.timed_card_gb  # a run timed on the user's card (moved here)
    timed_usable = usable if timed_gb is None else usable_gb(timed_gb, p)
    scale = measured_activation_scale(profile, chosen[-1], timed_usable)
    # the states (and the rest) alone exceed the card timed on: only its activations held
    activations_only = chosen[-1].needed_gb - _activations(chosen[-1]) >= timed_usable
    if scale < 1.0:  # the batch measured on one GPU ran there: the estimate follows it
        estimated = chosen[-1].memory_gb
        shape = replace(shape, activation_scale=scale)
        chosen = search.choose(shape)
    choices, reference = chosen[:-1], chosen[-1]
    return LayoutCurve(shape=shape, cluster=search.cluster, usable_gb=usable, choices=choices,
                       reference=reference, states=search.states,
                       estimated_one_gpu_gb=estimated,
                       timed_usable_gb=None if timed_gb is None else timed_usable,
                       activations_only=estimated is not None and activations_only)


def kept_memory(profile: Profile, counts: list[int], gpu: GpuSpec, links: LinkFigures,
                p: ScalingParams, q: LlmParams | None = None
                ) -> tuple[list[float | None], float] | None:
    """What ``layout_curve`` decides from the candidates' memory alone (no step time, no
    pick): per count None where a layout fits, else the ``memory_gb`` of the one it keeps
    (the smallest); and the usable memory. None when a batch measured on one GPU may correct
    the activation estimate (the curve's second search, which reads the reference's pick)."""
    if measured_batch_runs(profile):
        return None
    search, shape = _search(profile, counts, gpu, links, p, q)
    groups = search.groups(shape)
    held = profile.training.global_batch
    if held and any(g.size and bool((g.dp > held).all()) for g in groups[:-1]):
        return None  # no split keeps the global batch there: the split picked says (the curve)
    # the reference's group too, its answer dropped: the candidates ``layout_curve`` searches,
    # whose memory a projection of the same question then reads again (``shared_memory``)
    kept = kept_by_memory(shape, groups, search.cluster, search.states,
                          search.limits, search.q.context_overhead_gb, search.host_usable_gb)
    return kept[:-1], search.usable


def measured_activation_scale(profile: Profile, reference: Choice | None,
                              usable_gb: float) -> float:
    """How far a single-GPU run measured at the profile's batch
    (``training.single_gpu_throughput``) says the activation estimate (the layers' activations
    and the output layer's logits, both per token of an assumed length) must shrink for that
    batch to fit one card, as ``advisor.scaling.measured_memory`` does for data parallel: 1
    when it fits as estimated, or when nothing was measured. Where the other parts (the model
    states) alone exceed the card, sharding explains the run, and only the activations are
    held to the card (they ran there). ``usable_gb``: that of the card the run was timed on."""
    if reference is None or not measured_batch_runs(profile):
        return 1.0
    act = _activations(reference)
    rest = reference.needed_gb - act  # the model states, buffers and the CUDA context
    if reference.needed_gb <= usable_gb or act <= 0.0:
        return 1.0
    if rest >= usable_gb:
        return min(1.0, usable_gb * MEASURED_MARGIN / act)
    return (usable_gb - rest) * MEASURED_MARGIN / act


def _activations(reference: Choice) -> float:
    """GB of one GPU's activations and the output layer's logits (what a batch adds)."""
    return float(reference.memory.activations[0] + reference.memory.logits[0])
