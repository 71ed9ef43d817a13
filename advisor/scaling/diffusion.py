"""Diffusion fine-tuning as a task of its own (``task: diffusion``, issue 32): what one GPU
holds and computes for a UNet or DiT denoiser, its frozen text encoders and VAE, an EMA copy.

Memory (data-parallel family: DDP, ZeRO-1/2/3, FSDP; ``DiffusionStates``):

* the trained part's weights, gradients and optimizer states at the profile's precision and
  optimizer (``training_states``: mixed-precision AdamW 2/2/12 bytes, 8-bit AdamW 2/2/6,
  pure 16-bit 2/2/4 or 2/2/2, Adafactor below); LoRA / QLoRA train adapters on a denoiser
  frozen in 16 (4) bits;
* an EMA copy of the trained weights in fp32 (4 bytes each) on every GPU, or in host RAM
  (diffusers ``--offload_ema``: it crosses PCIe once per update, overlapped);
* the frozen text encoders and VAE in the weights' 16 bits (fp32 when training in fp32), on
  every GPU while they encode each batch, none while offloaded or once their outputs are
  cached (kohya's ``--cache_text_encoder_outputs`` / ``--cache_latents``);
* activations per image at the training resolution: a DiT keeps
  ``activation_bytes_per_token_width_layer`` (34, Korthikanti et al. 2022, memory-efficient
  attention) x hidden x layers per latent token; a UNet keeps ``UNET_ACTIVATION_BYTES_PER_FLOP``
  per training FLOP at its FLOPs' resolution, scaled by the latent pixels (with
  memory-efficient attention, which every current trainer uses, neither grows with the
  tokens' square);
* sharding divides the states: ZeRO-1 the optimizer's, ZeRO-2 also the gradients, ZeRO-3 /
  FSDP also the weights and the EMA; the frozen encoders stay whole on every GPU.

Compute: the denoiser's training FLOPs per sample at the training resolution (the catalog's
count at ``flops_resolution``, scaled by the latent tokens, attention by their square), a third
less with the denoiser frozen (no weight gradients: LoRA), plus the frozen encoders' forward
passes unless cached. Counted as the catalog and the vision tasks count (3 x the forward
multiply-adds); the share of peak is the language models' (a denoiser is mostly transformer
blocks: 86 % of SDXL's UNet parameters) at 2 FLOPs per multiply-add
(``advisor.scaling.inputs.effective_tflops``).
"""

from __future__ import annotations

from advisor.files.records import record
from advisor.profile import (
    ActivationCheckpointing,
    Denoiser,
    Ema,
    FrozenEncoders,
    Offload,
    Optimizer,
    Precision,
    Profile,
    TrainingMethod,
)
from advisor.scaling.layouts.states import MIXED_16BIT, StateBytes, full_training
from advisor.scaling.model_parallel import estimated_shape
from advisor.scaling.optimizer_family import optimizer_of
from advisor.scaling.parameters import ScalingParams

DEFAULT_RESOLUTION = 512  # px, when neither the run nor the model's FLOPs say (SD 1.x's)
DIT_PATCH = 2  # latent cells per side of one DiT token (DiT-XL/2, PixArt, SD3, Flux)
TEXT_TOKENS = 77  # tokens the text encoders run over per sample (CLIP's context)
_WIDE = (Precision.fp32, Precision.tf32)

