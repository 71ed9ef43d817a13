"""``project(profile, gpus)``: the speed-up curve of a workload with its band and bottlenecks."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

import numpy as np

from advisor.catalog.gpus import resolve_gpu
from advisor.files.errors import InputError
from advisor.profile import InterLink, IntraLink, KeepBatch, Precision, Profile
from advisor.profile.labels import INTER_LINK as INTER_LINK_LABEL
from advisor.scaling.activations import SEQUENCE_TASKS
from advisor.scaling.band import band_log_edges, doublings, profile_flags
from advisor.scaling.batch_scaling import scaled_batches
from advisor.scaling.card_memory import memory_reading_note
from advisor.scaling.inputs import (
    counted_per_flop,
    data_parallel_inputs,
    dense_params_millions,
    flops_per_sample,
    pessimistic,
    sequence_length,
    single_gpu_samples_per_s,
    step_compute_s,
    vgpu_sharing,
)
from advisor.scaling.layouts.eligibility import uses_layouts
from advisor.scaling.links import link_figures
from advisor.scaling.measured_memory import memory_estimate
from advisor.scaling.memory import (
    STRATEGY_LABEL,
    choose_strategies,
    single_gpu_fits,
    usable_gb,
)
from advisor.scaling.model_parallel import estimated_shape, pipeline_parallel, tensor_parallel
from advisor.scaling.parameters import ScalingParams, load_params
from advisor.scaling.peak import peak_tflops
from advisor.scaling.physics import breakdown
from advisor.scaling.result import Projection
from advisor.scaling.run_length import one_gpu_hours
from advisor.scaling.task_defaults import turn_notes
from advisor.scaling.throughput_check import impossible_throughput
from advisor.scaling.waiting import held_to_ideal
from advisor.text.i18n import Text

# ZeRO-3 / FSDP gather weights twice: 1.5x traffic (also across the replicas of a hybrid
# whose states are sharded over every GPU)
_VOLUME = {"zero3": 1.5, "fsdp": 1.5, "hsdp": 1.5, "hybrid_zero3": 1.5}
_MINOR = 0.1  # an overhead below this share of the step leaves the GPU compute-bound

NOTE_NO_FIT = Text(en="Plain data parallel does not fit one GPU's memory; the speed-up is over "
                      "a hypothetical single GPU with enough memory (F05, F24).",
                   zh="单卡显存放不下普通数据并行；加速比相对于一张显存足够的假想单卡（F05、F24）。")


def says_one_gpu_cannot_hold(notes: list[str]) -> bool:
    """Whether a projection's notes (either language) already say that one GPU cannot hold
    the model: the data-parallel note or the layouts' reference note."""
    from advisor.scaling.layout_projection import NOTE_REFERENCE, NOTE_REFERENCE_BATCH

    starts = [text.split("{")[0] for note in (NOTE_NO_FIT, NOTE_REFERENCE, NOTE_REFERENCE_BATCH)
              for text in (note.en, note.zh)]
    return any(note.startswith(start) for note in notes for start in starts)


NOTE_VGPU = Text(en="Virtualised GPUs may share a physical card: the low end assumes {v:g} "
                    "vGPUs per card (F29).",
                 zh="虚拟化的 GPU 可能共享同一张物理卡：下限按每卡 {v:g} 个 vGPU 估计（F29）。")
# the user said how many vGPUs share a card: the whole projection, not an assumption, uses it
NOTE_VGPU_GIVEN = Text(en="You said {v:g} vGPUs share each physical card: the projection "
                          "divides each card's compute between them (F29).",
                       zh="你填写了每张物理卡切分为 {v:g} 个 vGPU：预测按它们分摊每张卡的算力（F29）。")
NOTE_EMBEDDING = Text(
    en="Recommendation model too large for one GPU: the projection assumes DLRM-style training: "
       "the embedding tables (taken as {emb:g} % of the parameters) are sharded across the GPUs "
       "(model parallel, e.g. TorchRec or HugeCTR) and exchange looked-up vectors by an "
       "all-to-all every step; only the dense MLPs ({dense:g} M parameters) are data parallel "
       "with an all-reduce.",
    zh="推荐模型单卡放不下：按 DLRM 式训练估算：嵌入表（按参数量的 {emb:g}% 计）分片到各卡"
       "（模型并行，如 TorchRec、HugeCTR），每步用 all-to-all 交换查到的向量；只有稠密 MLP"
       "（{dense:g}M 参数）做数据并行并 All-Reduce。")

