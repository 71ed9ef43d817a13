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
from advisor.verdict.setting_changes import Change, fields_said

ADAFACTOR = Text(
    en="kohya's recipe for a full SDXL fine-tune on a 24 GB card (sd-scripts' SDXL tips): "
       "Adafactor keeps no momentum and only factored second moments, almost no state a "
       "parameter, and is run with a fixed learning rate (relative_step and scale_parameter "
       "off).",
    zh="kohya 在 24 GB 卡上全参数微调 SDXL 的方案（sd-scripts 的 SDXL 建议）：Adafactor 不存动量，"
       "二阶矩只存分解后的行列，每个参数几乎不占状态，配固定学习率（关闭 relative_step 和 "
       "scale_parameter）。")
# what each other field the recipe sets costs, said only where it is set
_SAID = {
    "activation_checkpointing": Text(en="Recomputation costs about a third more compute.",
                                     zh="重计算多约三分之一的计算量。"),
    "frozen_encoders": Text(en="Text embeddings and latents cached beforehand fix each "
                               "image's caption and crop for the run.",
                            zh="事先缓存文本嵌入和潜变量，整个训练里每张图的描述和裁剪固定不变。"),
    "ema": Text(en="The EMA is updated on the CPU.", zh="EMA 在 CPU 上更新。"),
}
_16BIT = (Precision.bf16, Precision.fp16, Precision.amp)


def _full_16bit(dtype: Precision) -> tuple[str, Text]:
    """kohya's flag for pure 16-bit weights and gradients in ``dtype``, and what it costs."""
    flag = "--full_fp16" if dtype == Precision.fp16 else "--full_bf16"
    word = "fp16" if dtype == Precision.fp16 else "bf16"
    return flag, Text(
        en=f"kohya's {flag} keeps the UNet's weights and gradients in {word} as well (no fp32 "
           f"master copy), as its 16 GB runs do; {word} updates round away the smallest steps.",
        zh=f"kohya 的 {flag} 让 UNet 的权重和梯度也用 {word}（没有 fp32 主权重），16 GB 卡上就是"
           f"这样跑的；{word} 更新会把最小的步长舍掉。")


def lean_recipes(profile: Profile) -> list[Change]:
    """kohya's 24 GB recipe (Adafactor), then with ``--full_bf16`` (``--full_fp16`` for an
    fp16 run), each with only the fields the profile does not set already and saying what
    each one it sets costs; none but for a diffusion full fine-tune (a LoRA's adapters hold
    little state) or when the profile runs the leanest already."""
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
    said = _said_of(fields)
    out = []
    if not adafactor:  # else the usual savings are this recipe already
        out.append(_change("kohya_24gb", fields, Text(en="kohya's low-memory recipe (Adafactor)",
                                                      zh="kohya 的低显存方案（Adafactor）"),
                           _joined(ADAFACTOR, said)))
    if not t.pure_16bit and t.precision in _16BIT:
        dtype = t.precision if t.precision != Precision.amp else Precision.bf16
        flag, cost = _full_16bit(dtype)
        lean = {**fields, "pure_16bit": True, "precision": dtype}
        if adafactor:
            label = Text(en=f"kohya's low-memory recipe with {flag}",
                         zh=f"kohya 的低显存方案加 {flag}")
            trade = _joined(cost, said)
        else:
            label = Text(en=f"kohya's low-memory recipe (Adafactor) with {flag}",
                         zh=f"kohya 的低显存方案（Adafactor）加 {flag}")
            trade = _joined(_joined(ADAFACTOR, said), cost)
        out.append(_change("kohya_16gb", lean, label, trade))
    return out


def _said_of(fields: dict) -> Text:
    parts = [_SAID[name] for name in _SAID if name in fields]
    return Text(en=" ".join(p.en for p in parts), zh="".join(p.zh for p in parts))


def _joined(a: Text, b: Text) -> Text:
    return Text(en=" ".join(x for x in (a.en, b.en) if x), zh=a.zh + b.zh)


def with_batch(recipe: Change, batch_change: Change) -> Change:
    """``recipe`` at a smaller batch per GPU (``setting_changes.accumulation``'s change)."""
    return recipe.plus(batch_change)


def _change(cid: str, fields: dict, label: Text, trade_off: Text) -> Change:
    said = fields_said(fields)
    return Change(id=cid, kind="numerics", label=label,
                  change=Text(en=said, zh=said.replace(", ", "，")), trade_off=trade_off,
                  training=fields)


__all__ = ["ADAFACTOR", "lean_recipes", "with_batch"]