# --- the UNet, counted from the configs of SD 1.5 and SDXL (unet/config.json) ---------------
# Activations the backward pass keeps, per training FLOP (3 x multiply-adds) at 16 bits, with
# memory-efficient attention: ResNet blocks keep about 6 tensors of their width per latent
# pixel (GroupNorm, SiLU and convolution inputs), transformer blocks about 30 per token (the
# layer norms', projections', attention's and GEGLU's inputs). SD 1.5 at 512 px: 0.49 G
# values, 0.98 GB per image over 1,333 GFLOP = 0.00074; SDXL at 1024 px: 3.6 G values, 7.2 GB
# over 10,000 GFLOP = 0.00072.
UNET_ACTIVATION_BYTES_PER_FLOP = 0.00073
# Gradient checkpointing in diffusers and kohya recomputes each ResNet block and each
# transformer block: what stays is every block's input (and the group norm and projections
# around each attention), a tensor of its width per latent pixel at its level, plus one
# block's activations while it is recomputed. By the same count that is 43 kB per latent pixel
# for SDXL (0.71 GB at 1024 px, a tenth of its 7.2 GB) and 51 kB for SD 1.5 (0.21 GB at 512
# px); SimpleTuner measured 29 kB for SDXL (documentation/DEEPSPEED.md: 8 images at 1024 px
# take 3,865 MiB more than at 128 px). 16-bit bytes per latent pixel, between the two:
UNET_CHECKPOINT_BYTES_PER_LATENT_PIXEL = 40e3
# Self-attention's share of a UNet's FLOPs at its native resolution: 2 T^2 C multiply-adds per
# transformer block, 11 % of SDXL's at 1024 px, 14 % of SD 1.5's at 512 px by the same count.
UNET_ATTENTION_SHARE = 0.12
# Training FLOPs per parameter and latent pixel of a UNet given without its FLOPs: SD 1.5
# 1,333 G / 859.5 M / 4,096 = 0.38, SDXL 10,000 G / 2,567.5 M / 16,384 = 0.24.
UNET_FLOPS_PER_PARAM_LATENT_PIXEL = 0.3
# The channel width most of a UNet's parameters run at (SDXL's and SD 1.5's deepest blocks),
# for LoRA adapters: r x (d_in + d_out) per adapted d_in x d_out matrix.
UNET_WIDTH = 1280
# The Stable Diffusion VAE encoder (the SDXL, SD3 and Flux VAEs share its blocks): 534 G
# multiply-adds for one 512 x 512 image by its config.json's blocks (0.54 T), over its 83.7 M
# parameters and 262,144 pixels.
VAE_MACS_PER_PIXEL_PER_PARAM = 534e9 / 83.7e6 / 512**2
# Adafactor (Shazeer & Stern 2018, no first moment as kohya and transformers run it) keeps a
# row and a column of second moments per matrix; a 3 x 3 convolution factors only over its
# kernel, keeping two thirds of its size: 0.32 B of SDXL's UNet weights are convolutions, 0.85
# GB in fp32 over 2.57 B parameters. A DiT's linear layers keep almost nothing.
ADAFACTOR_BYTES = {Denoiser.unet: 0.35, Denoiser.dit: 0.05}

# As the language models' layouts count them (advisor/scaling/layouts/methods.py, offload.py,
# memory.py), repeated here: the data-parallel projection imports none of the layouts' engine.
ADAPTER_SHARE_PER_RANK = 1.5  # adapter parameters per layer parameter, x share x rank / width
NF4_BYTES = 4.127 / 8.0  # QLoRA's frozen 4-bit weights with their block scales
BUCKET_ELEMENTS = 2 * 5e8  # DeepSpeed ZeRO-1/2 reduce + all-gather buckets, 16-bit
CPU_ADAM_BYTES = 30.0  # host memory traffic of one parameter's CPU-Adam update
PCIE_GBS = {3: 12.0, 4: 25.0, 5: 50.0, 6: 100.0}
HOST_BANDWIDTH_GBS = {"consumer": 50.0, "workstation": 80.0, "datacenter": 150.0}
# per trained parameter and update, an EMA on the GPU reads and writes its fp32 copy and reads
# the weight
EMA_TRAFFIC_BYTES = 10.0


def denoiser(profile: Profile) -> Denoiser:
    """The profile's denoiser; ``auto``: a DiT when its layers and hidden size are given."""
    m = profile.model
    if m.denoiser != Denoiser.auto:
        return m.denoiser
    return Denoiser.dit if (m.layers and m.hidden_size) else Denoiser.unet


def resolution(profile: Profile) -> int:
    """The training images' side in pixels: the run's, else that of the model's FLOPs."""
    return (profile.training.resolution or profile.model.flops_resolution
            or DEFAULT_RESOLUTION)


def latent_pixels(profile: Profile, side: int | None = None) -> float:
    """Latent cells of one image (a UNet's tokens at its finest level)."""
    side = side or resolution(profile)
    return (side / profile.model.latent_downsampling) ** 2


