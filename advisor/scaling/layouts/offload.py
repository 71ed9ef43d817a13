"""Offload to host memory: what leaves the GPU, what the host must hold, and the time it costs
(Ren et al. 2021, ZeRO-Offload; Rajbhandari et al. 2021, ZeRO-Infinity / ZeRO-3 Offload;
PyTorch FSDP ``CPUOffload``).

* ``optimizer`` (DeepSpeed ZeRO-Offload, ZeRO stage 2 or 3 with ``offload_optimizer``): the
  fp32 master weights and moments live in host RAM and the optimizer step runs on the CPU;
  each micro-batch's reduced 16-bit gradients are copied to the host (accumulated there in
  fp32), the updated 16-bit weights come back once per step. The GPU keeps its weights and
  the reduction buckets.
* ``parameters`` (ZeRO-3 Offload, FSDP ``CPUOffload(offload_params=True)``): the 16-bit
  weights live in host RAM too and are copied to the GPU layer by layer for every forward
  and backward pass; the GPU holds only the layers in flight.

Time (per GPU, over its PCIe link to the host, ``Cluster.host_link_gbs``): the gradient
copies overlap the backward pass; the weights' copies overlap a micro-batch's compute as
ZeRO-3's prefetched gathers do (``shard_overlap``); the CPU optimizer step is not hidden
(no delayed update): it streams 30 bytes per trained parameter through the host's memory
(fp32 weight, gradient and two moments read, three written, the 16-bit copy written: the
roofline of DeepSpeed's vectorised CPU-Adam), for all of a machine's GPUs at once.

Only the data-parallel family offloads (no tensor or pipeline split), sharded as ZeRO-2/3
(``optimizer``) or ZeRO-3 / FSDP (``parameters``).

Host memory per parameter: DeepSpeed keeps the 16-bit weights, the fp32 master weights and
moments and fp32 gradients (2 + 12 + 4 = 18 bytes with mixed-precision Adam); PyTorch FSDP's
CPU offload keeps one copy of each sharded parameter, in its storage dtype, and its gradient
in the same dtype: with mixed precision the fp32 parameter is the master (4 + 4 + 8 = 16), in
pure 16-bit training everything is 16-bit (2 + 2 + 4 = 8: torchtune's 70B full fine-tune on
8 A100s). A machine of data-centre GPUs carries 256 GB of RAM per GPU when not told (NVIDIA's
DGX A100, DGX H100 and DGX B200 carry 2 TB for their eight), at least twice its GPUs' memory;
any other machine twice its GPUs' memory, at least 64 GB.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np

from advisor.profile import Offload
from advisor.scaling.layouts.states import StateBytes

HOST_USABLE_FRACTION = 0.8  # of a machine's RAM: the OS, data loader workers, pinned staging
SERVER_RAM_PER_GPU_GB = 256.0  # DGX A100 / H100 / B200: 2 TB for eight GPUs (their datasheets)
CPU_ADAM_BYTES = 30.0  # host memory traffic of one parameter's CPU-Adam update
HOST_GRAD_BYTES = 4.0  # fp32 gradients accumulated on the host
# PCIe x16 host-to-device copies from pinned memory reach about 80 % of the link's peak
PCIE_GBS = {3: 12.0, 4: 25.0, 5: 50.0, 6: 100.0}
# host memory bandwidth a CPU optimizer reaches: a desktop's two channels, a server's many
HOST_BANDWIDTH_GBS = {"consumer": 50.0, "workstation": 80.0, "datacenter": 150.0}
SHARDING = {Offload.optimizer: ("zero2", "zero3"),
            Offload.parameters: ("zero3", "fsdp", "hsdp")}
ORDER = (Offload.none, Offload.optimizer, Offload.parameters)  # more offload, further right


@lru_cache(maxsize=256)  # pure, and asked by every search (frozen result)
def offloaded(states: StateBytes, offload: Offload) -> StateBytes:
    """``states`` with what ``offload`` moves to the host marked off the GPU."""
    if offload == Offload.none:
        return states
    moved = replace(states, optimizer_on_gpu=False, grads_on_gpu=False)
    return replace(moved, weights_on_gpu=False) if offload == Offload.parameters else moved


def shardings(offload: Offload, chosen: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """The sharding an offload runs with: the profile's when it can offload, else its own."""
    allowed = SHARDING.get(offload)
    if allowed is None:
        return chosen
    kept = tuple(s for s in (chosen or ()) if s in allowed)
    return kept or allowed


