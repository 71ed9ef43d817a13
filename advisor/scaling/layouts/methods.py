"""What a training method keeps per parameter: full training, LoRA and QLoRA, with the
profile's optimizer (the ``StateBytes`` the memory and step models read).

* Full training, mixed precision: 16-bit weights and gradients, fp32 master weights and the
  optimizer's moments: Adam 2/2/12 bytes (ZeRO, Sec. 3.1), SGD with momentum 2/2/8, 8-bit
  AdamW 2/2/6 (bitsandbytes: the moments in 2 bytes instead of 8, 75 % less). AMP and fp32
  keep fp32 weights and gradients (4/4 and 8, 4 or 2 bytes of moments).
* Pure 16-bit training (``training.pure_16bit``: a model loaded in bf16 and an optimizer
  whose states take the weights' dtype, as torchtune, LitGPT's ``bf16-true`` and the Hugging
  Face Trainer on a bf16-loaded model run it): no master copy, the moments in 16 bits: Adam
  2/2/4, SGD 2/2/2, 8-bit AdamW 2/2/2; gradients all-reduced in 16 bits.
* LoRA (Hu et al. 2021) freezes the weights and trains two low-rank factors beside each
  adapted d_in x d_out matrix: r (d_in + d_out) parameters. A layer's matrices hold about
  12 h^2 parameters and 18 h of (d_in + d_out) (four attention projections of h + h, two
  MLP matrices of h + 4h), so adapters on a share f of them train ``1.5 f r / h`` of the
  layer's parameters (Llama-2-7B, r = 16, every linear layer: 38 M by this rule, 40 M
  counted). Only the adapters have gradients and optimizer states, and only their
  gradients are exchanged; the frozen weights keep their 16-bit copy (4 bytes under AMP or
  fp32, as PEFT loads a model by default).
* QLoRA (Dettmers et al. 2023) stores the frozen matrices of the transformer blocks in 4-bit
  NormalFloat with double quantisation (4.127 bits: 4 + 8/64 for the block scales +
  32/(64 x 256) for theirs; a GPTQ base with group-128 scales, as Qwen's Q-LoRA uses, takes
  4.16). The input embedding and an untied output layer are not quantised: bitsandbytes and
  GPTQ replace only the blocks' linear layers, and qlora.py leaves ``lm_head`` out of its
  targets ("needed for 16-bit") and casts both back to bf16: 16 bits each
  (``unquantised_params``; with its 152 k-token vocabulary Qwen keeps 11-34 % of its
  parameters so, Qwen-14B to -1.8B). Each pass dequantises a layer's weights to 16 bits
  before its matmuls: 0.5 bytes read and 2 written per weight (``dequant_bytes``, time); the
  16-bit copy is held while the layer computes (GPTQ's training path keeps it for the input
  gradient until the layer's backward ends): one layer's weights at 2 bytes
  (``dequant_copy_bytes``, memory).
  Outside DeepSpeed and FSDP the model runs as PEFT prepares a k-bit model for training
  (``prepare_model_for_kbit_training``: "cast all non INT8 parameters to fp32", GPTQ models
  excepted; the step the Hugging Face Trainer, PEFT's QLoRA examples and Axolotl take): the
  embedding and output layer are held in fp32 (``upcast_params``, 4 bytes each); the
  embedding's fp32 output makes the residual stream fp32 (a 16-bit layer output added to
  it stays fp32), so every layer input kept for the backward pass takes 4 bytes, not 2;
  and autocast multiplies the output layer through a 16-bit copy of its weight, which its
  backward pass keeps until it runs (memory.py). DeepSpeed's engine casts the whole model to
  its 16-bit dtype when it starts, and FSDP flattens a unit's parameters into one tensor of
  one dtype (16-bit storage for QLoRA), so neither keeps the fp32 copies. Against the Llama
  3.1 8B / 3.3 70B Q-LoRA rows of Unsloth's "Hugging Face + FA2" context-length table this
  puts the longest sequence that fits 70B on an 80 GB A100 at 6.8 k tokens (6,916 published)
  and 70B on a 48 GB card out of memory (as published), where 16-bit copies put them at
  11.7 k tokens and "fits" (benchmarks/finetune_memory.py).
  Its optimizer is bitsandbytes' paged AdamW (qlora.py's default ``paged_adamw_32bit``): the
  states live in CUDA unified memory, which "transfer[s] memory from the GPU to the CPU when
  GPU memory is exhausted" (bitsandbytes' optimizer docs): they need no room of their own
  (``optimizer_paged``; memory.py). Under DeepSpeed (ZeRO sharding) DeepSpeed's optimizer
  runs instead, on the GPU as usual (Qwen's Q-LoRA: ``--deepspeed ds_config_zero2.json``).
* Compute: a frozen weight matrix needs no weight gradient, so the backward pass computes
  only the input gradients: the layers' matmuls run 2 passes instead of 3 (3 instead of 4
  with full recomputation); the attention core and the element-wise work are unchanged.
* Fine-tuning runs on Hugging Face Transformers (PEFT, TRL), whose loss is not fused: at the
  start of the backward pass it holds three logit-sized tensors, the log-softmax output, its
  gradient and the gradient of its input (``HF_LOSS_TENSORS``). Under the Trainer's own mixed
  precision (autocast) cross-entropy is an fp32 op: 3 x 4 = 12 bytes per logit instead of the
  6 of Megatron-LM's fused cross-entropy (Qwen's LoRA rows grow by 11-13 bytes per logit
  with the sequence). DeepSpeed's engine casts the model to 16 bits and runs it without
  autocast (the Trainer leaves mixed precision to it), so the loss stays in 16 bits: 3 x 2
  = 6 bytes (``zero_logit_bytes``; Qwen's Q-LoRA rows under ZeRO-2 and its 72B LoRA rows under
  ZeRO-3 grow by 5-7 bytes per logit). A model whose code casts its logits to fp32 itself
  (Hugging Face's Llama) keeps the 12 bytes under DeepSpeed too: 6 bytes per logit more than
  estimated here (0.2 MB per token with a 32 k vocabulary).
* A chunked loss (``training.loss: chunked``: torchtune, Liger, Unsloth, Cut Cross-Entropy)
  keeps ``CHUNKED_LOGIT_BYTES`` (3.5) a logit however it is run; ``unfused`` asks for the
  Hugging Face loss in pre-training too.
* Host time: the same Hugging Face stack runs every layer as eager PyTorch modules, each of
  its kernels (and each adapter's: dropout, two thin matmuls, the scaling, the add) launched
  from Python, so a fine-tune's step has a floor that does not shrink with the sequence
  (``StateBytes.eager_layers``; ``llm_compute.host_per_micro_batch_s``, whose constants
  benchmarks/finetune_speed.py fits on Qwen's published step times).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from advisor.profile import LossKernel, Optimizer, Precision, Profile, TrainingMethod
from advisor.scaling.layouts.memory import LOGIT_BYTES
from advisor.scaling.layouts.offload import offloaded
from advisor.scaling.layouts.shape import ModelShape
from advisor.scaling.layouts.states import MIXED_16BIT, StateBytes, full_training
from advisor.scaling.optimizer_family import optimizer_of

ADAPTER_SHARE_PER_RANK = 1.5  # adapter parameters per layer parameter, x f r / h
NF4_BYTES = 4.127 / 8.0  # NF4 weights with double-quantised block scales
DEQUANT_BYTES = 0.5 + 2.0  # per frozen 4-bit weight and pass: read it, write its 16-bit copy
DEQUANT_COPY_BYTES = 2.0  # per weight of the layer computing: its dequantised 16-bit copy
UNQUANTISED_BYTES = 2.0  # embedding and output layer of a QLoRA model, kept in 16 bits
HF_LOSS_TENSORS = 3.0  # log-softmax output, its gradient, its input's gradient
HF_LOGIT_BYTES = HF_LOSS_TENSORS * 4.0  # the Trainer's autocast: cross-entropy in fp32
# A chunked loss (training.loss: chunked): the output layer and the loss run a chunk of the
# tokens at a time. torchtune's CEWithChunkedOutputLoss keeps every chunk's 16-bit logits (2
# bytes a logit) and upcasts one chunk of its 8 at a time (the unfused loss's 12 bytes / 8);
# Liger's fused linear cross-entropy, Unsloth's and Cut Cross-Entropy keep less, so this is
# their upper bound. An assumption from the kernels' designs, not a fit.
CHUNKED_LOGIT_BYTES = 2.0 + HF_LOGIT_BYTES / 8.0
def adapter_params(shape: ModelShape, rank: int, share: float) -> float:
    """Parameters of the LoRA adapters (see the module docstring), never above the layers'."""
    layers = shape.layer_params * shape.layers
    return min(ADAPTER_SHARE_PER_RANK * share * rank / shape.hidden, 1.0) * layers


