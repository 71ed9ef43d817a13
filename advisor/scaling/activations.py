"""Activation memory of one GPU's batch, with or without the model's shape (# F05, # F24).

Model states are not the whole story: a ResNet at batch 256 or a transformer at a long
sequence keeps more activations for the backward pass than it has weights. Two estimates:

* transformers (language and speech models, or any model given layers, hidden size and
  sequence length): 34 bytes per token x hidden x layer at 16-bit activations (Korthikanti
  et al. 2022, memory-efficient attention); fp32 activations take twice that. An unknown
  shape is derived from the parameter count by the usual heuristics (params ~ 12 L h^2,
  hidden = ``transformer_width_per_layer`` x layers; see ``estimated_shape``);
* other models (CNNs, detectors, GANs, recommenders): activations grow with the work done
  per sample, not with the parameters: bytes per training FLOP of the task's typical model
  (table with sources in parameters.yaml) x the sample's FLOPs (given, else the task's
  default FLOPs per parameter). The table is at fp32; 16-bit activations (AMP) take half.
"""

from __future__ import annotations

from functools import lru_cache

from advisor.profile import ActivationCheckpointing, Precision, Profile, Task
from advisor.scaling.diffusion import (
    activation_bytes_per_sample as diffusion_activation_bytes,
)
from advisor.scaling.model_parallel import estimated_shape
from advisor.scaling.parameters import (
    ScalingParams,
    activation_bytes_per_flop_by_task,
    default_sequence_length,
    flops_per_param_by_task,
)

# Sequence models: training FLOPs ~ 6 x parameters x tokens (frames for speech encoders).
SEQUENCE_TASKS = (Task.nlp, Task.llm, Task.speech_recognition)
_WIDE = (Precision.fp32, Precision.tf32)  # activations kept in 4 bytes


def is_transformer(profile: Profile) -> bool:
    """Sequence tasks, or a model whose transformer shape the profile gives; a diffusion
    model's denoiser (a DiT too) is counted by ``diffusion.py`` and trains data parallel."""
    m = profile.model
    if profile.task == Task.diffusion:
        return False
    return profile.task in SEQUENCE_TASKS or bool(m.layers and m.hidden_size
                                                  and m.sequence_length)


# Activation checkpointing keeps only what recomputation starts from. Transformers (full
# recomputation, Korthikanti et al. 2022): each layer's input, 2 s h bytes of the 34 s h, plus
# one layer's full activations while it is recomputed. Other models (Chen et al. 2016,
# "Training deep nets with sublinear memory cost"): checkpoints every ~sqrt(n) blocks cut
# a ResNet's activation memory about four-fold.
CHECKPOINT_SHARE_OTHER = 0.25
CHECKPOINT_INPUT_BYTES = 2.0  # per token x hidden x layer, of the 34 kept without it


def checkpoint_share(profile: Profile, p: ScalingParams) -> float:
    """The share of the activations kept with activation checkpointing (1 without it).
    Selective recomputation drops the attention scores, which the 34 bytes per token x hidden
    x layer of a memory-efficient attention already leave out (layouts/memory.py keeps them
    for standard attention)."""
    mode = profile.training.activation_checkpointing
    if mode != ActivationCheckpointing.full:
        return 1.0
    if not is_transformer(profile):
        return CHECKPOINT_SHARE_OTHER
    m = profile.model
    layers = estimated_shape(m.params_millions, m.layers, m.hidden_size,
                             m.sequence_length or 512, 2.0, p.transformer_width_per_layer).layers
    full = p.activation_bytes_per_token_width_layer
    return min(1.0, (CHECKPOINT_INPUT_BYTES * layers + full) / (full * layers))


def activation_bytes_per_sample(profile: Profile, p: ScalingParams) -> float:
    """Bytes of activations one sample keeps for the backward pass (a diffusion model's at
    its resolution: ``diffusion.activation_bytes_per_sample``)."""
    if profile.task == Task.diffusion:
        return diffusion_activation_bytes(profile, p)
    m = profile.model
    return _per_sample(profile.task, is_transformer(profile), m.params_millions, m.layers,
                       m.hidden_size, m.sequence_length, m.flops_per_sample_gflops,
                       profile.training.precision in _WIDE, p.transformer_width_per_layer,
                       p.activation_bytes_per_token_width_layer) * checkpoint_share(profile, p)


@lru_cache(maxsize=256)  # called several times per projection, which must stay < 1 ms
def _per_sample(task: Task, transformer: bool, params_millions: float, layers: int | None,
                hidden: int | None, sequence: int | None, gflops: float | None, wide: bool,
                width_per_layer: float, bytes_per_token_width_layer: float) -> float:
    if transformer:
        sequence = sequence or int(default_sequence_length().get(task.value, 512))
        shape = estimated_shape(params_millions, layers, hidden, sequence, 2.0,
                                width_per_layer)
        per_token = shape.hidden * shape.layers * bytes_per_token_width_layer
        return sequence * per_token * (2.0 if wide else 1.0)
    if gflops:
        flops = gflops * 1e9
    else:
        per_param = flops_per_param_by_task()
        flops = params_millions * 1e6 * per_param.get(task.value, per_param.get("other", 1000.0))
    table = activation_bytes_per_flop_by_task()
    return flops * table.get(task.value, table.get("other", 0.0)) * (1.0 if wide else 0.5)


def activation_gb(profile: Profile, p: ScalingParams) -> float:
    """Activation memory of one GPU's batch (one micro-batch with gradient accumulation)."""
    return profile.training.batch_per_gpu * activation_bytes_per_sample(profile, p) / 1e9


def recompute_factor(profile: Profile) -> float:
    """Hardware FLOPs over model FLOPs of one step (# F24). Full recomputation runs every
    layer's forward pass twice: 4 passes' worth of work instead of 3 (forward + 2x backward).
    Selective recomputation (Korthikanti et al. 2022) reruns only the attention core, 4 s h of
    the 72 h^2 + 12 s h FLOPs per token and layer: 1 + s / (18 h + 3 s)."""
    mode = profile.training.activation_checkpointing
    if mode == ActivationCheckpointing.full:
        return 4.0 / 3.0
    if mode == ActivationCheckpointing.none or not is_transformer(profile):
        return 1.0
    m = profile.model
    sequence = m.sequence_length or int(default_sequence_length().get(profile.task.value, 512))
    hidden = estimated_shape(m.params_millions, m.layers, m.hidden_size, sequence, 2.0).hidden
    return 1.0 + sequence / (18.0 * hidden + 3.0 * sequence)
