"""The leanest recipes a diffusion full fine-tune is published to run with on one card, tried
as setups when the usual savings (``setting_changes.diffusion_savings``) still need more than
one of the user's GPUs (issue 31, cause 7: an SDXL full fine-tune on a 24 GB card).

kohya's sd-scripts (docs/train_SDXL-en.md, "Tips for SDXL training") fine-tunes SDXL's UNet on
24 GB at batch 1 with gradient checkpointing, cached text-encoder outputs and latents, and
Adafactor (8-bit AdamW "doesn't seem to work" there); its ``--full_bf16`` keeps the weights
and gradients in bf16 too, which kohya_ss users run on 16 GB (bmaltais/kohya_ss#2530). Both are
scored in ``benchmarks/diffusion_memory.py``. Each recipe is tried at the user's batch per GPU,
then at the largest smaller one that one card holds, accumulating to the same global batch.
"""

from __future__ import annotations

from advisor.profile import (
    ActivationCheckpointing,
    Ema,
    FrozenEncoders,
    Optimizer,
    Precision,
    Profile,
    Task,
    TrainingMethod,
)
from advisor.scaling.optimizer_family import optimizer_of
from advisor.text.i18n import Text
from advisor.verdict.setting_changes import Change

ADAFACTOR_RECIPE = Text(
    en="kohya's recipe for a full SDXL fine-tune on a 24 GB card (sd-scripts' SDXL tips): "
       "Adafactor keeps no momentum and only factored second moments, almost no state a "
       "parameter, and is run with a fixed learning rate (relative_step and scale_parameter "
       "off); recomputation costs about a third more compute; cached text embeddings and "
       "latents fix each image's caption and crop for the run; the EMA is updated on the CPU.",
    zh="kohya 在 24 GB 卡上全参数微调 SDXL 的方案（sd-scripts 的 SDXL 建议）：Adafactor 不存动量，"
       "二阶矩只存分解后的行列，每个参数几乎不占状态，配固定学习率（关闭 relative_step 和 "
       "scale_parameter）；重计算多约三分之一的计算量；事先缓存文本嵌入和潜变量，整个训练里每张图的描述和"
       "裁剪固定不变；EMA 在 CPU 上更新。")
FULL_BF16 = Text(
    en="kohya's --full_bf16 keeps the UNet's weights and gradients in bf16 as well (no fp32 "
       "master copy), as its 16 GB runs do; bf16 updates round away the smallest steps.",
    zh="kohya 的 --full_bf16 让 UNet 的权重和梯度也用 bf16（没有 fp32 主权重），16 GB 卡上就是这样跑的；"
       "bf16 更新会把最小的步长舍掉。")
_16BIT = (Precision.bf16, Precision.fp16, Precision.amp)


def lean_recipes(profile: Profile) -> list[Change]:
    """kohya's 24 GB recipe (Adafactor), then with ``--full_bf16``, each with only the fields
    the profile does not set already; none but for a diffusion full fine-tune (a LoRA's
    adapters hold little state) or when the profile runs the leanest already."""
    t = profile.training
    if profile.task != Task.diffusion or t.method != TrainingMethod.full:
        return []
    fields: dict = {}
    if t.activation_checkpointing != ActivationCheckpointing.full:
        fields["activation_checkpointing"] = ActivationCheckpointing.full
    if t.frozen_encoders != FrozenEncoders.cached:
        fields["frozen_encoders"] = FrozenEncoders.cached
    if t.ema == Ema.gpu:
        fields["ema"] = Ema.cpu
    adafactor = optimizer_of(profile) in (Optimizer.adafactor, Optimizer.sgd)
    if not adafactor:
        fields["optimizer"] = Optimizer.adafactor
    out = []
    if not adafactor:  # else the usual savings are this recipe already
        out.append(_change("kohya_24gb", fields, Text(en="kohya's low-memory recipe (Adafactor)",
                                                      zh="kohya 的低显存方案（Adafactor）"),
                           ADAFACTOR_RECIPE))
    if not t.pure_16bit and t.precision in _16BIT:
        dtype = t.precision if t.precision != Precision.amp else Precision.bf16
        bf16 = {**fields, "pure_16bit": True, "precision": dtype}
        label = Text(en="kohya's low-memory recipe (Adafactor) with --full_bf16",
                     zh="kohya 的低显存方案（Adafactor）加 --full_bf16") if not adafactor else \
            Text(en="kohya's --full_bf16", zh="kohya 的 --full_bf16")
        trade = Text(en=f"{ADAFACTOR_RECIPE.en} {FULL_BF16.en}",
                     zh=f"{ADAFACTOR_RECIPE.zh}{FULL_BF16.zh}") if not adafactor else FULL_BF16
        out.append(_change("kohya_16gb", bf16, label, trade))
    return out


def with_batch(recipe: Change, batch_change: Change) -> Change:
    """``recipe`` at a smaller batch per GPU (``setting_changes.accumulation``'s change)."""
    return Change(id=f"{recipe.id}+{batch_change.id}", kind=recipe.kind,
                  label=Text(en=f"{recipe.label.en} + {batch_change.label.en}",
                             zh=f"{recipe.label.zh} + {batch_change.label.zh}"),
                  change=Text(en=f"{recipe.change.en}, {batch_change.change.en}",
                              zh=f"{recipe.change.zh}，{batch_change.change.zh}"),
                  trade_off=Text(en=f"{recipe.trade_off.en} {batch_change.trade_off.en}",
                                 zh=f"{recipe.trade_off.zh}{batch_change.trade_off.zh}"),
                  training={**recipe.training, **batch_change.training})


def _change(cid: str, fields: dict, label: Text, trade_off: Text) -> Change:
    said = ", ".join(f"{k}: {_said(v)}" for k, v in fields.items())
    return Change(id=cid, kind="numerics", label=label,
                  change=Text(en=said, zh=said.replace(", ", "，")), trade_off=trade_off,
                  training=fields)


def _said(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(getattr(value, "value", value))


__all__ = ["ADAFACTOR_RECIPE", "FULL_BF16", "lean_recipes", "with_batch"]
