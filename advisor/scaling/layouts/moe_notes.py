"""What a projection says of a mixture of experts: the active and total parameters, the
expert parallelism each count keeps and where its all-to-all runs, and the load imbalance it
assumes (the capacity factor), in both languages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from advisor.text.i18n import Text
from advisor.text.numbers import quantity

if TYPE_CHECKING:
    from advisor.scaling.layouts.engine import LayoutCurve

NOTE_MOE = Text(
    en="A mixture of experts: {active} M of its {total} M parameters run for each token ({k} of "
       "{e} experts), so the compute follows them, while every expert's weights, gradients "
       "and optimizer states are held. Experts split over data-parallel replicas (expert "
       "parallel, EP) reach their tokens by all-to-all, 4 per MoE layer and micro-batch (6 "
       "with full recomputation), never hidden behind compute; the busiest expert rank is "
       "assumed to get {cf:g} times its share of the tokens (capacity factor: token dropping "
       "pads to it, a balancing loss keeps dropless routing near it; published MoE runs: "
       "benchmarks/moe_accuracy.py).",
    zh="混合专家模型：{total} M 参数中每个 token 只经过 {active} M（{e} 个专家中的 {k} 个），"
       "计算量按激活参数计，而所有专家的权重、梯度和优化器状态都要存放。专家分布在数据并行副本上"
       "（专家并行，EP）时，token 经 all-to-all 发往专家，每个 MoE 层每个微批次 4 次（完整重计算时 "
       "6 次），不与计算重叠；假定最忙的专家所在卡处理其平均份额 {cf:g} 倍的 token（容量因子："
       "丢弃 token 的训练按它补齐，无丢弃路由靠负载均衡损失保持在其附近；与公开 MoE 训练的对比见 "
       "benchmarks/moe_accuracy.py）。")
NOTE_EP = Text(
    en="On {gpus} GPUs the experts are split {ep} ways (EP {ep}); their all-to-all {where}.",
    zh="{gpus} 张卡时专家分成 {ep} 份（专家并行 {ep}），其 all-to-all {where_zh}。")
_INSIDE = ("stays inside one machine", "在单台机器内完成")
_ACROSS = ("crosses machines through their network adapters", "需经网卡跨机器传输")


def moe_notes(curve: LayoutCurve, counts: list[int]) -> list[Text]:
    """The notes of a mixture of experts (none for a dense model): what it computes and
    holds, and the largest count's expert parallelism."""
    s = curve.shape
    if not s.is_moe:
        return []
    values = dict(active=quantity(s.active_params / 1e6), total=quantity(s.params / 1e6),
                  k=s.experts_per_token, e=s.experts, cf=s.capacity_factor)
    notes = [NOTE_MOE.format(**values)]
    split = [(n, c.layout) for n, c in zip(counts, curve.choices, strict=True)
             if c.layout.ep > 1]
    if split:
        n, lay = split[-1]
        per_tp = max(curve.cluster.gpus_per_node // lay.tp, 1)
        en, zh = _INSIDE if lay.ep <= per_tp else _ACROSS
        notes.append(NOTE_EP.format(gpus=f"{n:,}", ep=lay.ep, where=en, where_zh=zh))
    return notes
