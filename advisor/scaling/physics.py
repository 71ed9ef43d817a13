"""The data-parallel step-time model: ``speedup(N; inputs, params)`` from physical inputs only.

Step time on N GPUs (one step = every GPU processes its own batch once):

    t(N) = t_compute(N) + exposed gradient exchange + input-pipeline stall + straggler wait

* compute: the single-GPU step time, slowed by vGPU sharing and thermal throttling; its
  optimizer update is paid once per optimizer step and its fixed part (launches) does not
  shrink with a smaller per-GPU batch;
* gradient exchange: ring all-reduce over the machine's fabric and, across machines, the
  network (the slowest link of NCCL's rings: ``2(n-1)/n x bytes / busbw`` on each tier) plus
  a per-bucket latency; a fraction of it hides behind the backward pass (# F07);
* input pipeline: the slowest data loader holds up the step; its expected delay grows with
  log2 N (# F28), and a starved loader caps the node's throughput (the exchange between
  machines still adds on top of that cap);
* sharded embeddings (DLRM-style recommenders): an all-to-all of looked-up vectors each step;
* stragglers: the step waits for the slowest GPU. Only what varies per step delays one: a
  step of b variable-size samples jitters by cv_sample / sqrt(b) (image sizes, sequence
  lengths, proposals), fixed-size inputs (crops, volumes, packed sequences) only by the
  system's own step noise, a share of the step (clocks) plus a fixed time on the host
  (scheduling, the framework's Python, launches), which a short step feels most: where each
  GPU has little work per step; the expected maximum of N draws grows like sqrt(2 ln N).
* gradient accumulation (k micro-batches per optimizer step): the exchange, the coordination
  and the wait for the slowest GPU happen once per k micro-batches; times are per micro-batch.

Alternating training (GAN/RL) then caps the parallel fraction Amdahl-style (# F03, # F21).
Everything is vectorised over N, so a 1...64 GPU projection is a handful of numpy operations.
"""

from __future__ import annotations

from dataclasses import field

import numpy as np

from advisor.files.records import record
from advisor.scaling.parameters import ScalingParams


@record
class DataParallelInputs:
    """What a user knows about one data-parallel job, in physical units."""

    params_millions: float
    grad_bytes_per_param: float  # 4 for fp32 gradients (AMP keeps them), 2 for fp16/bf16
    step_compute_s: float  # one training step on one GPU at the per-GPU batch
    gpus_per_node: int
    busbw_intra_gbs: float  # achievable all-reduce busbw inside a node (<= 4 GPUs)
    busbw_pair_gbs: float | np.ndarray | None = None  # NVLink-bridged pairs: busbw inside a pair
    busbw_inter_gbs: float = 0.0  # per node (NICs x per-NIC busbw); 0 = one node only
    latency_intra_s: float = 10e-6
    latency_inter_s: float = 30e-6
    multi_socket_pcie: bool = False  # > 4 GPUs on PCIe span two root complexes
    comm_volume_factor: float = 1.0  # 1.5 for ZeRO-3 / FSDP
    pipeline_stall: float = 0.0  # input-pipeline stall coefficient (per log2 N)
    # starved loader: samples per node, in single-GPU steps (per N for tensor-parallel groups)
    loader_capacity: float | np.ndarray | None = None
    alternating_fraction: float = 0.0  # serial share of alternating training (GAN/RL)
    vgpus_per_physical: float = 1.0
    throttle_per_card: float = 0.0  # clock loss per extra card in a node (open-air packing)
    throttle_fixed: float = 0.0  # clock loss with several cards (measured > 84 degC)
    batch_scale: np.ndarray | float = field(default=1.0)  # per-GPU batch at N / at 1
    batch_per_gpu: float | np.ndarray = 32.0  # samples per GPU at the baseline (jitter)
    # CPU time a default loader spends per sample on one GPU's behalf (decode, augment); the
    # stall is a share of this work, never of a long GPU step (# F28). inf: step-bound only.
    loader_s_per_sample: float | np.ndarray = np.inf
    # DLRM-style recommenders: embedding tables sharded across GPUs (model parallel); each
    # sample's looked-up vectors cross an all-to-all forward and their gradients backward.
    # 0: no sharded embeddings (params_millions is then every parameter, all-reduced).
    embedding_bytes_per_sample: float = 0.0
    # Gradient accumulation: micro-batches (of batch_per_gpu samples each) per optimizer step.
    # The all-reduce, the per-step coordination and the wait for the slowest GPU happen once
    # per optimizer step, so each costs a micro-batch 1/k of itself (stragglers 1/sqrt(k): the
    # k micro-batches' jitter averages out). Scalar or one value per GPU count (a global batch
    # held fixed by accumulation: fewer steps on more GPUs).
    accumulation_steps: float | np.ndarray = 1.0
    # ... at the single-GPU step that step_compute_s measures (its optimizer share is 1/k0)
    accumulation_baseline: float | np.ndarray = 1.0
    # 1: the work per sample varies from step to step (image sizes, sequence lengths); 0:
    # fixed-size inputs (crops, volumes, packed sequences) whose steps barely jitter
    variable_inputs: float | np.ndarray = 1.0
    # one optimizer update on one GPU (memory-bound), part of every optimizer step; with
    # accumulation a micro-batch carries 1/k of it
    optimizer_step_s: float | np.ndarray = 0.0


