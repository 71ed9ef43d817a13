"""The collectives each layout runs, and how long they take on the cluster (# F07, # F08).

A collective over a group of G GPUs, l of them in each machine (k = G / l machines), runs as a
ring inside each machine and between machines. Per byte of the full tensor: an all-gather or
reduce-scatter moves ``(l-1)/l`` over the machine's fabric and ``(k-1)/k`` through its network
adapters; an all-reduce twice that. A machine's adapters carry every group it belongs to at
once: with tensor parallel, the t ranks of a machine run t data-parallel all-reduces of 1/t
of the gradients each, so the machine still sends the whole model's gradients (the t-fold
saving a per-rank view would count is not there).

Per layout:
* tensor parallel: per layer and micro-batch two all-reduces forward and two backward of the
  layer's activations (``b s h`` values; Megatron-LM), two more when the forward pass is
  recomputed; never hidden behind compute;
* pipeline parallel: each micro-batch sends its activations forward and their gradients back
  at every stage boundary (1/t of them per GPU: Megatron's scatter/gather);
* data parallel: the gradients are all-reduced once per optimizer step (ZeRO-1: reduce-scatter
  + all-gather of the updated weights, the same volume; ZeRO-2 reduce-scatters every
  micro-batch); ZeRO-3 / FSDP gather the weights before the forward and the backward pass of
  every micro-batch and reduce-scatter the gradients after it (Rajbhandari et al. 2019: 1.5x
  the all-reduce volume), hybrid shard inside one machine plus an all-reduce of each shard's
  gradients between machines (a recomputed forward pass runs inside the backward pass's
  gather). DeepSpeed's ZeRO-3 as Narayanan et al. 2021 measured it (Table 2): its
  per-parameter gathers on the world group cross the network once per GPU, not once per
  machine. A context-parallel group's ranks hold the same weights: their gradients are
  reduced with the replicas' (a group of dp x cp GPUs);
* context parallel: per layer and micro-batch each rank reads the keys and values of the
  sequence's other 1 - 1/cp (ring attention passes them around the cp ranks; Llama 3
  all-gathers them): ``(cp - 1) / cp`` of ``2 b s h_kv`` values forward (K and V; h_kv the
  key / value width, grouped-query attention's fewer heads), twice that backward (the keys
  and values again and their gradients back), once more with the forward recomputed. Its
  ranks sit next to the tensor-parallel ones (Megatron-LM's tp-cp-dp-pp order): inside a
  machine while t x cp fits it, else through the machine's adapters, which all its GPUs'
  groups share. Ring attention overlaps each pass with the attention of the block it
  already holds (step.py).
"""

from __future__ import annotations

import numpy as np

from advisor.files.records import record
from advisor.scaling.layouts.cluster import Cluster
from advisor.scaling.layouts.layout import (
    CK_FULL,
    FSDP,
    HSDP,
    NONE,
    SHARDING,
    ZERO1,
    ZERO2,
    ZERO3,
    Candidates,
)
from advisor.scaling.layouts.memory import shard_group
from advisor.scaling.layouts.shape import ModelShape


@record
class Traffic:
    """Seconds, arrays parallel to the candidates."""

    tp_per_micro_batch: np.ndarray  # exposed: on the critical path of every micro-batch
    pp_per_step: np.ndarray  # stage-boundary sends (exposed)
    grads_per_step: np.ndarray  # gradient reduction once per step (hides behind the backward)
    exposed_per_step: np.ndarray  # once per step, never hidden (weights gathered after the step)
    shard_per_micro_batch: np.ndarray  # gathers / reduce-scatters overlapping each micro-batch
    network_bytes_per_step: np.ndarray  # through one machine's adapters, per step
    # expert all-to-alls, exposed on every micro-batch (a mixture of experts split by ep)
    a2a_per_micro_batch: np.ndarray | float = 0.0
    # context parallel's key / value exchange per micro-batch (before overlap: step.py)
    cp_per_micro_batch: np.ndarray | float = 0.0