NOTE_SLOWER = Text(en="On {n} GPUs the job is slower than on one: per step, the {neck} costs more "
                      "than the computation it splits ({step:.3g} s per step on one GPU).",
                   zh="{n} 张卡比单卡更慢：每一步的{neck}开销超过了被拆分的计算量"
                      "（单卡每步 {step:.3g} 秒）。")
_NECK_WORDS = {"communication": ("gradient exchange", "梯度同步"),
               "input_pipeline": ("data loading", "数据加载"),
               "synchronisation": ("waiting for the slowest GPU", "等待最慢的卡"),
               "virtualization": ("sharing of the physical card", "物理卡共享"),
               "alternating_training": ("turn-taking of the sub-networks", "子网络轮流训练"),
               "memory": ("memory shortage", "显存不足"), "compute": ("overhead", "额外")}

NVLINK_MACHINES = (IntraLink.nvlink, IntraLink.nvswitch)  # the accuracy tables' NVLink regime
DEFAULT_INTER_LINK = InterLink.ethernet_25g  # assumed network for machines the profile lacks
# ... unless the machine is an SXM (NVLink / NVSwitch) server: DGX/HGX-class machines are built
# for clusters and ship with InfiniBand of their generation (DGX-1: EDR, DGX A100: 8 x HDR,
# DGX H100: 8 x NDR; NVIDIA DGX datasheets), one adapter per GPU as links.yaml assumes.
SERVER_INTER_LINK = {"volta": InterLink.infiniband_edr, "ampere": InterLink.infiniband_hdr}
SERVER_INTER_LINK_NEWER = InterLink.infiniband_ndr  # hopper, blackwell
TESTED_GPUS = 1024  # the fit's data stop at 256 GPUs; beyond this the band is extrapolated
TESTED_GPUS_LAYOUTS = 16384  # the large-model runs of benchmarks/llm_points.py reach 16,384
NOTE_MORE_MACHINES_DEFAULT = Text(
    en="Beyond the profile's {total} GPUs the projection assumes {machines} machines like "
       "this one ({per} GPUs each), joined by {link} because the profile names no network "
       "between machines; a faster network (InfiniBand, RoCE) scales better (F08).",
    zh="超出配置中 {total} 张卡的部分，按 {machines} 台与本机相同的机器（每台 {per} 张卡）估算，"
       "机间网络按 {link} 假设（配置未填写机间网络）；更快的网络（InfiniBand、RoCE）扩展更好（F08）。")
NOTE_MORE_SERVERS_DEFAULT = Text(
    en="Beyond the profile's {total} GPUs the projection assumes {machines} machines like "
       "this one ({per} GPUs each), joined by {link}, the fabric such NVLink servers ship with "
       "(the profile names no network between machines); over Ethernet they would scale far "
       "worse (F08).",
    zh="超出配置中 {total} 张卡的部分，按 {machines} 台与本机相同的机器（每台 {per} 张卡）估算，"
       "机间网络按这类 NVLink 服务器标配的 {link} 假设（配置未填写机间网络）；换成以太网扩展会差得多（F08）。")
NOTE_MORE_MACHINES = Text(
    en="Beyond the profile's {total} GPUs the projection assumes {machines} machines like "
       "this one ({per} GPUs each) on the same {link} network.",
    zh="超出配置中 {total} 张卡的部分，按 {machines} 台与本机相同的机器（每台 {per} 张卡）估算，"
       "机间网络同为 {link}。")
NOTE_ONE_ADAPTER = Text(
    en="Between machines the projection assumes one {link} network adapter per machine, shared "
       "by its {per} GPUs (about {bw:.3g} GB/s of all-reduce bandwidth per machine); servers "
       "with one InfiniBand/RoCE adapter per GPU scale much better across machines (F08).",
    zh="机间通信按每台机器一块 {link} 网卡估算，由本机 {per} 张卡共用（每台约 {bw:.3g} GB/s 的"
       " All-Reduce 带宽）；每张卡配一块 InfiniBand/RoCE 网卡的服务器跨机扩展要好得多（F08）。")
