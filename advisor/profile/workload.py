"""What is trained and how: the model (size, shape) and the training run (length, batch,
precision, parallelism, schedule, input pipeline)."""

from __future__ import annotations

from typing import Any

from pydantic import PrivateAttr, model_validator
from pydantic_core import PydanticCustomError

from advisor.profile.bounds import MAX_RUN_HOURS, MIN_RUN_HOURS
from advisor.profile.enums import (
    ActivationCheckpointing,
    Denoiser,
    Ema,
    FrozenEncoders,
    GradientDtype,
    InputPipeline,
    InputSizes,
    KeepBatch,
    LossKernel,
    Offload,
    Optimizer,
    Parallelism,
    Precision,
    Storage,
    SubNetworks,
    ThroughputUnit,
    TrainingMethod,
)
from advisor.profile.field_meta import StrictSection, meta
from advisor.text.numbers import quantity

PER_SEQUENCE = (ThroughputUnit.tokens, ThroughputUnit.frames)  # per sample: the sequence


def run_hours_problem(hours: float, at: str, *path: str) -> PydanticCustomError | None:
    """A run derived from throughput x data is bounded like single_gpu_hours (no run of 10^300
    hours); the error names the throughput (``at``, then ``path`` below it)."""
    if MIN_RUN_HOURS <= hours <= MAX_RUN_HOURS:
        return None
    long = hours > MAX_RUN_HOURS
    en = (f"more than {MAX_RUN_HOURS:,.0f} h" if long
          else f"only {quantity(hours * 3600)} s")
    zh = (f"超过 {MAX_RUN_HOURS:,.0f} 小时" if long
          else f"只需 {quantity(hours * 3600)} 秒")
    return PydanticCustomError(
        "run_hours_out_of_range",
        f"dataset_samples x epochs at this throughput is a run of {en} on one GPU; "
        f"a run must take from {MIN_RUN_HOURS * 3600:.0f} s to {MAX_RUN_HOURS:,.0f} h",
        {"at": at, **({"at_path": path} if path else {}), "message_zh":
         f"按此吞吐，dataset_samples × epochs 在单卡上{zh}；单次训练应在 1 秒到 "
         f"{MAX_RUN_HOURS:,.0f} 小时之间"})


