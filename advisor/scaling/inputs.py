"""From a Profile to the physical inputs of the model: compute time, bytes, links, pipeline."""

from __future__ import annotations

from dataclasses import replace

from advisor.catalog.cooling import fitted_cooling
from advisor.catalog.gpus import GpuSpec
from advisor.profile import (
    Cooling,
    GradientDtype,
    InputPipeline,
    Offload,
    Precision,
    Profile,
    Storage,
    Task,
    Virtualization,
)
from advisor.scaling import diffusion
from advisor.scaling.activations import SEQUENCE_TASKS, recompute_factor
from advisor.scaling.links import LinkFigures
from advisor.scaling.memory import embedding_sharded
from advisor.scaling.parameters import (
    ScalingParams,
    default_sequence_length,
    flops_per_param_by_task,
    load_params,
    loader_s_per_sample_by_task,
    membound_share_by_task,
    mfu_by_task,
)
from advisor.scaling.peak import peak_tflops
from advisor.scaling.physics import DataParallelInputs
from advisor.scaling.task_defaults import inputs_vary, takes_turns

# Storage makes a default loader's stall worse or better (F28); assumption, see the README.
_STORAGE_STALL = {Storage.hdd: 2.0, Storage.network: 1.5, Storage.sata_ssd: 1.2,
                  Storage.nvme: 1.0, Storage.ram: 0.5}
PESSIMISTIC_VGPUS = 4.0  # F29: an "8-GPU" instance that runs like 2
# Vision and diffusion models' FLOPs per sample are counted as torchvision, fvcore and the
# catalog list them, 3 x the forward multiply-adds: half the FLOPs forward + backward do at 2
# per multiply-add (the language and speech models' 6 x parameters x tokens counts FLOPs)
MULTIPLY_ADD_UNITS_PER_FLOP = 0.5
DIFFUSION_UNITS_PER_FLOP = MULTIPLY_ADD_UNITS_PER_FLOP
_MULTIPLY_ADD_TASKS = frozenset({Task.image_classification, Task.object_detection,
                                 Task.segmentation, Task.diffusion})


def counted_per_flop(task: Task) -> float:
    """The FLOPs the advisor counts for a ``task``'s sample per FLOP its GPU does: 0.5 where
    they are counted in multiply-adds (vision, diffusion), else 1."""
    return MULTIPLY_ADD_UNITS_PER_FLOP if task in _MULTIPLY_ADD_TASKS else 1.0


def grad_bytes_per_param(profile: Profile) -> float:
    """Bytes of one exchanged gradient: AMP keeps fp32 gradients unless told otherwise."""
    dtype = profile.training.gradient_dtype
    if dtype == GradientDtype.auto:
        return 2.0 if profile.training.precision in (Precision.fp16, Precision.bf16,
                                                     Precision.fp8) else 4.0
    return 4.0 if dtype == GradientDtype.fp32 else 2.0


def sequence_length(profile: Profile) -> int:
    if profile.model.sequence_length:
        return profile.model.sequence_length
    return int(default_sequence_length().get(profile.task.value, 512))


def flops_per_sample(profile: Profile) -> float:
    """Training FLOPs of one sample: given, else 6 x params x tokens (language and speech
    models), else the FLOPs per parameter of the task's typical model at its typical input size
    (a user who gives no FLOPs is taken to train the usual model of the task, e.g. a two-stage
    detector at 1333 x 800; table and sources in parameters.yaml)."""
    if profile.task == Task.diffusion:  # at the training resolution (diffusion.py)
        return diffusion.step_flops(profile, load_params()) + diffusion.encoder_flops(profile)
    if profile.model.flops_per_sample_gflops:
        return profile.model.flops_per_sample_gflops * 1e9
    return default_flops_per_sample(profile.task, profile.model.params_millions,
                                    sequence_length(profile))


def default_flops_per_sample(task: Task, params_millions: float, tokens: float) -> float:
    """Training FLOPs of one sample when the user gives none (also the benchmark's defaults
    path): 6 x params x tokens for sequence models, else the typical model's FLOPs per
    parameter of the task."""
    params = params_millions * 1e6
    if task in SEQUENCE_TASKS:
        return 6.0 * params * tokens
    table = flops_per_param_by_task()
    return params * table.get(task.value, table.get("other", 1000.0))


