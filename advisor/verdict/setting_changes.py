"""The setting changes tried before more machines (issue 17), each a whole profile: its name,
what to set, and what it costs besides time, in both languages.

Kinds: ``setting`` (the same training, set differently: activation checkpointing, a smaller
batch per GPU with accumulation at the same global batch, a chunked loss, a higher ZeRO stage, pure 16-bit
training and 8-bit AdamW — fewer bytes of state a parameter —, offload to host memory) and ``method`` (LoRA or QLoRA instead of full fine-tuning: a change of what is
trained, offered only for fine-tuning). Rented cards and more machines are built by
``fits_here``. A change that does not fit alone is tried again with full activation
checkpointing, the cheapest memory saving there is.
"""

from __future__ import annotations

from typing import Any

from advisor.files.records import record
from advisor.profile import (
    ActivationCheckpointing,
    Ema,
    FrozenEncoders,
    LossKernel,
    Offload,
    Optimizer,
    Parallelism,
    Precision,
    Profile,
    Task,
    TrainingMethod,
    TrainingSpec,
)
from advisor.profile.field_meta import field_meta
from advisor.scaling.optimizer_family import optimizer_of
from advisor.text.i18n import Text
from advisor.verdict.changed_training import changed_training

SELECTIVE, FULL = ActivationCheckpointing.selective, ActivationCheckpointing.full
# the most accumulation steps a profile may say (``TrainingSpec``'s bound)
MAX_ACCUMULATION = field_meta(TrainingSpec, "gradient_accumulation_steps")["le"]
_ZERO_STAGES = (Parallelism.zero1, Parallelism.zero2, Parallelism.zero3)
_BELOW_ZERO3 = (Parallelism.data, Parallelism.zero1, Parallelism.zero2)


@record
class Change:
    id: str
    kind: str  # setting | numerics (fewer bytes a number: weighed after settings) | method
    label: Text
    change: Text  # the profile fields to set
    trade_off: Text
    training: dict[str, Any]  # the training fields it sets

    def apply(self, profile: Profile) -> Profile:
        training = changed_training(profile.training, self.training)
        return profile.model_copy(update={"training": training, "measured": None})

    def with_checkpointing(self) -> Change:
        """The same change with full activation checkpointing on as well."""
        return self.plus(_checkpointing(FULL))

    def plus(self, other: Change) -> Change:
        """This change and ``other`` together (its kind: this one's), each said in turn."""
        return Change(
            id=f"{self.id}+{other.id}", kind=self.kind,
            label=Text(en=f"{self.label.en} + {other.label.en}",
                       zh=f"{self.label.zh} + {other.label.zh}"),
            change=Text(en=f"{self.change.en}, {other.change.en}",
                        zh=f"{self.change.zh}，{other.change.zh}"),
            trade_off=Text(en=f"{self.trade_off.en} {other.trade_off.en}",
                           zh=f"{self.trade_off.zh}{other.trade_off.zh}"),
            training={**self.training, **other.training})


CHECKPOINT_FULL = Text(
    en="Full recomputation repeats each layer's forward pass in the backward pass: about a "
       "third more compute.",
    zh="完整重计算在反向时把每层的前向再算一遍：计算量约多三分之一。")
CHECKPOINT_SELECTIVE = Text(
    en="Selective recomputation repeats only the attention scores: a few per cent more "
       "compute.",
    zh="选择性重计算只重算注意力分数：计算量多几个百分点。")
ACCUMULATION = Text(
    en="The same global batch in more, smaller micro-batches: the optimizer takes the same "
       "steps, each GPU works on smaller matrices and exchanges gradients once per step.",
    zh="全局批大小不变，拆成更多更小的微批次：优化器的更新步数不变，每张卡处理的矩阵更小，梯度仍每步同步一次。")
ZERO = Text(
    en="A higher ZeRO stage splits more of the states over the GPUs and exchanges more per "
       "step (ZeRO-3 gathers the weights every micro-batch: 1.5x the traffic).",
    zh="更高的 ZeRO 阶段把更多状态分摊到各卡，每步通信更多（ZeRO-3 每个微批次都要收集权重：通信量 1.5 倍）。")
OFFLOAD_OPTIMIZER = Text(
    en="The optimizer step runs on the CPU and the gradients and updated weights cross PCIe "
       "every step; the machine's RAM must hold the optimizer states.",
    zh="优化器在 CPU 上更新，梯度和更新后的权重每步都要经过 PCIe；主机内存要放得下优化器状态。")
OFFLOAD_PARAMETERS = Text(
    en="The weights also stream over PCIe for every forward and backward pass, usually the "
       "slowest way that still runs; the machine's RAM must hold every state.",
    zh="权重在每次前向和反向时也要经 PCIe 传输，通常是能跑起来的方式里最慢的；主机内存要放得下全部状态。")
