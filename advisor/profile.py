"""The workload profile: everything the advisor needs to know about one training job.

Every field carries its unit (in its name or ``unit``), bounds, English and Chinese titles and
help, so the wizard and the CLI can be generated from the model alone (see ``field_meta``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

SCHEMA_VERSION = 1


def meta(
    title: str,
    title_zh: str,
    help: str,
    help_zh: str,
    *,
    unit: str | None = None,
    unit_zh: str | None = None,
    step: float | None = None,
    **field_kwargs: Any,
) -> Any:
    """A pydantic ``Field`` with the bilingual metadata the wizard and docs are built from."""
    extra: dict[str, Any] = {"title_zh": title_zh, "help_zh": help_zh}
    if unit:
        extra["unit"] = unit
        extra["unit_zh"] = unit_zh or unit
    if step is not None:
        extra["step"] = step
    return Field(title=title, description=help, json_schema_extra=extra, **field_kwargs)


class Task(StrEnum):
    image_classification = "image_classification"
    object_detection = "object_detection"
    segmentation = "segmentation"
    speech_recognition = "speech_recognition"
    nlp = "nlp"
    llm = "llm"
    recommendation = "recommendation"
    gan = "gan"
    reinforcement_learning = "reinforcement_learning"
    other = "other"


class Precision(StrEnum):
    fp32 = "fp32"
    tf32 = "tf32"
    fp16 = "fp16"
    bf16 = "bf16"
    amp = "amp"


class InputPipeline(StrEnum):
    starved = "starved"
    typical = "typical"
    tuned = "tuned"


class Storage(StrEnum):
    hdd = "hdd"
    sata_ssd = "sata_ssd"
    nvme = "nvme"
    network = "network"
    ram = "ram"


class Parallelism(StrEnum):
    auto = "auto"
    data = "data"
    zero1 = "zero1"
    zero2 = "zero2"
    zero3 = "zero3"
    fsdp = "fsdp"
    tensor = "tensor"
    pipeline = "pipeline"


class GradientDtype(StrEnum):
    auto = "auto"  # follows precision; AMP keeps fp32 gradients
    fp32 = "fp32"
    fp16 = "fp16"
    bf16 = "bf16"


class IntraLink(StrEnum):
    pcie3 = "pcie3"
    pcie4 = "pcie4"
    pcie5 = "pcie5"
    nvlink_bridge = "nvlink_bridge"
    nvlink = "nvlink"
    nvswitch = "nvswitch"


class InterLink(StrEnum):
    none = "none"
    ethernet_10g = "ethernet_10g"
    ethernet_25g = "ethernet_25g"
    ethernet_100g = "ethernet_100g"
    roce = "roce"
    infiniband_edr = "infiniband_edr"
    infiniband_hdr = "infiniband_hdr"
    infiniband_ndr = "infiniband_ndr"


class Virtualization(StrEnum):
    bare_metal = "bare_metal"
    passthrough = "passthrough"
    vgpu = "vgpu"
    unknown = "unknown"


class Cooling(StrEnum):
    open_air = "open_air"
    blower = "blower"
    server = "server"
    liquid = "liquid"


class EconomicsMode(StrEnum):
    own = "own"
    cloud = "cloud"
    compare = "compare"


class Currency(StrEnum):
    CNY = "CNY"
    USD = "USD"


class TimeValue(StrEnum):
    # research with a deadline: a day saved is worth `value_per_day`; with only `deadline_days`
    # the date alone counts (the fewest GPUs that meet it), time saved has no money value
    deadline = "deadline"
    revenue = "revenue"  # product work: a day saved earns a day of revenue
    none = "none"  # learning: time saved has no money value


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, validate_assignment=True,
                              use_enum_values=False)


class ModelSpec(_Strict):
    name: str = meta("Model name", "模型名称", "A name you recognise, e.g. ResNet-50.",
                     "便于识别的名称，例如 ResNet-50。", default="my-model", min_length=1,
                     max_length=120)
    params_millions: float = meta(
        "Parameters", "参数量", "Number of trainable parameters, in millions (ResNet-50: 25.6).",
        "可训练参数数量，单位百万（ResNet-50 约 25.6）。", unit="M", unit_zh="百万",
        default=25.6, gt=0, le=10_000_000)
    flops_per_sample_gflops: float | None = meta(
        "Training FLOPs per sample", "每样本训练计算量",
        "Forward + backward GFLOPs for one sample, if known (ResNet-50 at 224 px: about 12).",
        "单个样本前向加反向的计算量（GFLOPs），可不填（ResNet-50 224 像素约 12）。",
        unit="GFLOP", default=None, gt=0, le=1e9)
    layers: int | None = meta("Layers", "层数", "Transformer layers (LLMs), if known.",
                              "Transformer 层数（大语言模型），可不填。", default=None, ge=1,
                              le=2000)
    hidden_size: int | None = meta("Hidden size", "隐藏维度", "Model width (LLMs), if known.",
                                   "模型宽度（大语言模型），可不填。", default=None, ge=16,
                                   le=1_000_000)
    sequence_length: int | None = meta(
        "Sequence length", "序列长度", "Tokens per sample (language models), if known.",
        "每个样本的 token 数（语言模型），可不填。", unit="tokens", unit_zh="token",
        default=None, ge=1, le=10_000_000)


class TrainingSpec(_Strict):
    single_gpu_hours: float | None = meta(
        "One run on one GPU", "单卡跑一次的时间",
        "Wall-clock hours one full training run takes on a single GPU.",
        "在一张卡上完整训练一次所需的小时数。", unit="h", unit_zh="小时", default=None, gt=0,
        le=100_000)
    single_gpu_throughput: float | None = meta(
        "Single-GPU throughput", "单卡吞吐",
        "Samples per second on one GPU (instead of run time; needs data set size and epochs).",
        "单卡每秒处理的样本数（可代替运行时间；需同时给出数据集大小和轮数）。", unit="samples/s",
        unit_zh="样本/秒", default=None, gt=0, le=1e9)
    dataset_samples: int | None = meta("Data set size", "数据集大小", "Samples in one epoch.",
                                       "一个 epoch 的样本数。", unit="samples", unit_zh="样本",
                                       default=None, ge=1, le=10**13)
    epochs: float | None = meta("Epochs", "训练轮数", "Passes over the data set per run.",
                                "每次训练遍历数据集的次数。", default=None, gt=0, le=100_000)
    batch_per_gpu: int = meta("Batch per GPU", "每卡批大小", "Samples per GPU per step.",
                              "每张卡每步处理的样本数。", unit="samples", unit_zh="样本",
                              default=64, ge=1, le=1_000_000)
    precision: Precision = meta("Precision", "精度", "Number format of training.",
                                "训练使用的数值精度。", default=Precision.amp)
    gradient_dtype: GradientDtype = meta(
        "Gradient all-reduce type", "梯度同步精度",
        "Type of the gradients exchanged; 'auto' follows precision (AMP keeps fp32 gradients).",
        "同步梯度的数值类型；auto 按精度推断（AMP 默认保留 fp32 梯度）。",
        default=GradientDtype.auto)
    parallelism: Parallelism = meta(
        "Parallelism", "并行方式", "How the work is split; 'auto' lets the advisor choose.",
        "如何切分计算；auto 由顾问选择。", default=Parallelism.auto)
    micro_batches: int | None = meta(
        "Micro-batches (pipeline)", "微批次数（流水线）",
        "Micro-batches per step for pipeline parallel.", "流水线并行每步的微批次数。",
        default=None, ge=1, le=4096)
    activation_checkpointing: bool = meta(
        "Activation checkpointing", "激活重计算（checkpointing）",
        "Layers' activations are recomputed in the backward pass instead of kept: far less "
        "memory, about a third more compute.",
        "反向传播时重新计算各层激活而不保存：显存大幅减少，计算量约多三分之一。",
        default=False)
    gradient_accumulation_steps: int = meta(
        "Gradient accumulation steps", "梯度累积步数",
        "Micro-batches (of the batch per GPU) per optimizer step; gradients are exchanged once "
        "per optimizer step. 1 = no accumulation.",
        "每次优化器更新包含的微批次数（每个微批次为每卡批大小）；梯度每次更新只同步一次。"
        "1 表示不累积。", unit="micro-batches", unit_zh="微批次", default=1, ge=1, le=4096)
    runs_per_month: float = meta(
        "Runs per month", "每月训练次数", "How many full runs you do in a month.",
        "每月完整训练的次数。", unit="runs/month", unit_zh="次/月", default=4, ge=0, le=100_000)
    horizon_months: float = meta(
        "Planning horizon", "规划周期", "Months over which hardware and set-up work pay off.",
        "硬件与迁移投入分摊的月数。", unit="months", unit_zh="月", default=12, gt=0, le=120)
    input_pipeline: InputPipeline = meta(
        "Input pipeline", "数据加载管线",
        "starved: single-threaded reading; typical: default data loader; tuned: enough workers, "
        "fast storage, prefetching.",
        "starved：单线程读盘；typical：默认数据加载；tuned：足够的 worker、快速存储、预取。",
        default=InputPipeline.typical)
    dataloader_workers: int | None = meta(
        "Data-loader workers", "数据加载 worker 数", "num_workers per GPU, if known.",
        "每张卡的 num_workers，可不填。", default=None, ge=0, le=256)
    cpu_cores: int | None = meta("CPU cores", "CPU 核数", "CPU cores in one machine, if known.",
                                 "单台机器的 CPU 核数，可不填。", default=None, ge=1, le=4096)
    storage: Storage | None = meta("Storage", "存储类型", "Where the training data is read from.",
                                   "训练数据从哪里读取。", default=None)

    @model_validator(mode="before")
    @classmethod
    def _runs_per_period(cls, data: Any) -> Any:
        """Accept runs per day or per week and convert them to runs per month."""
        if not isinstance(data, dict):
            return data
        given = [k for k in ("runs_per_month", "runs_per_week", "runs_per_day") if k in data]
        if len(given) > 1:
            raise PydanticCustomError("one_key_of", "give only one of {keys}",
                                      {"at": given[1], "keys": ", ".join(given)})
        data = dict(data)
        for key, factor in (("runs_per_week", 52 / 12), ("runs_per_day", 365 / 12)):
            if key in data:
                value = data.pop(key)
                # "at": the key below this section the message is about (its own YAML line)
                if isinstance(value, bool) or not isinstance(value, int | float):
                    raise PydanticCustomError("float_type", "{at} must be a number",
                                              {"at": key})
                if not 0 <= value <= 10_000:
                    raise PydanticCustomError("number_between",
                                              "{at} must be between {low} and {high}",
                                              {"at": key, "low": 0, "high": 10_000})
                data["runs_per_month"] = round(value * factor, 6)
        return data

    @model_validator(mode="after")
    def _run_length_known(self) -> TrainingSpec:
        if self.single_gpu_hours is None:
            if self.single_gpu_throughput is None or self.dataset_samples is None or \
                    self.epochs is None:
                raise ValueError(
                    "give single_gpu_hours, or single_gpu_throughput with dataset_samples and "
                    "epochs")
        return self

    @property
    def run_hours_one_gpu(self) -> float:
        """Hours of one run on one GPU, from the run time or from throughput × data."""
        if self.single_gpu_hours is not None:
            return self.single_gpu_hours
        assert self.single_gpu_throughput and self.dataset_samples and self.epochs
        return self.dataset_samples * self.epochs / self.single_gpu_throughput / 3600.0


class CustomGpu(_Strict):
    """A GPU that is not in the catalog."""

    name: str = Field(min_length=1, max_length=120)
    memory_gb: float = Field(gt=0, le=4096)
    tflops_fp16: float = Field(gt=0, le=100_000, description="dense FP16/BF16 tensor TFLOPS")
    tflops_fp32: float = Field(gt=0, le=100_000)
    tdp_w: float = Field(default=300, gt=0, le=5000)
    pcie_gen: int = Field(default=4, ge=1, le=7)
    price_usd: float | None = Field(default=None, ge=0, le=10_000_000)


class HardwareSpec(_Strict):
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
        "busbw from nccl-tests all_reduce_perf (large messages), overrides the link default.",
        "nccl-tests all_reduce_perf 的 busbw（大消息），会覆盖默认值。", unit="GB/s", default=None,
        gt=0, le=10_000)

    @property
    def total_gpus(self) -> int:
        return self.gpus_per_node * self.nodes

    @model_validator(mode="before")
    @classmethod
    def _gpu_for_link(cls, data: Any) -> Any:
        """A name that covers several cards ('H100': PCIe card or SXM5 module) means the one
        the link inside the machine allows (pcie4: h100_pcie); when the link leaves several,
        the name stays and the catalog check lists them (advisor.profile_io)."""
        if not isinstance(data, dict):
            return data
        if type(data.get("gpu")) is int:  # `gpu: 4090` in YAML is a number
            data = {**data, "gpu": str(data["gpu"])}
        if not isinstance(data.get("gpu"), str):
            return data
        from advisor.catalog.gpus import variant_for_link  # the catalog reads this module

        chosen = variant_for_link(data["gpu"], data.get("intra_link", IntraLink.pcie4))
        return {**data, "gpu": chosen} if chosen else data

    @model_validator(mode="after")
    def _network_for_nodes(self) -> HardwareSpec:
        if self.nodes > 1 and self.inter_link == InterLink.none:
            raise ValueError("inter_link: several machines need a network between them "
                             "(inter_link is none)")
        return self


class EconomicsSpec(_Strict):
    mode: EconomicsMode = meta("Own or cloud", "自建还是租用",
                               "own hardware, cloud rental, or compare both.",
                               "自有硬件、云上租用，或两者比较。", default=EconomicsMode.compare)
    currency: Currency | None = meta("Currency", "货币",
                                     "CNY or USD; empty follows the language (Chinese → CNY).",
                                     "人民币或美元；留空则随语言（中文为人民币）。", default=None)
    gpu_price: float | None = meta("Price of one GPU", "单卡价格",
                                   "Purchase price of one card; empty uses the catalog. Cards "
                                   "you already own: 0 (money already spent is not a cost of "
                                   "this decision).",
                                   "一张卡的购买价；留空使用目录价格。已经有的卡填 0（已花掉的钱"
                                   "不算这次决策的成本）。", unit="currency",
                                   unit_zh="货币", default=None, ge=0, le=100_000_000)
    base_system_price: float | None = meta(
        "Price of the machine without GPUs", "不含显卡的整机价格",
        "Board, CPU, memory, case, power supply for a one-GPU machine; empty uses defaults.",
        "单卡机器的主板、CPU、内存、机箱、电源价格；留空使用默认值。", unit="currency",
        unit_zh="货币", default=None, ge=0, le=100_000_000)
    cloud_price_per_gpu_hour: float | None = meta(
        "Cloud price per GPU-hour", "云上每卡小时价格", "Empty uses the catalog's offers.",
        "留空使用目录中的报价。", unit="currency/GPU-h", unit_zh="货币/卡时", default=None,
        ge=0, le=100_000)
    electricity_per_kwh: float | None = meta(
        "Electricity price", "电价", "Per kWh; empty uses the catalog.", "每度电价格；留空使用目录。",
        unit="currency/kWh", unit_zh="货币/度", default=None, ge=0, le=100)
    pue: float | None = meta(
        "PUE", "PUE（电能使用效率）",
        "Facility overhead on power (1.0 at home, about 1.3–1.6 in a data centre). Empty: 1.0, "
        "or a data centre's average for NVLink/NVSwitch servers.",
        "机房电力开销系数（家里 1.0，机房约 1.3–1.6）。留空：按 1.0；NVLink/NVSwitch 服务器按数据中心平均值。",
        default=None, ge=1.0, le=3.0)
    time_value: TimeValue = meta(
        "What a day saved is worth", "省下一天值多少",
        "deadline (research), revenue (product), or none (learning).",
        "deadline（科研赶截稿）、revenue（产品收入）或 none（个人学习）。",
        default=TimeValue.none)
    value_per_day: float | None = meta(
        "Value of one day saved", "省下一天的价值",
        "Money a day of waiting costs you (deadline value or a day of revenue). Needed with "
        "time_value revenue, and with deadline unless a deadline date (deadline_days) is given.",
        "等待一天的代价（截稿价值或一天的收入）。time_value 为 revenue 时必填；为 deadline 时，"
        "未填截止时间（deadline_days）则必填。", unit="currency/day", unit_zh="货币/天",
        default=None, ge=0, le=1e10)
    deadline_days: float | None = meta(
        "Deadline", "截止时间", "Days until results are needed, if there is a deadline.",
        "距离需要结果还有几天，可不填。", unit="days", unit_zh="天", default=None, gt=0,
        le=3650)
    engineer_day_rate: float | None = meta(
        "Engineer day rate", "工程师日薪", "Cost of one engineer-day; empty uses a default.",
        "一个工程师工作日的成本；留空使用默认值。", unit="currency/day", unit_zh="货币/天",
        default=None, ge=0, le=1e7)
    moved_to_multi_gpu_before: bool = meta(
        "Done multi-GPU before", "以前做过多卡迁移",
        "Has the team already moved a job to multi-GPU (data loader, learning rate, NCCL)?",
        "团队是否已有把任务迁移到多卡的经验（数据加载、学习率、NCCL）？", default=False)

    @model_validator(mode="after")
    def _day_value_given(self) -> EconomicsSpec:
        """Revenue is worth money only at a price, and a deadline needs its worth a day or its
        date: without them a day saved would silently count as 0 (F12). A deadline with only
        deadline_days counts the date alone (the fewest GPUs that meet it)."""
        if self.value_per_day is None and (
                self.time_value == TimeValue.revenue
                or (self.time_value == TimeValue.deadline and self.deadline_days is None)):
            raise PydanticCustomError(
                f"{self.time_value.value}_value_missing", "time_value is {time_value}: give {at}",
                {"time_value": self.time_value.value, "at": "value_per_day",
                 "line_at": "time_value"})
        return self


class MeasuredPoint(_Strict):
    gpus: int = Field(ge=1, le=100_000)
    throughput: float | None = Field(default=None, gt=0, le=1e12)
    step_time_s: float | None = Field(default=None, gt=0, le=1e6)

    @model_validator(mode="after")
    def _one_measure(self) -> MeasuredPoint:
        if (self.throughput is None) == (self.step_time_s is None):
            raise ValueError("give either throughput or step_time_s")
        return self


class MeasuredSpec(_Strict):
    unit: str = Field(default="samples/s", max_length=40)
    scaling: Literal["weak", "strong"] = "weak"
    points: list[MeasuredPoint] = Field(min_length=2, max_length=1000)

    @model_validator(mode="after")
    def _distinct_counts(self) -> MeasuredSpec:
        counts = [p.gpus for p in self.points]
        if len(set(counts)) != len(counts):
            raise ValueError("each GPU count may appear only once")
        kinds = {p.throughput is None for p in self.points}
        if len(kinds) > 1:
            raise ValueError("use throughput for every point, or step_time_s for every point")
        return self


class Profile(_Strict):
    """One training workload and the hardware and money around it."""

    schema_version: Literal[1] = SCHEMA_VERSION
    task: Task = meta("Task", "任务类型", "What kind of model you train.", "训练的模型类型。",
                      default=Task.image_classification)
    model: ModelSpec = Field(default_factory=ModelSpec)
    training: TrainingSpec = Field(default_factory=lambda: TrainingSpec(single_gpu_hours=24))
    hardware: HardwareSpec = Field(default_factory=HardwareSpec)
    economics: EconomicsSpec = Field(default_factory=EconomicsSpec)
    measured: MeasuredSpec | None = None
    notes: str = Field(default="", max_length=10_000)


def default_profile() -> Profile:
    return Profile()


def field_meta(model: type[BaseModel], name: str) -> dict[str, Any]:
    """Title, help, unit and bounds of one field, in both languages, for generated forms."""
    info = model.model_fields[name]
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    bounds: dict[str, Any] = {}
    for constraint in info.metadata:
        for key in ("ge", "gt", "le", "lt", "min_length", "max_length"):
            value = getattr(constraint, key, None)
            if value is not None:
                bounds[key] = value
    return {
        "name": name,
        "title": info.title or name,
        "title_zh": extra.get("title_zh", info.title or name),
        "help": info.description or "",
        "help_zh": extra.get("help_zh", info.description or ""),
        "unit": extra.get("unit"),
        "unit_zh": extra.get("unit_zh"),
        "step": extra.get("step"),
        "default": info.get_default(call_default_factory=True),
        "annotation": info.annotation,
        **bounds,
    }