def effective_tflops(gpu: GpuSpec, precision: Precision, p: ScalingParams,
                     task: Task = Task.other) -> float:
    """Sustained training TFLOP/s: the task's achieved share of a blend of the tensor peak and
    the memory bandwidth. Part of every step (normalisation, activations, optimizer, attention
    soft-max) streams memory instead of multiplying: consumer and older cards with a low peak
    but a similar bandwidth train faster than their peak says. Both shares are fitted on the
    published single-GPU throughputs (benchmarks/fit_projection.py). A diffusion model's
    denoiser, mostly transformer blocks, runs at the language models' shares, its FLOPs
    counted as 3 x multiply-adds: half the FLOPs it does (diffusion.py)."""
    peak = peak_tflops(gpu, precision, task)
    fitted = Task.nlp if task == Task.diffusion else task
    units = counted_per_flop(task) / counted_per_flop(fitted)
    mfu = mfu_by_task()
    share = mfu.get(fitted.value, mfu.get("other", p.model_flops_utilisation))
    memory = membound_share_by_task()
    m = memory.get(fitted.value, memory.get("other", 0.0))
    if not gpu.memory_bandwidth_gbs or m <= 0.0:
        return peak * share * units
    # The memory-bound part runs at bandwidth x the reference card's FLOPs per byte.
    streamed = gpu.memory_bandwidth_gbs * p.reference_flops_per_byte / 1000.0
    return share / ((1.0 - m) / peak + m / streamed) * units


# Vision models built of transformer blocks multiply large matrices as the language models
# do; the image tasks' fitted shares come from convolution networks (DLE's ResNet,
# EfficientNet, SSD, Mask R-CNN), which reach far less of the tensor peak (review 5: a ViT-L
# planned at 3 % of an L40S's peak, 57 images/s, about 4 times slow)
TRANSFORMER_VISION = frozenset({"vit"})
_VISION = frozenset({Task.image_classification, Task.object_detection, Task.segmentation})


def efficiency_task(profile: Profile) -> Task:
    """The task whose achieved shares of peak and bandwidth the workload runs at: a catalog
    vision transformer at the language models' (``Task.nlp``), every other at its own."""
    if profile.task in _VISION and profile.model.id:
        from advisor.catalog.models import find_model

        entry = find_model(profile.model.id)
        if entry is not None and entry.architecture in TRANSFORMER_VISION:
            return Task.nlp
    return profile.task


def single_gpu_samples_per_s(profile: Profile) -> float | None:
    """The user's own single-GPU throughput in samples per second: given (in samples, or in
    tokens, frames or audio samples converted by their count per sample), or implied by a
    run's length (samples x epochs / hours); None when only the hours are known."""
    return profile.single_gpu_samples_per_s


def sharded_embeddings(profile: Profile, gpu: GpuSpec, p: ScalingParams) -> bool:
    """A DLRM-style recommender: its parameters are mostly embedding tables, and when plain
    data parallel does not fit one GPU they are sharded across the GPUs (model parallel,
    TorchRec / HugeCTR) while the dense MLPs stay data parallel. Only the dense share
    (``recommendation_dense_fraction``) is all-reduced; lookups cross an all-to-all. Smaller
    recommenders that fit one GPU are replicated and all-reduced like any model (F20).
    An explicit parallelism in the profile is kept as given."""
    return embedding_sharded(profile, gpu.memory_gb, p)


def dense_params_millions(profile: Profile, gpu: GpuSpec, p: ScalingParams) -> float:
    """Parameters whose gradients are all-reduced and whose FLOPs make the step."""
    share = p.recommendation_dense_fraction if sharded_embeddings(profile, gpu, p) else 1.0
    return profile.model.params_millions * share


def exchanged_params_millions(profile: Profile, gpu: GpuSpec, p: ScalingParams) -> float:
    """Parameters whose gradients are all-reduced and updated: the dense ones, or a diffusion
    model's trained ones (its LoRA adapters on a frozen denoiser)."""
    if profile.task == Task.diffusion:
        return diffusion.trainable_params(profile) / 1e6
    return dense_params_millions(profile, gpu, p)


def step_compute_s(profile: Profile, gpu: GpuSpec, p: ScalingParams) -> float:
    """One training step (micro-batch) on one GPU: batch / measured throughput, else FLOPs /
    sustained throughput plus the optimizer step's share (once per optimizer step). Embedding
    lookups are gathers, not FLOPs: a sharded recommender computes its dense part."""
    t = profile.training
    measured = single_gpu_samples_per_s(profile)
    if measured:
        return t.batch_per_gpu / measured
    if profile.task == Task.diffusion:
        return _diffusion_step_s(profile, gpu, p)
    dense = dense_params_millions(profile, gpu, p) / profile.model.params_millions
    recompute = recompute_factor(profile)
    fitted = efficiency_task(profile)  # a ViT's multiply-adds at the FLOPs-counted share
    rate = effective_tflops(gpu, t.precision, p, fitted) * counted_per_flop(profile.task) \
        / counted_per_flop(fitted)
    flops_s = t.batch_per_gpu * flops_per_sample(profile) * dense * recompute / (rate * 1e12)
    return flops_s + optimizer_step_s(profile, gpu, p) / t.gradient_accumulation_steps


