"""Bytes per parameter of the training states, and where they live.

Mixed-precision Adam keeps a 16-bit copy of the weights (2 bytes), 16-bit gradients (2) and
fp32 optimizer states: master weights, momentum and variance (4 + 4 + 4 = 12): the 2/2/12 =
16 bytes of ZeRO (Rajbhandari et al. 2019, Sec. 3.1). Training in fp32 keeps 4-byte weights
and gradients and 8 bytes of moments (the weights are their own master copy). Gradients that
are all-reduced whole also need a full-precision buffer (the "flattened fp32 buffer" of the
ZeRO paper, 4 bytes per parameter; DDP's gradient buckets).

Mixed precision with fp32 master weights also keeps the gradients the optimizer steps on in
fp32 (``master_grad_bytes``, 4 per trained parameter of the optimizer's shard): Megatron-LM's
``main_grad`` buffer, which its gradients accumulate into in place of 16-bit ones and are
all-reduced from, held all along ("bf16 param, fp32 grads: 18 bytes per parameter", its
distributed-optimizer guide: 2 more than 2 + 2 + 12, and no separate all-reduce buffer);
DeepSpeed's fp32 copy of its gradient partition, made at the optimizer step
(stage_1_and_2.py / stage3.py: the flattened 16-bit partition ``.to(fp32)``), when the
activations are gone (memory.py). Megatron's persistent buffer (``main_grads``) is what
pre-training runs keep; a fine-tune runs on the Hugging Face Trainer, whose mixed precision
without DeepSpeed is autocast over fp32 weights and gradients (the same 16 bytes, no copy).

``StateBytes`` is where training methods plug in (``methods.py``: LoRA and QLoRA with most
weights frozen, 8-bit optimizers; ``offload.py``: states offloaded to the host): the memory
and step models read only these numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.profile import Optimizer, Precision

MASTER_GRAD_BYTES = 4.0  # the fp32 gradients mixed precision's fp32 masters step on


@dataclass(frozen=True)
class StateBytes:
    weight_bytes: float = 2.0  # per parameter, the copy the GPU computes with
    grad_bytes: float = 2.0  # per trainable parameter
    optimizer_bytes: float = 12.0  # per trainable parameter (fp32 master + Adam moments)
    grad_buffer_bytes: float = 4.0  # per parameter whose gradients are all-reduced unsharded
    trainable_fraction: float = 1.0  # share of the parameters that is trained
    optimizer_on_gpu: bool = True  # False: optimizer states offloaded to host memory
    weights_on_gpu: bool = True  # False: sharded weights streamed from host memory
    grads_on_gpu: bool = True  # False: reduced gradients copied to host memory (ZeRO-Offload)
    weights_frozen: bool = False  # the base weights take no gradient (LoRA, QLoRA)
    dequant_bytes: float = 0.0  # per frozen weight and pass, to dequantise it (QLoRA)
    logit_bytes: float = 6.0  # per logit of the loss (Megatron's fused cross-entropy: 6)
    # per logit of the loss when DeepSpeed's engine runs the model (ZeRO-1/2/3): the same as
    # ``logit_bytes`` unless the loss is Hugging Face's, which DeepSpeed runs in 16 bits
    zero_logit_bytes: float = 6.0
    # per parameter of one layer, held dequantised while the layer computes (QLoRA)
    dequant_copy_bytes: float = 0.0
    optimizer_paged: bool = False  # optimizer states in unified memory (QLoRA's paged AdamW)
    # fp32 gradients per trained parameter of the optimizer's shard (mixed precision with fp32
    # masters: Megatron's main grads, DeepSpeed's fp32 partition at the step); 0: none
    master_grad_bytes: float = 0.0
    main_grads: bool = False  # the fp32 gradients held all along (Megatron), not only at the step
    # parameters a k-bit model keeps unquantised and PEFT's k-bit preparation casts to fp32
    # (QLoRA's embedding and output layer) where neither DeepSpeed nor FSDP runs (methods.py)
    upcast_params: float = 0.0
    # the layers run as eager PyTorch modules launched from Python kernel by kernel (a
    # fine-tune on Hugging Face Transformers / PEFT): the host's time per layer can outlast
    # the GPU's at short sequences (llm_compute.host_per_micro_batch_s; methods.py)
    eager_layers: bool = False

    @property
    def per_param(self) -> float:
        """Bytes per parameter of weights, gradients and optimizer states together."""
        return (self.weight_bytes + self.trainable_fraction
                * (self.grad_bytes + self.optimizer_bytes))


def mixed_precision_adam(bytes_per_value: float = 2.0) -> StateBytes:
    """Adam with 16-bit compute (2/2/12 bytes), or plain fp32 training (4/4/8)."""
    if bytes_per_value >= 4.0:
        return StateBytes(weight_bytes=4.0, grad_bytes=4.0, optimizer_bytes=8.0)
    return StateBytes(master_grad_bytes=MASTER_GRAD_BYTES, main_grads=True)


MIXED_16BIT = (Precision.fp16, Precision.bf16, Precision.fp8)  # FP8: 16-bit masters
# optimizer state bytes per trained parameter: (16-bit training incl. the fp32 master, fp32)
_OPTIMIZER_BYTES = {Optimizer.adamw: (12.0, 8.0), Optimizer.sgd: (8.0, 4.0),
                    Optimizer.adamw_8bit: (6.0, 2.0)}
# pure 16-bit training: the moments in the weights' dtype, no master copy (AdamW 2 x 2 bytes,
# SGD's momentum 2, 8-bit AdamW 2 x 1)
_PURE_OPTIMIZER_BYTES = {Optimizer.adamw: 4.0, Optimizer.sgd: 2.0, Optimizer.adamw_8bit: 2.0}


def full_training(precision: Precision, optimizer: Optimizer,
                  pure_16bit: bool = False) -> StateBytes:
    """Every weight trained with ``optimizer`` at ``precision``; pure 16-bit training keeps
    no fp32 master copy and the optimizer's moments in the weights' dtype (methods.py)."""
    mixed = precision in MIXED_16BIT
    if pure_16bit and mixed:
        return StateBytes(weight_bytes=2.0, grad_bytes=2.0,
                          optimizer_bytes=_PURE_OPTIMIZER_BYTES[optimizer],
                          grad_buffer_bytes=2.0)
    opt = _OPTIMIZER_BYTES[optimizer][0 if mixed else 1]
    value = 2.0 if mixed else 4.0
    return StateBytes(weight_bytes=value, grad_bytes=value, optimizer_bytes=opt,
                      master_grad_bytes=MASTER_GRAD_BYTES if mixed else 0.0, main_grads=mixed)