@record
class StepBreakdown:
    """Per-N components of the step time, seconds; arrays parallel to ``gpus``."""

    gpus: np.ndarray
    nodes: np.ndarray
    compute_s: np.ndarray
    comm_s: np.ndarray  # exposed (non-overlapped) gradient exchange
    stall_s: np.ndarray
    sync_s: np.ndarray
    sharing_s: np.ndarray  # part of compute lost to vGPU sharing
    throttle_s: np.ndarray
    step_s: np.ndarray
    alternating_loss: np.ndarray  # speed-up lost to alternating training, as a ratio >= 1
    speedup: np.ndarray
    # the part of sync_s that is per-step coordination traffic (small all-reduces), i.e.
    # communication; the rest of sync_s is waiting for the slowest GPU (stragglers)
    coordination_s: np.ndarray | None = None


def allreduce_time_s(gpus: np.ndarray, gpus_per_node: np.ndarray | int, grad_bytes,
                     busbw_intra_gbs, busbw_inter_gbs, latency_intra_s, latency_inter_s,
                     bucket_bytes: float, busbw_pair_gbs=None) -> np.ndarray:
    """Ring all-reduce of ``grad_bytes`` per step over the machine's fabric and the network;
    the slowest tier dominates (# F07).

    The inter-node tier carries ``2(n-1)/n`` of the bytes (n GPUs in all) through each node's
    adapters, which cannot outrun the node's own fabric: its busbw is capped by the intra-node
    one. That cap makes k nodes never faster than one node of the same GPUs.
    NVLink-bridged pairs (# F25) reduce inside each pair first, then across pairs over PCIe.
    Every argument may be a scalar or an array broadcastable to ``gpus`` (used by the fit).
    """
    n = np.asarray(gpus, dtype=float)
    nodes = np.ceil(n / gpus_per_node)
    local = np.minimum(n, gpus_per_node)
    bw_intra = np.asarray(busbw_intra_gbs, dtype=float) * 1e9
    intra = 2.0 * (local - 1.0) / local * grad_bytes / bw_intra
    if busbw_pair_gbs is not None:
        pair_bw = np.asarray(busbw_pair_gbs, dtype=float) * 1e9
        has_pair = np.isfinite(pair_bw) & (pair_bw > 0)
        pair_s = grad_bytes / np.where(has_pair, pair_bw, 1.0)
        pairs = np.maximum(local / 2.0, 1.0)
        bridged = np.where(local <= 2, 2.0 * (local - 1.0) / local * pair_s,
                           pair_s + 2.0 * (pairs - 1.0) / pairs * grad_bytes / bw_intra)
        intra = np.where(has_pair, np.minimum(bridged, intra), intra)  # NCCL picks the faster
    inter_bw = np.minimum(np.asarray(busbw_inter_gbs, dtype=float) * 1e9, bw_intra)
    # F08 / F32: across machines the network tier dominates; 8 -> 16 GPUs over Ethernet adds
    # little or loses, and one 8-GPU node beats two 4-GPU nodes. NCCL's rings (and trees)
    # run through every GPU, the network being the slowest link of each: every node's
    # adapters carry 2(n-1)/n of the bytes for n GPUs in all (a two-level scheme that
    # reduces inside machines first would move 2(k-1)/k for k machines, 1 instead of 1.75
    # for 2 x 4 GPUs: Horovod's hierarchical all-reduce, not NCCL's default).
    inter = np.where(nodes > 1, 2.0 * (n - 1.0) / n * grad_bytes
                     / np.where(inter_bw > 0, inter_bw, np.inf), 0.0)
    inter = np.where((nodes > 1) & ~(inter_bw > 0), np.inf, inter)
    buckets = np.maximum(1.0, np.ceil(grad_bytes / bucket_bytes))
    latency = buckets * (latency_intra_s * np.log2(local)
                         + latency_inter_s * np.log2(np.maximum(nodes, 1.0)))
    return intra + inter + latency