def unquantised_params(shape: ModelShape) -> float:
    """Parameters a QLoRA model keeps in 16 bits: the input embedding and, unless the model
    ties it, the output layer (module docstring). Whether it is tied is read off the count:
    the parameters beyond the layers' ``12 L h^2`` when layers and width are given, between
    one and two ``V h`` (Qwen-7B: 1.28 B beyond, 2 V h = 1.24 B: untied; GPT-2 XL: 84 M,
    V h = 80 M: tied); one ``V h`` when the shape was derived from the count."""
    one = shape.embedding_params
    if not shape.shape_given:
        return min(one, shape.params)
    beyond = shape.params - 12.0 * shape.layers * float(shape.hidden) ** 2
    return min(max(beyond, one), 2.0 * one, shape.params)


def loss_bytes(precision: Precision, hf_loss: bool, loss: LossKernel) -> tuple[float, float]:
    """Bytes per logit the loss keeps, without and under DeepSpeed's engine (module docstring):
    Megatron's fused loss 6; Hugging Face's unfused loss 12 (3 fp32 tensors), 3 x 2 under
    DeepSpeed on a 16-bit model; a chunked loss ``CHUNKED_LOGIT_BYTES`` whatever runs it."""
    if loss == LossKernel.chunked:
        return CHUNKED_LOGIT_BYTES, CHUNKED_LOGIT_BYTES
    if loss == LossKernel.unfused:
        hf_loss = True
    if not hf_loss:
        return LOGIT_BYTES, LOGIT_BYTES
    # DeepSpeed runs a 16-bit model's Hugging Face loss in 16 bits (module docstring)
    return HF_LOGIT_BYTES, HF_LOSS_TENSORS * (2.0 if precision in MIXED_16BIT else 4.0)