PURE_16BIT = Text(
    en="Weights and Adam's states in bf16 (about 8 bytes a parameter instead of 16), as Hugging "
       "Face Trainer, torchtune and LitGPT train a model loaded in bf16; bf16 updates round "
       "away the smallest steps (long runs keep fp32 master weights, or use Kahan summation).",
    zh="权重和 Adam 状态都用 bf16（每个参数约 8 字节而不是 16），Hugging Face Trainer、torchtune 和 "
       "LitGPT 对以 bf16 加载的模型就是这样训练的；bf16 更新会把最小的步长舍掉（长时间训练请保留 fp32 "
       "主权重，或用 Kahan 求和）。")
ADAM_8BIT = Text(
    en="8-bit AdamW (bitsandbytes) keeps Adam's two moments in 8 bits: 2 bytes a parameter "
       "instead of 8, and matches 32-bit Adam on fine-tuning in its paper (Dettmers et al. 2022).",
    zh="8 位 AdamW（bitsandbytes）把 Adam 的两个动量存成 8 位：每个参数 2 字节而不是 8 字节；其论文中"
       "微调效果与 32 位 Adam 持平（Dettmers 等，2022）。")
CHUNKED_LOSS = Text(
    en="The same loss computed a chunk of the tokens at a time (torchtune's "
       "CEWithChunkedOutputLoss, Liger Kernel's fused linear cross-entropy, Unsloth, Cut "
       "Cross-Entropy): the same numbers and no slower, about 3.5 bytes a logit instead of "
       "the Trainer's 12; the training script must use such a loss.",
    zh="同样的损失，按 token 分块计算（torchtune 的 CEWithChunkedOutputLoss、Liger Kernel 的融合线性"
       "交叉熵、Unsloth、Cut Cross-Entropy）：数值相同，速度不变慢，每个 logit 约 3.5 字节而不是 Trainer "
       "的 12 字节；训练脚本要改用这种损失。")
LORA = Text(
    en="A change of method: LoRA trains a low-rank update of the frozen weights; on "
       "instruction and task fine-tuning it usually comes close to full fine-tuning, but it "
       "learns less from large or very different data (a new language, long continued "
       "pre-training).",
    zh="这是换了训练方法：LoRA 只训练冻结权重上的低秩增量；指令和任务微调通常接近全参数微调，"
       "但数据量很大或差异很大（新语言、长时间继续预训练）时学到的更少。")
QLORA = Text(
    en="A change of method: QLoRA is LoRA on weights frozen in 4 bits; the QLoRA paper matches "
       "16-bit fine-tuning on its benchmarks, but the base is quantised (results drift a little "
       "from a 16-bit model) and each pass spends time dequantising it.",
    zh="这是换了训练方法：QLoRA 是把冻结权重量化成 4 位的 LoRA；QLoRA 论文在其基准上与 16 位微调持平，"
       "但底座被量化（结果与 16 位模型略有偏差），每次计算还要花时间反量化。")


def _checkpointing(level: ActivationCheckpointing) -> Change:
    full = level == FULL
    return Change(
        id=f"checkpointing_{level.value}", kind="setting",
        label=Text(en="full activation checkpointing" if full
                   else "selective activation checkpointing",
                   zh="完整激活重计算" if full else "选择性激活重计算"),
        change=Text(en=f"activation_checkpointing: {level.value}",
                    zh=f"activation_checkpointing: {level.value}"),
        trade_off=CHECKPOINT_FULL if full else CHECKPOINT_SELECTIVE,
        training={"activation_checkpointing": level})


