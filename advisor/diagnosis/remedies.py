"""The suspects a diagnosis can name: title, remedy and the article facts behind each."""

from __future__ import annotations

from advisor.files.records import record
from advisor.text.i18n import Text


@record
class SuspectKind:
    id: str
    title: Text
    remedy: Text
    sources: tuple[str, ...]


# The interconnect remedy when the GPUs already have NVLink/NVSwitch (review 4: "use NVLink"
# told to an NVSwitch machine).
INTERCONNECT_ON_NVLINK = Text(
    en="The GPUs already have NVLink: measure with nccl-tests all_reduce_perf and check that "
       "NCCL uses it (`nvidia-smi topo -m` shows NV#, NCCL_DEBUG=INFO names the transport; "
       "no NCCL_P2P_DISABLE); across machines the network is the slow tier (F08, F32); enable "
       "gradient bucketing and overlap, send fp16/bf16 gradients, or accumulate gradients "
       "over several micro-batches so the exchange happens less often.",
    zh="显卡之间已经有 NVLink：用 nccl-tests 的 all_reduce_perf 实测，并确认 NCCL 真的在用它"
       "（`nvidia-smi topo -m` 显示 NV#，NCCL_DEBUG=INFO 会写出所用通道；不要设置 "
       "NCCL_P2P_DISABLE）；跨机器时网络才是慢的那一层（F08、F32）；开启梯度分桶与通信计算重叠，"
       "用 fp16/bf16 传梯度，或做梯度累积以减少同步次数。")

SUSPECTS: dict[str, SuspectKind] = {k.id: k for k in (
    SuspectKind(
        "input_pipeline",
        Text(en="Input pipeline starves the GPUs", zh="数据加载喂不饱显卡"),
        Text(en="Check the data pipeline before blaming the GPUs: raise the data loader's "
                "num_workers (2–4 per GPU), use pinned memory and prefetching, move the data "
                "to local NVMe or RAM, and decode/augment on more CPU cores.",
             zh="先查数据管线再怪显卡：把 DataLoader 的 num_workers 调到每卡 2–4 个，开启 "
                "pin_memory 和预取，把数据放到本地 NVMe 或内存，用更多 CPU 核做解码和增强。"),
        ("F28", "F13")),
    SuspectKind(
        "interconnect",
        Text(en="Gradient exchange (all-reduce) is bandwidth-bound", zh="梯度同步（All-Reduce）受带宽限制"),
        Text(en="Measure the link with nccl-tests all_reduce_perf; keep GPUs on one PCIe switch "
                "or use NVLink (30 % up to 2× better, F25); enable gradient bucketing and "
                "overlap (DDP does by default), send fp16/bf16 gradients, or accumulate "
                "gradients over several micro-batches so the exchange happens less often.",
             zh="用 nccl-tests 的 all_reduce_perf 实测带宽；让显卡挂在同一 PCIe 交换芯片下或使用 "
                "NVLink（快 30% 到 2 倍，F25）；开启梯度分桶与通信计算重叠（DDP 默认开启），用 "
                "fp16/bf16 传梯度，或做梯度累积以减少同步次数。"),
        ("F07", "F25", "F30")),
    SuspectKind(
        "lagging_gpu",
        Text(en="One GPU holds the others back", zh="有一张卡拖了后腿"),
        Text(en="Watch every GPU with `nvidia-smi dmon` during training and find the one whose "
                "clock, utilisation or temperature differs; check its PCIe link width "
                "(`nvidia-smi -q`), its cooling and its power connectors, or leave it out.",
             zh="训练时用 `nvidia-smi dmon` 观察每张卡，找出频率、利用率或温度异常的那张；检查它的 "
                "PCIe 链路宽度（`nvidia-smi -q`）、散热和供电接口，必要时先把它排除。"),
        ("F30",)),
    SuspectKind(
        "thermal_throttling",
        Text(en="GPUs throttle from heat", zh="显卡过热降频"),
        Text(en="Most GPUs slow down above 84 °C: space the cards apart, add case fans or "
                "blower/water cooling, run a heat-soak test, and count that cost.",
             zh="多数显卡超过 84 °C 就会降频：拉开显卡间距，加机箱风扇或换涡轮/水冷，做一次烤机测试，"
                "并把散热成本算进去。"),
        ("F27",)),
    SuspectKind(
        "power_throttling",
        Text(en="GPUs are held at their power cap", zh="显卡被功耗上限压住"),
        Text(en="The cards hit their power limit (SW Power Cap): check the power supply's "
                "capacity and rails (≥ 750 W for four cards, more for big ones), the limit set "
                "with `nvidia-smi -pl`, and the 8-pin/12VHPWR cables.",
             zh="显卡触发了功耗上限（SW Power Cap）：检查电源功率与供电路数（四卡至少 750 W，大卡更多）、"
                "`nvidia-smi -pl` 设置的上限以及 8-pin/12VHPWR 供电线。"),
        ("F23", "F09")),
    SuspectKind(
        "vgpu_sharing",
        Text(en="Virtual GPUs share fewer physical cards", zh="虚拟 GPU 共享了更少的物理卡"),
        Text(en="Ask the provider whether the instance uses NVIDIA vGPU or full pass-through; "
                "several \"GPUs\" on one physical card run at that card's speed. Choose a "
                "pass-through or bare-metal instance.",
             zh="向云厂商确认实例是 NVIDIA vGPU 还是整卡直通；切在同一张物理卡上的多个“GPU”只有这一张卡的"
                "速度。请选择直通或裸金属实例。"),
        ("F29",)),
    SuspectKind(
        "small_model_communication",
        Text(en="The model is too small: communication outweighs compute",
             zh="模型太小：通信时间超过计算时间"),
        Text(en="A model that fits one GPU comfortably finishes its step before the gradients "
                "are exchanged: raise the per-GPU batch, accumulate gradients, or run several "
                "independent jobs (one per GPU) instead of one data-parallel job.",
             zh="能轻松放进一张卡的小模型，算完一步比同步梯度还快：加大每卡批大小、做梯度累积，或者每张卡"
                "各跑一个独立任务，而不是一个数据并行任务。"),
        ("F20", "F07")),
    SuspectKind(
        "serial_code",
        Text(en="A fixed serial part (logging, evaluation, checkpoints on one process)",
             zh="固定的串行部分（单进程做日志、评估、保存检查点）"),
        Text(en="A Karp–Flatt serial fraction that stays flat points at work done once per "
                "step regardless of GPU count: move evaluation, logging and checkpointing off "
                "the training step or spread them over the ranks.",
             zh="Karp–Flatt 串行比例不随卡数变化，说明每步都有与卡数无关的固定工作：把评估、日志、"
                "保存检查点移出训练步，或分摊到各个进程。"),
        ("F03",)),
    SuspectKind(
        "alternating_training",
        Text(en="Alternating training leaves GPUs idle", zh="交替训练让显卡空等"),
        Text(en="GANs and reinforcement learning train sub-networks in turn; adding GPUs mostly "
                "adds waiting. Prefer one GPU per experiment and run experiments in parallel.",
             zh="GAN 和强化学习轮流训练子网络，加卡主要是加等待。建议一卡一个实验，多个实验并行跑。"),
        ("F21",)),
)}