def dit_tokens(profile: Profile, side: int | None = None) -> float:
    return max(latent_pixels(profile, side) / DIT_PATCH**2, 1.0)


def _tokens(profile: Profile, side: int | None = None) -> float:
    return dit_tokens(profile, side) if denoiser(profile) == Denoiser.dit \
        else latent_pixels(profile, side)


def _dit_shape(profile: Profile, p: ScalingParams):
    m = profile.model
    return estimated_shape(m.params_millions, m.layers, m.hidden_size,
                           int(dit_tokens(profile)), 2.0, p.transformer_width_per_layer)


def attention_share(profile: Profile, p: ScalingParams, tokens: float) -> float:
    """Self-attention's share of the denoiser's FLOPs at ``tokens``: a DiT's 2 T^2 h of
    12 h^2 T + 2 T^2 h multiply-adds per layer; a UNet's at its native resolution."""
    if denoiser(profile) == Denoiser.unet:
        return UNET_ATTENTION_SHARE
    hidden = _dit_shape(profile, p).hidden
    return 2.0 * tokens / (12.0 * hidden + 2.0 * tokens)


def reference_side(profile: Profile) -> int:
    """The image side the model's FLOPs per sample are counted at."""
    return profile.model.flops_resolution or resolution(profile)


def token_ratio(profile: Profile) -> float:
    """Latent tokens at the training resolution over those at the FLOPs' resolution."""
    return _tokens(profile) / _tokens(profile, reference_side(profile))


def denoiser_flops(profile: Profile, p: ScalingParams) -> float:
    """Training FLOPs (3 x multiply-adds) of the denoiser for one image at the training
    resolution: the model's count scaled by the tokens, its attention by their square;
    without a count, from the parameters (a DiT's 12 h^2 T + 2 T^2 h per layer, a UNet's
    ``UNET_FLOPS_PER_PARAM_LATENT_PIXEL``)."""
    m = profile.model
    if m.flops_per_sample_gflops:
        r = token_ratio(profile)
        a = attention_share(profile, p, _tokens(profile, reference_side(profile)))
        return m.flops_per_sample_gflops * 1e9 * ((1.0 - a) * r + a * r * r)
    params = m.params_millions * 1e6
    if denoiser(profile) == Denoiser.dit:
        shape, tokens = _dit_shape(profile, p), dit_tokens(profile)
        per_layer = 12.0 * shape.hidden**2 * tokens + 2.0 * tokens**2 * shape.hidden
        return 3.0 * max(per_layer * shape.layers, params * tokens)
    return UNET_FLOPS_PER_PARAM_LATENT_PIXEL * params * latent_pixels(profile)


def encoder_flops(profile: Profile) -> float:
    """The frozen text encoders' and VAE encoder's forward pass for one image, in the same
    units (one multiply-add each: a forward pass is a third of a training step); none once
    their outputs are cached."""
    if profile.training.frozen_encoders == FrozenEncoders.cached:
        return 0.0
    m = profile.model
    text = (m.text_encoder_params_millions or 0.0) * 1e6 * TEXT_TOKENS
    vae = (VAE_MACS_PER_PIXEL_PER_PARAM * (m.vae_params_millions or 0.0) * 1e6
           * resolution(profile) ** 2) if m.latent_downsampling > 1 else 0.0
    return text + vae


def frozen_denoiser(profile: Profile) -> bool:
    return profile.training.method != TrainingMethod.full


def trainable_params(profile: Profile) -> float:
    """Parameters trained: the denoiser's, or its LoRA adapters' (r x (d_in + d_out) per
    adapted matrix, as a share of the denoiser at its width)."""
    m, t = profile.model, profile.training
    params = m.params_millions * 1e6
    if not frozen_denoiser(profile):
        return params
    width = m.hidden_size or UNET_WIDTH
    return min(ADAPTER_SHARE_PER_RANK * t.lora_target_share * t.lora_rank / width, 1.0) \
        * params


