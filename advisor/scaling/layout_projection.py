"""The projection of a large transformer from its layouts (advisor/scaling/layouts/).

Each count gets the fastest layout that fits (``layouts.engine.layout_curve``); its speed-up
is its throughput over that of one GPU with enough memory (the same model, no split: F05,
F24), so the curve and a planned run's hours come from one model. A measured single-GPU
throughput, when given, sets the absolute level; the layouts set the ratios.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from advisor.catalog.gpus import GpuSpec
from advisor.profile import InterLink, Profile
from advisor.scaling.band import band_log_edges, doublings, profile_flags
from advisor.scaling.card_memory import capacity_gb, memory_reading_note
from advisor.scaling.inputs import pipeline_terms, single_gpu_samples_per_s
from advisor.scaling.layouts.engine import LayoutCurve, layout_curve
from advisor.scaling.layouts.methods import model_flops_per_token
from advisor.scaling.layouts.moe_notes import moe_notes
from advisor.scaling.links import LinkFigures
from advisor.scaling.llm_compute import load_llm_params
from advisor.scaling.measured_memory import (
    NOTE_ACTIVATIONS_HELD,
    NOTE_MEASURED_FITS,
    NOTE_TIMED_ELSEWHERE,
)
from advisor.scaling.method_notes import method_notes
from advisor.scaling.parameters import ScalingParams
from advisor.scaling.result import Projection
from advisor.scaling.run_length import one_gpu_hours, run_tokens
from advisor.scaling.waiting import held_to_ideal
from advisor.text.i18n import Text
from advisor.text.numbers import count_text, quantity

NOTE_LAYOUTS = Text(
    en="Each count runs the fastest split found that fits {usable} of the {capacity} GB "
       "({memory} GiB) of a GPU ({free:.0f} % kept free for the allocator's reserve): tensor "
       "parallel inside one machine by degrees that divide the {heads} attention heads, pipeline "
       "stages, and data parallel with plain, ZeRO-1/2 or FSDP-sharded states ({layers} "
       "layers, width {hidden}{derived}).",
    zh="每个卡数采用能放进单卡显存 {capacity} GB（{memory} GiB）中 {usable} GB（留出 {free:.0f}% 给分配器的预留）"
       "的最快切分：机内张量并行（并行度整除 {heads} 个注意力头）、流水线分段，以及普通、ZeRO-1/2 或 "
       "FSDP 分片的数据并行（{layers} 层，宽度 {hidden}{derived_zh}）。")
NOTE_PLANNED = Text(
    en="Planned from the run's size: {tokens} billion tokens x {per_token} GFLOP per token "
       "({rule}) = {total} ZFLOP; the time comes from the layouts' "
       "throughput, {mfu_low:.0%}-{mfu_high:.0%} of the GPU's peak (MFU). Published runs were "
       "predicted within about {err:.0%} (leave-one-paper-out, benchmarks/llm_accuracy.py).",
    zh="按训练规模规划：{tokens_zh} 亿个 token × 每 token {per_token} GFLOP（{rule_zh}）"
       "= {total} ZFLOP；时间来自各切分方式的吞吐，达到 GPU 峰值的 {mfu_low:.0%}-{mfu_high:.0%}"
       "（MFU）。对公开训练的预测误差约 {err:.0%}（按论文留一交叉验证，benchmarks/llm_accuracy.py）。")
NOTE_REFERENCE = Text(
    en="The model does not fit one GPU: the speed-up is over one hypothetical GPU with enough "
       "memory ({hours} h for one run), as a model-parallel run is usually compared (F05, "
       "F24).",
    zh="单卡放不下该模型：加速比相对于一张显存足够的假想单卡（单次训练 {hours} 小时），"
       "这是模型并行常用的比较方式（F05、F24）。")
# the step as given does not fit one GPU, but that GPU runs it in smaller micro-batches (a QLoRA
# 8B at 4 samples on an RTX 4090 read "the model does not fit one GPU": review 7)
NOTE_REFERENCE_BATCH = Text(
    en="At the batch per GPU given a step does not fit one GPU: the speed-up is over one "
       "hypothetical GPU with enough memory ({hours} h for one run); one GPU runs it in smaller "
       "micro-batches with gradient accumulation.",
    zh="按给定的每卡批大小，单卡放不下一步：加速比相对于一张显存足够的假想单卡（单次训练 {hours} 小时）；"
       "单卡上按更小的微批次加梯度累积来跑。")
NOTE_NO_LAYOUT_FITS = Text(
    en="On {gpus} no split fits: the least memory found is {need} GB per GPU of "
       "{usable} GB usable ({layout}).",
    zh="{n} 张卡时没有能放下的切分：最省显存的方式每卡也要 {need} GB，可用 {usable} GB"
       "（{layout}）。")


def _r(values, digits: int | np.ndarray = 5) -> list:
    v = np.asarray(values, dtype=float)
    safe = np.where(v > 0, v, 1.0)
    scale = 10.0 ** (digits - 1 - np.floor(np.log10(safe)))
    return np.where(v > 0, np.round(v * scale) / scale, v).tolist()


def layout_projection(profile: Profile, counts: list[int], gpu: GpuSpec, links: LinkFigures,
                      p: ScalingParams, notes: list[Text],
                      inter_link: InterLink | None = None) -> Projection:
    q = load_llm_params()
    curve = layout_curve(profile, counts, gpu, links, p, q)
    n = np.array(counts, dtype=float)
    seq = curve.shape.sequence
    model_rate = np.array([curve.tokens_per_s_per_gpu(i) for i in range(len(counts))])
    reference = curve.reference_tokens_per_s
    measured = single_gpu_samples_per_s(profile)
    scale = measured * seq / reference if measured else 1.0
    tokens = model_rate * scale
    # sharding the optimizer step can make a GPU's share faster than one GPU alone; the
    # speed-up is still at most N GPUs as fast as one, less the wait for the slowest
    # (waiting.py); a long run on many GPUs also loses time to interruptions
    speed = held_to_ideal(n, n * model_rate / reference, p.step_time_cv)
    fed = _loader_cap(profile, curve, n, p)  # F28: a starved loader feeds each machine
    starved = speed > fed
    speed = np.minimum(speed, fed)
    if counts[0] == 1:
        speed[0] = 1.0
        starved[0] = False
    model_rate = speed * reference / n
    tokens = model_rate * scale
    spread = np.where(n > 1, np.exp(q.band_log_width), 1.0)
    widened = _regime_widening(profile, n, gpu, p, inter_link or profile.hardware.inter_link)
    low = np.clip(speed * np.where(n > 1, np.exp(-np.sqrt(q.band_log_width ** 2
                                                            + widened ** 2)), 1.0), 0.0, speed)
    high = np.clip(speed * spread, speed, n)
    hours_one = one_gpu_hours(profile, reference * scale / seq)
    grown = _batch_grown(profile, counts, curve)
    fits = [c.fits and not g for c, g in zip(curve.choices, grown, strict=True)]
    memory = np.array([c.memory_gb for c in curve.choices])
    bottleneck = [("memory" if not c.fits else "input_pipeline" if cut else
                   c.bottleneck) for c, cut in zip(curve.choices, starved, strict=True)]
    per_token = model_flops_per_token(curve.shape, curve.states)
    tflops = tokens * per_token / 1e12
    out_notes = list(notes)
    _layout_notes(profile, curve, counts, out_notes)
    if any(grown):
        out_notes.append(_batch_grown_note(profile, counts, curve, grown))
    out_notes.append(memory_reading_note(float(memory[fits.index(True)] if any(fits)
                                               else memory.min()), gpu.memory_gb, p))
    if profile.training.planned_from_size:
        total_tokens = run_tokens(profile) or 0.0
        mfu = (tflops / curve.cluster.peak_tflops)[np.array(fits)] if any(fits) \
            else tflops / curve.cluster.peak_tflops  # of the counts that can run
        out_notes.append(NOTE_PLANNED.format(
            tokens=quantity(total_tokens / 1e9), tokens_zh=quantity(total_tokens / 1e8),
            per_token=quantity(per_token / 1e9), total=quantity(total_tokens * per_token / 1e21),
            rule="4 x parameters + adapters + attention: the frozen weights take no weight "
                 "gradient" if curve.states.weights_frozen else "6 x active parameters + "
                 "attention" if curve.shape.is_moe else "6 x parameters + attention",
            rule_zh="4 × 参数量 + 适配器 + 注意力：冻结的权重不计算权重梯度"
            if curve.states.weights_frozen else "6 × 激活参数量 + 注意力" if curve.shape.is_moe
            else "6 × 参数量 + 注意力",
            mfu_low=float(mfu.min()), mfu_high=float(mfu.max()),
            err=float(np.expm1(q.band_log_width))))
    labels = [c.layout.label() for c in curve.choices]
    step_time = [c.tokens_per_step / (rate * k * scale) for c, rate, k
                 in zip(curve.choices, model_rate, n, strict=True)]
    # the series rounded in one pass, element by element as one pass each would: five
    # significant digits, the MFU four
    (speedup, speedup_low, speedup_high, efficiency, step_time_s, run_hours, samples, rates,
     tflops_per_gpu, mfu) = _r(np.array([speed, low, high, speed / n, step_time,
                                         hours_one / speed, tokens / seq, tokens, tflops,
                                         tflops / curve.cluster.peak_tflops]),
                               np.array([[5]] * 9 + [[4]]))
    # built from plain lists, floats, ints and strings of the declared types, every field
    # given (as ``project`` builds a data-parallel one): validation would only copy them
    return Projection.model_construct(
        gpus=counts, nodes=[int(k) for k in np.ceil(n / profile.hardware.gpus_per_node)],
        speedup=speedup, speedup_low=speedup_low, speedup_high=speedup_high,
        efficiency=efficiency, step_time_s=step_time_s, run_hours=run_hours,
        bottleneck=bottleneck, memory_per_gpu_gb=np.round(memory, 2).tolist(), fits=fits,
        parallelism=[c.layout.family for c in curve.choices],
        single_gpu_fits=bool(fits[counts.index(1)]) if 1 in counts
        else bool(curve.reference.needed_gb <= curve.usable_gb),
        notes=[t.en for t in out_notes], notes_zh=[t.zh for t in out_notes],
        samples_per_s_per_gpu=samples, tokens_per_s_per_gpu=rates,
        tflops_per_gpu=tflops_per_gpu, mfu=mfu,
        layout=[t.en for t in labels], layout_zh=[t.zh for t in labels],
        tensor_parallel=[c.layout.tp for c in curve.choices],
        pipeline_parallel=[c.layout.pp for c in curve.choices],
        data_parallel=[c.layout.dp for c in curve.choices],
        pipeline_interleave=[c.layout.interleave for c in curve.choices],
        micro_batches=[c.layout.micro_batches for c in curve.choices],
        usable_memory_gb=round(curve.usable_gb, 3),  # one rounding when shown
        # what is left after what must fit (paged optimizer states need no room of their own:
        # bitsandbytes moves them to host RAM when the card is full), so a count that fits
        # never shows a negative margin
        memory_margin_gb=np.round(curve.usable_gb - np.array([c.needed_gb for c in curve.choices]),
                                  3).tolist(),
        run_hours_one_gpu=float(f"{hours_one:.5g}"),
        planned_from_size=profile.training.planned_from_size)


NOTE_BATCH_GROWN = Text(
    en="On {gpus} no split keeps the global batch of {batch} sequences: the splits there run "
       "at least {dp} data-parallel replicas of one sequence or more each, so those counts "
       "cannot run as planned (a larger global batch, or splitting layers by tensor or "
       "pipeline parallelism where nothing is offloaded, would keep it).",
    zh="{n} 张卡时没有能保持 {batch} 条序列全局批大小的切分：那里的切分至少有 {dp} 个数据并行副本，"
       "每个至少一条序列，所以这些卡数无法按计划运行（加大全局批，或在不卸载时按张量或流水线并行切分层，"
       "才能保持它）。")


def _batch_grown(profile: Profile, counts: list[int], curve: LayoutCurve) -> list[bool]:
    """Counts whose chosen split has more data-parallel replicas than the global batch the
    profile states has samples: no split kept the batch there, and the search fell back to
    more replicas than samples (a review: a 405B plan with its states offloaded ran 8,192
    replicas of one sequence for a global batch of 2,048, a quarter of the steps, and priced
    the run at half its cost)."""
    held = profile.training.global_batch
    if not held:
        return [False] * len(counts)
    return [c.layout.dp > held for c in curve.choices]


def _batch_grown_note(profile: Profile, counts: list[int], curve: LayoutCurve,
                      grown: list[bool]) -> Text:
    where = [n for n, g in zip(counts, grown, strict=True) if g]
    dp = min(c.layout.dp for c, g in zip(curve.choices, grown, strict=True) if g)
    batch = profile.training.global_batch or 0
    return NOTE_BATCH_GROWN.format(gpus=", ".join(f"{n:,}" for n in where) + " GPUs",
                                   n="、".join(f"{n:,}" for n in where),
                                   batch=f"{batch:,}", dp=f"{dp:,}")


def _regime_widening(profile: Profile, n: np.ndarray, gpu: GpuSpec, p: ScalingParams,
                     inter_link: InterLink) -> np.ndarray:
    """What the data-parallel band's regime factors add below (log units, >= 0) where the
    published runs the layouts' band was calibrated on (InfiniBand clusters, NVLink machines)
    say nothing: cards without peer-to-peer and Ethernet / RoCE between machines
    (``advisor.scaling.band``), added to the calibrated width in quadrature (review 10: 16
    RTX 4090s over 10 GbE read a band of +-10 %, as narrow as one NVSwitch machine's)."""
    flags = profile_flags(profile, gpu.is_consumer, inter_link)
    if not (flags["no_p2p"] or flags["ethernet"]):
        return np.zeros_like(n)
    one, machines = doublings(n, profile.hardware.gpus_per_node)
    zero, work = np.zeros_like(n), np.ones_like(n)  # no overhead, a step of work: the regime
    plain, _ = band_log_edges(one, machines, zero, work, p)
    regime, _ = band_log_edges(one, machines, zero, work, p, no_p2p=flags["no_p2p"],
                               ethernet=flags["ethernet"])
    return np.sqrt(np.maximum(regime ** 2 - plain ** 2, 0.0))


def _loader_cap(profile: Profile, curve: LayoutCurve, n: np.ndarray,
                p: ScalingParams) -> np.ndarray:
    """The most speed-up a starved or core-limited loader allows (# F28): its capacity, in
    single-GPU steps, per machine that reads data; a pipeline replica reads through its first
    stage's machine."""
    _, capacity = pipeline_terms(profile, p)
    if capacity is None:
        return np.full_like(n, np.inf)
    nodes = np.ceil(n / profile.hardware.gpus_per_node)
    readers = np.array([min(k, c.layout.dp) if c.layout.pp > 1 else k
                        for k, c in zip(nodes, curve.choices, strict=True)])
    return np.maximum(capacity, 1.0) * readers


@lru_cache(maxsize=256)  # the same for every projection of one model on one card
def _layouts_note(usable_gb: float, memory_gb: float, heads: int, layers: int, hidden: int,
                  shape_given: bool) -> Text:
    capacity = capacity_gb(memory_gb)  # the card's bytes: its nominal GB are GiB
    free = 100 * (1 - usable_gb / capacity)
    values = {"usable": quantity(usable_gb), "memory": quantity(memory_gb),
              "capacity": quantity(capacity), "free": free, "heads": heads, "layers": layers,
              "hidden": hidden}
    return Text(
        en=NOTE_LAYOUTS.en.format(**values,
                                  derived="" if shape_given else ", derived from the parameters"),
        zh=NOTE_LAYOUTS.zh.format(**values, derived_zh="" if shape_given else "，由参数量推算"))


def _layout_notes(profile: Profile, curve: LayoutCurve, counts: list[int],
                  notes: list[Text]) -> None:
    s = curve.shape
    notes.append(_layouts_note(curve.usable_gb, curve.cluster.memory_gb, s.heads, s.layers,
                               s.hidden, s.shape_given))
    if curve.estimated_one_gpu_gb is not None:  # a measured batch corrected the estimate
        timed = curve.timed_usable_gb  # ... on the card it was timed on, where moved
        usable = curve.usable_gb if timed is None else timed
        batch = profile.training.batch_per_gpu
        if curve.activations_only:  # the rest alone exceeded that card: only these held
            act = float(curve.reference.memory.activations[0] + curve.reference.memory.logits[0])
            rest = curve.reference.needed_gb - act
            notes.append(NOTE_ACTIVATIONS_HELD.format(
                batch=batch, act=act / s.activation_scale, states=rest, usable=usable,
                room=act))
        else:
            notes.append((NOTE_MEASURED_FITS if timed is None else NOTE_TIMED_ELSEWHERE).format(
                batch=batch, need=curve.estimated_one_gpu_gb, usable=usable))
    # the reference one GPU would need more than the card: said where the run on one GPU does
    # not fit either (a QLoRA 8B fitting one RTX 4090 read "does not fit one GPU": review 7)
    one_fits = 1 in counts and curve.choices[counts.index(1)].fits
    if curve.reference.needed_gb > curve.usable_gb:
        hours = one_gpu_hours(profile, curve.reference_tokens_per_s / s.sequence) \
            if profile.training.planned_from_size else profile.run_hours_one_gpu
        if hours:
            note = NOTE_REFERENCE_BATCH if one_fits else NOTE_REFERENCE
            notes.append(note.format(hours=quantity(hours)))
    notes.extend(method_notes(profile, curve, counts))
    notes.extend(moe_notes(curve, counts))  # a mixture of experts (issue 32)
    for n, c in zip(counts, curve.choices, strict=True):
        if not c.fits and c.memory_gb > curve.usable_gb:  # else the host's RAM is short
            label = c.layout.label()
            notes.append(Text(
                en=NOTE_NO_LAYOUT_FITS.en.format(gpus=count_text(n, "GPU"),
                                                 need=quantity(c.memory_gb),
                                                 usable=quantity(curve.usable_gb),
                                                 layout=label.en),
                zh=NOTE_NO_LAYOUT_FITS.zh.format(n=n, need=quantity(c.memory_gb),
                                                 usable=quantity(curve.usable_gb),
                                                 layout=label.zh)))
            break
