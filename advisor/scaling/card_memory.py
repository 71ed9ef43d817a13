"""What a GPU's memory holds, and what a job may fill of it."""

from __future__ import annotations

from advisor.scaling.parameters import ScalingParams
from advisor.text.i18n import Text
from advisor.text.numbers import quantity

# A card sold as "80 GB" holds 80 GiB (nvidia-smi: 81,920 MiB on an A100 80GB; 40,537 MiB of
# the A100 40GB's 40 GiB, 24,564 MiB of an RTX 4090's 24 GiB): its memory in bytes is the
# nominal figure in GiB, 7.4 % more than the GB every estimate here is counted in.
BYTES_PER_NOMINAL_GB = 2.0 ** 30


def capacity_gb(memory_gb: float) -> float:
    """What a card sold with ``memory_gb`` holds, in GB (1e9 bytes)."""
    return memory_gb * BYTES_PER_NOMINAL_GB / 1e9


def usable_gb(memory_gb: float, p: ScalingParams) -> float:
    """What a job may fill of the card: its bytes as the driver reports them
    (``REPORTED_SHARE`` of the nominal GiB) over what the caching allocator reserves per byte
    it allocates (``ALLOCATOR_RESERVE``): ``memory_usable_fraction`` = 0.99 / 1.05. The CUDA
    context is part of every estimate's need; the buffers a framework allocates beside the
    model states (gradient buckets, ZeRO-3's gathered tensors, the fp32 gradients of mixed
    precision) are counted in it (layouts/memory.py), not taken off the card."""
    return capacity_gb(memory_gb) * p.memory_usable_fraction


# nvidia-smi's total over the nominal GiB: 81,920 of 81,920 MiB (A100 80GB), 81,559 (H100
# 80GB), 40,537 of 40,960 (A100 40GB), 24,564 of 24,576 (RTX 4090); ECC on GDDR takes more
# (a T4's 15,360 of 16,384 MiB)
REPORTED_SHARE = 0.99
ALLOCATOR_RESERVE = 1.05  # what PyTorch's caching allocator reserves per byte it allocates
MIB = 2.0 ** 20

NOTE_MEMORY_READING = Text(
    en="Memory per GPU is what PyTorch allocates at its peak plus the CUDA context and, on "
       "several GPUs, NCCL's buffers, in GB "
       "(10^9 bytes); nvidia-smi shows MiB and what the allocator reserves, about 5 % more: "
       "{gb} GB here reads as about {mib:,.0f} MiB there. The card's {nominal} GB are GiB "
       "({capacity} GB); up to {usable} GB are planned as usable.",
    zh="每卡显存是 PyTorch 峰值分配量加 CUDA 上下文（多卡时再加 NCCL 缓冲区），单位 GB（10^9 字节）；nvidia-smi 以 MiB "
       "显示，并包含分配器预留的部分，约多 5%：这里的 {gb} GB 在那里约为 {mib:,.0f} MiB。"
       "这张卡的 {nominal} GB 实为 GiB（{capacity} GB）；按可用 {usable} GB 规划。")


def memory_reading_note(memory_gb: float, gpu_memory_gb: float, p: ScalingParams) -> Text:
    """Which memory the projection reports, and how it reads in nvidia-smi (issue 31)."""
    return NOTE_MEMORY_READING.format(
        gb=quantity(memory_gb), mib=memory_gb * 1e9 * ALLOCATOR_RESERVE / MIB,
        nominal=quantity(gpu_memory_gb), capacity=quantity(capacity_gb(gpu_memory_gb)),
        usable=quantity(usable_gb(gpu_memory_gb, p)))