NOTE_ADAPTER_PER_GPU = Text(
    en="Between machines the projection assumes {k} {link} adapters per machine, one per GPU as "
       "in DGX/HGX servers (about {bw:.3g} GB/s of all-reduce bandwidth per machine); with "
       "fewer adapters, scaling across machines is lower.",
    zh="机间通信按每台机器 {k} 块 {link} 网卡估算，即 DGX/HGX 服务器那样每张卡一块（每台约"
       " {bw:.3g} GB/s 的 All-Reduce 带宽）；网卡更少时跨机扩展更差。")
NOTE_ACTIVATIONS = Text(
    en="At {batch} samples per GPU the activations alone take about {act:.3g} GB per GPU "
       "({per:.3g} MB per sample, estimated from the model's size and task); a smaller batch "
       "per GPU with gradient accumulation, or activation checkpointing, lowers that.",
    zh="每卡 {batch} 个样本时，仅激活值就约占每卡 {act:.3g} GB（每个样本约 {per:.3g} MB，"
       "按模型规模和任务估算）；减小每卡批大小并配合梯度累积，或使用激活检查点，可以降低这部分显存。")
NOTE_UNTESTED_SCALE = Text(
    en="Above {tested} GPUs the projection extrapolates: the published measurements it was "
       "fitted on stop at 256 GPUs, so treat the band as indicative only.",
    zh="超过 {tested} 张卡时的结果是外推：拟合所用的公开实测数据最多只到 256 张卡，区间仅供参考。")


NOTE_UNTESTED_SCALE_LAYOUTS = Text(
    en="Above {tested} GPUs the projection extrapolates: the published large-model runs it "
       "was fitted on stop at 16,384 GPUs.",
    zh="超过 {tested} 张卡时的结果是外推：拟合所用的公开大模型训练最多只到 16,384 张卡。")


def machine_assumptions(profile: Profile, gpus: int) -> list[Text]:
    """What a projection at ``gpus`` assumes about machines beyond the profile's: how many
    machines like it, the network between them and its adapters (empty inside the profile)."""
    hw = profile.hardware
    if gpus <= hw.total_gpus or gpus <= hw.gpus_per_node:
        return []
    gpu = resolve_gpu(hw.gpu, hw.intra_link)
    inter_link, notes = _network(profile, gpus, gpu)
    links = link_figures(hw.intra_link, inter_link, gpu, hw.gpus_per_node,
                         hw.allreduce_busbw_gbs)
    if links.adapters_per_node:
        notes.append(_adapter_note(links.adapters_per_node, links.busbw_inter_gbs, inter_link,
                                   hw.gpus_per_node))
    return notes


def default_gpu_counts(total: int, per_node: int | None = None) -> list[int]:
    """Every count a setup of ``total`` GPUs, ``per_node`` to a machine, is built at when
    total <= 16: every count inside one machine, and beyond it whole machines and powers of
    two (no "15 GPUs" on two machines of 8: reviews 3 to 9); else 1, 2, 4, 8, ... and total
    itself."""
    if total <= 16:
        inside = total if per_node is None else min(max(per_node, 1), total)
        return [n for n in range(1, total + 1)
                if n <= inside or n % inside == 0 or n & (n - 1) == 0]
    counts = [1 << k for k in range(total.bit_length()) if (1 << k) <= total]
    return sorted(set(counts + [total]))


def _check_counts(gpus: list[int]) -> list[int]:
    counts = sorted(set(map(int, gpus)))
    if not counts or counts[0] < 1:
        raise InputError.single("GPU counts must be whole numbers >= 1",
                                "GPU 数量必须是不小于 1 的整数", path="gpus")
    return counts


def default_inter_link(profile: Profile, gpu=None) -> InterLink:
    """The network assumed between machines like this one when the profile names none
    (``gpu``: the profile's resolved GpuSpec, when the caller has it)."""
    gpu = gpu or resolve_gpu(profile.hardware.gpu, profile.hardware.intra_link)
    if gpu.nvlink == "sxm" and profile.hardware.intra_link in (IntraLink.nvlink,
                                                                IntraLink.nvswitch):
        return SERVER_INTER_LINK.get(gpu.generation or "", SERVER_INTER_LINK_NEWER)
    return DEFAULT_INTER_LINK


