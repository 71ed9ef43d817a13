"""What a projection says about a fine-tuning method and offloaded states, in both languages
(``layout_projection`` adds these notes; the numbers come from ``layouts.methods`` and
``layouts.offload``)."""

from __future__ import annotations

from advisor.profile import Offload, Profile, TrainingMethod
from advisor.scaling.layouts.engine import LayoutCurve
from advisor.scaling.layouts.methods import adapter_params
from advisor.scaling.layouts.offload import HOST_USABLE_FRACTION
from advisor.text.i18n import Text
from advisor.text.numbers import count_text, quantity

NOTE_ADAPTERS = Text(
    en="{method}: rank-{rank} adapters on {share:.0%} of the layers' weight matrices train "
       "{adapters} M parameters ({frac:.2%} of the model): only they have gradients and "
       "optimizer states and only their gradients are exchanged; the frozen weights are "
       "kept in {bits} and still run forward and backward (no weight gradients).",
    zh="{method}：秩为 {rank} 的适配器加在各层 {share:.0%} 的权重矩阵上，训练 {adapters} 百万个参数"
       "（模型的 {frac:.2%}）：只有它们有梯度和优化器状态，也只同步它们的梯度；冻结的权重以{bits_zh}"
       "保存，前向和反向照常计算（不算权重梯度）。")
NOTE_PAGED = Text(
    en="QLoRA's paged optimizer: on {gpus}, {gb} GB of its optimizer states do not fit beside "
       "the rest and stay in host RAM (CUDA unified memory), paged in for each optimizer step.",
    zh="QLoRA 的分页优化器：{n} 张卡时有 {gb} GB 优化器状态放不下，留在主机内存（CUDA 统一内存），"
       "每次优化器更新时换入。")
NOTE_PAGED_ON_CARD = Text(
    en="QLoRA's paged optimizer: on {gpus}, {gb} GB of its optimizer states sit on the card while "
       "there is room and are counted in the memory per GPU; they move to host RAM when it is "
       "full, so the memory margin leaves them out.",
    zh="QLoRA 的分页优化器：{n} 张卡时有 {gb} GB 优化器状态在显存有空时留在卡上，计入每卡显存；显存满时"
       "会移到主机内存，所以显存余量不计它们。")
NOTE_OFFLOAD = Text(
    en="Offload ({what}): {moved} in host memory, about {host} GB per machine on the GPUs you "
       "have, of its {ram} GB RAM{assumed}; copies over each GPU's PCIe link (about {link:.0f} GB/s) and the "
       "optimizer step on the CPU (about {cpu:.0f} GB/s of host memory bandwidth) are "
       "charged to every step.",
    zh="卸载（{what_zh}）：{moved_zh}放在主机内存，按现有的卡每台机器约 {host} GB（共 {ram} GB 内存{assumed_zh}）；"
       "每张卡经 PCIe（约 {link:.0f} GB/s）的拷贝和 CPU 上的优化器更新（主机内存带宽约 {cpu:.0f} "
       "GB/s）计入每一步。")
NOTE_HOST_SHORT = Text(
    en="On {gpus} the offloaded states need about {need} GB of host memory per machine, more "
       "than the {usable} GB usable of its {ram} GB RAM.",
    zh="{n} 张卡时卸载的状态每台机器约需 {need} GB 主机内存，超过 {ram} GB 内存中可用的 {usable} GB。")
_WHAT = {Offload.optimizer: ("optimizer", "优化器", "the optimizer states and gradients",
                             "优化器状态和梯度"),
         Offload.parameters: ("parameters", "参数", "the optimizer states, gradients and "
                              "weights", "优化器状态、梯度和权重")}


def method_notes(profile: Profile, curve: LayoutCurve, counts: list[int]) -> list[Text]:
    t, hw = profile.training, profile.hardware
    notes: list[Text] = []
    if t.method != TrainingMethod.full:
        adapters = adapter_params(curve.shape, t.lora_rank, t.lora_target_share)
        qlora = t.method == TrainingMethod.qlora
        notes.append(NOTE_ADAPTERS.format(
            method="QLoRA" if qlora else "LoRA", rank=t.lora_rank, share=t.lora_target_share,
            adapters=quantity(adapters / 1e6), frac=adapters / curve.shape.params,
            bits="4-bit NormalFloat (NF4), the embedding and output layer in 16 bits" if qlora
            else "16 bits",
            bits_zh=" 4 位 NormalFloat（NF4）、嵌入层和输出层以 16 位" if qlora else " 16 位"))
        for n, c in zip(counts, curve.choices, strict=True):
            out = c.paged_out_gb
            if out is not None and out >= 0.05:
                gb = quantity(out)
                notes.append(Text(en=NOTE_PAGED.en.format(gpus=count_text(n, "GPU"), gb=gb),
                                  zh=NOTE_PAGED.zh.format(n=n, gb=gb)))
                break
        for n, c in zip(counts, curve.choices, strict=True):
            on_card = c.memory_gb - c.needed_gb  # paged states still on the card
            if on_card >= 0.05:
                gb = quantity(on_card)
                notes.append(Text(en=NOTE_PAGED_ON_CARD.en.format(gpus=count_text(n, "GPU"),
                                                                  gb=gb),
                                  zh=NOTE_PAGED_ON_CARD.zh.format(n=n, gb=gb)))
                break
    if t.offload == Offload.none:
        return notes
    cluster = curve.cluster
    what, what_zh, moved, moved_zh = _WHAT[t.offload]
    assumed = hw.host_memory_gb is None
    own = [c for n, c in zip(counts, curve.choices, strict=True) if n <= hw.total_gpus]
    at = (own or curve.choices)[-1]  # the most GPUs of the profile's own
    per_machine = at.machine_host_gb(hw.gpus_per_node)
    notes.append(NOTE_OFFLOAD.format(
        what=what, what_zh=what_zh, moved=moved, moved_zh=moved_zh,
        host=quantity(per_machine), ram=quantity(cluster.host_memory_gb),
        assumed=", assumed (hardware.host_memory_gb not given)" if assumed else "",
        assumed_zh="，按默认值估计（未填写 hardware.host_memory_gb）" if assumed else "",
        link=cluster.host_link_gbs, cpu=cluster.host_bandwidth_gbs))
    usable = cluster.host_memory_gb * HOST_USABLE_FRACTION
    for n, c in zip(counts, curve.choices, strict=True):
        need = c.machine_host_gb(hw.gpus_per_node)
        if not c.fits and c.memory_gb <= curve.usable_gb and need > usable:
            notes.append(Text(
                en=NOTE_HOST_SHORT.en.format(gpus=count_text(n, "GPU"), need=quantity(need),
                                             usable=quantity(usable),
                                             ram=quantity(cluster.host_memory_gb)),
                zh=NOTE_HOST_SHORT.zh.format(n=n, need=quantity(need), usable=quantity(usable),
                                             ram=quantity(cluster.host_memory_gb))))
            break
    return notes