class ModelSpec(StrictSection):
    id: str | None = meta(
        "Catalog model", "模型库中的模型",
        "A model by name from the advisor's catalog (gpu-advisor catalog --section models), "
        "e.g. llama-3.1-8b or Qwen/Qwen2.5-7B: its size and shape fill every field left out "
        "here; a field given here wins.",
        "顾问模型库中的模型名称（gpu-advisor catalog --section models），例如 llama-3.1-8b 或 "
        "Qwen/Qwen2.5-7B：此处未填写的字段按该模型的规模和结构补全；此处填写的字段优先。",
        default=None, min_length=1, max_length=200)
    name: str = meta("Model name", "模型名称", "A name you recognise, e.g. ResNet-50.",
                     "便于识别的名称，例如 ResNet-50。", default="my-model", min_length=1,
                     max_length=120)
    params_millions: float = meta(
        "Parameters", "参数量", "Number of trainable parameters, in millions (ResNet-50: 25.6).",
        "可训练参数数量，单位百万（ResNet-50 约 25.6）。", unit="M", unit_zh="百万",
        default=25.6, ge=0.001, le=10_000_000)  # from 1,000 parameters (issue 35)
    flops_per_sample_gflops: float | None = meta(
        "Training FLOPs per sample", "每样本训练计算量",
        "Forward + backward GFLOPs for one sample, if known. Vision and diffusion models: "
        "counted as torchvision and fvcore list them, a multiply-add as one FLOP, 3 x the "
        "forward figure (ResNet-50 at 224 px: 3 x 4.1 = about 12); a counter of 2 FLOPs per "
        "multiply-add (torch.utils.flop_counter) gives twice that: halve it. Language and "
        "speech models: FLOPs, 6 x parameters x tokens.",
        "单个样本前向加反向的计算量（GFLOPs），可不填。视觉和扩散模型：按 torchvision、fvcore "
        "的计法，一次乘加算一次，取前向数值的 3 倍（ResNet-50 224 像素：3 × 4.1 ≈ 12）；"
        "按每次乘加 2 FLOPs 计数的工具（torch.utils.flop_counter）得到的是它的两倍，请减半。"
        "语言和语音模型：按 FLOPs 计，6 × 参数量 × token 数。",
        unit="GFLOP", default=None, gt=0, le=1e9)
    # a diffusion model (task diffusion, issue 32): named as the model catalog names them, so
    # a catalog model (`model: {id: sdxl}`) fills them
    denoiser: Denoiser = meta(
        "Denoiser (diffusion)", "去噪网络（扩散模型）",
        "unet: a convolutional UNet (Stable Diffusion 1.x/2.x, SDXL); dit: a diffusion "
        "transformer over latent patches of 2 x 2 (PixArt, SD3, Flux), whose layers and hidden "
        "size set its activations; auto: a DiT when layers and hidden size are given, else a "
        "UNet. Task diffusion only.",
        "unet：卷积 UNet（Stable Diffusion 1.x/2.x、SDXL）；dit：在 2 × 2 潜变量图块上运算的扩散 "
        "Transformer（PixArt、SD3、Flux），其层数和隐藏维度决定激活显存；auto：给出层数和隐藏维度时按 "
        "DiT，否则按 UNet。仅用于扩散模型任务。", default=Denoiser.auto)
    flops_resolution: int | None = meta(
        "Resolution of the FLOPs", "计算量对应的分辨率",
        "Image side in pixels at which 'Training FLOPs per sample' is counted (the catalog's "
        "SDXL: 1024). A diffusion run at another resolution scales it by the latent tokens, "
        "attention by their square. Empty: the FLOPs are at the training resolution.",
        "“每样本训练计算量”对应的图像边长（像素，模型库中的 SDXL 为 1024）。扩散模型按其他分辨率训练时，"
        "计算量按潜变量 token 数缩放，注意力部分按其平方缩放。不填：计算量即训练分辨率下的值。",
        unit="px", unit_zh="像素", default=None, ge=8, le=65_536)
    latent_downsampling: int = meta(
        "Latent downsampling (VAE)", "潜变量下采样倍数（VAE）",
        "How many pixels one latent cell covers per side: 8 for the Stable Diffusion, SDXL, SD3 "
        "and Flux VAEs, 1 for a model trained on pixels (DeepFloyd IF). A 1024 px image is a "
        "128 x 128 latent at 8.", "一个潜变量单元在每边覆盖的像素数：Stable Diffusion、SDXL、SD3 和 "
        "Flux 的 VAE 为 8，直接在像素上训练的模型（DeepFloyd IF）为 1。倍数为 8 时，1024 像素的图像是 "
        "128 × 128 的潜变量。", default=8, ge=1, le=64)
    text_encoder_params_millions: float | None = meta(
        "Text encoders (frozen)", "文本编码器（冻结）",
        "Parameters of the frozen text encoders, in millions (SD 1.5: CLIP-L 123; SDXL: 817; "
        "SD3 and Flux with T5-XXL: about 4,900). Held in 16 bits on each GPU and run on every "
        "sample unless their outputs are cached.", "冻结的文本编码器参数量，单位百万（SD 1.5：CLIP-L "
        "123；SDXL：817；带 T5-XXL 的 SD3 和 Flux：约 4,900）。除非缓存其输出，否则以 16 位常驻每张卡，"
        "每个样本都要运行。", unit="M", unit_zh="百万", default=None, ge=0, le=1_000_000)
    vae_params_millions: float | None = meta(
        "VAE (frozen)", "VAE（冻结）",
        "Parameters of the frozen VAE, in millions (about 84 for Stable Diffusion, SDXL, SD3 and "
        "Flux). Its encoder turns every image into latents, as much work per image as the "
        "denoiser's forward pass, unless the latents are cached.", "冻结的 VAE 参数量，单位百万"
        "（Stable Diffusion、SDXL、SD3 和 Flux 约 84）。除非缓存潜变量，否则每张图都要经过其编码器，"
        "计算量与去噪网络的一次前向相当。", unit="M", unit_zh="百万", default=None, ge=0,
        le=100_000)
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
    attention_heads: int | None = meta(
        "Attention heads", "注意力头数",
        "Attention heads per layer (LLMs), if known: tensor parallel splits them, so its degree "
        "must divide them.", "每层的注意力头数（大语言模型），可不填：张量并行按头切分，"
        "并行度必须整除头数。", default=None, ge=1, le=4096)
    kv_heads: int | None = meta(
        "Key/value heads", "键值头数",
        "Key/value heads per layer (grouped-query attention: 8 in Llama 3 8B, whose 32 query "
        "heads share them), if known: tensor parallel must divide them too.",
        "每层的键值头数（分组查询注意力：Llama 3 8B 的 32 个查询头共用 8 个），可不填：张量并行度"
        "也必须整除它。", default=None, ge=1, le=4096)
    vocab_size: int | None = meta(
        "Vocabulary size", "词表大小",
        "Tokens in the vocabulary (LLMs), if known; the output layer's logits take memory.",
        "词表中的 token 数（大语言模型），可不填；输出层的 logits 占显存。", unit="tokens",
        unit_zh="token", default=None, ge=2, le=10_000_000)
    # a mixture of experts (issue 32): named as config.json and the model catalog name them,
    # so a catalog model (`model: {id: ...}`) fills them
    experts: int | None = meta(
        "Experts (MoE)", "专家数（MoE）",
        "Routed experts in each mixture-of-experts layer (Mixtral 8x7B: 8, Qwen3-30B-A3B: 128, "
        "DeepSeek-V3: 256); empty for a dense model. A mixture of experts computes with its "
        "active parameters but holds all of them: give experts per token and active parameters "
        "too.", "每个混合专家（MoE）层中可路由的专家数（Mixtral 8x7B：8，Qwen3-30B-A3B：128，"
        "DeepSeek-V3：256）；稠密模型不填。混合专家模型按激活参数计算，但要存放全部参数：须同时填写"
        "每个 token 的专家数和激活参数量。", default=None, ge=2, le=100_000)
    experts_per_token: int | None = meta(
        "Experts per token", "每个 token 的专家数",
        "Routed experts each token is sent to (top-k: 2 in Mixtral, 8 in Qwen3 and DeepSeek-V3).",
        "每个 token 被路由到的专家数（top-k：Mixtral 为 2，Qwen3 和 DeepSeek-V3 为 8）。",
        default=None, ge=1, le=100_000)
    active_params_millions: float | None = meta(
        "Active parameters", "激活参数量",
        "Parameters one token runs through in a mixture of experts, in millions (Mixtral 8x7B: "
        "12,900 of its 46,700; DeepSeek-V3: 37,000 of 671,000): the compute follows them.",
        "混合专家模型中每个 token 实际经过的参数量，单位百万（Mixtral 8x7B：46,700 中的 12,900；"
        "DeepSeek-V3：671,000 中的 37,000）：计算量按它计。", unit="M", unit_zh="百万",
        default=None, ge=0.001, le=10_000_000)
    shared_experts: int | None = meta(
        "Shared experts", "共享专家数",
        "Experts every token passes through besides the routed ones (DeepSeek-V3: 1), if any; "
        "they are part of the active parameters.",
        "除路由专家外每个 token 都经过的专家数（DeepSeek-V3：1），可不填；它们计入激活参数。",
        default=None, ge=0, le=100_000)
    moe_intermediate_size: int | None = meta(
        "Expert width", "专家宽度",
        "Feed-forward width of one routed expert (config.json's moe_intermediate_size; "
        "Qwen3-30B-A3B: 768), if known: narrow experts keep the GPU less busy. Empty: derived "
        "from the parameters.", "单个路由专家的前馈宽度（config.json 的 moe_intermediate_size；"
        "Qwen3-30B-A3B：768），可不填：专家越窄，GPU 利用率越低。不填：由参数量推算。",
        default=None, ge=1, le=10_000_000)
    dense_layers: int | None = meta(
        "Dense layers", "稠密层数",
        "Layers whose feed-forward block is dense rather than routed (DeepSeek-V3: its first 3), "
        "if any.", "前馈部分为稠密而非路由专家的层数（DeepSeek-V3：前 3 层），可不填。",
        default=None, ge=0, le=2000)

    @model_validator(mode="after")
    def _heads_divide_width(self) -> ModelSpec:
        if self.attention_heads and self.hidden_size and self.hidden_size % self.attention_heads:
            raise ValueError("attention_heads must divide hidden_size")
        if self.kv_heads and self.attention_heads and self.attention_heads % self.kv_heads:
            raise ValueError("kv_heads must divide attention_heads")
        return self

    @property
    def is_moe(self) -> bool:
        """A mixture of experts: its experts given (the validator holds the rest to them)."""
        return self.experts is not None

    @model_validator(mode="after")
    def _mixture_of_experts_whole(self) -> ModelSpec:
        """A mixture of experts names its experts, how many each token takes and its active
        parameters, which exceed neither the experts nor the parameters they are part of."""
        core = ("experts", "experts_per_token", "active_params_millions")
        given = [f for f in core if getattr(self, f) is not None]
        extra = [f for f in ("shared_experts", "moe_intermediate_size", "dense_layers")
                 if getattr(self, f) is not None]
        if (given or extra) and len(given) < len(core):
            missing = [f for f in core if f not in given]
            raise PydanticCustomError(
                "moe_incomplete",
                "a mixture of experts needs experts, experts_per_token and "
                "active_params_millions ({missing} missing)",
                {"at": missing[0], "line_at": (given or extra)[0],
                 "missing": ", ".join(missing),
                 "message_zh": "混合专家模型须同时填写 experts、experts_per_token 和 "
                               f"active_params_millions（缺少 {', '.join(missing)}）"})
        if not given:
            return self
        experts, top_k = int(self.experts or 0), int(self.experts_per_token or 0)
        if top_k > experts:
            raise PydanticCustomError(
                "moe_top_k", "experts_per_token ({k}) must not exceed experts ({e})",
                {"at": "experts_per_token", "k": top_k, "e": experts,
                 "message_zh": f"experts_per_token（{top_k}）不能超过 experts（{experts}）"})
        active = float(self.active_params_millions or 0.0)
        if active > self.params_millions:
            raise PydanticCustomError(
                "moe_active", "active_params_millions ({a}) must not exceed params_millions "
                "({p}): a token runs through a part of the parameters",
                {"at": "active_params_millions", "a": f"{active:g}",
                 "p": f"{self.params_millions:g}",
                 "message_zh": f"active_params_millions（{active:g}）不能超过 params_millions"
                               f"（{self.params_millions:g}）：每个 token 只经过部分参数"})
        if self.dense_layers is not None and self.layers and self.dense_layers >= self.layers:
            raise PydanticCustomError(
                "moe_dense_layers", "dense_layers ({d}) must be fewer than layers ({n})",
                {"at": "dense_layers", "d": self.dense_layers, "n": self.layers,
                 "message_zh": f"dense_layers（{self.dense_layers}）必须少于 layers"
                               f"（{self.layers}）"})
        return self


