"""The layouts in one sentence each, in both languages (the report and the README say the same)."""

from __future__ import annotations

from advisor.text.i18n import Text

GLOSSARY: tuple[tuple[str, Text], ...] = (
    ("DP", Text(
        en="Data parallel: every GPU holds the whole model and its own share of the batch, and "
           "the gradients are all-reduced once per step.",
        zh="数据并行：每张卡都有完整模型和自己那份批次，每步对梯度做一次 All-Reduce。")),
    ("ZeRO-1", Text(
        en="ZeRO stage 1: the data-parallel GPUs split the optimizer states (12 of the 16 bytes "
           "per parameter) and exchange as much as plain data parallel.",
        zh="ZeRO 第 1 阶段：数据并行的各卡分摊优化器状态（每参数 16 字节中的 12 字节），通信量与普通数据"
           "并行相同。")),
    ("ZeRO-2", Text(
        en="ZeRO stage 2: the gradients are split too, reduce-scattered every micro-batch.",
        zh="ZeRO 第 2 阶段：梯度也分摊，每个微批次做一次 Reduce-Scatter。")),
    ("ZeRO-3 / FSDP", Text(
        en="ZeRO stage 3 or PyTorch FSDP (full shard): the weights are split as well and "
           "gathered layer by layer before each forward and backward pass (1.5x the traffic, "
           "paid every micro-batch: small micro-batches become communication-bound).",
        zh="ZeRO 第 3 阶段或 PyTorch FSDP（全分片）：权重也分摊，每次前向和反向前逐层 All-Gather"
           "（通信量 1.5 倍，每个微批次都要付：微批次太小就会卡在通信上）。")),
    ("FSDP hybrid shard", Text(
        en="FSDP hybrid shard: the states are split among the GPUs of one machine and "
           "replicated across machines, so the gathers stay on the fast links inside it.",
        zh="FSDP 混合分片：状态只在一台机器的各卡之间分摊，机器之间复制，All-Gather 只走机内高速互联。")),
    ("TP", Text(
        en="Tensor parallel: each layer's matrices are split over t GPUs of one machine, which "
           "exchange activations four times per layer (t must divide the attention heads).",
        zh="张量并行：每层的矩阵切到同一台机器的 t 张卡上，每层交换 4 次激活（t 必须整除注意力头数）。")),
    ("PP", Text(
        en="Pipeline parallel: the layers are cut into p stages on different GPUs and each "
           "step's micro-batches flow through them; the GPUs idle for the bubble (p-1)/m of "
           "the step, shrunk v-fold by interleaving v chunks per GPU.",
        zh="流水线并行：各层切成 p 段放在不同的卡上，每步的微批次依次流过；卡会空等气泡 (p-1)/m 的时间，"
           "每卡交错 v 个块可把气泡缩小 v 倍。")),
    ("TP x PP x DP", Text(
        en="3-D parallel (Megatron-LM): tensor parallel inside each machine, pipeline stages "
           "across machines, and data-parallel replicas of the whole, all tensor-parallel "
           "ranks of a machine sharing its network adapters.",
        zh="三维并行（Megatron-LM）：机内张量并行、跨机流水线分段，再复制成数据并行副本；一台机器的"
           "各张量并行卡共用这台机器的网卡。")),
    ("selective / full recomputation", Text(
        en="Activation checkpointing: selective recomputes only the attention scores (a few "
           "% more compute, their memory gone), full recomputes each layer from its input "
           "(about a third more compute, the activations down to the layer inputs).",
        zh="激活重计算：selective 只重算注意力分数（计算量多几个百分点，省掉这部分显存），full 从每层"
           "输入整层重算（计算量约多三分之一，激活只剩各层输入）。")),
)


def glossary(lang: str) -> list[tuple[str, str]]:
    return [(name, text.get(lang)) for name, text in GLOSSARY]