def accumulation(profile: Profile, batch: int) -> Change:
    """``batch`` samples per GPU, accumulating to the same global batch."""
    t = profile.training
    steps = t.gradient_accumulation_steps * max(t.batch_per_gpu // batch, 1)
    return Change(
        id=f"accumulation_{batch}", kind="setting",
        label=Text(en=f"batch per GPU {batch} with {steps} accumulation steps",
                   zh=f"每卡批大小 {batch}、梯度累积 {steps} 步"),
        change=Text(en=f"batch_per_gpu: {batch}, gradient_accumulation_steps: {steps}",
                    zh=f"batch_per_gpu: {batch}，gradient_accumulation_steps: {steps}"),
        trade_off=ACCUMULATION,
        training={"batch_per_gpu": batch, "gradient_accumulation_steps": steps})


def _zero(stage: Parallelism) -> Change:
    n = stage.value[-1]
    return Change(id=stage.value, kind="setting",
                  label=Text(en=f"ZeRO stage {n}", zh=f"ZeRO 第 {n} 阶段"),
                  change=Text(en=f"parallelism: {stage.value}", zh=f"parallelism: {stage.value}"),
                  trade_off=ZERO, training={"parallelism": stage})


def _offload(level: Offload) -> Change:
    params = level == Offload.parameters
    return Change(
        id=f"offload_{level.value}", kind="setting",
        label=Text(en="offload of the optimizer states and weights to RAM" if params
                   else "offload of the optimizer states to RAM",
                   zh="优化器状态和权重卸载到内存" if params else "优化器状态卸载到内存"),
        change=Text(en=f"offload: {level.value}", zh=f"offload: {level.value}"),
        trade_off=OFFLOAD_PARAMETERS if params else OFFLOAD_OPTIMIZER,
        training={"offload": level})


def _pure_16bit(precision: Precision) -> Change:
    dtype = precision if precision in (Precision.bf16, Precision.fp16) else Precision.bf16
    change = "pure_16bit: true" + ("" if dtype == precision else f", precision: {dtype.value}")
    return Change(id="pure_16bit", kind="numerics",
                  label=Text(en="pure 16-bit training", zh="纯 16 位训练"),
                  change=Text(en=change, zh=change.replace(", ", "，")),
                  trade_off=PURE_16BIT,
                  training={"pure_16bit": True, "precision": dtype})


def _adam_8bit() -> Change:
    return Change(id="adamw_8bit", kind="numerics",
                  label=Text(en="8-bit AdamW", zh="8 位 AdamW"),
                  change=Text(en="optimizer: adamw_8bit", zh="optimizer: adamw_8bit"),
                  trade_off=ADAM_8BIT, training={"optimizer": Optimizer.adamw_8bit})


def _chunked_loss() -> Change:
    return Change(id="loss_chunked", kind="setting",
                  label=Text(en="a chunked loss", zh="分块计算损失"),
                  change=Text(en="loss: chunked", zh="loss: chunked"),
                  trade_off=CHUNKED_LOSS, training={"loss": LossKernel.chunked})


def _method(method: TrainingMethod) -> Change:
    q = method == TrainingMethod.qlora
    return Change(
        id=method.value, kind="method",
        label=Text(en="QLoRA (4-bit base, a change of method)" if q
                   else "LoRA (a change of method)",
                   zh="QLoRA（4 位底座，换了训练方法）" if q else "LoRA（换了训练方法）"),
        change=Text(en=f"method: {method.value}", zh=f"method: {method.value}"),
        trade_off=QLORA if q else LORA, training={"method": method, "fine_tuning": True})


def checkpointing_changes(profile: Profile) -> list[Change]:
    level = profile.training.activation_checkpointing
    return [_checkpointing(c) for c in (SELECTIVE, FULL)
            if (level, c) != (SELECTIVE, SELECTIVE) and level != FULL]


def batch_sizes(profile: Profile) -> list[int]:
    """Smaller batches per GPU to try, largest first: about halving down to one sample, each
    a divisor of the batch, so that accumulation keeps the global batch exactly (a review:
    900 halved to 112 with 8 steps is 896)."""
    t = profile.training
    b = t.batch_per_gpu
    # never more accumulation steps than a profile may say (a review: a batch of 630,785
    # split to 1 asked for 7,421 steps, past the field's bound, and stopped the answer)
    small = [d for d in range(1, int(b ** 0.5) + 1) if b % d == 0]
    divisors = sorted((d for d in {*small, *(b // d for d in small)} - {b}
                       if t.gradient_accumulation_steps * (b // d) <= MAX_ACCUMULATION),
                      reverse=True)
    out: list[int] = []
    target = b // 2
    while target >= 1:
        d = next((d for d in divisors if d <= target), None)
        if d is None:
            break
        if d not in out:
            out.append(d)
        target //= 2
    return out


def other_changes(profile: Profile) -> list[Change]:
    """A higher ZeRO stage (when the profile fixes a lower one), offload, LoRA / QLoRA."""
    t = profile.training
    out: list[Change] = []
    # a language model's fine-tune runs the Trainer's unfused loss (12 bytes a logit): the same
    # loss in chunks costs no time (layouts/methods.py, CHUNKED_LOGIT_BYTES)
    if profile.task in (Task.llm, Task.nlp) and t.loss != LossKernel.chunked \
            and (profile.fine_tunes or t.loss == LossKernel.unfused):
        out.append(_chunked_loss())
    if t.parallelism in _BELOW_ZERO3:
        out += [_zero(s) for s in _ZERO_STAGES
                if _ZERO_STAGES.index(s) > _stage_index(t.parallelism)]
    # fewer bytes of state a parameter (issue 31): how fine-tunes are run on a model loaded in
    # bf16 (Hugging Face Trainer, torchtune, LitGPT) or with bitsandbytes; a pre-training run
    # keeps fp32 master weights and 32-bit Adam (its recipe's numerics)
    out += state_changes(profile)
    order = (Offload.none, Offload.optimizer, Offload.parameters)
    out += [_offload(o) for o in order[order.index(t.offload) + 1:]]
    if profile.fine_tunes and t.method != TrainingMethod.qlora:  # said, or shown (issue 29)
        methods = (TrainingMethod.lora, TrainingMethod.qlora) \
            if t.method == TrainingMethod.full else (TrainingMethod.qlora,)
        out += [_method(m) for m in methods]
    return out


def state_changes(profile: Profile) -> list[Change]:
    """Fewer bytes of state a parameter for a full fine-tune: pure 16-bit training, 8-bit
    AdamW (issue 31: how fine-tunes are run on a model loaded in bf16, or with bitsandbytes;
    a run from scratch keeps fp32 master weights and 32-bit Adam, its recipe's numerics)."""
    t = profile.training
    if t.method != TrainingMethod.full or not profile.fine_tunes:
        return []
    out = []
    if not t.pure_16bit and t.precision in (Precision.bf16, Precision.fp16, Precision.amp):
        out.append(_pure_16bit(t.precision))
    if t.optimizer in (Optimizer.adamw, Optimizer.auto) and _adam_family(profile):
        out.append(_adam_8bit())
    return out


DIFFUSION_SAVINGS = Text(
    en="The savings diffusion trainers turn on first (kohya's SDXL tips, diffusers' READMEs): "
       "recomputation costs about a third more compute; 8-bit AdamW matches 32-bit Adam on "
       "fine-tuning (Dettmers et al. 2022); text embeddings and latents cached beforehand fix "
       "each image's caption and crop for the run (no per-epoch random crops or caption "
       "dropout); the EMA is updated on the CPU.",
    zh="扩散模型训练者最先打开的省显存设置（kohya 的 SDXL 建议、diffusers 的 README）：重计算多约三分之一的"
       "计算量；8 位 AdamW 在微调上与 32 位 Adam 持平（Dettmers 等，2022）；事先缓存文本嵌入和潜变量，"
       "整个训练里每张图的描述和裁剪固定不变（不再每轮随机裁剪或随机丢弃描述）；EMA 在 CPU 上更新。")
# 8-bit AdamW unless Adafactor (or SGD) is chosen
_LEAN_OPTIMIZERS = (Optimizer.adafactor, Optimizer.adamw_8bit, Optimizer.sgd)


def diffusion_savings(profile: Profile) -> Change | None:
    """A diffusion fine-tune's usual savings, those not on yet (full checkpointing, 8-bit
    AdamW for a full fine-tune unless a lean optimizer is chosen, cached text embeddings and
    latents, the EMA in host RAM: ``verdict.facts.diffusion_facts`` quotes the memory they
    leave); None for other tasks or when every one is on."""
    if profile.task != Task.diffusion:
        return None
    t = profile.training
    fields: dict[str, Any] = {}
    if t.activation_checkpointing != FULL:
        fields["activation_checkpointing"] = FULL
    if optimizer_of(profile) not in _LEAN_OPTIMIZERS and t.method == TrainingMethod.full:
        fields["optimizer"] = Optimizer.adamw_8bit  # (adapters' states are small already)
    if t.frozen_encoders != FrozenEncoders.cached:
        fields["frozen_encoders"] = FrozenEncoders.cached
    if t.ema == Ema.gpu:
        fields["ema"] = Ema.cpu
    if not fields:
        return None
    said = fields_said(fields)
    return Change(id="diffusion_savings", kind="setting",
                  label=Text(en="the usual diffusion savings", zh="扩散模型常用的省显存设置"),
                  change=Text(en=said, zh=said.replace(", ", "，")),
                  trade_off=DIFFUSION_SAVINGS, training=fields)


def fields_said(fields: dict[str, Any]) -> str:
    """The training fields a change sets, as a profile writes them ("optimizer: adafactor,
    pure_16bit: true")."""
    return ", ".join(f"{k}: {_written(v)}" for k, v in fields.items())


def _written(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(getattr(value, "value", value))


def _adam_family(profile: Profile) -> bool:
    """Whether the profile's optimizer is full-precision AdamW (``auto``: unless vision)."""
    return optimizer_of(profile) == Optimizer.adamw


def _stage_index(parallelism: Parallelism) -> int:
    return _ZERO_STAGES.index(parallelism) if parallelism in _ZERO_STAGES else -1
