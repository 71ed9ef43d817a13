"""The hardware catalog: GPUs (and, from the costs work, links, cloud offers, power prices).

Data lives in ``resources/catalog/*.yaml``; every entry carries its source and date.
"""

from advisor.catalog.gpus import GpuSpec, gpu_ids, load_gpus, resolve_gpu

__all__ = ["GpuSpec", "gpu_ids", "load_gpus", "resolve_gpu"]