def step_flops(profile: Profile, p: ScalingParams) -> float:
    """One image's training FLOPs of the denoiser: forward, the backward pass's input
    gradients and, when trained in full, its weight gradients (a frozen denoiser skips a
    third, its adapters' own excepted). The frozen encoders' are ``encoder_flops``."""
    flops = denoiser_flops(profile, p)
    if frozen_denoiser(profile):
        share = trainable_params(profile) / (profile.model.params_millions * 1e6)
        flops *= (2.0 + share) / 3.0
    return flops


def training_states(precision: Precision, optimizer: Optimizer, pure_16bit: bool,
                    adafactor_bytes: float = ADAFACTOR_BYTES[Denoiser.unet]) -> StateBytes:
    """Bytes per trained parameter of weights, gradients and optimizer states, Adafactor
    included (its factored moments; with mixed precision the fp32 master copy too)."""
    if optimizer != Optimizer.adafactor:
        return full_training(precision, optimizer, pure_16bit)
    mixed = precision in MIXED_16BIT
    if pure_16bit and mixed:
        return StateBytes(weight_bytes=2.0, grad_bytes=2.0, optimizer_bytes=adafactor_bytes,
                          grad_buffer_bytes=2.0)
    value = 2.0 if mixed else 4.0
    master = 4.0 if mixed else 0.0
    return StateBytes(weight_bytes=value, grad_bytes=value,
                      optimizer_bytes=master + adafactor_bytes)


@record
class DiffusionStates:
    """Bytes one GPU holds for a diffusion run before any sharding, by how they shard."""

    weights: float  # the denoiser's (frozen ones too), on the GPU
    grads: float
    optimizer: float
    ema: float
    frozen: float  # text encoders and VAE on the GPU
    buffers: float  # the reduction buckets an offloaded optimizer's gradients leave through
    trainable: float  # parameters trained

    @property
    def total(self) -> float:
        return (self.weights + self.grads + self.optimizer + self.ema + self.frozen
                + self.buffers)


def frozen_bytes_per_param(precision: Precision) -> float:
    """A frozen model's weights: cast to the training's 16 bits, fp32 when it trains in fp32."""
    return 4.0 if precision in _WIDE else 2.0


def diffusion_states(profile: Profile, p: ScalingParams) -> DiffusionStates:
    """What one GPU holds for ``profile`` before sharding (module docstring)."""
    m, t = profile.model, profile.training
    params = m.params_millions * 1e6
    trained = trainable_params(profile)
    scale = p.optimizer_bytes_per_param / 16.0  # the fitted parameter, 16 B of mixed Adam
    states = training_states(t.precision, optimizer_of(profile), t.pure_16bit,
                             ADAFACTOR_BYTES[denoiser(profile)])
    if frozen_denoiser(profile):
        frozen_weight = NF4_BYTES if t.method == TrainingMethod.qlora \
            else frozen_bytes_per_param(t.precision)
        weights = params * frozen_weight + trained * states.weight_bytes
    else:
        weights = params * states.weight_bytes
    grads = trained * states.grad_bytes
    optimizer = trained * states.optimizer_bytes
    buffers = 0.0
    if t.offload != Offload.none:  # ZeRO-Offload: states and gradients in host RAM
        buffers = min(BUCKET_ELEMENTS * states.grad_bytes, grads)
        optimizer = grads = 0.0
        if t.offload == Offload.parameters:
            weights = 0.0
    ema = 4.0 * trained if t.ema == Ema.gpu else 0.0
    encoders = ((m.text_encoder_params_millions or 0.0) + (m.vae_params_millions or 0.0)) * 1e6
    frozen = encoders * frozen_bytes_per_param(t.precision) \
        if t.frozen_encoders == FrozenEncoders.on_gpu else 0.0
    return DiffusionStates(weights=weights * scale, grads=grads * scale,
                           optimizer=optimizer * scale, ema=ema, frozen=frozen,
                           buffers=buffers, trainable=trained)


# strategy -> (optimizer, gradients, weights and EMA) sharded over the GPUs
_SHARDED = {"data": (False, False, False), "embedding": (False, False, False),
            "zero1": (True, False, False), "zero2": (True, True, False),
            "zero3": (True, True, True), "fsdp": (True, True, True), "hsdp": (True, True, True)}