def embedding_alltoall_s(n: np.ndarray, local: np.ndarray, samples: np.ndarray,
                         bytes_per_sample: float, busbw_intra_gbs, busbw_inter_gbs,
                         latency_intra_s: float, latency_inter_s: float):
    """All-to-all of looked-up embedding vectors (forward) and their gradients (backward) when
    the tables are sharded one slice per GPU (DLRM, TorchRec): of each GPU's batch, the share
    (local-1)/n of the lookups lives on other GPUs of its machine, (n-local)/n on other
    machines, whose NICs carry that traffic for all ``local`` GPUs at once.
    Returns (total seconds per step, the part between machines)."""
    payload = 2.0 * samples * bytes_per_sample  # forward vectors + backward gradients
    intra = np.where(local > 1, payload * (local - 1.0) / n / (np.asarray(busbw_intra_gbs)
                                                               * 1e9)
                     + 2.0 * latency_intra_s * np.log2(np.maximum(local, 1.0)), 0.0)
    inter_bw = np.asarray(busbw_inter_gbs, dtype=float) * 1e9
    remote = np.maximum(n - local, 0.0) / n
    inter = np.where(n > local, payload * local * remote / np.where(inter_bw > 0, inter_bw,
                                                                     np.inf)
                     + 2.0 * latency_inter_s, 0.0)
    inter = np.where((n > local) & ~(inter_bw > 0), np.inf, inter)
    return intra + inter, inter


def _squared(value):
    """``value ** 2`` as Python computes it for a float (C ``pow``), element by element for
    an array of values (the diagnosis' batched refit): numpy squares by multiplying, which
    differs from ``pow(x, 2)`` in the last bit for about one value in a thousand."""
    if isinstance(value, np.ndarray):
        return np.array([float(v) ** 2 for v in value.ravel()]).reshape(value.shape)
    return value ** 2