def _diffusion_step_s(profile: Profile, gpu: GpuSpec, p: ScalingParams) -> float:
    """A diffusion micro-batch: the denoiser's FLOPs (recomputed under checkpointing) and the
    frozen encoders' forward passes at the sustained rate; offloaded encoders' copies over
    PCIe, offloaded weights' streamed under the compute; the optimizer step and EMA update
    once per optimizer step (the step on the CPU when offloaded)."""
    t = profile.training
    rate = effective_tflops(gpu, t.precision, p, profile.task) * 1e12
    compute = t.batch_per_gpu * (diffusion.step_flops(profile, p) * recompute_factor(profile)
                                 + diffusion.encoder_flops(profile)) / rate
    copies = diffusion.transfer_s(profile, gpu.pcie_gen)
    compute = max(compute, copies) if t.offload == Offload.parameters else compute + copies
    update = (diffusion.host_step_s(profile, gpu.gpu_class or "consumer", gpu.pcie_gen)
              if t.offload != Offload.none else optimizer_step_s(profile, gpu, p))
    per_step = update + diffusion.ema_step_s(profile, memory_bandwidth_gbs(gpu, p))
    return compute + per_step / t.gradient_accumulation_steps


def memory_bandwidth_gbs(gpu: GpuSpec, p: ScalingParams) -> float:
    """The card's memory bandwidth; a custom GPU without one gets its FP16 peak over the
    reference card's FLOPs per byte (the A100's ratio)."""
    if gpu.memory_bandwidth_gbs:
        return gpu.memory_bandwidth_gbs
    return gpu.tflops_fp16_dense * 1000.0 / p.reference_flops_per_byte


def optimizer_step_s(profile: Profile, gpu: GpuSpec, p: ScalingParams) -> float:
    """One optimizer update on one GPU: it streams every parameter's weights, gradient and
    Adam moments through memory once (``optimizer_traffic_bytes_per_param``), paid once per
    optimizer step, so gradient accumulation spreads it over its micro-batches."""
    params = exchanged_params_millions(profile, gpu, p) * 1e6
    return params * p.optimizer_traffic_bytes_per_param / (memory_bandwidth_gbs(gpu, p) * 1e9)


def loader_s_per_sample(profile: Profile) -> float:
    table = loader_s_per_sample_by_task()
    return table.get(profile.task.value, table.get("other", float("inf")))


def pipeline_terms(profile: Profile, p: ScalingParams) -> tuple[float, float | None]:
    """(stall coefficient per log2 N, loader capacity per node or None).

    The typical coefficient is calibrated so a default loader on consumer PCIe cards lands in
    the article's ranges (# F01, # F04); image, detection and speech jobs then exceed 3x on 4
    GPUs (# F18) and large NLP models reach about 5x on 8 through their larger gradients (# F19).
    """
    t = profile.training
    if t.input_pipeline == InputPipeline.tuned:
        return p.pipeline_stall_tuned, None
    factor = _STORAGE_STALL.get(t.storage, 1.0) if t.storage else 1.0
    if t.input_pipeline == InputPipeline.starved:  # F28: single-threaded reads
        return p.pipeline_stall_starved * factor, p.starved_loader_capacity
    capacity = None
    if t.cpu_cores and t.dataloader_workers:  # F13: each GPU wants its own workers
        capacity = max(t.cpu_cores / t.dataloader_workers, 1.0)
    return p.pipeline_stall_typical * factor, capacity


def thermal_terms(profile: Profile, p: ScalingParams,
                  gpu: GpuSpec | None = None) -> tuple[float, float]:
    """(clock loss per card beyond two in a node, fixed loss with several cards) (# F27).
    ``gpu``: the card, whose usual cooling stands in for an "open-air" it is never sold with."""
    hw = profile.hardware
    cooling = Cooling(fitted_cooling(gpu, hw.cooling.value)) if gpu is not None else hw.cooling
    per_card = {Cooling.open_air: p.throttle_per_card_open_air,
                Cooling.blower: p.throttle_per_card_blower}.get(cooling, 0.0)
    fixed = 0.0
    if hw.max_gpu_temp_c is not None and hw.max_gpu_temp_c > 84.0:
        fixed = (hw.max_gpu_temp_c - 84.0) * p.throttle_per_degc
    return per_card, fixed