def states_gb(states: DiffusionStates, strategy: str, n, shards_hsdp, ways):
    """GB of ``states`` on one GPU of ``n`` under ``strategy`` (``shards_hsdp``: the GPUs a
    hybrid shard spans; ``ways``: a model split's, which divides everything)."""
    if strategy not in _SHARDED:
        return states.total / ways / 1e9
    opt, grad, weight = _SHARDED[strategy]
    k = shards_hsdp if strategy == "hsdp" else n
    return (states.optimizer / (k if opt else 1.0) + states.grads / (k if grad else 1.0)
            + (states.weights + states.ema) / (k if weight else 1.0)
            + states.frozen + states.buffers) / 1e9


def activation_bytes_per_sample(profile: Profile, p: ScalingParams) -> float:
    """Bytes of activations one image keeps for the backward pass (module docstring). Full
    gradient checkpointing keeps a DiT's each layer's input (2 of the 34 bytes) plus one
    layer while it is recomputed, a UNet's ``UNET_CHECKPOINT_BYTES_PER_LATENT_PIXEL``;
    selective recomputation keeps them all (the attention scores it drops are never kept with
    memory-efficient attention)."""
    wide = 2.0 if profile.training.precision in _WIDE else 1.0
    full_checkpointing = \
        profile.training.activation_checkpointing == ActivationCheckpointing.full
    if denoiser(profile) == Denoiser.dit:
        shape = _dit_shape(profile, p)
        per_layer = p.activation_bytes_per_token_width_layer
        kept = dit_tokens(profile) * shape.hidden * shape.layers * per_layer
        if full_checkpointing:
            kept *= min(1.0, (2.0 * shape.layers + per_layer) / (per_layer * shape.layers))
        return kept * wide
    m = profile.model
    if m.flops_per_sample_gflops:
        reference = m.flops_per_sample_gflops * 1e9 * token_ratio(profile)
    else:
        reference = UNET_FLOPS_PER_PARAM_LATENT_PIXEL * m.params_millions * 1e6 \
            * latent_pixels(profile)
    kept = UNET_ACTIVATION_BYTES_PER_FLOP * reference
    if full_checkpointing:
        kept = min(kept, UNET_CHECKPOINT_BYTES_PER_LATENT_PIXEL * latent_pixels(profile))
    return kept * wide


def pcie_gbs(pcie_gen: int | None) -> float:
    return PCIE_GBS.get(pcie_gen or 4, 25.0)


def host_step_s(profile: Profile, gpu_class: str, pcie_gen: int | None) -> float:
    """An offloaded optimizer's step on the CPU (CPU-Adam's memory traffic at the host's
    bandwidth) and the updated 16-bit weights' copy back, once per optimizer step."""
    trained = trainable_params(profile)
    host = HOST_BANDWIDTH_GBS.get(gpu_class, HOST_BANDWIDTH_GBS["consumer"])
    return trained * CPU_ADAM_BYTES / (host * 1e9) + trained * 2.0 / (pcie_gbs(pcie_gen) * 1e9)


def transfer_s(profile: Profile, pcie_gen: int | None) -> float:
    """Per micro-batch: offloaded encoders moved to the GPU to encode it; offloaded weights
    streamed for the forward and backward passes (16 bits each way)."""
    m, t = profile.model, profile.training
    out = 0.0
    if t.frozen_encoders == FrozenEncoders.offloaded:
        encoders = ((m.text_encoder_params_millions or 0.0) + (m.vae_params_millions or 0.0))
        out += encoders * 1e6 * frozen_bytes_per_param(t.precision)
    if t.offload == Offload.parameters:
        out += 2.0 * m.params_millions * 1e6 * 2.0
    return out / (pcie_gbs(pcie_gen) * 1e9)


def ema_step_s(profile: Profile, bandwidth_gbs: float) -> float:
    """An EMA kept on the GPU updates once per optimizer step (its traffic at the card's
    bandwidth); one in host RAM overlaps its copies (diffusers' non-blocking --offload_ema)."""
    if profile.training.ema != Ema.gpu:
        return 0.0
    return trainable_params(profile) * EMA_TRAFFIC_BYTES / (bandwidth_gbs * 1e9)

