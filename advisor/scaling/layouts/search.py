"""The layouts tried for one GPU count, and the one kept (as NeMo's auto-configurator and
Calculon's optimal execution search do).

Tensor-parallel degrees divide the attention heads and the width and stay inside one machine;
pipeline degrees divide the layers; the data-parallel degree is what remains. The replicas
hold their states plainly, with ZeRO-1/2, or fully or hybrid sharded (FSDP) when there is no
pipeline; pipelines take ZeRO-1 at most (Megatron-LM's distributed optimizer, DeepSpeed's
pipeline engine). The micro-batch is the profile's batch per GPU or a power of two below it;
the global batch is held; interleaving (2 or 4 chunks per GPU) needs as many micro-batches
as stages. What the profile fixes (degrees, sharding, interleaving) is kept as given.

The fastest layout whose busiest GPU needs at most the usable memory wins; when none fits,
the one that needs the least memory is returned (and reported as not fitting).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from itertools import product

import numpy as np

from advisor.files.records import record
from advisor.scaling.layouts.cluster import Cluster
from advisor.scaling.layouts.layout import (
    CHECKPOINTING,
    SHARDING,
    Candidates,
    Layout,
)
from advisor.scaling.layouts.memory import MemoryParts, evicted, memory_parts
from advisor.scaling.layouts.shape import ModelShape
from advisor.scaling.layouts.states import StateBytes
from advisor.scaling.layouts.step import StepTime, step_time
from advisor.scaling.llm_compute import LlmParams

AUTO_SHARDING = ("none", "zero1", "zero2", "fsdp", "hsdp")
PIPELINE_SHARDING = ("none", "zero1")
INTERLEAVES = (1, 2, 4)


@dataclass(frozen=True)
class Fixed:
    """What the profile (or a published run) fixes; None: searched."""

    tp: int | None = None
    pp: int | None = None
    sharding: tuple[str, ...] | None = None  # allowed values
    micro_batch: int | None = None
    interleave: int | None = None
    sequence_parallel: bool | None = None
    max_micro_batch: int = 8
    min_tp: int = 1  # parallelism: tensor asks for a split layer
    min_pp: int = 1  # parallelism: pipeline asks for stages
    pipeline_micro_batches: int | None = None  # micro-batches per step, when given
    micro_batches_per_stage: float | None = None  # else per stage (parallelism: pipeline)
    one_pipeline: bool = False  # every GPU (of a tensor group) in one pipeline: p = N / t


@record
class Choice:
    layout: Layout
    memory: MemoryParts  # of the chosen layout (arrays of length 1)
    step: StepTime  # of the chosen layout (arrays of length 1)
    fits: bool
    tokens_per_step: float

    @property
    def memory_gb(self) -> float:
        return float(self.memory.total[0])

    @property
    def needed_gb(self) -> float:
        """What must fit the card: ``memory_gb`` less paged optimizer states (memory.py)."""
        return float(self.memory.needed[0])

    @property
    def step_s(self) -> float:
        return float(self.step.step_s[0])

    @property
    def host_gb(self) -> float:
        """Host memory of one GPU's offloaded states (0 without offload)."""
        return float(self.memory.host[0]) if self.memory.host is not None else 0.0


def _divisors(n: int) -> list[int]:
    return [k for k in range(1, n + 1) if n % k == 0]