class Ring:
    """Ring collectives over groups of ``group`` GPUs, ``local`` of them in each machine (k =
    group / local machines), ``concurrent`` such groups sharing one machine's adapters: the
    placement and the hops every collective over these groups shares, computed once."""

    def __init__(self, group: np.ndarray, local: np.ndarray, concurrent: np.ndarray,
                 cluster: Cluster) -> None:
        group = np.maximum(group, 1.0)
        self.local = np.clip(local, 1.0, group)
        self.nodes = np.maximum(group / self.local, 1.0)
        self.across = self.nodes > 1
        self.some_across = bool(self.across.any())
        self.concurrent = concurrent
        self.cluster = cluster
        self.hops = np.log2(self.local) * cluster.latency_intra_s \
            + np.log2(self.nodes) * cluster.latency_inter_s

    def collective_s(self, size: np.ndarray, passes: float,
                     per_gpu_network: np.ndarray | None = None
                     ) -> tuple[np.ndarray, np.ndarray]:
        """(seconds, bytes through one machine's adapters) of a ring collective: ``passes`` = 1
        for an all-gather or reduce-scatter of ``size`` bytes, 2 for an all-reduce.
        ``per_gpu_network``: where every member crosses the network itself (no sharing of
        what a machine already received)."""
        cluster = self.cluster
        intra = passes * (self.local - 1.0) / self.local * size \
            / (cluster.busbw_intra_gbs * 1e9)
        if not self.some_across:  # every group inside one machine: nothing crosses
            zero = np.zeros_like(intra)
            return intra + zero + passes * self.hops, zero
        through = passes * (self.nodes - 1.0) / self.nodes * size * self.concurrent
        if per_gpu_network is not None:
            through = through * np.where(per_gpu_network, self.local, 1.0)
        bw = cluster.busbw_node_gbs * 1e9
        inter = np.where(self.across, through / bw if bw > 0 else np.inf, 0.0)
        return intra + inter + passes * self.hops, np.where(self.across, through, 0.0)


def data_group_placement(c: Candidates, gpus_per_node: int) -> tuple[np.ndarray, np.ndarray]:
    """(members of one data-parallel group per machine, such groups per machine). Ranks are
    placed tensor-parallel first, then context, pipeline and data parallel (Megatron-LM's
    order); the group is the replicas with their context-parallel ranks."""
    model = (c.tp * c.pp).astype(float)
    per_node = float(gpus_per_node)
    local = np.where(model <= per_node, np.minimum(c.replicas, np.floor(per_node / model)),
                     1.0)
    local = np.maximum(local, 1.0)
    gpus_here = np.minimum(c.gpus, per_node)
    return local, np.maximum(gpus_here / local, 1.0)


def context_s(shape: ModelShape, c: Candidates, cluster: Cluster
              ) -> tuple[np.ndarray, np.ndarray]:
    """(seconds per micro-batch, bytes through one machine's adapters per step) of context
    parallel's key / value exchange (module docstring), 0 where cp = 1."""
    cp = c.cp.astype(float)
    if not (cp > 1).any():
        zero = np.zeros(c.size)
        return zero, zero
    t = c.tp.astype(float)
    kv_width = shape.hidden * (shape.kv_heads or shape.heads) / shape.heads
    kv = 2.0 * c.micro_batch * float(shape.sequence) * kv_width * cluster.bytes_per_value / t
    per_node = cluster.gpus_per_node
    local = np.clip(np.floor(per_node / t), 1.0, cp)  # context ranks in one machine
    gpus_here = np.minimum(c.gpus, per_node).astype(float)
    ring = Ring(cp, local, np.maximum(gpus_here / local, 1.0), cluster)
    one, net = ring.collective_s(kv, 1.0)  # one layer's keys and values, once
    passes = np.where(c.checkpointing == CK_FULL, 4.0, 3.0) * np.ceil(shape.layers / c.pp)
    return (np.where(cp > 1, passes * one, 0.0),
            np.where(cp > 1, passes * net * c.micro_batches, 0.0))