def breakdown(gpus: np.ndarray | list[int], x: DataParallelInputs,
              p: ScalingParams) -> StepBreakdown:
    """Step-time components and speed-up of a data-parallel job for every GPU count."""
    n = np.asarray(gpus, dtype=float)
    nodes = np.ceil(n / x.gpus_per_node)
    local = np.minimum(n, x.gpus_per_node)
    scale = np.broadcast_to(np.asarray(x.batch_scale, dtype=float), n.shape)

    accumulation = np.maximum(np.broadcast_to(np.asarray(x.accumulation_steps, dtype=float),
                                              n.shape), 1.0)
    # The measured step holds 1/k0 of an optimizer update; on N GPUs a micro-batch holds
    # 1/k_N of it (fewer accumulation steps when the global batch is held: more updates per
    # sample). The rest is forward and backward, whose fixed part (launches, framework work)
    # does not shrink with a smaller batch: small per-GPU batches use the GPU less well.
    k0 = np.maximum(np.asarray(x.accumulation_baseline, dtype=float), 1.0)
    update0 = np.minimum(np.asarray(x.optimizer_step_s, dtype=float) / k0,
                         0.5 * np.asarray(x.step_compute_s, dtype=float))
    work = x.step_compute_s - update0
    fixed = np.minimum(p.fixed_step_fraction * work, 0.9 * work)
    base = fixed + (work - fixed) * scale + update0 * k0 / accumulation
    sharing = np.minimum(x.vgpus_per_physical, n)  # vGPUs packed onto one physical card (# F29)
    extra_cards = np.maximum(local - 2.0, 0.0)
    clock = 1.0 - np.minimum(x.throttle_per_card * extra_cards + np.where(
        local > 1, x.throttle_fixed, 0.0), 0.5)  # F27: packed cards throttle above ~84 degC
    compute = base * sharing / clock

    bw_intra = x.busbw_intra_gbs * p.busbw_efficiency * np.where(
        np.asarray(x.multi_socket_pcie) & (local > 4), p.pcie_multi_socket_factor, 1.0)
    grad_bytes = x.params_millions * 1e6 * x.grad_bytes_per_param * x.comm_volume_factor
    # Inter-node traffic crosses the host's root complex like a PCIe ring of many GPUs does.
    socket = np.where(np.asarray(x.multi_socket_pcie), p.pcie_multi_socket_factor, 1.0)
    inter_bw = np.minimum(x.busbw_inter_gbs, x.busbw_intra_gbs * socket) * p.busbw_efficiency
    comm = allreduce_time_s(n, x.gpus_per_node, grad_bytes, bw_intra, inter_bw,
                            x.latency_intra_s,  # a network hop is never quicker than a local one
                            np.maximum(x.latency_inter_s, x.latency_intra_s), p.bucket_mb * 1e6,
                            None if x.busbw_pair_gbs is None
                            else np.asarray(x.busbw_pair_gbs) * p.busbw_efficiency)
    backward = p.backward_fraction * compute
    # F20: a small model on fast GPUs has little backward to hide the exchange behind. With
    # accumulation the exchange hides behind the last micro-batch's backward only, once per
    # optimizer step (DDP no_sync / Horovod backward_passes_per_step).
    exposed = (comm - np.minimum(p.overlap_fraction * comm, backward)) / accumulation
    embedding = bool(np.any(np.asarray(x.embedding_bytes_per_sample) > 0))
    # The exposed exchange between machines, apart: only a loader cap (which bounds one
    # machine's step) and the embedding all-to-all need it.
    exposed_inter = None
    if embedding or x.loader_capacity is not None:
        # The same exchange inside one machine; the rest is the tier between machines.
        comm_local = allreduce_time_s(local, x.gpus_per_node, grad_bytes, bw_intra, inter_bw,
                                      x.latency_intra_s, x.latency_inter_s, p.bucket_mb * 1e6,
                                      None if x.busbw_pair_gbs is None
                                      else np.asarray(x.busbw_pair_gbs) * p.busbw_efficiency)
        inter_share = np.where(comm > 0, np.clip(
            1.0 - comm_local / np.where(comm > 0, comm, 1.0), 0.0, 1.0), 0.0)
        exposed_inter = np.where(np.isfinite(exposed), exposed * inter_share, exposed)
    if embedding:  # on the critical path: the MLPs wait
        lookup_s, lookup_inter = embedding_alltoall_s(
            n, local, np.asarray(x.batch_per_gpu, dtype=float) * scale,
            x.embedding_bytes_per_sample, bw_intra, inter_bw, x.latency_intra_s,
            np.maximum(x.latency_inter_s, x.latency_intra_s))
        exposed = exposed + lookup_s
        exposed_inter = exposed_inter + lookup_inter

    log_n = np.log2(n)
    # F28: the loader's delay is a share of the loader's own work per step (samples x CPU time
    # per sample), which a long GPU step hides: an LLM at a few samples/s never waits for it.
    samples_step = np.asarray(x.batch_per_gpu, dtype=float) * scale
    loader_work = np.minimum(base, samples_step * np.asarray(x.loader_s_per_sample, dtype=float))
    stall = loader_work * x.pipeline_stall * log_n
    # Stragglers: E[max of N jittered step times]; plus per-step coordination (framework
    # negotiation, many small un-bucketed all-reduces) that grows like a tree, log2 N. Only
    # what varies per step makes one GPU late: variable-size samples (cv / sqrt(b)) and the
    # system's own step-to-step noise, a share of the step (clocks) and a fixed time on the
    # host (``step_jitter_s``: scheduling, Python, launches; a short step feels it most),
    # averaged over k micro-batches.
    samples = np.maximum(samples_step, 1.0)
    jitter = np.sqrt((np.asarray(x.variable_inputs, dtype=float) * _squared(p.sample_time_cv)
                      / samples + _squared(p.step_time_cv)) / accumulation)
    host_jitter = p.step_jitter_s / np.sqrt(accumulation)
    coordination = p.sync_latency_s * log_n / accumulation
    sync = (base * jitter + host_jitter) * np.sqrt(2.0 * np.log(n)) + coordination
    step = compute + exposed + stall + sync
    if x.loader_capacity is not None:  # a starved loader feeds at most this much per node
        # The cap bounds one machine's step (its loader feeds only its own GPUs). The exposed
        # exchange between machines adds on top: it starts only once every machine's batch
        # is through the backward pass, and a loader at capacity has no batch queued ahead
        # to hide it (prefetch queues are short), so k machines never give exactly k x (# F08).
        capped = x.step_compute_s * local * scale / x.loader_capacity
        with np.errstate(invalid="ignore"):  # inf - inf where no network joins the machines
            node_step = np.maximum(step - exposed_inter, capped)
        # no network: the step is infinite whatever the machine's own part (never NaN)
        node_step = np.where(np.isfinite(exposed_inter), node_step, capped)
        step = node_step + exposed_inter
    with np.errstate(invalid="ignore"):  # inf - inf where no network joins the machines
        stall = step - (compute + exposed + sync)

    dp_speedup = n * scale * x.step_compute_s / step
    # F21: alternating sub-networks leave GPUs idle; Amdahl on the data-parallel speed-up (F03).
    s = x.alternating_fraction
    alt_loss = 1.0 + s * (dp_speedup - 1.0)
    speedup = dp_speedup / alt_loss
    return StepBreakdown(gpus=n, nodes=nodes, compute_s=compute, comm_s=exposed, stall_s=stall,
                         sync_s=sync, sharing_s=base * (sharing - 1.0) / clock,
                         throttle_s=base * sharing * (1.0 / clock - 1.0), step_s=step * alt_loss,
                         alternating_loss=alt_loss, speedup=speedup,
                         coordination_s=coordination * np.ones_like(n))


def speedup(gpus: np.ndarray | list[int], x: DataParallelInputs, p: ScalingParams) -> np.ndarray:
    """Speed-up of N GPUs over one (throughput ratio), for every N in ``gpus``."""
    return breakdown(gpus, x, p).speedup