def default_host_memory_gb(gpu_memory_gb: float, gpus_per_node: int,
                           gpu_class: str | None = None) -> float:
    """The profile's default: a machine of data-centre GPUs 256 GB per GPU (a DGX's 2 TB for
    eight), any other twice its GPUs' memory; never below twice the GPUs' memory nor 64 GB."""
    twice = max(64.0, 2.0 * gpu_memory_gb * gpus_per_node)
    if gpu_class == "datacenter":
        return max(twice, SERVER_RAM_PER_GPU_GB * gpus_per_node)
    return twice


def pcie_gbs(pcie_gen: int | None) -> float:
    return PCIE_GBS.get(pcie_gen or 4, 25.0)


def host_gb(stage: np.ndarray, trainable: np.ndarray, states: StateBytes,
            opt_shard: np.ndarray, grad_shard: np.ndarray, weight_shard: np.ndarray,
            sharded_weights: np.ndarray, fsdp: np.ndarray | None = None) -> np.ndarray:
    """Bytes one GPU's offloaded states take in host memory: DeepSpeed's, or FSDP's one copy
    of each parameter (``fsdp``: the candidates FSDP shards; module docstring)."""
    host = np.zeros_like(stage)
    fsdp = np.zeros(np.shape(stage), bool) if fsdp is None else fsdp
    if not states.optimizer_on_gpu:
        host = host + trainable * states.optimizer_bytes / opt_shard
    if not states.grads_on_gpu:
        # FSDP: gradients in the parameters' storage dtype (the fp32 master's, when there is
        # one); DeepSpeed accumulates fp32 gradients
        fsdp_grad = states.master_grad_bytes or states.grad_bytes
        host = host + trainable * np.where(fsdp, fsdp_grad, HOST_GRAD_BYTES) / grad_shard
    if not states.weights_on_gpu:
        # FSDP holds no 16-bit copy beside an fp32 master (the optimizer's bytes hold it)
        held = stage - trainable if states.master_grad_bytes else stage
        weights = np.where(fsdp, held, stage) * states.weight_bytes / weight_shard
        host = host + np.where(sharded_weights, weights, 0.0)
    return host


def offload_s(stage: np.ndarray, trainable: np.ndarray, states: StateBytes,
              opt_shard: np.ndarray, weight_shard: np.ndarray, gpus_here: np.ndarray,
              compute_mb: np.ndarray, link_gbs: float, host_bandwidth_gbs: float,
              shard_overlap: float, backward_share: float) -> tuple[np.ndarray, np.ndarray]:
    """(seconds per micro-batch, seconds per step) the offload adds, not hidden."""
    zero = np.zeros_like(stage)
    if states.optimizer_on_gpu and states.grads_on_gpu and states.weights_on_gpu:
        return zero, zero
    link = link_gbs * 1e9
    grads_down = trainable * states.grad_bytes / opt_shard / link
    per_mb = np.maximum(grads_down - backward_share * compute_mb, 0.0)
    if not states.weights_on_gpu:  # every pass fetches the GPU's shard of the weights
        fetch = 2.0 * stage * states.weight_bytes / weight_shard / link
        per_mb = per_mb + np.maximum(fetch - shard_overlap * compute_mb, 0.0)
    cpu = trainable / opt_shard * gpus_here * CPU_ADAM_BYTES / (host_bandwidth_gbs * 1e9)
    weights_up = trainable / opt_shard * states.grad_bytes / link  # the 16-bit copy
    per_step = np.maximum(cpu, weights_up) if not states.optimizer_on_gpu else zero
    return per_mb, per_step
