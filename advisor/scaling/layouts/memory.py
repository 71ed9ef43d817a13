"""GPU memory of one GPU under a layout, by component, for many layouts at once.

* States (``states.py``): one pipeline stage's parameters (its layers and, on the first and
  last stage, the tied embedding), split by tensor parallel; ZeRO-1 shards the optimizer
  states over the data-parallel group, ZeRO-2 also the gradients, ZeRO-3 / FSDP also the
  weights; FSDP hybrid shard only over the group's GPUs inside one machine.
* Buffers: unsharded gradients are all-reduced from a full-precision buffer (DDP's buckets,
  the ZeRO paper's fp32 flat buffer); Megatron-LM's fp32 main grads take the 16-bit
  gradients' place and are all-reduced in place, on one GPU too (pre-training with fp32
  masters: 18 bytes per parameter, ``StateBytes.main_grads``); ZeRO-1 and ZeRO-2 reduce
  through fixed buckets of 16-bit gradients (DeepSpeed's 5e8-element reduce and all-gather
  buckets, never more than the gradients they carry: stage 1 runs stage 2's code without
  partitioning the gradients, so no 4-byte buffer per parameter: issue 31, cause 6), and
  make the fp32 copy of their gradient partition at the optimizer step, when activations,
  logits and buckets are gone (the peak is the larger of the two: the copy adds only what it
  needs beyond them); ZeRO-1 in pre-training (Megatron's distributed optimizer, DeepSpeed's
  bf16 optimizer) keeps every parameter's fp32 gradient as its main grads, sharding only the
  optimizer states ("6 + 12 / d bytes"); FSDP holds
  the gathered flat parameter of the layer it computes and of the one it prefetches, plus
  one layer's unsharded gradients (Zhao et al. 2023, Sec. 3.4 and 4.4) and those of the
  layer before, still being reduce-scattered on FSDP's own stream while the next backward
  runs (what makes Llama3-8x70B's FSDP run on 256 H100s out of memory, Liu et al. 2025:
  every MoE layer, all experts gathered, is 5.8 B parameters); DeepSpeed ZeRO-3
  caps its gathered layers (stage3_max_live_parameters 1e9, prefetch bucket 5e7 elements)
  and allocates its 5e8-element reduce bucket when it starts (stage3.py's IPG buffer with
  contiguous_gradients: PEFT's ZeRO-3 offload log shows 1,916 MiB on the GPU before the first
  step, 5e8 fp32 elements being 1,907 MiB). Whatever the live-parameter cap, DeepSpeed
  gathers a module's tensor whole: a layer's largest (a 12 h^2 layer's 4 h^2 MLP matrix,
  ``largest_tensor``) is gathered with the prefetch bucket beside it, and its 16-bit
  gradient, larger than the reduce bucket, is reduce-scattered from the flat copy
  ``reduce_scatter_coalesced`` concatenates (both held with it: GPT 530B's 1.68 B-parameter
  matrix, 10 GB; what makes 560 A100s too few and 640 enough, Narayanan et al. 2021, with the
  usable share the card's reported bytes over the allocator's reserve). While the logits
  are computed, ZeRO-3 and FSDP
  hold the output layer, a single tensor, gathered whole beside what they prefetch for the
  backward pass (DeepSpeed's prefetch bucket, FSDP's next layer): the larger of that and the
  layers in flight. With the parameters offloaded, DeepSpeed ZeRO-3 gathers a tensor by
  copying its partition from host RAM to the GPU and all-gathering that copy into a
  full-size buffer, both held until the gather completes (deepspeed/runtime/zero/
  partition_parameters.py, ``all_gather_coalesced``, in the releases PEFT's runs required,
  v0.8: ``param_buffer = torch.empty(...)`` beside ``param.ds_tensor.to(device)``; without
  offload the partition already lies on the GPU and ``.to`` copies nothing). The output
  layer is the largest tensor gathered while every activation is held: its partition,
  ``V h / (t d)`` parameters over d data-parallel GPUs, is counted beside it. That gather
  meets the logits: in a run's first two steps, before DeepSpeed has recorded its module
  trace, every module's parameters are released right after use (partitioned_param_
  coordinator.py, ``release_sub_module``), so the output layer is gathered again for the
  backward pass, beside the logits and their gradient (once the trace is recorded,
  ``stage3_max_reuse_distance`` keeps it gathered from its forward to its backward). On
  one GPU the partition is the whole layer (bloomz-7b1 in fp32: 4.1 GB twice); later
  releases skip the gather on one GPU (``_no_gather_coalesced``: one copy), which this
  overstates by that layer.
* Activations per layer and micro-batch (Korthikanti et al. 2022, Table 2): ``s b h (34 + 5 a
  s / h)`` bytes at 16 bits, of which ``5 a s^2 b`` are the attention scores a memory-efficient
  (flash) kernel never stores; tensor parallel divides them by t with sequence parallel, else
  ``s b h (10 + 24 / t + 5 a s / (h t))``; selective recomputation keeps no scores; full
  recomputation keeps each layer's input (2 s b h, / t with sequence parallel) plus one
  layer's activations while it is recomputed. The first pipeline stage holds ``min(m, p)``
  micro-batches in flight (1F1B), x ``1 + (p - 1) / (p v)`` interleaved; the last stage
  holds one and the fp32 logits (4 s b V / t) with their 16-bit gradient (2 s b V / t) at the
  start of the backward pass, when every activation is still held.
* The loss's logits: ``StateBytes.logit_bytes`` per logit, ``zero_logit_bytes`` under
  DeepSpeed's engine (ZeRO-1/2/3), which runs a fine-tuned model's loss in 16 bits
  (methods.py).
* QLoRA: the layer computing holds its weights dequantised to 16 bits
  (``StateBytes.dequant_copy_bytes``, in the buffers: GPTQ's training path, Qwen's Q-LoRA
  under DeepSpeed). A model PEFT prepared (outside DeepSpeed and FSDP; GPTQ models are not
  upcast, so bitsandbytes' NF4) dequantises one matrix at a time: ``MatMul4Bit`` multiplies
  by ``dequantize_4bit(B)``, a temporary freed after the matmul, and keeps the 4-bit ``B``
  for the backward pass; the largest such copy (``largest_tensor``) is smaller than the
  output layer's 16-bit autocast copy held through the loss, and is never held beside it
  (issue 31, cause 3: Unsloth's Hugging Face rows, 8B on 12 GB). Outside them, PEFT's
  k-bit preparation keeps the embedding and output layer in fp32 (``upcast_params``, 2 bytes
  more each, in the weights), the output layer's 16-bit autocast copy (in the buffers) and
  the residual stream in fp32 (each kept layer input 2 bytes more, in the activations)
  (methods.py; issue 31, cause 4); paged optimizer states
  (``optimizer_paged``) sit in unified memory and are evicted to host RAM when the card is
  full (bitsandbytes' paged optimizers): counted in ``optimizer`` but not in what must fit
  (``MemoryParts.needed``, ``evicted``). Under DeepSpeed its own optimizer runs: not paged.
* Offloaded states (``offload.py``) leave the GPU for host memory (``MemoryParts.host``).
* A mixture of experts holds every expert: a stage's routed experts are split over the ep
  replicas of its expert-parallel group and its tensor ranks (1 / (t ep) of them per GPU);
  their gradients and optimizer states are sharded by ZeRO over the dp / ep replicas that
  hold the same experts (so ZeRO-1 keeps the same optimizer bytes per GPU whatever ep); fully
  sharded replicas (ep = 1) gather a MoE layer with all its experts. Its layers keep, in
  Korthikanti's units, the attention's 15 and the MoE block's in place of the MLP's 19
  (``ModelShape.moe_mlp_units``: the k routed copies of each token, their gated MLPs, the
  combined output; the busiest expert rank the capacity factor's more).
* Context parallel (``cp``): each GPU holds 1 / cp of every sequence's activations and
  logits; its ranks shard the states with the replicas (``shard_group``: dp x cp GPUs).
* A fixed overhead per GPU (CUDA context and kernels, ``memory_overhead_gb``), and NCCL's
  buffers for each process group the layout forms (``communicators.py``).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from advisor.files.records import record
from advisor.scaling.layouts.cluster import Cluster
from advisor.scaling.layouts.communicators import communicator_bytes
from advisor.scaling.layouts.layout import (
    CK_FULL,
    CK_NONE,
    CK_SELECTIVE,
    FSDP,
    HSDP,
    NONE,
    ZERO1,
    ZERO2,
    ZERO3,
    Candidates,
)
from advisor.scaling.layouts.offload import host_gb
from advisor.scaling.layouts.shape import ModelShape
from advisor.scaling.layouts.states import StateBytes

DEEPSPEED_BUCKET_ELEMENTS = 2 * 5e8  # ZeRO-1/2 reduce_bucket_size + allgather_bucket_size
DEEPSPEED_PREFETCH_ELEMENTS = 5e7  # ZeRO-3 stage3_prefetch_bucket_size
DEEPSPEED_LIVE_ELEMENTS = 1e9 + DEEPSPEED_PREFETCH_ELEMENTS  # + stage3_max_live_parameters
DEEPSPEED_REDUCE_ELEMENTS = 5e8  # ZeRO-3 reduce_bucket_size, allocated when it starts
# The loss keeps fp32 logits (4 s b V / t, Korthikanti et al. 2022 Sec. 4.3); the backward
# pass starts, when every activation is still held, by writing their 16-bit gradient beside
# (``StateBytes.logit_bytes``: Hugging Face's unfused loss keeps more, methods.py).
LOGIT_BYTES = 6.0
UPCAST_BYTES = 2.0  # fp32 over 16-bit, per value (PEFT's k-bit preparation, methods.py)
AUTOCAST_COPY_BYTES = 2.0  # the output layer's 16-bit copy autocast multiplies it through
# the only figures of the cluster that a layout's memory reads (``shared_memory`` keys on them)
MEMORY_FIELDS = ("gpus_per_node", "bytes_per_value", "flash_attention", "nccl_busbw_gbs")


@record
class MemoryParts:
    """GB per GPU, arrays parallel to the candidates; the busiest pipeline stage."""

    weights: np.ndarray
    grads: np.ndarray
    optimizer: np.ndarray
    buffers: np.ndarray
    activations: np.ndarray
    logits: np.ndarray
    overhead: float
    host: np.ndarray | None = None  # offloaded states in host memory (offload.py)
    paged: np.ndarray | None = None  # optimizer states in unified memory (part of optimizer)
    paged_out: np.ndarray | None = None  # of those, GB evicted to host RAM (``evicted``)
    # NCCL's buffers for the layout's process groups (communicators.py): outside PyTorch's
    # allocator, so not in what ``torch.cuda.max_memory_allocated`` reports
    communicators: np.ndarray | float = 0.0

    @property
    def states(self) -> np.ndarray:
        return self.weights + self.grads + self.optimizer

    @property
    def total(self) -> np.ndarray:
        return self.states + self.buffers + self.activations + self.logits + self.overhead \
            + self.communicators

    @property
    def needed(self) -> np.ndarray:
        """What must fit the card: paged optimizer states move to host RAM when it is full."""
        return self.total if self.paged is None else self.total - self.paged


def evicted(mem: MemoryParts, usable_gb: float | np.ndarray) -> MemoryParts:
    """``mem`` with the paged optimizer states that do not fit ``usable_gb`` (one figure, or
    one per row) in host RAM: unified memory keeps them on the GPU while there is room
    (bitsandbytes' paged optimizers)."""
    if mem.paged is None:
        return mem
    out = np.clip(mem.total - np.maximum(usable_gb, 0.0), 0.0, mem.paged)
    host = out if mem.host is None else mem.host + out
    return replace(mem, optimizer=mem.optimizer - out, paged=mem.paged - out, host=host,
                   paged_out=out)


def shard_group(c: Candidates, gpus_per_node: int) -> np.ndarray:
    """GPUs a replica's states are sharded over: the data-parallel group (with its
    context-parallel ranks) for ZeRO and FSDP, its members inside one machine for hybrid
    shard, none otherwise."""
    replicas = c.replicas  # a context-parallel group's ranks hold the same weights
    hybrid = c.sharding == HSDP
    if not hybrid.any():  # the data-parallel group everywhere (the same figures)
        return replicas.astype(float)
    local = np.maximum(gpus_per_node // np.maximum(c.tp * c.pp, 1), 1)
    return np.where(hybrid, np.minimum(replicas, local), replicas).astype(float)


def layer_activation_bytes(shape: ModelShape, c: Candidates, cluster: Cluster,
                           keep_scores: np.ndarray | bool) -> np.ndarray:
    """Bytes one layer keeps for one micro-batch without recomputation (Korthikanti Eq. 1-4)."""
    t = c.tp.astype(float)
    # in floats: a 10-million-token sequence x 16 million x 1 million wide passes 2^63 in
    # int64 and wrapped to a negative size that "fits" (issue 35)
    sbh = float(shape.sequence) * c.micro_batch * shape.hidden
    scores = np.where(keep_scores, 5.0 * shape.heads * shape.sequence / shape.hidden, 0.0)
    if shape.is_moe:  # the MLP's 19 replaced by the MoE block's (2 + 1 of them not split)
        mlp = shape.moe_mlp_units(shape.imbalance(c.ep))
        parallel = np.where(c.sequence_parallel & (c.tp > 1), (15.0 + mlp + scores) / t,
                            10.0 + (5.0 + mlp) / t + scores / t)
    else:
        parallel = np.where(c.sequence_parallel & (c.tp > 1), (34.0 + scores) / t,
                            10.0 + 24.0 / t + scores / t)
    return sbh * parallel * cluster.bytes_per_value / 2.0


def activation_bytes(shape: ModelShape, c: Candidates, cluster: Cluster
                     ) -> tuple[np.ndarray, np.ndarray]:
    """(first stage, last stage) activation bytes per GPU; a context-parallel GPU holds
    1 / cp of each sequence's. (A term no candidate has, full recomputation, a pipeline,
    interleaving, is left out rather than added as zero or multiplied as one: the same
    figures.)"""
    standard = not cluster.flash_attention
    full = c.checkpointing == CK_FULL
    any_full = bool(full.any())
    all_full = any_full and bool(full.all())
    kept = extra = None
    if not all_full:
        keep = (c.checkpointing == CK_NONE) & standard
        kept = per_layer = layer_activation_bytes(shape, c, cluster, keep)
    if any_full:
        working = layer_activation_bytes(shape, c, cluster, standard)  # one layer recomputed
        split = np.where(c.sequence_parallel & (c.tp > 1), c.tp, 1).astype(float)
        inputs = 2.0 * shape.sequence * c.micro_batch * shape.hidden / split \
            * cluster.bytes_per_value / 2.0
        kept = inputs if all_full else np.where(full, inputs, per_layer)
        extra = working if all_full else np.where(full, working, 0.0)
    stage_layers = np.ceil(shape.layers / c.pp)
    last = stage_layers * kept
    if (c.pp > 1).any():
        p = c.pp.astype(float)
        in_flight = np.where(c.pp > 1, np.minimum(c.micro_batches, c.pp), 1).astype(float)
        if (c.interleave > 1).any():
            in_flight = in_flight * np.where(c.interleave > 1,
                                             1.0 + (p - 1.0) / (p * c.interleave), 1.0)
        first = in_flight * stage_layers * kept
    else:  # one micro-batch in flight on every GPU: the first stage is the last
        first = last
    if extra is not None:
        first, last = first + extra, last + extra
    scale = shape.activation_scale / c.cp  # context parallel: 1 / cp of every sequence here
    return first * scale, last * scale


def largest_tensor(shape: ModelShape) -> float:
    """Parameters of a layer's largest weight matrix, before tensor parallel: the MLP's first
    matrix, 4 h^2 of a 12 h^2 layer (a third of the layer; a gated MLP's three matrices take
    about as much each); an MoE layer's outside its routed experts, which are modules of
    their own."""
    return (shape.dense_layer_params if shape.is_moe else shape.layer_params) / 3.0


def _with_experts(shape: ModelShape, c: Candidates, states: StateBytes,
                  expert_stage: np.ndarray | float, group: np.ndarray,
                  parts: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
    """(weights, gradients, optimizer states, local parameters, trainable ones, the largest
    layer gathered) per GPU with a stage's routed experts added: each tensor-parallel rank
    holds 1 / (t ep) of them; their gradients and optimizer states are sharded over the
    ``group / ep`` replicas that hold the same experts (ZeRO-1/2's expert data-parallel
    group); fully sharded replicas (ep = 1) shard them as every weight. A layer gathered whole
    (ZeRO-3, FSDP) is a MoE layer with all its experts."""
    weights, grads, optimizer, stage, layer = parts
    t = c.tp.astype(float)
    experts = expert_stage / (t * c.ep)
    egroup = np.maximum(group / c.ep, 1.0)
    s = c.sharding
    trained = experts * states.trainable_fraction
    expert_weights = experts * states.weight_bytes / np.where(s >= ZERO3, egroup, 1.0)
    if not states.weights_on_gpu:  # offloaded: only the layers in flight (buffers)
        expert_weights = np.where(s >= ZERO3, 0.0, expert_weights)
    weights = weights + expert_weights
    if states.grads_on_gpu:
        grads = grads + trained * states.grad_bytes / np.where(s >= ZERO2, egroup, 1.0)
    if states.optimizer_on_gpu:
        optimizer = optimizer + trained * states.optimizer_bytes / np.where(s >= ZERO1,
                                                                            egroup, 1.0)
    local = stage + experts
    largest = (shape.dense_layer_params + shape.routed_layer_params / c.ep) / t
    return weights, grads, optimizer, local, local * states.trainable_fraction, \
        np.maximum(layer, largest)


def memory_parts(shape: ModelShape, c: Candidates, cluster: Cluster, states: StateBytes,
                 overhead_gb: float) -> MemoryParts:
    """Memory per GPU of every candidate (the larger of the first and last stage)."""
    t = c.tp.astype(float)
    dense_stage, expert_stage = shape.stage_params(c.pp)
    stage = dense_stage / t
    layer = shape.layer_params / t
    group = shard_group(c, cluster.gpus_per_node)
    s = c.sharding
    opt_shard = np.where(s >= ZERO1, group, 1.0)
    grad_shard = np.where(s >= ZERO2, group, 1.0)
    zero3 = s >= ZERO3  # ZeRO-3, FSDP, hybrid shard: the weights sharded
    weight_shard = np.where(zero3, group, 1.0)
    trainable = stage * states.trainable_fraction
    weights = stage * states.weight_bytes / weight_shard
    if not states.weights_on_gpu:  # offloaded (offload.py): only the layers in flight
        weights = np.where(zero3, 0.0, weights)
    grads = trainable * states.grad_bytes / grad_shard if states.grads_on_gpu \
        else np.zeros_like(stage)
    optimizer = trainable * states.optimizer_bytes / opt_shard if states.optimizer_on_gpu \
        else np.zeros_like(stage)
    if shape.is_moe:  # the routed experts: split over ep replicas, sharded over the rest
        weights, grads, optimizer, stage, trainable, layer = _with_experts(
            shape, c, states, expert_stage, group, (weights, grads, optimizer, stage, layer))
    full_buffer = trainable * states.grad_buffer_bytes
    buckets = np.minimum(DEEPSPEED_BUCKET_ELEMENTS * states.grad_bytes, full_buffer)
    replicas = c.replicas
    # ZeRO-3 / FSDP gather each layer whole (in flight, prefetched, its gradients); while the
    # logits are computed, the output layer, one tensor, is gathered whole beside what is
    # prefetched for the backward pass (DeepSpeed's prefetch bucket, FSDP's next layer)
    deepspeed3 = s == ZERO3
    some_deepspeed3 = bool(deepspeed3.any())  # (its terms left out where no candidate runs it)
    layers_in_flight, prefetched = 3.0 * layer, layer
    # PyTorch FSDP reduce-scatters a layer's gradients on a stream of its own while the next
    # layer's backward runs, holding them until the reduce-scatter ends: one more layer of
    # (trained) gradients beside the two gathered and the gradients being computed
    torch_fsdp = s >= FSDP
    if torch_fsdp.any() and states.trainable_fraction > 0.0:
        layers_in_flight = np.where(torch_fsdp, (3.0 + states.trainable_fraction) * layer,
                                    layers_in_flight)
    if some_deepspeed3:
        layers_in_flight = np.where(deepspeed3, np.minimum(layers_in_flight,
                                                           DEEPSPEED_LIVE_ELEMENTS),
                                    layers_in_flight)
        prefetched = np.where(deepspeed3, np.minimum(layer, DEEPSPEED_PREFETCH_ELEMENTS),
                              layer)
    output_layer = shape.embedding_params / t
    # DeepSpeed gathers a module's tensor whole, whatever its live-parameter cap: the largest
    # of a layer (a 12 h^2 layer's 4 h^2 MLP matrix) or the output layer
    biggest = np.maximum(largest_tensor(shape) / t, output_layer)
    if not states.weights_on_gpu:  # its host partition staged on the GPU (docstring)
        output_layer = output_layer + np.where(deepspeed3, output_layer / group, 0.0)
    gathered = np.maximum(layers_in_flight, output_layer + prefetched)
    if some_deepspeed3 and states.weights_on_gpu:
        gathered = np.where(deepspeed3, np.maximum(gathered, biggest + prefetched), gathered)
    if not states.weights_on_gpu:  # the layers in flight, never more than the stage holds
        gathered = np.minimum(gathered, stage)
    # by sharding code: NONE (a buffer when there is a group), ZERO1 and ZERO2 (DeepSpeed's
    # buckets: stage 1 reduces through the same buckets as stage 2), ZERO3, FSDP, HSDP
    replicated = np.where(replicas > 1, full_buffer, 0.0)
    master = trainable * states.master_grad_bytes if states.optimizer_on_gpu \
        else np.zeros_like(stage)
    if states.main_grads and states.optimizer_on_gpu:
        # Megatron's fp32 main grads take the 16-bit gradients' place and are all-reduced in
        # place, on one GPU too: 18 bytes per parameter with Adam (states.py)
        replicated = trainable * max(states.master_grad_bytes - states.grad_bytes, 0.0)
    whole = gathered * states.weight_bytes
    # ZeRO-1 in pre-training (Megatron's distributed optimizer, DeepSpeed's bf16 optimizer
    # under Megatron-DeepSpeed's pipelines): the fp32 gradients of every parameter, sharded
    # only for the step: "bf16 param, fp32 grads: 6 + 12 / d bytes"; else DeepSpeed's stage 1
    zero1 = replicated if states.main_grads and states.optimizer_on_gpu else buckets
    buffers = np.choose(s, [replicated, zero1, buckets, whole, whole, whole])
    streamed = zero3 & (group <= 1) if states.weights_on_gpu else np.zeros(c.size, bool)
    buffers = np.where(streamed, 0.0, buffers)
    if not states.grads_on_gpu:  # gradients leave through the reduction buckets
        buffers = np.where(s <= ZERO2, np.minimum(buckets, buffers), buffers)
    # DeepSpeed ZeRO-3 allocates its reduce bucket up front (stage3.py, contiguous_gradients),
    # on one GPU too, whether or not it has anything to gather there (as ZeRO-2 its buckets)
    if some_deepspeed3:
        buffers = buffers + np.where(deepspeed3, DEEPSPEED_REDUCE_ELEMENTS * states.grad_bytes,
                                     0.0)
        if not states.weights_frozen:  # the biggest tensor's gradient, whole, and the flat
            # copy reduce_scatter_coalesced concatenates it into (a tensor larger than the
            # reduce bucket skips the bucket)
            buffers = buffers + np.where(deepspeed3 & (group > 1),
                                         2.0 * biggest * states.grad_bytes, 0.0)
    # PEFT's k-bit preparation (methods.py): the unquantised layers in fp32 and the output
    # layer's 16-bit autocast copy, where neither DeepSpeed nor FSDP recasts the model
    upcast = (s == NONE) if states.upcast_params else None
    if states.dequant_copy_bytes:  # QLoRA: the layer computing holds its weights dequantised
        # to 16 bits (GPTQ, as Qwen's Q-LoRA under DeepSpeed runs it); a model PEFT prepared
        # (bitsandbytes: GPTQ is not upcast) dequantises one matrix per matmul and frees it
        # (bitsandbytes' MatMul4Bit keeps the 4-bit weight for the backward pass), never
        # beside the output layer's larger 16-bit copy held through the loss (docstring)
        dequant = states.dequant_copy_bytes * layer
        if upcast is not None:
            dequant = np.where(upcast, 0.0, dequant)
        buffers = buffers + dequant
    if upcast is not None:
        weights = weights + np.where(upcast, UPCAST_BYTES * states.upcast_params / t, 0.0)
        transient = states.dequant_copy_bytes * largest_tensor(shape) / t
        buffers = buffers + np.where(upcast, np.maximum(AUTOCAST_COPY_BYTES * output_layer,
                                                        transient), 0.0)
    host = host_gb(stage, trainable, states, opt_shard, grad_shard, weight_shard, zero3,
                   s >= FSDP)
    first, last = activation_bytes(shape, c, cluster)
    if upcast is not None:  # the fp32 residual stream: each kept layer input 2 bytes more
        residual = np.where(upcast, UPCAST_BYTES * float(shape.sequence) * c.micro_batch
                            * shape.hidden * np.ceil(shape.layers / c.pp)
                            * shape.activation_scale / c.cp, 0.0)
        first, last = first + residual, last + residual
    deepspeed = (s >= ZERO1) & (s <= ZERO3)  # ZeRO-1/2/3: its engine runs the loss
    per_logit = np.where(deepspeed, states.zero_logit_bytes, states.logit_bytes)
    # a per-token estimate too (a measured run corrects it); a context-parallel GPU holds the
    # logits of its 1 / cp of the tokens
    logits = per_logit * shape.sequence * c.micro_batch * shape.vocab / t \
        * shape.activation_scale / c.cp
    # the busiest stage: the first (most micro-batches in flight) or the last (the logits)
    piped = c.pp > 1
    if piped.any():
        last_total = last + logits
        first_is_larger = piped & (first >= last_total)
        act = np.where(piped, np.where(first_is_larger, first, last), first)
        logit = np.where(first_is_larger, 0.0, logits)
    else:  # one stage: its activations and its logits (the same figures)
        act, logit = first, logits
    # DeepSpeed's fp32 copy of the gradient partition exists at the optimizer step, when the
    # activations, logits and buckets are gone: it adds what it needs beyond them
    if states.master_grad_bytes and deepspeed.any():
        step_copy = np.where(deepspeed & ~((s == ZERO1) & states.main_grads), master / opt_shard,
                             0.0)
        buffers = buffers + np.maximum(step_copy - (buffers + act + logit), 0.0)
    # paged AdamW (QLoRA) unless DeepSpeed's optimizer runs (memory.py docstring)
    paged = np.where(deepspeed, 0.0, optimizer) if states.optimizer_paged else None
    gb = 1e-9
    return MemoryParts(weights=weights * gb, grads=grads * gb, optimizer=optimizer * gb,
                       buffers=buffers * gb, activations=act * gb, logits=logit * gb,
                       overhead=overhead_gb, host=host * gb,
                       paged=None if paged is None else paged * gb,
                       communicators=communicator_bytes(c, cluster.gpus_per_node,
                                                        cluster.nccl_busbw_gbs) * gb)


__all__ = ["CK_FULL", "CK_NONE", "CK_SELECTIVE", "MemoryParts", "evicted", "memory_parts",
           "shard_group"]
