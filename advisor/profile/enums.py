"""The choices a profile offers (task, precision, links, money …), as string enums."""

from __future__ import annotations

from enum import StrEnum


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
    diffusion = "diffusion"  # text-to-image diffusion (UNet or DiT denoiser), mostly fine-tuned
    other = "other"


class Precision(StrEnum):
    fp32 = "fp32"
    tf32 = "tf32"
    fp16 = "fp16"
    bf16 = "bf16"
    amp = "amp"
    # FP8 GEMMs with 16-bit master weights (Transformer Engine, torchao float8): Ada, Hopper,
    # Blackwell cards only (advisor.catalog.gpus.FP8_GENERATIONS)
    fp8 = "fp8"


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
    hsdp = "hsdp"  # FSDP hybrid shard: sharded inside each machine, replicated across machines
    tensor = "tensor"
    pipeline = "pipeline"


class ThroughputUnit(StrEnum):
    """What the single-GPU throughput counts: batch samples (images, sequences, utterances),
    or the tokens, frames or audio samples inside them (read off a log as tokens/s ...)."""

    samples = "samples"
    images = "images"  # one image is one sample
    tokens = "tokens"  # per sample: model.sequence_length
    frames = "frames"  # speech: spectrogram frames; per sample: model.sequence_length
    audio_samples = "audio_samples"  # per sample: training.audio_samples_per_sample


class InputSizes(StrEnum):
    """Whether the work per sample changes from step to step (what makes GPUs wait for the
    slowest one): fixed crops, volumes or packed sequences, or variable image sizes,
    sentence lengths and utterances."""

    auto = "auto"  # by task
    fixed = "fixed"
    variable = "variable"


class SubNetworks(StrEnum):
    """GANs and RL: do the sub-networks (generator / discriminator, actors / learner) train
    together on every GPU, or take turns while GPUs wait (F21)?"""

    auto = "auto"  # by task: RL actor/learner take turns, GANs train together
    together = "together"
    take_turns = "take_turns"


class KeepBatch(StrEnum):
    """Which batch stays the same when GPUs are added."""

    per_gpu = "per_gpu"  # each GPU keeps its batch: the global batch grows (weak scaling)
    global_ = "global"  # the global batch stays: fewer accumulation steps, then smaller batches


class ActivationCheckpointing(StrEnum):
    """What the backward pass recomputes instead of keeping (Korthikanti et al. 2022)."""

    none = "none"  # every layer's activations kept
    selective = "selective"  # the attention core (scores, soft-max) recomputed: ~2-7 % compute
    full = "full"  # each layer recomputed from its input: about a third more compute


class TrainingMethod(StrEnum):
    """Which weights are trained (Hu et al. 2021, LoRA; Dettmers et al. 2023, QLoRA)."""

    full = "full"  # every weight trained
    lora = "lora"  # the weights frozen in 16 bits, low-rank adapters trained
    qlora = "qlora"  # the weights frozen in 4 bits (NF4), low-rank adapters trained


class Offload(StrEnum):
    """What the GPUs hand to the host's memory (ZeRO-Offload, ZeRO-3 Offload, FSDP CPU offload)."""

    none = "none"
    optimizer = "optimizer"  # optimizer states and gradients in host RAM, the step on the CPU
    parameters = "parameters"  # ... and the weights too, streamed to the GPU layer by layer


class LossKernel(StrEnum):
    """How the loss turns the output layer's logits into a loss: what it keeps per logit."""

    auto = "auto"  # a fine-tune: Hugging Face's unfused loss; pre-training: Megatron's fused
    unfused = "unfused"  # the full logits and their gradients at once (Hugging Face Trainer)
    chunked = "chunked"  # a chunk of the logits at a time (torchtune, Liger, Unsloth, CCE)


class Optimizer(StrEnum):
    """The optimizer family decides how the learning rate follows the batch (F14)."""

    auto = "auto"  # by task: SGD with momentum for vision, AdamW otherwise
    sgd = "sgd"  # SGD with momentum, LARS: SGD-like
    adamw = "adamw"  # Adam, AdamW, LAMB: Adam-family
    adamw_8bit = "adamw_8bit"  # 8-bit AdamW (bitsandbytes): Adam-family, 75 % less state
    # Adafactor (Shazeer & Stern 2018): factored second moments, no first moment; Adam-family
    # for the learning rate. Counted on the data-parallel path (diffusion, vision ...); the
    # language-model layouts do not count it yet (the profile refuses it for llm / nlp)
    adafactor = "adafactor"


class Denoiser(StrEnum):
    """A diffusion model's denoiser: a convolutional UNet (SD 1.x/2.x, SDXL) or a diffusion
    transformer over latent patches (DiT, PixArt, SD3's MMDiT, Flux)."""

    auto = "auto"  # a DiT when the model gives its layers and hidden size, else a UNet
    unet = "unet"
    dit = "dit"


class FrozenEncoders(StrEnum):
    """Where a diffusion fine-tune's frozen text encoders and VAE are while it trains."""

    on_gpu = "on_gpu"  # resident on every GPU in 16 bits, run on every sample
    offloaded = "offloaded"  # kept in host RAM, moved to the GPU to encode each batch
    cached = "cached"  # text embeddings and latents computed once beforehand: not loaded


class Ema(StrEnum):
    """An exponential moving average of the trained weights (an fp32 copy, diffusers --use_ema)."""

    none = "none"
    gpu = "gpu"  # on every GPU
    cpu = "cpu"  # in host RAM, updated over PCIe (diffusers --offload_ema, SimpleTuner's CPU EMA)


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
    roce_400g = "roce_400g"
    infiniband_ndr = "infiniband_ndr"


# The networks between machines with RDMA (InfiniBand, RoCE): a cluster's, which a marketplace
# of single machines does not rent, and whose fabric the catalog prices
RDMA_LINKS = frozenset({InterLink.roce, InterLink.roce_400g, InterLink.infiniband_edr,
                        InterLink.infiniband_hdr, InterLink.infiniband_ndr})


class Virtualization(StrEnum):
    bare_metal = "bare_metal"
    passthrough = "passthrough"
    vgpu = "vgpu"
    unknown = "unknown"


class GpuGeneration(StrEnum):
    """A card's architecture: which kernels it runs (TF32, flash attention)."""

    turing = "turing"
    volta = "volta"
    ampere = "ampere"
    ada = "ada"
    hopper = "hopper"
    blackwell = "blackwell"


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
    EUR = "EUR"


class Market(StrEnum):
    """Where the hardware is bought, rented and powered: it picks the electricity price, the
    cloud offers, the card prices and the tax on purchases. The language only translates."""

    CN = "CN"
    US = "US"
    EU = "EU"


class TimeValue(StrEnum):
    # research with a deadline: a day saved is worth `value_per_day`; with only `deadline_days`
    # the date alone counts (the fewest GPUs that meet it), time saved has no money value
    deadline = "deadline"
    revenue = "revenue"  # product work: a day saved earns a day of revenue
    none = "none"  # learning: time saved has no money value