def traffic(shape: ModelShape, c: Candidates, cluster: Cluster,
            grad_reduce_bytes: float, trainable_fraction: float = 1.0) -> Traffic:
    """The collectives of every candidate; with most weights frozen (LoRA) only the trained
    share's gradients are reduced and its updated weights gathered after the step, while
    ZeRO-3 / FSDP still gather every weight for each pass."""
    t = c.tp.astype(float)
    b = c.micro_batch.astype(float)
    value = cluster.bytes_per_value
    per_node = cluster.gpus_per_node
    # tensor parallel, inside one machine (a group larger than a machine shares its adapters);
    # a context-parallel rank holds 1 / cp of each sequence's tokens
    act = b * shape.sequence * shape.hidden * value / c.cp
    stage_layers = np.ceil(shape.layers / c.pp)
    tp, pp = np.zeros(c.size), np.zeros(c.size)  # computed where some candidate splits so
    split, staged = c.tp > 1, c.pp > 1
    if split.any():
        tp_bw = np.where(c.tp <= per_node, cluster.busbw_intra_gbs,
                         cluster.busbw_node_gbs / per_node) * 1e9
        exchanges = np.where(c.checkpointing == CK_FULL, 6.0, 4.0)
        tp = np.where(split, exchanges * stage_layers * (
            2.0 * (t - 1.0) / t * act / tp_bw + 2.0 * np.log2(t) * cluster.latency_intra_s),
            0.0)
        if shape.is_moe and (c.ep > 1).any():
            # split experts keep the tensor split (expert tensor parallel = t): the tokens an
            # expert rank receives are gathered over its tensor group and reduce-scattered
            # back (Liu et al. 2025, Sec. 3.3), k x capacity factor times the dense MLP's
            # exchange: half of a MoE layer's exchanges move that much more
            routed = shape.experts_per_token * shape.imbalance(c.ep) - 1.0
            more = exchanges / 2.0 * shape.stage_moe_layers(c.pp) * routed * 2.0 * (t - 1.0) \
                / t * act / tp_bw
            tp = tp + np.where(split & (c.ep > 1), more, 0.0)
    if staged.any():
        # pipeline: every GPU sends 2 messages per micro-batch and model chunk
        across = c.tp * c.cp * c.pp > per_node
        p2p_bw = np.where(across, cluster.busbw_node_gbs / per_node,
                          cluster.busbw_intra_gbs) * 1e9
        send = act / t / np.where(p2p_bw > 0, p2p_bw, np.inf) + np.where(
            across, cluster.latency_inter_s, cluster.latency_intra_s)
        pp = np.where(staged, 2.0 * c.micro_batches * c.interleave * send, 0.0)
    # data parallel
    dense_stage, expert_stage = shape.stage_params(c.pp)
    stage_params = dense_stage / t
    apart = c.ep > 1
    if shape.is_moe:  # experts on every replica travel with the rest; split ones apart
        stage_params = stage_params + np.where(apart, 0.0, expert_stage / t)
    local, concurrent = data_group_placement(c, per_node)
    dp = c.replicas.astype(float)  # the replicas and their context-parallel ranks
    s = c.sharding
    grads = stage_params * grad_reduce_bytes * trainable_fraction
    weights = stage_params * value
    ring = Ring(dp, local, concurrent, cluster)
    m = c.micro_batches.astype(float)
    zero = np.zeros_like(dp)
    one_replica = dp <= 1
    # the shardings run: only their collectives are computed
    present = np.bincount(s, minlength=len(SHARDING)) > 0
    # each sharding code's figure (NONE, ZERO1, ZERO2, ZERO3, FSDP, HSDP), zero where it
    # runs no such collective
    grads_by = [zero] * len(SHARDING)
    exposed_by = [zero] * len(SHARDING)
    shard_by = [zero] * len(SHARDING)
    net_by = [zero] * len(SHARDING)
    if present[NONE]:
        grads_by[NONE], net_by[NONE] = ring.collective_s(grads, 2.0)
    if present[ZERO1] or present[ZERO2]:
        scatter, scatter_net = ring.collective_s(grads, 1.0)
        gather, gather_net = ring.collective_s(weights * trainable_fraction, 1.0)
        grads_by[ZERO1], shard_by[ZERO2] = scatter, scatter
        exposed_by[ZERO1] = exposed_by[ZERO2] = gather
        net_by[ZERO1] = scatter_net + gather_net
        net_by[ZERO2] = m * scatter_net + gather_net
    if present[ZERO3] or present[FSDP]:
        gathers = 2.0  # forward and backward; a recomputed forward runs inside the backward's
        deepspeed = s == ZERO3
        sharded_gather, sharded_gather_net = ring.collective_s(weights, 1.0, deepspeed)
        sharded_scatter, sharded_scatter_net = ring.collective_s(grads, 1.0, deepspeed)
        shard_by[ZERO3] = shard_by[FSDP] = gathers * sharded_gather + sharded_scatter
        net_by[ZERO3] = net_by[FSDP] = m * (gathers * sharded_gather_net + sharded_scatter_net)
    if present[HSDP]:
        # hybrid shard: gathers inside the machine, shard gradients all-reduced between
        # machines
        group = shard_group(c, per_node)
        inside_ring = Ring(group, group, np.ones_like(dp), cluster)
        inside, _ = inside_ring.collective_s(weights, 1.0)
        inside_rs, _ = inside_ring.collective_s(grads, 1.0)
        replicas = dp / group
        grads_by[HSDP], net_by[HSDP] = Ring(replicas, np.ones_like(dp), concurrent * local,
                                            cluster).collective_s(grads / group, 2.0)
        shard_by[HSDP] = 2.0 * inside + inside_rs
    grads_step, exposed, shard_mb, net = (np.choose(s, by) for by in
                                          (grads_by, exposed_by, shard_by, net_by))
    a2a = np.zeros(c.size)
    if shape.is_moe and apart.any():
        expert_grads, expert_exposed, expert_shard, expert_net = _expert_replicas(
            c, cluster, expert_stage / (t * c.ep) * grad_reduce_bytes * trainable_fraction,
            expert_stage / (t * c.ep) * value * trainable_fraction)
        grads_step = grads_step + np.where(apart, expert_grads, 0.0)
        exposed = exposed + np.where(apart, expert_exposed, 0.0)
        shard_mb = shard_mb + np.where(apart, expert_shard, 0.0)
        net = net + np.where(apart, expert_net, 0.0)
        a2a, a2a_net = all_to_all(shape, c, cluster)
        net = net + a2a_net
    context, context_net = context_s(shape, c, cluster)
    return Traffic(tp_per_micro_batch=tp, pp_per_step=pp,
                   grads_per_step=np.where(one_replica, 0.0, grads_step),
                   exposed_per_step=np.where(one_replica, 0.0, exposed),
                   shard_per_micro_batch=np.where(one_replica, 0.0, shard_mb),
                   network_bytes_per_step=np.where(one_replica, 0.0, net) + context_net,
                   a2a_per_micro_batch=a2a, cp_per_micro_batch=context)


