"""The machines: GPU model (a catalog id or the user's own card), count, links, virtualisation,
cooling and what was measured of them."""

from __future__ import annotations

from typing import Any

from pydantic import model_validator

from advisor.profile.enums import Cooling, GpuGeneration, InterLink, IntraLink, Virtualization
from advisor.profile.field_meta import StrictSection, meta


class CustomGpu(StrictSection):
    """A GPU that is not in the catalog (the wizard's "Custom GPU…" and a profile's own specs);
    the titles and help are what the wizard's fields show. Its bounds are the catalog's
    (``GpuSpec``), so that a card the profile accepts is one the projection can take."""

    name: str = meta("Custom GPU name", "自定义显卡名称", "What to call this card in the results.",
                     "在结果中如何称呼这张卡。", min_length=1, max_length=120)
    memory_gb: float = meta("Memory", "显存", "GPU memory of one card.", "单卡显存。",
                            unit="GB", ge=1, le=4096)
    tflops_fp16: float = meta("FP16 TFLOPS (dense)", "FP16 算力（稠密）",
                              "Dense FP16/BF16 tensor-core TFLOPS of one card (not the sparse "
                              "figure).", "单卡稠密 FP16/BF16 张量核心算力（不是稀疏算力）。",
                              unit="TFLOPS", ge=0.1, le=100_000)
    tflops_fp32: float = meta("FP32 TFLOPS", "FP32 算力", "FP32 TFLOPS of one card.",
                              "单卡 FP32 算力。", unit="TFLOPS", ge=0.1, le=100_000)
    tdp_w: float = meta("Board power", "整卡功耗", "The card's power limit (TDP).",
                        "显卡的功耗上限（TDP）。", unit="W", default=300, ge=5, le=5000)
    pcie_gen: int = meta("PCIe generation", "PCIe 代数", "PCIe generation of the card's slot.",
                         "显卡插槽的 PCIe 代数。", default=4, ge=1, le=7)
    generation: GpuGeneration | None = meta(
        "Architecture", "架构",
        "The card's generation (Ampere: A100, RTX 30; Ada: RTX 40, L40; Hopper: H100): it "
        "decides whether fp32 convolutions run in TF32 and 16-bit attention in a flash kernel. "
        "Empty: neither is assumed.",
        "显卡的架构代际（Ampere：A100、RTX 30 系；Ada：RTX 40 系、L40；Hopper：H100）：决定 fp32 "
        "卷积是否走 TF32、16 位注意力是否用 flash 内核。留空：两者都不假定。", default=None)
    memory_bandwidth_gbs: float | None = meta(
        "Memory bandwidth", "显存带宽", "GB/s of one card's memory, if known (the memory-bound "
        "part of a step runs at it).", "单卡显存带宽，可不填（每步中受带宽限制的部分按它计算）。",
        unit="GB/s", default=None, ge=10, le=100_000)
    price_usd: float | None = meta("Price in USD", "美元价格",
                                   "Purchase price of one card in US dollars, if known.",
                                   "单卡的美元购买价，可不填。", unit="USD", default=None, ge=0,
                                   le=10_000_000)


