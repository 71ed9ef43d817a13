"""A single-GPU throughput that no GPU could reach is most likely in another unit.

Logs print tokens/s (language models), audio samples/s, images/s or the whole machine's rate;
the profile's throughput is per GPU in ``training.throughput_unit`` (samples by default). A
rate entered in tokens as if it were samples makes every step hundreds of times too short and
the projection communication-bound. The check is a lower bound, so it never flags a real
rate: every parameter of a dense network takes part in at least one multiply-add per sample
(token) forward and two backward, so a sample costs at least 6 x parameters x tokens FLOPs
(the sequence length when given; for a language or speech model without one, 32 tokens, less
than any such model pads its batches to; one for other models), or the user's own FLOPs.
When that implies more FLOP/s than the card's dense peak with 2:4 sparsity (twice the dense
peak), the note names the field and what to check, in both languages. The measured rate is
kept: a measurement is the user's to correct.
"""

from __future__ import annotations

from advisor.catalog.gpus import GpuSpec
from advisor.profile import Profile, Task
from advisor.scaling.activations import SEQUENCE_TASKS
from advisor.text.i18n import Text

# A sequence model's samples hold at least this many tokens (frames) when the profile does
# not say: shorter than what language and speech models pad or pack their batches to
MIN_SEQUENCE_TOKENS = 32
SPARSITY_HEADROOM = 2.0  # 2:4 structured sparsity doubles the tensor cores' dense peak
# Recommenders are mostly embedding rows, which are looked up, not multiplied: their
# parameter count says nothing about their FLOPs (the check needs the user's FLOPs there).
_SPARSE_TASKS = (Task.recommendation,)

NOTE_IMPOSSIBLE_THROUGHPUT = Text(
    en="training.single_gpu_throughput: {rate:,.6g} {unit}/s on one {gpu} implies at least "
       "{implied:,.4g} TFLOP/s for a {params:,.4g} M-parameter model ({how}), more than the "
       "card can compute ({peak:,.4g} TFLOP/s even with 2:4 sparsity). The throughput is most "
       "likely in another unit: tokens per second counted as samples, or the rate of all GPUs "
       "instead of one. Set training.throughput_unit (tokens needs model.sequence_length) or "
       "give one GPU's samples per second; the projection uses the value as given.",
    zh="training.single_gpu_throughput：{gpu} 单卡每秒 {rate:,.6g} 个{unit_zh}，对 {params:,.4g}M "
       "参数的模型意味着至少 {implied:,.4g} TFLOP/s（{how_zh}），超过了这张卡的算力（即使按 2:4 "
       "稀疏也只有 {peak:,.4g} TFLOP/s）。吞吐很可能用错了单位：把每秒 token 数当成了样本数，或填了"
       "所有卡的合计而不是单卡。请设置 training.throughput_unit（tokens 需要填写 "
       "model.sequence_length），或填写单卡每秒样本数；本预测仍按所填数值计算。")
_UNIT_ZH = {"samples": "样本", "images": "图像", "tokens": "token", "frames": "帧",
            "audio_samples": "音频采样点"}


def least_flops_per_sample(profile: Profile) -> tuple[float, str, str] | None:
    """A lower bound on one sample's training FLOPs, and how it was found (en, zh); None
    when the parameters say nothing (embedding-table recommenders without FLOPs)."""
    m = profile.model
    if m.flops_per_sample_gflops:
        return m.flops_per_sample_gflops * 1e9, "its given FLOPs per sample", "按所填每样本计算量"
    if profile.task in _SPARSE_TASKS:
        return None
    tokens = 1
    if profile.task in SEQUENCE_TASKS:
        tokens = m.sequence_length or MIN_SEQUENCE_TOKENS
    how = (f"6 x parameters x {tokens} tokens" if tokens > 1
           else "6 x parameters, one multiply-add per weight forward and two backward")
    how_zh = (f"6 × 参数量 × {tokens} 个 token" if tokens > 1
              else "6 × 参数量：每个权重前向一次乘加、反向两次")
    # a mixture of experts computes with its active parameters (issue 32)
    params = m.active_params_millions if m.is_moe and m.active_params_millions else \
        m.params_millions
    return 6.0 * params * 1e6 * tokens, how, how_zh


def impossible_throughput(profile: Profile, gpu: GpuSpec) -> Text | None:
    """The note when the profile's single-GPU throughput exceeds what the card can compute
    (``NOTE_IMPOSSIBLE_THROUGHPUT``), else None."""
    t = profile.training
    rate = t.single_gpu_throughput
    bound = least_flops_per_sample(profile)
    samples = profile.single_gpu_samples_per_s
    if rate is None or bound is None or not samples:
        return None
    flops, how, how_zh = bound
    implied = samples * flops / 1e12
    peak = SPARSITY_HEADROOM * max(gpu.tflops_fp16_dense, gpu.tflops_fp32)
    if implied <= peak:
        return None
    unit = t.throughput_unit.value
    values = dict(rate=rate, gpu=gpu.name, implied=implied, params=profile.model.params_millions,
                  peak=peak)
    return Text(en=NOTE_IMPOSSIBLE_THROUGHPUT.en.format(unit=unit.replace("_", " "), how=how,
                                                        **values),
                zh=NOTE_IMPOSSIBLE_THROUGHPUT.zh.format(unit_zh=_UNIT_ZH.get(unit, unit),
                                                        how_zh=how_zh, **values))
