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
  machine.
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
    placed tensor-parallel first, then pipeline, then data parallel (Megatron-LM's order)."""
    model = (c.tp * c.pp).astype(float)
    per_node = float(gpus_per_node)
    local = np.where(model <= per_node, np.minimum(c.dp, np.floor(per_node / model)), 1.0)
    local = np.maximum(local, 1.0)
    gpus_here = np.minimum(c.tp * c.pp * c.dp, per_node)
    return local, np.maximum(gpus_here / local, 1.0)


def traffic(shape: ModelShape, c: Candidates, cluster: Cluster,
            grad_reduce_bytes: float, trainable_fraction: float = 1.0) -> Traffic:
    """The collectives of every candidate; with most weights frozen (LoRA) only the trained
    share's gradients are reduced and its updated weights gathered after the step, while
    ZeRO-3 / FSDP still gather every weight for each pass."""
    t = c.tp.astype(float)
    b = c.micro_batch.astype(float)
    value = cluster.bytes_per_value
    per_node = cluster.gpus_per_node
    # tensor parallel, inside one machine (a group larger than a machine shares its adapters)
    act = b * shape.sequence * shape.hidden * value
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
    if staged.any():
        # pipeline: every GPU sends 2 messages per micro-batch and model chunk
        across = c.tp * c.pp > per_node
        p2p_bw = np.where(across, cluster.busbw_node_gbs / per_node,
                          cluster.busbw_intra_gbs) * 1e9
        send = act / t / np.where(p2p_bw > 0, p2p_bw, np.inf) + np.where(
            across, cluster.latency_inter_s, cluster.latency_intra_s)
        pp = np.where(staged, 2.0 * c.micro_batches * c.interleave * send, 0.0)
    # data parallel
    stage_params = (shape.layer_params * stage_layers + shape.embedding_params) / t
    local, concurrent = data_group_placement(c, per_node)
    dp = c.dp.astype(float)
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
    return Traffic(tp_per_micro_batch=tp, pp_per_step=pp,
                   grads_per_step=np.where(one_replica, 0.0, grads_step),
                   exposed_per_step=np.where(one_replica, 0.0, exposed),
                   shard_per_micro_batch=np.where(one_replica, 0.0, shard_mb),
                   network_bytes_per_step=np.where(one_replica, 0.0, net))