class HardwareSpec(StrictSection):
    gpu: str | CustomGpu = meta(
        "GPU model", "显卡型号", "A catalog id (e.g. rtx4090, a100_sxm4_80gb, h100_sxm) or your "
        "own specs.", "目录中的型号（如 rtx4090、a100_sxm4_80gb、h100_sxm），或自定义参数。",
        default="rtx4090")
    gpus_per_node: int = meta("GPUs per machine", "每台机器的卡数",
                              "GPUs in one machine (the largest setup to consider).",
                              "单台机器的显卡数（考虑的最大配置）。", default=4, ge=1, le=64)
    nodes: int = meta("Machines", "机器台数", "Machines (nodes) available.", "可用的机器（节点）数。",
                      default=1, ge=1, le=4096)
    intra_link: IntraLink = meta("Link inside a machine", "机内互联",
                                 "How GPUs in one machine talk to each other.",
                                 "同一台机器内显卡之间的通信方式。", default=IntraLink.pcie4)
    inter_link: InterLink = meta("Link between machines", "机间网络",
                                 "Network between machines (none for one machine).",
                                 "机器之间的网络（单机填 none）。", default=InterLink.none)
    host_memory_gb: float | None = meta(
        "RAM per machine", "每台机器的内存",
        "Host memory of one machine, for offloaded optimizer states and weights. Empty: 256 GB "
        "per data-centre GPU (a DGX carries 2 TB for eight), else twice the memory of its GPUs; "
        "never below twice the GPUs' memory nor 64 GB (workstations carry 64-256 GB, GPU "
        "servers 2-4x their GPUs' memory).", "一台机器的主机内存，用于存放卸载的优化器状态和权重。"
        "不填：数据中心显卡按每卡 256 GB 估计（DGX 八卡配 2 TB），其他按本机显卡显存总和的 2 倍；"
        "不低于显存总和的 2 倍，也不低于 64 GB（工作站常见 64–256 GB，GPU 服务器为显存的 2–4 倍）。",
        unit="GB", default=None, gt=0, le=1_000_000)
    virtualization: Virtualization = meta(
        "Virtualisation", "虚拟化",
        "bare metal, full pass-through, or NVIDIA vGPU (shared physical GPUs).",
        "裸金属、整卡直通，或 NVIDIA vGPU（共享物理卡）。", default=Virtualization.bare_metal)
    vgpus_per_physical_gpu: int | None = meta(
        "vGPUs per physical GPU", "每张物理卡切分的 vGPU 数",
        "With vGPU: how many virtual GPUs share one physical card, if known.",
        "使用 vGPU 时一张物理卡被切成几份，可不填。", default=None, ge=1, le=64)
    cooling: Cooling = meta("Cooling", "散热方式",
                            "open_air: gaming coolers; blower: turbo cards; server: ducted "
                            "chassis; liquid.", "open_air：开放式风扇；blower：涡轮卡；server："
                            "服务器风道；liquid：水冷。", default=Cooling.open_air)
    max_gpu_temp_c: float | None = meta(
        "Measured max GPU temperature", "实测最高显卡温度",
        "Highest temperature seen under load, if measured.", "满载时观察到的最高温度，可不填。",
        unit="°C", default=None, ge=0, le=130)
    allreduce_busbw_gbs: float | None = meta(
        "Measured all-reduce bus bandwidth", "实测 All-Reduce 总线带宽",
        "busbw from nccl-tests all_reduce_perf on the GPUs of one machine (large messages): "
        "replaces the default of the link inside a machine; the network between machines is "
        "inter_link's (roce_400g for a 400 Gb/s RoCE fabric).",
        "在一台机器的显卡上运行 nccl-tests all_reduce_perf 得到的 busbw（大消息）：替换机内互联的默认值；"
        "机器之间的网络按 inter_link 计（400 Gb/s RoCE 选 roce_400g）。", unit="GB/s", default=None,
        gt=0, le=10_000)

    @property
    def total_gpus(self) -> int:
        return self.gpus_per_node * self.nodes

    @model_validator(mode="before")
    @classmethod
    def _gpu_number_is_a_name(cls, data: Any) -> Any:
        """`gpu: 4090` in YAML is a number; it names a card. Which card a name means ('H100' on
        PCIe: h100_pcie) is the catalog's to say (``advisor.catalog.profile_check``)."""
        if isinstance(data, dict) and type(data.get("gpu")) is int:
            return {**data, "gpu": str(data["gpu"])}
        return data

    @model_validator(mode="after")
    def _network_for_nodes(self) -> HardwareSpec:
        if self.nodes > 1 and self.inter_link == InterLink.none:
            raise ValueError("inter_link: several machines need a network between them "
                             "(inter_link is none)")
        return self