class TrainingSpec(StrictSection):
    single_gpu_hours: float | None = meta(
        "One run on one GPU", "单卡跑一次的时间",
        "Wall-clock hours one full training run takes on a single GPU.",
        "在一张卡上完整训练一次所需的小时数。", unit="h", unit_zh="小时", default=None,
        ge=MIN_RUN_HOURS, le=MAX_RUN_HOURS)
    single_gpu_throughput: float | None = meta(
        "Single-GPU throughput", "单卡吞吐",
        "One GPU's rate, in samples per second unless 'Throughput counts' says tokens, "
        "frames or audio samples (instead of run time; needs data set size and epochs).",
        "单卡每秒处理的样本数；若“吞吐单位”选了 token、帧或音频采样点，则按该单位填写"
        "（可代替运行时间；需同时给出数据集大小和轮数）。", unit="samples/s",
        unit_zh="样本/秒", default=None, gt=0, le=1e9)
    throughput_unit: ThroughputUnit = meta(
        "Throughput counts", "吞吐单位",
        "What the single-GPU throughput counts, as your log prints it: samples (or images) per "
        "second, tokens or frames per second (divided by the sequence length), or audio samples "
        "per second (divided by the audio samples per sample).",
        "单卡吞吐按日志里的单位填写：每秒样本数（或图像数）、每秒 token 数或帧数（按序列长度折算），"
        "或每秒音频采样点数（按每个样本的采样点数折算）。", default=ThroughputUnit.samples)
    audio_samples_per_sample: int | None = meta(
        "Audio samples per sample", "每样本音频采样点",
        "With a throughput in audio samples per second: audio samples in one training sample "
        "(the segment length of a vocoder, or clip seconds x sample rate).",
        "吞吐按每秒音频采样点计时：一个训练样本包含的采样点数（声码器的 segment 长度，或片段秒数 × 采样率）。",
        unit="audio samples", unit_zh="采样点", default=None, ge=1, le=10**9)
    dataset_samples: int | None = meta("Data set size", "数据集大小", "Samples in one epoch.",
                                       "一个 epoch 的样本数。", unit="samples", unit_zh="样本",
                                       default=None, ge=1, le=10**13)
    dataset_tokens: float | None = meta(
        "Tokens to train on", "训练 token 数",
        "Tokens in one epoch (language models, e.g. 2e12 for 2 trillion). With no measured time "
        "the run is planned from the model's FLOPs.",
        "一个 epoch 的 token 数（语言模型，例如 2 万亿填 2e12）。没有实测时间时按模型的计算量规划。",
        unit="tokens", unit_zh="token", default=None, ge=1, le=1e16)
    epochs: float | None = meta("Epochs", "训练轮数", "Passes over the data set per run.",
                                "每次训练遍历数据集的次数。", default=None, gt=0, le=100_000)
    batch_per_gpu: int = meta("Batch per GPU", "每卡批大小", "Samples per GPU per step.",
                              "每张卡每步处理的样本数。", unit="samples", unit_zh="样本",
                              default=64, ge=1, le=16_777_216)
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
    global_batch: int | None = meta(
        "Global batch", "全局批大小",
        "Samples per optimizer step over all GPUs, held fixed whatever the GPU count (LLM "
        "pre-training: e.g. 1024 sequences). Empty: batch per GPU x accumulation x GPUs.",
        "所有卡每次优化器更新的样本总数，卡数变化时保持不变（大模型预训练常见，如 1024 条序列）。"
        "不填：每卡批大小 × 梯度累积 × 卡数。", unit="samples", unit_zh="样本", default=None,
        ge=1, le=100_000_000)
    tensor_parallel: int | None = meta(
        "Tensor-parallel degree", "张量并行度",
        "GPUs one layer is split over (Megatron-LM); must divide the attention heads. Empty: "
        "chosen by the advisor.", "一层被切分到的卡数（Megatron-LM）；必须整除注意力头数。"
        "不填：由顾问选择。", default=None, ge=1, le=64)
    pipeline_parallel: int | None = meta(
        "Pipeline-parallel degree", "流水线并行度",
        "Stages the layers are split into. Empty: chosen by the advisor.",
        "模型各层被切成的流水线段数。不填：由顾问选择。", default=None, ge=1, le=1024)
    pipeline_interleave: int | None = meta(
        "Pipeline interleaving", "流水线交错段数",
        "Model chunks per GPU in an interleaved pipeline schedule (Megatron-LM virtual stages): "
        "the bubble shrinks by this factor. Empty: chosen by the advisor.",
        "交错流水线调度中每张卡承担的模型块数（Megatron-LM 虚拟段）：气泡按此倍数缩小。"
        "不填：由顾问选择。", default=None, ge=1, le=64)
    activation_checkpointing: ActivationCheckpointing = meta(
        "Activation checkpointing", "激活重计算（checkpointing）",
        "none: keep every activation; selective: recompute the attention scores only (a few "
        "% more compute); full: recompute each layer from its input (far less memory, about a "
        "third more compute). true/false in older profiles read as full/none.",
        "none：保留全部激活；selective：只重算注意力分数（计算量多几个百分点）；full：每层从输入重算"
        "（显存大幅减少，计算量约多三分之一）。旧配置中的 true/false 分别按 full/none 读取。",
        default=ActivationCheckpointing.none)
    gradient_accumulation_steps: int = meta(
        "Gradient accumulation steps", "梯度累积步数",
        "Micro-batches (of the batch per GPU) per optimizer step; gradients are exchanged once "
        "per optimizer step. 1 = no accumulation.",
        "每次优化器更新包含的微批次数（每个微批次为每卡批大小）；梯度每次更新只同步一次。"
        "1 表示不累积。", unit="micro-batches", unit_zh="微批次", default=1, ge=1, le=4096)
    fine_tuning: bool = meta(
        "Fine-tuning a pretrained model", "微调预训练模型",
        "On: the run fine-tunes a pretrained model (Hugging Face Transformers / PEFT style), so "
        "LoRA and QLoRA are weighed when it does not fit. Off: training from scratch.",
        "开启：本次训练是在预训练模型上微调（Hugging Face Transformers / PEFT 方式），放不下时会考虑 "
        "LoRA 和 QLoRA。关闭：从头训练。", default=False)
    method: TrainingMethod = meta(
        "Fine-tuning method", "微调方法",
        "full: every weight trained; lora: the weights frozen in 16 bits, low-rank adapters "
        "trained; qlora: the weights frozen in 4 bits (NF4), adapters trained. LoRA and QLoRA "
        "apply to transformer language models (task llm or nlp) and to a diffusion model's "
        "denoiser (task diffusion).",
        "full：训练全部权重；lora：权重以 16 位冻结，只训练低秩适配器；qlora：权重以 4 位（NF4）冻结，"
        "只训练适配器。LoRA 和 QLoRA 适用于 Transformer 语言模型（任务 llm 或 nlp）和扩散模型的去噪网络"
        "（任务 diffusion）。",
        default=TrainingMethod.full)
    lora_rank: int = meta(
        "LoRA rank", "LoRA 秩",
        "Rank r of the adapters (LoRA, QLoRA): each adapted d_in x d_out matrix trains "
        "r x (d_in + d_out) parameters.", "适配器的秩 r（LoRA、QLoRA）：每个被适配的 d_in × d_out "
        "矩阵训练 r × (d_in + d_out) 个参数。", default=16, ge=1, le=4096)
    lora_target_share: float = meta(
        "LoRA target share", "LoRA 适配比例",
        "Share of the layers' weight matrices that carry adapters: 1 = every linear layer "
        "(QLoRA's choice), about 0.33 = the attention projections, about 0.17 = query and value "
        "only (the LoRA paper's choice).", "带适配器的权重矩阵占各层权重的比例：1 = 所有线性层"
        "（QLoRA 的做法），约 0.33 = 注意力投影，约 0.17 = 只有 query 和 value（LoRA 论文的做法）。",
        default=1.0, gt=0, le=1)
    optimizer: Optimizer = meta(
        "Optimizer", "优化器",
        "auto: SGD with momentum for vision tasks, AdamW otherwise. The family decides how the "
        "learning rate follows a larger batch; 8-bit AdamW keeps a quarter of the states; "
        "Adafactor (factored second moments, no momentum) keeps almost none, but not for "
        "language models (task llm or nlp).",
        "auto：视觉任务按带动量的 SGD，其他按 AdamW。优化器类别决定批次变大时学习率怎么调；8 位 AdamW "
        "的状态只占四分之一；Adafactor（二阶矩分解存储、无动量）几乎不占状态，但不用于语言模型（任务 llm "
        "或 nlp）。", default=Optimizer.auto)
    pure_16bit: bool = meta(
        "Pure 16-bit training", "纯 16 位训练",
        "The model is loaded in bf16 or fp16 and the optimizer keeps its states in that dtype, "
        "with no fp32 master weights: torchtune, LitGPT's bf16-true, a Hugging Face Trainer on a "
        "model loaded with torch_dtype=bfloat16. About 8 bytes per parameter with AdamW instead "
        "of 16. Needs precision bf16 or fp16.",
        "模型以 bf16 或 fp16 加载，优化器状态也用这一精度，没有 fp32 主权重：torchtune、LitGPT 的 "
        "bf16-true、以 torch_dtype=bfloat16 加载模型后用 Hugging Face Trainer 训练。AdamW 每个参数约 "
        "8 字节，而不是 16 字节。需要精度为 bf16 或 fp16。", default=False)
    loss: LossKernel = meta(
        "Loss computation", "损失的计算方式",
        "How the loss is computed from the output layer's logits (batch x tokens x "
        "vocabulary of them, several GB at long sequences and large vocabularies). auto: "
        "a fine-tune as the Hugging Face Trainer does it, pre-training as Megatron's fused "
        "loss; unfused: the whole logits and their gradients in fp32 at once (Hugging Face "
        "Trainer, 12 bytes a logit); chunked: a chunk at a time (torchtune's "
        "CEWithChunkedOutputLoss, Liger's fused linear cross-entropy, Unsloth, Cut "
        "Cross-Entropy; about 3.5 bytes a logit). Language models only.",
        "损失如何由输出层的 logits 算出（logits 的个数是批次 × token 数 × 词表大小，长序列、大词表时"
        "可达数 GB）。auto：微调按 Hugging Face Trainer 的方式，预训练按 Megatron 的融合损失；"
        "unfused：一次算出全部 logits 及其 fp32 梯度（Hugging Face Trainer，每个 logit 12 字节）；"
        "chunked：分块计算（torchtune 的 CEWithChunkedOutputLoss、Liger 的融合线性交叉熵、Unsloth、"
        "Cut Cross-Entropy；每个 logit 约 3.5 字节）。仅用于语言模型。", default=LossKernel.auto)
    offload: Offload = meta(
        "Offload to host memory", "卸载到主机内存",
        "none; optimizer: optimizer states and gradients in the machine's RAM and the optimizer "
        "step on the CPU (DeepSpeed ZeRO-Offload); parameters: the weights too, streamed to the "
        "GPU layer by layer (ZeRO-3 Offload, FSDP CPU offload). Slower over PCIe, far less GPU "
        "memory.", "none：不卸载；optimizer：优化器状态和梯度放在主机内存，优化器在 CPU 上更新"
        "（DeepSpeed ZeRO-Offload）；parameters：权重也放到主机内存，逐层传到 GPU（ZeRO-3 Offload、"
        "FSDP CPU offload）。经 PCIe 传输更慢，但 GPU 显存占用小得多。", default=Offload.none)
    # a diffusion model's training (task diffusion, issue 32)
    resolution: int | None = meta(
        "Image resolution (diffusion)", "图像分辨率（扩散模型）",
        "Side of the training images in pixels (SD 1.5: 512, SDXL, SD3 and Flux: 1024; "
        "buckets of other aspect ratios: the side of a square of the same area). The latent "
        "tokens grow with its square, the activations with them. Empty: the resolution of the "
        "model's FLOPs, else 512. Task diffusion only.",
        "训练图像的边长，单位像素（SD 1.5：512；SDXL、SD3 和 Flux：1024；按宽高比分桶时取同面积正方形的"
        "边长）。潜变量 token 数随其平方增长，激活显存也随之增长。不填：取模型计算量对应的分辨率，否则为 "
        "512。仅用于扩散模型任务。", unit="px", unit_zh="像素", default=None, ge=8, le=65_536)
    frozen_encoders: FrozenEncoders = meta(
        "Text encoders and VAE", "文本编码器和 VAE",
        "on_gpu: the frozen text encoders and VAE stay on every GPU in 16 bits and encode every "
        "sample; offloaded: they wait in host RAM and move to the GPU for each batch; cached: "
        "text embeddings and latents were computed once beforehand (kohya's "
        "--cache_text_encoder_outputs and --cache_latents, SimpleTuner's caches), so they take "
        "neither memory nor time. Task diffusion only.",
        "on_gpu：冻结的文本编码器和 VAE 以 16 位常驻每张卡，每个样本都要编码；offloaded：它们放在主机"
        "内存，每个批次再搬到 GPU；cached：文本嵌入和潜变量已事先算好（kohya 的 "
        "--cache_text_encoder_outputs 与 --cache_latents、SimpleTuner 的缓存），既不占显存也不占时间。"
        "仅用于扩散模型任务。", default=FrozenEncoders.on_gpu)
    ema: Ema = meta(
        "EMA of the weights", "权重的 EMA",
        "An exponential moving average of the trained weights, kept in fp32 (4 bytes a trained "
        "parameter): none; gpu: on every GPU (diffusers --use_ema); cpu: in host RAM, sent to "
        "the GPU only for its update (diffusers --offload_ema). Task diffusion only.",
        "对训练权重做指数滑动平均，以 fp32 保存（每个训练参数 4 字节）：none：不用；gpu：每张卡一份"
        "（diffusers --use_ema）；cpu：放在主机内存，只在更新时送到 GPU（diffusers --offload_ema）。"
        "仅用于扩散模型任务。", default=Ema.none)
    keep_batch: KeepBatch = meta(
        "Batch kept when adding GPUs", "加卡时保持的批大小",
        "per_gpu: every GPU keeps its batch, so the global batch grows with the GPUs; global: the "
        "global batch stays as on one GPU (fewer accumulation steps first, then a smaller batch "
        "per GPU), as when the learning rate must not change.",
        "per_gpu：每张卡的批大小不变，全局批大小随卡数增大；global：全局批大小与单卡时相同"
        "（先减少梯度累积步数，再减小每卡批大小），例如不想重新调学习率时。",
        default=KeepBatch.per_gpu)
    input_sizes: InputSizes = meta(
        "Input sizes", "输入尺寸",
        "fixed: every sample costs the same (fixed crops, 3D volumes, packed or padded "
        "sequences); variable: images of different sizes, sentences or utterances of different "
        "lengths, region proposals. GPUs wait for the slowest each step; auto follows the task.",
        "fixed：每个样本计算量相同（固定裁剪、3D 体数据、打包或补齐的序列）；variable：图像尺寸、"
        "句子或语音长度、候选框数量各不相同。每一步都要等最慢的卡；auto 按任务类型判断。",
        default=InputSizes.auto)
    sub_networks: SubNetworks = meta(
        "Sub-networks (GAN / RL)", "GAN/RL 子网络",
        "together: every GPU trains all sub-networks each step (plain data parallel, e.g. "
        "StyleGAN2); take_turns: sub-networks alternate on separate GPUs, or actors and a learner "
        "wait for each other, so GPUs idle (F21). auto: reinforcement learning takes turns, "
        "GANs train together.",
        "together：每张卡每一步都训练全部子网络（普通数据并行，如 StyleGAN2）；take_turns：子网络"
        "分在不同的卡上轮流训练，或 actor 与 learner 互相等待，显卡会空闲（F21）。auto：强化学习按"
        "轮流训练、GAN 按一起训练估算。", default=SubNetworks.auto)
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
        """Accept runs per day or per week and convert them to runs per month; read the older
        yes/no activation checkpointing as full / none."""
        if not isinstance(data, dict):
            return data
        if isinstance(data.get("activation_checkpointing"), bool):
            data = {**data, "activation_checkpointing":
                    "full" if data["activation_checkpointing"] else "none"}
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
        """The run's length: measured (hours, or throughput with the data), or planned from the
        data's size alone (tokens, or samples and epochs): then the time comes from FLOPs."""
        if self.single_gpu_hours is not None:
            return self
        if self.dataset_tokens is None and (self.dataset_samples is None or self.epochs is None):
            raise ValueError(
                "give single_gpu_hours, single_gpu_throughput with dataset_samples and epochs, "
                "or the data's size to plan from (dataset_tokens, or dataset_samples and "
                "epochs)")
        if self.throughput_unit not in PER_SEQUENCE:  # else the profile checks it
            hours = self.run_hours_for(self.items_per_sample(None))
            problem = None if hours is None else run_hours_problem(hours,
                                                                   "single_gpu_throughput")
            if problem is not None:
                raise problem
        return self

    # Derived, never typed (no field of the schema, nor of its JSON): where the advisor moved
    # this training to another card (compare's options, rented cards), the memory (GB) of the
    # card its single-GPU time or throughput was stated for. That run says its batch fit that
    # card, not the one it was moved to (advisor.scaling.measured_memory).
    _timed_card_gb: float | None = PrivateAttr(default=None)

    @property
    def timed_card_gb(self) -> float | None:
        """The memory (GB) of the card the single-GPU run was timed on, where this training
        was moved to another card; None: the profile's own card."""
        return self._timed_card_gb

    def timed_on(self, card_gb: float | None) -> TrainingSpec:
        """A copy of this section saying its single-GPU run was timed on a card of ``card_gb``
        (None: on the profile's own card)."""
        copy = self.model_copy()
        copy._timed_card_gb = card_gb
        return copy

    @property
    def is_fine_tuning(self) -> bool:
        """Fine-tuning: said so, or implied by a LoRA / QLoRA method."""
        return self.fine_tuning or self.method != TrainingMethod.full

    @property
    def planned_from_size(self) -> bool:
        """No measured time: the run's length comes from its FLOPs (advisor.scaling)."""
        return self.single_gpu_hours is None and self.single_gpu_throughput is None

    @model_validator(mode="after")
    def _pure_16bit_in_16_bits(self) -> TrainingSpec:
        if self.pure_16bit and self.precision not in (Precision.bf16, Precision.fp16):
            raise PydanticCustomError(
                "pure_16bit_needs_16bit", "pure_16bit needs precision bf16 or fp16",
                {"at": "pure_16bit", "precision": self.precision.value})
        return self

    @model_validator(mode="after")
    def _audio_samples_known(self) -> TrainingSpec:
        if self.throughput_unit == ThroughputUnit.audio_samples and \
                self.audio_samples_per_sample is None:
            raise PydanticCustomError(
                "audio_samples_per_sample_missing",
                "a throughput in audio samples needs {at}",
                {"at": "audio_samples_per_sample", "line_at": "throughput_unit"})
        return self

    def items_per_sample(self, sequence_length: int | None) -> float:
        """How many of the throughput's units one sample holds: 1 for samples and images, the
        sequence length for tokens and frames, the audio samples per sample for audio."""
        if self.throughput_unit in PER_SEQUENCE:
            return float(sequence_length or 1)
        if self.throughput_unit == ThroughputUnit.audio_samples:
            return float(self.audio_samples_per_sample or 1)
        return 1.0

    def samples_per_s(self, items_per_sample: float) -> float | None:
        """The single-GPU throughput in samples per second (``items_per_sample``: how many of
        the throughput's units one sample holds, see ``Profile.throughput_items_per_sample``),
        else samples × epochs over the run's hours, else None."""
        if self.single_gpu_throughput:
            return self.single_gpu_throughput / items_per_sample
        if self.single_gpu_hours and self.dataset_samples and self.epochs:
            return self.dataset_samples * self.epochs / (self.single_gpu_hours * 3600.0)
        return None

    def run_hours_for(self, items_per_sample: float) -> float | None:
        """Hours of one run on one GPU, from the run time or from throughput × data; None when
        the run is planned from its size (the projection's ``run_hours_one_gpu`` has it) or
        its samples are not given (``Profile.run_hours_one_gpu`` converts the unit)."""
        if self.single_gpu_hours is not None:
            return self.single_gpu_hours
        if not (self.single_gpu_throughput and self.dataset_samples and self.epochs):
            return None
        return self.dataset_samples * self.epochs * items_per_sample \
            / self.single_gpu_throughput / 3600.0