def vgpu_sharing(profile: Profile) -> tuple[float, float]:
    """(central, pessimistic) vGPUs per physical GPU (# F29)."""
    hw = profile.hardware
    if hw.virtualization == Virtualization.vgpu:
        if hw.vgpus_per_physical_gpu:
            return float(hw.vgpus_per_physical_gpu), float(hw.vgpus_per_physical_gpu)
        return 2.0, PESSIMISTIC_VGPUS
    if hw.virtualization == Virtualization.unknown:
        return 1.0, PESSIMISTIC_VGPUS
    return 1.0, 1.0


def data_parallel_inputs(profile: Profile, gpu: GpuSpec, links: LinkFigures,
                         p: ScalingParams | None = None,
                         comm_volume_factor: float = 1.0) -> DataParallelInputs:
    p = p or load_params()
    stall, capacity = pipeline_terms(profile, p)
    per_card, fixed = thermal_terms(profile, p, gpu)
    pair = links.busbw_intra_pair_gbs
    return DataParallelInputs(
        params_millions=exchanged_params_millions(profile, gpu, p),
        embedding_bytes_per_sample=p.embedding_bytes_per_sample
        if sharded_embeddings(profile, gpu, p) else 0.0,
        grad_bytes_per_param=grad_bytes_per_param(profile),
        step_compute_s=step_compute_s(profile, gpu, p),
        gpus_per_node=profile.hardware.gpus_per_node,
        busbw_intra_gbs=links.busbw_intra_gbs,
        busbw_pair_gbs=pair if pair > links.busbw_intra_gbs else None,
        batch_per_gpu=float(profile.training.batch_per_gpu),
        loader_s_per_sample=loader_s_per_sample(profile),
        busbw_inter_gbs=links.busbw_inter_gbs, latency_intra_s=links.latency_intra_s,
        latency_inter_s=links.latency_inter_s, multi_socket_pcie=links.multi_socket_pcie,
        comm_volume_factor=comm_volume_factor, pipeline_stall=stall, loader_capacity=capacity,
        alternating_fraction=p.alternating_fraction if takes_turns(profile) else 0.0,
        vgpus_per_physical=vgpu_sharing(profile)[0], throttle_per_card=per_card,
        throttle_fixed=fixed,
        accumulation_steps=float(profile.training.gradient_accumulation_steps),
        accumulation_baseline=float(profile.training.gradient_accumulation_steps),
        variable_inputs=1.0 if inputs_vary(profile) else 0.0,
        optimizer_step_s=optimizer_step_s(profile, gpu, p))


def pessimistic(x: DataParallelInputs, vgpus: float) -> DataParallelInputs:
    return replace(x, vgpus_per_physical=max(vgpus, x.vgpus_per_physical))


def single_gpu_speed_ratio(profile: Profile, gpu: GpuSpec, other: GpuSpec,
                           p: ScalingParams | None = None) -> float:
    """How many times faster one ``other`` card trains this workload than one ``gpu`` card:
    the ratio of their sustained TFLOP/s at the workload's precision and task
    (``effective_tflops``: tensor peak and memory bandwidth, both fitted), the host's share of
    a step (``fixed_step_fraction``) taking as long on either, and no faster than the input
    pipeline feeds a machine. A run the user timed on their card takes this many times less
    on the other one."""
    p = p or load_params()
    task, precision = efficiency_task(profile), profile.training.precision
    if not (gpu.memory_bandwidth_gbs and other.memory_bandwidth_gbs):
        # a card whose bandwidth is not known (a custom card's data sheet as typed): both by
        # their tensor peak, the same way
        gpu, other = (g.model_copy(update={"memory_bandwidth_gbs": None}) for g in (gpu, other))
    ratio = effective_tflops(other, precision, p, task) / effective_tflops(gpu, precision, p, task)
    # the share of a step that is the host's (launches, the framework's Python:
    # ``fixed_step_fraction``, the part that does not shrink with a smaller batch either) does
    # not shrink on a faster card: on the single-GPU throughputs of scaling-dev.csv the faster
    # card's advantage was over-stated by 10 % on average, 20 % between a consumer and a
    # data-centre card (benchmarks/card_ratio.py)
    f = min(max(p.fixed_step_fraction, 0.0), 0.9)
    ratio = 1.0 / ((1.0 - f) / ratio + f)
    # a loader that feeds a machine at most ``capacity`` single-GPU steps feeds a faster card
    # no faster (F28: a starved pipeline on an L4 was moved to an RTX 4090 as 1.4x faster)
    _, capacity = pipeline_terms(profile, p)
    return ratio if capacity is None else min(ratio, max(capacity, 1.0))
