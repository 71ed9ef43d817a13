"""The machines a layout runs on, in the units the layout model needs.

Bandwidths are achievable all-reduce bus bandwidths (nccl-tests busbw, ``links.yaml``) times
the fitted share reached during training (``busbw_efficiency``). Between machines the
figure is per machine: every GPU of a machine sends through the same network adapters, so
concurrent collectives of its tensor-parallel ranks share them (``traffic.py``).
"""

from __future__ import annotations

from advisor.catalog.gpus import GpuSpec
from advisor.files.records import record
from advisor.profile import Precision
from advisor.scaling.layouts.offload import (
    HOST_BANDWIDTH_GBS,
    default_host_memory_gb,
    pcie_gbs,
)
from advisor.scaling.links import LinkFigures
from advisor.scaling.peak import SIXTEEN_BIT, peak_tflops

# Memory-efficient (flash) attention: PyTorch's scaled_dot_product_attention picks it for
# 16-bit inputs on Ampere and newer (FlashAttention-2 needs sm80+); older cards and fp32 fall
# back to the standard kernel, which keeps the s x s attention scores.
FLASH_GENERATIONS = ("ampere", "ada", "hopper", "blackwell")


@record
class Cluster:
    peak_tflops: float  # dense peak at the training precision
    memory_gb: float
    memory_bandwidth_gbs: float
    generation: str
    gpus_per_node: int
    busbw_intra_gbs: float  # inside one machine (ring over its GPUs), achievable in training
    busbw_node_gbs: float  # between machines, per machine (all its adapters), 0: one machine
    latency_intra_s: float = 10e-6
    latency_inter_s: float = 30e-6
    bytes_per_value: float = 2.0  # activations and low-precision weights: 2, fp32: 4
    flash_attention: bool = True
    host_link_gbs: float = 25.0  # one GPU's PCIe link to host memory (offload copies)
    host_memory_gb: float = float("inf")  # RAM of one machine (offloaded states)
    host_bandwidth_gbs: float = 150.0  # host memory bandwidth a CPU optimizer step reaches
    # the bus bandwidth of the links inside one machine as measured (not the share reached in
    # training): NCCL opens channels, and allocates their buffers, to reach it
    # (communicators.py); 0: no communicator buffers counted
    nccl_busbw_gbs: float = 0.0

    @property
    def flops_per_byte(self) -> float:
        return self.peak_tflops * 1e12 / (self.memory_bandwidth_gbs * 1e9)


def cluster_of(gpu: GpuSpec, links: LinkFigures, precision: Precision, gpus_per_node: int,
               busbw_efficiency: float, host_memory_gb: float | None = None) -> Cluster:
    """The profile's machines (links: ``link_figures`` of its intra/inter links; the RAM of
    one machine, ``offload.default_host_memory_gb`` when not given)."""
    sixteen = precision in SIXTEEN_BIT
    generation = gpu.generation or "unknown"
    return Cluster(
        peak_tflops=peak_tflops(gpu, precision), memory_gb=gpu.memory_gb,
        memory_bandwidth_gbs=gpu.memory_bandwidth_gbs or gpu.tflops_fp16_dense * 1e3 / 153.0,
        generation=generation, gpus_per_node=gpus_per_node,
        busbw_intra_gbs=links.busbw_intra_gbs * busbw_efficiency,
        busbw_node_gbs=min(links.busbw_inter_gbs, links.busbw_intra_gbs * gpus_per_node)
        * busbw_efficiency,
        latency_intra_s=links.latency_intra_s,
        latency_inter_s=max(links.latency_inter_s, links.latency_intra_s),
        bytes_per_value=2.0 if sixteen else 4.0,
        flash_attention=sixteen and generation in FLASH_GENERATIONS,
        host_link_gbs=pcie_gbs(gpu.pcie_gen),
        host_memory_gb=host_memory_gb or default_host_memory_gb(gpu.memory_gb, gpus_per_node,
                                                                gpu.gpu_class),
        host_bandwidth_gbs=HOST_BANDWIDTH_GBS.get(gpu.gpu_class or "", 80.0),
        nccl_busbw_gbs=links.busbw_intra_gbs)