def expert_placement(c: Candidates, gpus_per_node: int) -> tuple[np.ndarray, np.ndarray]:
    """(members of one expert-parallel group in a machine, members of one expert
    data-parallel group in a machine). Megatron-Core orders its ranks tensor, context,
    expert, data, pipeline parallel (``--rank-order tp-cp-ep-dp-pp``): an expert group takes
    the tensor groups next to each other, inside one machine while t x ep fits it; the
    replicas holding the same experts are every (t x ep)-th rank."""
    t, ep = c.tp.astype(float), c.ep.astype(float)
    per_tp = np.maximum(np.floor(gpus_per_node / t), 1.0)
    inside = np.minimum(ep, per_tp)
    replicas = np.clip(np.floor(gpus_per_node / (t * ep)), 1.0, np.maximum(c.dp / ep, 1.0))
    return inside, replicas


def _expert_replicas(c: Candidates, cluster: Cluster, grads: np.ndarray, weights: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(gradient reduction per step, gathers after the step, reduce-scatters per micro-batch,
    bytes through one machine's adapters per step) of split experts (plain or ZeRO-1/2
    replicas), as the rest's (``traffic``) but among the dp / ep replicas that hold the same
    experts (``expert_placement``), all of a machine's GPUs sharing its adapters."""
    _, local = expert_placement(c, cluster.gpus_per_node)
    gpus_here = np.minimum(c.gpus, cluster.gpus_per_node).astype(float)
    ring = Ring(c.dp / c.ep, local, np.maximum(gpus_here / local, 1.0), cluster)
    m = c.micro_batches.astype(float)
    s = c.sharding
    reduce, reduce_net = ring.collective_s(grads, 2.0)
    scatter, scatter_net = ring.collective_s(grads, 1.0)
    gather, gather_net = ring.collective_s(weights, 1.0)
    plain, zero2 = s == NONE, s == ZERO2
    grads_s = np.where(plain, reduce, np.where(zero2, 0.0, scatter))
    exposed = np.where(plain, 0.0, gather)
    shard = np.where(zero2, scatter, 0.0)
    net = np.where(plain, reduce_net, np.where(zero2, m * scatter_net, scatter_net)
                   + gather_net)
    return grads_s, exposed, shard, net


def all_to_all(shape: ModelShape, c: Candidates, cluster: Cluster
               ) -> tuple[np.ndarray, np.ndarray]:
    """(seconds per micro-batch, bytes through one machine's adapters per step) of the expert
    all-to-alls: per MoE layer the tokens are dispatched to their experts and combined back,
    forward and backward (4; 6 with the forward recomputed), each moving a GPU's tokens x
    hidden x bytes x experts per token (its sequence-parallel share, b s / t), times the
    capacity factor on the busiest rank. Of a rank's ep - 1 peers, the expert group's members
    in its machine (``expert_placement``) are reached over the machine's fabric, the rest
    through its network adapters, which all the machine's GPUs share; both go at once. Never
    hidden behind compute (as the tensor-parallel exchange)."""
    t = c.tp.astype(float)
    ep = c.ep.astype(float)
    tokens = c.micro_batch.astype(float) * shape.sequence / (t * c.cp)
    payload = tokens * shape.hidden * cluster.bytes_per_value * shape.experts_per_token \
        * shape.imbalance(c.ep)
    inside, _ = expert_placement(c, cluster.gpus_per_node)
    intra = payload * (inside - 1.0) / ep / (cluster.busbw_intra_gbs * 1e9)
    remote = payload * (ep - inside) / ep
    gpus_here = np.minimum(c.gpus, cluster.gpus_per_node).astype(float)
    bw = cluster.busbw_node_gbs * 1e9
    across = ep > inside
    inter = np.where(across, remote * gpus_here / bw if bw > 0 else np.inf, 0.0)
    latency = np.log2(np.maximum(inside, 1.0)) * cluster.latency_intra_s \
        + np.log2(np.maximum(ep / inside, 1.0)) * cluster.latency_inter_s
    exchanges = np.where(c.checkpointing == CK_FULL, 6.0, 4.0) * shape.stage_moe_layers(c.pp)
    seconds = np.where(ep > 1, exchanges * (np.maximum(intra, inter) + latency), 0.0)
    net = np.where(across, exchanges * remote * gpus_here * c.micro_batches, 0.0)
    return seconds, net