@lru_cache(maxsize=4096)  # a profile's counts are searched again by every projection of it
def enumerate_layouts(shape: ModelShape, gpus: int, gpus_per_node: int, global_batch: int,
                      checkpointing: str, fixed: Fixed) -> Candidates:
    """Every layout of ``gpus`` GPUs the rules above allow."""
    tps = [fixed.tp] if fixed.tp else [t for t in shape.tensor_degrees(min(gpus_per_node, gpus))
                                       if gpus % t == 0 and t >= fixed.min_tp]
    rows = []
    for t in tps:
        if gpus % t:
            continue
        # stages need not split the layers evenly: the busiest holds ceil(L / p) of them
        pps = [fixed.pp] if fixed.pp else [gpus // t] if fixed.one_pipeline else [
            p for p in _divisors(gpus // t) if fixed.min_pp <= p <= shape.layers]
        for p in pps:
            if (gpus // t) % p:
                continue
            d = gpus // (t * p)
            shardings = fixed.sharding or (PIPELINE_SHARDING if p > 1 else AUTO_SHARDING)
            if d == 1:  # nothing to shard over
                shardings = (shardings[0],) if fixed.sharding else ("none",)
            per_replica = max(global_batch // d, 1)
            sizes = [fixed.micro_batch] if fixed.micro_batch else [
                b for b in (1, 2, 4, 8, 16, 32, 64) if b <= max(fixed.max_micro_batch, 1)]
            per_stage = fixed.micro_batches_per_stage if p > 1 else None
            if fixed.pipeline_micro_batches or per_stage:  # the count of micro-batches given:
                m = fixed.pipeline_micro_batches or max(int(round(per_stage * p)), 1)
                sizes = [max(per_replica // m, 1)]  # the samples split into that many
            for b in sizes:
                b = min(b, per_replica)
                m = fixed.pipeline_micro_batches or (
                    max(int(round(per_stage * p)), 1) if per_stage else max(per_replica // b, 1))
                stage = -(-shape.layers // p)
                chunks = [fixed.interleave or 1] if (fixed.interleave or p == 1) else [
                    v for v in INTERLEAVES if stage % v == 0 and (v == 1 or m >= p)]
                for v, s in product(chunks, shardings):
                    sp = fixed.sequence_parallel if fixed.sequence_parallel is not None \
                        else t > 1
                    rows.append((t, p, d, SHARDING.index(s), b, m, v, sp))
    rows = sorted(set(rows))
    a = np.array(rows, dtype=np.int64).reshape(-1, 8)
    ck = CHECKPOINTING.index(checkpointing)
    return Candidates(tp=a[:, 0], pp=a[:, 1], dp=a[:, 2], sharding=a[:, 3],
                      micro_batch=a[:, 4], micro_batches=a[:, 5], interleave=a[:, 6],
                      checkpointing=np.full(len(a), ck), sequence_parallel=a[:, 7].astype(bool))


def _slice(value, index: np.ndarray):
    """One candidate's row of a result (its numpy fields; a nested result likewise)."""
    if isinstance(value, np.ndarray):
        return value[index]
    if hasattr(value, "__dataclass_fields__"):
        return type(value)(**{k: _slice(v, index) for k, v in vars(value).items()})
    return value


def _pick(per_gpu: np.ndarray, total: np.ndarray, fits: np.ndarray, none_fit: str) -> int:
    if fits.any():
        return int(np.argmax(np.where(fits, per_gpu, -np.inf)))
    if none_fit == "fastest":
        return int(np.argmax(per_gpu))
    return int(np.argmin(total))


def choose_many(shape: ModelShape, groups: list[Candidates], cluster: Cluster,
                states: StateBytes, q: LlmParams, grad_reduce_bytes: float,
                usable_gb: list[float], overhead_gb: float,
                none_fit: str = "smallest",
                host_usable_gb: float = float("inf")) -> list[Choice | None]:
    """The fastest candidate of each group that fits its usable memory (and, with states
    offloaded, a machine's usable RAM: ``host_usable_gb``), all groups evaluated in one
    vectorised pass (None for an empty group). When none fits: the smallest
    (``none_fit="smallest"``: how short the memory falls) or the fastest (a published run
    that did run: its throughput is what is scored)."""
    sizes = [g.size for g in groups]
    if not sum(sizes):
        return [None] * len(groups)
    c = Candidates(**{f.name: np.concatenate([getattr(g, f.name) for g in groups])
                      for f in fields(Candidates)})
    mem = memory_parts(shape, c, cluster, states, overhead_gb)
    step = step_time(shape, c, cluster, states, q, grad_reduce_bytes)
    tokens = (c.micro_batch * c.micro_batches * c.dp * shape.sequence).astype(float)
    per_gpu = tokens / (step.step_s * c.tp * c.pp * c.dp)
    total = mem.needed  # paged optimizer states need no room of their own (memory.py)
    host = machine_host_gb(mem, c, cluster.gpus_per_node)
    per_machine = np.minimum(c.tp * c.pp * c.dp, cluster.gpus_per_node)
    out: list[Choice | None] = []
    start = 0
    for size, limit in zip(sizes, usable_gb, strict=True):
        if size == 0:
            out.append(None)
            continue
        part = slice(start, start + size)
        # paged states that do not fit the card wait in host RAM beside the offloaded ones
        spill = 0.0 if mem.paged is None else np.clip(
            mem.total[part] - max(limit, 0.0), 0.0, mem.paged[part]) * per_machine[part]
        host_ok = np.zeros(c.size, bool)
        host_ok[part] = host[part] + spill <= host_usable_gb
        fits = (total[part] <= limit) & host_ok[part]
        i = start + _pick(per_gpu[part], total[part], fits, none_fit)
        start += size
        one = np.array([i])
        out.append(Choice(layout=c.layout(i), memory=evicted(_slice(mem, one), limit),
                          step=_slice(step, one), fits=bool(total[i] <= limit and host_ok[i]),
                          tokens_per_step=float(tokens[i])))
    return out


def machine_host_gb(mem: MemoryParts, c: Candidates, gpus_per_node: int) -> np.ndarray:
    """Host memory one machine needs for its GPUs' offloaded states (0 without offload)."""
    if mem.host is None:
        return np.zeros(c.size)
    return mem.host * np.minimum(c.tp * c.pp * c.dp, gpus_per_node)


def choose(shape: ModelShape, c: Candidates, cluster: Cluster, states: StateBytes,
           q: LlmParams, grad_reduce_bytes: float, usable_gb: float,
           overhead_gb: float, none_fit: str = "smallest") -> Choice | None:
    """The fastest candidate that fits ``usable_gb`` (see ``choose_many``)."""
    return choose_many(shape, [c], cluster, states, q, grad_reduce_bytes, [usable_gb],
                       overhead_gb, none_fit)[0]


def best_layout(shape: ModelShape, gpus: int, cluster: Cluster, states: StateBytes,
                q: LlmParams, grad_reduce_bytes: float, global_batch: int, checkpointing: str,
                usable_gb: float, overhead_gb: float, fixed: Fixed = Fixed(),
                none_fit: str = "smallest") -> Choice | None:
    c = enumerate_layouts(shape, gpus, cluster.gpus_per_node, global_batch, checkpointing,
                          fixed)
    return choose(shape, c, cluster, states, q, grad_reduce_bytes, usable_gb, overhead_gb,
                  none_fit)