def _network(profile: Profile, largest: int, gpu=None) -> tuple[InterLink, list[Text]]:
    """The network between machines, and a note when the counts go beyond the profile's
    machines: more machines like this one are assumed, joined by the profile's network or,
    when it names none, by the one such machines usually have (``default_inter_link``).
    "What if I had 16?" is a question, not an error."""
    hw = profile.hardware
    if largest <= hw.total_gpus:
        return hw.inter_link, []
    machines = -(-largest // hw.gpus_per_node)
    if hw.inter_link == InterLink.none and largest > hw.gpus_per_node:
        link = default_inter_link(profile, gpu)
        note = NOTE_MORE_MACHINES_DEFAULT if link == DEFAULT_INTER_LINK \
            else NOTE_MORE_SERVERS_DEFAULT
        return link, [_with_link(note, link, total=hw.total_gpus, machines=machines,
                                 per=hw.gpus_per_node)]
    if largest > hw.gpus_per_node:
        return hw.inter_link, [_with_link(NOTE_MORE_MACHINES, hw.inter_link,
                                          total=hw.total_gpus, machines=machines,
                                          per=hw.gpus_per_node)]
    return hw.inter_link, []


def reference_s_per_token(profile: Profile, params: ScalingParams | None = None
                          ) -> float | None:
    """Seconds per token of one GPU with enough memory, as the layouts time it (None for a
    profile the layouts do not model): what a measured one-GPU time is scaled against, so a
    setting change can carry that time over (``advisor.verdict.fits_here``)."""
    p = params or load_params()
    gpu = resolve_gpu(profile.hardware.gpu, profile.hardware.intra_link)
    if not uses_layouts(profile, gpu.memory_gb, p):
        return None
    from advisor.scaling.layouts.engine import layout_curve  # a layout profile's own import

    hw = profile.hardware
    links = link_figures(hw.intra_link, hw.inter_link, gpu, hw.gpus_per_node,
                         hw.allreduce_busbw_gbs)
    ref = layout_curve(profile, [1], gpu, links, p).reference
    return ref.step_s / ref.tokens_per_step


def project(profile: Profile, gpus: list[int] | None = None,
            params: ScalingParams | None = None) -> Projection:
    """Project speed-up, band, step time, bottleneck and memory for each GPU count."""
    p = params or load_params()
    counts = _check_counts(gpus or default_gpu_counts(profile.hardware.total_gpus,
                                                          profile.hardware.gpus_per_node))
    n = np.array(counts, dtype=float)
    gpu = resolve_gpu(profile.hardware.gpu, profile.hardware.intra_link)
    hw = profile.hardware
    inter_link, scale_notes = _network(profile, counts[-1], gpu)
    links = link_figures(hw.intra_link, inter_link, gpu, hw.gpus_per_node,
                         hw.allreduce_busbw_gbs)
    if uses_layouts(profile, gpu.memory_gb, p):  # a large transformer: TP x PP x DP layouts
        extra = list(scale_notes)
        if counts[-1] > hw.gpus_per_node and links.adapters_per_node:
            extra.append(_adapter_note(links.adapters_per_node, links.busbw_inter_gbs,
                                       inter_link, hw.gpus_per_node))
        if counts[-1] > TESTED_GPUS_LAYOUTS:
            extra.append(NOTE_UNTESTED_SCALE_LAYOUTS.format(tested=TESTED_GPUS_LAYOUTS))
        # imported here: a data-parallel profile needs none of the layout modules
        from advisor.scaling.layout_projection import layout_projection

        return layout_projection(profile, counts, gpu, links, p, extra, inter_link)
    strategies, memory, fits = choose_strategies(profile, n, gpu.memory_gb, p)
    single_fits = single_gpu_fits(profile, gpu.memory_gb, p)
    # the global batch held: each count's per-GPU batch and accumulation steps (else the
    # profile's own, already in the inputs)
    held = profile.training.keep_batch == KeepBatch.global_
    batch_scale, accumulation = scaled_batches(profile, n) if held else (None, None)
    speed = np.empty_like(n)
    low = np.empty_like(n)
    step = np.empty_like(n)
    work = np.empty_like(n)  # one GPU's compute for one micro-batch (the band's work per GPU)
    bottleneck: list[str] = ["compute"] * len(n)
    _, vgpus_low = vgpu_sharing(profile)
    names = sorted(set(strategies))
    for name in names:
        # one strategy for every count (the usual case): a slice, no per-count index list
        idx = slice(None) if len(names) == 1 else np.array(
            [i for i, s in enumerate(strategies) if s == name])
        at = range(len(n)) if len(names) == 1 else idx.tolist()
        x = data_parallel_inputs(profile, gpu, links, p, _VOLUME.get(name, 1.0))
        if held:
            x = replace(x, batch_scale=batch_scale[idx], accumulation_steps=accumulation[idx])
        work[idx] = x.step_compute_s * np.asarray(x.batch_scale)
        if name in ("tensor", "hybrid", "hybrid_zero3"):
            ways = np.minimum(n[idx], hw.gpus_per_node)
            act_bytes = 4.0 if profile.training.precision in (Precision.fp32, Precision.tf32) \
                else 2.0
            shape = estimated_shape(profile.model.params_millions, profile.model.layers,
                                    profile.model.hidden_size, sequence_length(profile),
                                    act_bytes, p.transformer_width_per_layer)
            s, exchange, part = tensor_parallel(n[idx], ways, x, shape,
                                                profile.training.batch_per_gpu, p)
            s_low = s if vgpus_low <= 1 else tensor_parallel(
                n[idx], ways, pessimistic(x, vgpus_low), shape, profile.training.batch_per_gpu,
                p)[0]
            step[idx] = part.step_s
            # The activation exchange is communication inside the group's compute time; the
            # largest overhead names the bottleneck (a starved loader outweighs it, # F28).
            for i, neck in zip(at, _dominant(part, exchange), strict=True):
                bottleneck[i] = neck
        elif name == "pipeline":
            s, bubble = pipeline_parallel(n[idx], profile.training.micro_batches, p,
                                          x.loader_capacity)
            s_low = s
            step[idx] = x.step_compute_s * n[idx] / s
            fed = s if x.loader_capacity is None else pipeline_parallel(
                n[idx], profile.training.micro_batches, p)[0]
            for j, i in enumerate(at):
                bottleneck[i] = ("input_pipeline" if s[j] < fed[j] * (1.0 - _MINOR)
                                 else "pipeline_bubble" if bubble[j] > _MINOR else "compute")
        else:
            part = breakdown(n[idx], x, p)
            s = part.speedup
            s_low = s if vgpus_low <= 1 else breakdown(n[idx], pessimistic(x, vgpus_low),
                                                       p).speedup
            step[idx] = part.step_s
            if len(names) == 1:
                bottleneck = _dominant(part)
            else:
                for i, neck in zip(at, _dominant(part), strict=True):
                    bottleneck[i] = neck
        speed[idx] = s
        low[idx] = s_low
    # at most N GPUs as fast as one, less the wait for the slowest; a long run on many GPUs
    # also loses time to interruptions; not a number or infinite: 0 (waiting.py)
    speed = held_to_ideal(n, speed, p.step_time_cv)
    # np.clip(a, lo, hi) is minimum(maximum(a, lo), hi); the ufuncs skip its Python wrapper
    low = np.minimum(np.maximum(np.where(np.isfinite(low), low, 0.0), 0.0), n)
    below, above = band_factors(profile, n, p, speed, work, gpu.is_consumer, inter_link)
    band_low = np.minimum(np.maximum(np.minimum(speed * below, low), 0.0), speed)  # 0 <= low <= speed-up
    band_high = np.minimum(np.maximum(speed * above, speed), n)  # speed-up <= high <= N
    if counts[0] == 1:  # the baseline is the user's own single-GPU run
        speed[0] = band_low[0] = band_high[0] = 1.0
    fit_list = fits.tolist()
    if not fits.all():
        for i in np.flatnonzero(~fits).tolist():
            bottleneck[i] = "memory"
    notes = _notes(profile, single_fits, vgpus_low) + scale_notes
    estimate = memory_estimate(profile, gpu.memory_gb, p)
    for note in (impossible_throughput(profile, gpu), estimate.note):
        if note is not None:
            notes.append(note)
    if not fits.all():
        act = estimate.activation_gb  # as a measured run corrected it, if one did
        if act > 0.5 * memory[int(np.argmin(fits))]:  # the batch, not the model, does not fit
            batch = profile.training.batch_per_gpu
            notes.append(NOTE_ACTIVATIONS.format(batch=batch, act=act, per=act * 1e3 / batch))
    if counts[-1] > hw.gpus_per_node and links.adapters_per_node:
        notes.append(_adapter_note(links.adapters_per_node, links.busbw_inter_gbs, inter_link,
                                   hw.gpus_per_node))
    if "embedding" in strategies:
        dense = profile.model.params_millions * p.recommendation_dense_fraction
        notes.append(NOTE_EMBEDDING.format(emb=round(100 * (1 - p.recommendation_dense_fraction),
                                                     1), dense=float(f"{dense:.3g}")))
    slower = np.flatnonzero((n > 1) & (0.0 < speed) & (speed < 1.0))
    if slower.size:  # below 1x only with its physical reason stated
        i = int(slower[0])
        en, zh = _NECK_WORDS.get(bottleneck[i], _NECK_WORDS["compute"])
        one = step[0] if counts[0] == 1 else step[i] * speed[i] / n[i]
        notes.append(Text(en=NOTE_SLOWER.en.format(n=counts[i], neck=en, step=one),
                          zh=NOTE_SLOWER.zh.format(n=counts[i], neck=zh, step=one)))
    if counts[-1] > TESTED_GPUS:
        notes.append(NOTE_UNTESTED_SCALE.format(tested=TESTED_GPUS))
    notes.append(memory_reading_note(float(memory[int(np.argmax(fits))] if fits.any()
                                           else memory.min()), gpu.memory_gb, p))
    per_gpu = _absolute(profile, gpu, p, speed, n)
    hours_one = one_gpu_hours(profile, per_gpu["one"])
    run_hours = hours_one / speed
    # the ten series rounded in one pass (element by element, as ten passes would)
    k = len(counts)
    rounded = _r(np.concatenate((speed, band_low, band_high, speed / n, step, run_hours,
                                 *per_gpu["rows"])))
    # built from plain lists, floats and strings of the declared types: pydantic's
    # validation would only copy them again (a tenth of a fast projection); every field is
    # given (a default factory left to model_construct costs more than the validation)
    return Projection.model_construct(
        layout=[], layout_zh=[], tensor_parallel=[], pipeline_parallel=[], data_parallel=[],
        pipeline_interleave=[], micro_batches=[],
        gpus=counts, nodes=[int(k) for k in np.ceil(n / hw.gpus_per_node).tolist()],
        speedup=rounded[:k], speedup_low=rounded[k:2 * k], speedup_high=rounded[2 * k:3 * k],
        efficiency=rounded[3 * k:4 * k], step_time_s=rounded[4 * k:5 * k],
        run_hours=rounded[5 * k:6 * k], bottleneck=bottleneck,
        memory_per_gpu_gb=np.round(memory, 2).tolist(),
        fits=fit_list, parallelism=[STRATEGY_LABEL[s] for s in strategies],
        single_gpu_fits=single_fits, notes=[t.en for t in notes], notes_zh=[t.zh for t in notes],
        samples_per_s_per_gpu=rounded[6 * k:7 * k],
        tokens_per_s_per_gpu=rounded[7 * k:8 * k] if per_gpu["sequence"] else [None] * k,
        tflops_per_gpu=rounded[8 * k:9 * k], mfu=rounded[9 * k:],
        usable_memory_gb=round(usable_gb(gpu.memory_gb, p), 3),  # one rounding when shown
        memory_margin_gb=np.round(usable_gb(gpu.memory_gb, p) - memory, 3).tolist(),
        run_hours_one_gpu=float(f"{hours_one:.5g}"),
        planned_from_size=profile.training.planned_from_size)


def _absolute(profile: Profile, gpu, p: ScalingParams, speed: np.ndarray,
              n: np.ndarray) -> dict:
    """Per-GPU throughput from the single-GPU one (measured, else from FLOPs) and the curve:
    samples/s, tokens/s (sequence models), model TFLOP/s and MFU at each count (``rows``,
    not yet rounded)."""
    one = single_gpu_samples_per_s(profile) or (
        profile.training.batch_per_gpu / step_compute_s(profile, gpu, p))
    samples = one * speed / n
    # FLOPs done: a vision or diffusion model's are counted in multiply-adds, half of them
    flops = flops_per_sample(profile) * dense_params_millions(profile, gpu, p) \
        / profile.model.params_millions / counted_per_flop(profile.task)
    tflops = samples * flops / 1e12
    sequence = sequence_length(profile) if profile.task in SEQUENCE_TASKS else 0
    rows = (samples, samples * sequence, tflops,
            tflops / peak_tflops(gpu, profile.training.precision, profile.task))
    return {"one": one, "rows": rows, "sequence": bool(sequence)}


def band_factors(profile: Profile, n: np.ndarray, p: ScalingParams, speed: np.ndarray,
                 work_s: np.ndarray, is_consumer: bool, inter_link: InterLink
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The 80 % band's low and high factors on the speed-up at each count
    (advisor/scaling/band.py): the lower edge widens with the root of the doublings of GPUs
    and machines, more without peer-to-peer, with little work per GPU and over Ethernet
    between machines; the upper edge gives back a share of the overhead the projection
    subtracts; a default or starved input pipeline adds the article's spread to both.
    Calibrated on out-of-sample residuals (benchmarks/projection_eval.calibrate_band)."""
    one, machines = doublings(n, profile.hardware.gpus_per_node)
    with np.errstate(divide="ignore", invalid="ignore"):
        overhead = np.where(speed > 0, np.log(n / np.maximum(speed, 1e-300)), 0.0)
    low, high = band_log_edges(one, machines, np.where(np.isfinite(overhead), overhead, 0.0),
                               work_s, p, **profile_flags(profile, is_consumer, inter_link))
    return np.exp(low), np.exp(high)


_OVERHEADS = ("communication", "input_pipeline", "synchronisation", "virtualization",
              "alternating_training")


def _dominant(part, exchange_s: np.ndarray | float = 0.0) -> list[str]:
    """The largest overhead of each step, or compute when every overhead is minor.
    ``exchange_s``: tensor-parallel activation exchange, counted in the compute time."""
    total = part.step_s
    # Per-step coordination (small all-reduces, framework negotiation) is network traffic:
    # it counts as communication; the rest of sync_s is waiting for stragglers (# F20).
    coordination = part.coordination_s if part.coordination_s is not None else 0.0 * total
    stacked = np.stack([part.comm_s + coordination + exchange_s, part.stall_s, part.sync_s - coordination,
                        part.sharing_s, total * (1.0 - 1.0 / part.alternating_loss)])
    top = np.argmax(stacked, axis=0)
    big = stacked[top, np.arange(top.size)] > _MINOR * total
    return [_OVERHEADS[k] if b else "compute" for k, b in zip(top.tolist(), big.tolist(),
                                                                strict=True)]


@lru_cache(maxsize=64)  # Text is frozen; formatting it costs ~10 % of a fast projection
def _adapter_note(k: int, busbw: float, inter_link: InterLink, per_node: int) -> Text:
    """How many network adapters a machine is taken to have: the largest lever between
    machines, so the projection says what it assumed (links.yaml, ``adapters``)."""
    if k > 1:
        return _with_link(NOTE_ADAPTER_PER_GPU, inter_link, k=k, bw=busbw)
    return _with_link(NOTE_ONE_ADAPTER, inter_link, per=per_node, bw=busbw)


def _with_link(note: Text, link: InterLink, **values) -> Text:
    """A note naming a network in the reader's words ("InfiniBand NDR", "25 GbE ..."), a
    machine of one GPU as "1 GPU" (review 8: "the profile's 1 GPUs")."""
    label = INTER_LINK_LABEL.get(link.value)
    if label is None:
        text = note.format(link=link.value, **values)
    else:
        text = Text(en=note.en.format(link=label.en, **values),
                    zh=note.zh.format(link=label.zh, **values))
    return Text(en=_ONE_GPUS.sub("1 GPU", text.en), zh=text.zh)


_ONE_GPUS = re.compile(r"(?<![\d,.])1 GPUs\b")


def _notes(profile: Profile, single_fits: bool, vgpus_low: float) -> list[Text]:
    notes = []
    if not single_fits:
        notes.append(NOTE_NO_FIT)
    given = profile.hardware.vgpus_per_physical_gpu \
        if profile.hardware.virtualization.value == "vgpu" else None
    if given and given > 1:
        notes.append(NOTE_VGPU_GIVEN.format(v=given))
    elif vgpus_low > 1:
        notes.append(NOTE_VGPU.format(v=vgpus_low))
    notes.extend(turn_notes(profile))
    return notes


def _r(values: np.ndarray, digits: int = 5) -> list[float]:
    """Round to significant digits (tiny speed-ups of hopeless setups must not become 0)."""
    v = np.asarray(values, dtype=float)
    safe = np.where(v > 0, v, 1.0)
    scale = 10.0 ** (digits - 1 - np.floor(np.log10(safe)))
    return np.where(v > 0, (v * scale).round() / scale, v).tolist()


__all__ = ["default_gpu_counts", "machine_assumptions", "project"]