@lru_cache(maxsize=256)  # pure: each setting change and option asks it again (frozen result)
def method_states(shape: ModelShape, precision: Precision, optimizer: Optimizer,
                  method: TrainingMethod, rank: int = 16, share: float = 1.0,
                  fine_tuning: bool = False, pure_16bit: bool = False,
                  loss: LossKernel = LossKernel.auto) -> StateBytes:
    """Bytes per parameter of ``method`` on ``shape`` (adapters counted as a share of it)."""
    base = full_training(precision, optimizer, pure_16bit)
    hf_loss = fine_tuning or method != TrainingMethod.full
    logit, zero_logit = loss_bytes(precision, hf_loss, loss)
    if hf_loss:  # the Trainer's autocast keeps no fp32 gradient copy (states.py); its
        # layers are eager modules, launched from Python (the host's time, llm_compute.py)
        base = replace(base, main_grads=False, eager_layers=True)
    if method == TrainingMethod.full:
        return replace(base, logit_bytes=logit, zero_logit_bytes=zero_logit)
    adapters = adapter_params(shape, rank, share)
    f = adapters / shape.params
    qlora = method == TrainingMethod.qlora
    if qlora:
        kept = unquantised_params(shape)
        frozen = (max(shape.params - kept, 0.0) * NF4_BYTES
                  + kept * UNQUANTISED_BYTES) / shape.params
    else:
        frozen = base.weight_bytes
    return replace(base, weight_bytes=frozen + f * base.weight_bytes, trainable_fraction=f,
                   weights_frozen=True, logit_bytes=logit, zero_logit_bytes=zero_logit,
                   dequant_bytes=DEQUANT_BYTES if qlora else 0.0,
                   dequant_copy_bytes=DEQUANT_COPY_BYTES if qlora else 0.0,
                   optimizer_paged=qlora and optimizer != Optimizer.sgd,
                   upcast_params=unquantised_params(shape) if qlora else 0.0)


def states_for(profile: Profile, shape: ModelShape) -> StateBytes:
    """The profile's method, optimizer and offload as bytes per parameter and where they
    live. AMP (autocast) keeps fp32 weights and gradients, as fp32 and tf32 training do."""
    t = profile.training
    states = method_states(shape, t.precision, optimizer_of(profile), t.method, t.lora_rank,
                           t.lora_target_share, t.is_fine_tuning, t.pure_16bit, t.loss)
    return offloaded(states, t.offload)


def model_flops_per_token(shape: ModelShape, states: StateBytes) -> float:
    """Model FLOPs per token (what MFU counts): ``6 P + 12 L h s`` trained in full; with
    frozen weights their weight gradients are not computed (``4 P``) and the adapters add
    ``6`` per trained parameter."""
    if not states.weights_frozen:
        return shape.model_flops_per_token()
    layers, attention, output = shape.forward_flops_per_token()
    return 2.0 * (layers + output) + 3.0 * attention \
        + 3.0 * layers * states.trainable_fraction
