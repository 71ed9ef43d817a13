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

from dataclasses import dataclass, field, fields
from functools import lru_cache
from itertools import product

import numpy as np

from advisor.scaling.layouts.cluster import Cluster
from advisor.scaling.layouts.layout import (
    CHECKPOINTING,
    SHARDING,
    Candidates,
    Layout,
)
from advisor.scaling.layouts.memory import MemoryParts, memory_parts
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


@dataclass(frozen=True)
class Choice:
    layout: Layout
    fits: bool
    tokens_per_step: float
    memory_gb: float  # the busiest GPU's need of the chosen layout
    step_s: float
    bottleneck: str  # compute, communication or pipeline_bubble (``StepTime.bottleneck``)
    # the rows the search kept (one per group) and this choice's row among them
    kept_memory: MemoryParts = field(repr=False, compare=False)
    kept_step: StepTime = field(repr=False, compare=False)
    row: int = field(default=0, repr=False, compare=False)

    @property
    def memory(self) -> MemoryParts:
        """Of the chosen layout (arrays of length 1)."""
        return _slice(self.kept_memory, slice(self.row, self.row + 1))

    @property
    def step(self) -> StepTime:
        """Of the chosen layout (arrays of length 1)."""
        return _slice(self.kept_step, slice(self.row, self.row + 1))


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


@dataclass(frozen=True)
class Pool:
    """Groups of candidates concatenated once, to be evaluated in one pass (read-only)."""

    candidates: Candidates
    sizes: tuple[int, ...]


def pooled(groups: list[Candidates]) -> Pool:
    joined = {f.name: np.concatenate([getattr(g, f.name) for g in groups])
              for f in fields(Candidates)}
    for column in joined.values():
        column.flags.writeable = False  # a pool is cached and shared: never changed in place
    return Pool(candidates=Candidates(**joined), sizes=tuple(g.size for g in groups))


def _slice(value, index: np.ndarray | slice):
    """The rows ``index`` of a result (its numpy fields; a nested result likewise). The
    results are frozen records without ``__post_init__``: copied without calling
    ``__init__`` (the same fields, a fraction of the time; a search keeps 65 of them)."""
    kind = type(value)
    if kind is np.ndarray:
        return value[index]
    if not hasattr(kind, "__dataclass_fields__"):
        return value
    out = object.__new__(kind)
    out.__dict__.update({k: _slice(v, index) for k, v in value.__dict__.items()})
    return out


def _pick(per_gpu: np.ndarray, total: np.ndarray, usable_gb: float, none_fit: str) -> int:
    fits = total <= usable_gb
    if fits.any():
        return int(np.argmax(np.where(fits, per_gpu, -np.inf)))
    if none_fit == "fastest":
        return int(np.argmax(per_gpu))
    return int(np.argmin(total))


def _picks(per_gpu: np.ndarray, total: np.ndarray, sizes: list[int], usable_gb: list[float],
           none_fit: str) -> np.ndarray:
    """Each non-empty group's pick (an index into the concatenated candidates), all groups at
    once: the fastest that fits its usable memory, else the fastest (``none_fit="fastest"``)
    or the smallest. Ties go to the first candidate, as ``np.argmax`` gives them."""
    kept = [k for k, size in enumerate(sizes) if size]
    counts = np.array([sizes[k] for k in kept])
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    fits = total <= np.repeat(np.array([usable_gb[k] for k in kept], dtype=float), counts)
    any_fit = np.logical_or.reduceat(fits, starts)
    fallback = per_gpu if none_fit == "fastest" else -total  # argmin(total) = argmax(-total)
    score = np.where(np.repeat(any_fit, counts), np.where(fits, per_gpu, -np.inf), fallback)
    if np.isnan(score).any():  # argmax's NaN rule: the first NaN wins; one group at a time
        return np.array([start + _pick(per_gpu[start:start + size], total[start:start + size],
                                       usable_gb[k], none_fit)
                         for k, start, size in zip(kept, starts, counts, strict=True)])
    best = np.repeat(np.maximum.reduceat(score, starts), counts)
    top = np.flatnonzero(score == best)
    return top[np.searchsorted(top, starts)]  # the first best of each group


def choose_many(shape: ModelShape, groups: list[Candidates] | Pool, cluster: Cluster,
                states: StateBytes, q: LlmParams, grad_reduce_bytes: float,
                usable_gb: list[float], overhead_gb: float,
                none_fit: str = "smallest") -> list[Choice | None]:
    """The fastest candidate of each group that fits its usable memory, all groups evaluated
    in one vectorised pass (None for an empty group; ``groups`` may be pooled already). When none fits: the smallest
    (``none_fit="smallest"``: how short the memory falls) or the fastest (a published run
    that did run: its throughput is what is scored)."""
    pool = groups if isinstance(groups, Pool) else pooled(groups)
    sizes = pool.sizes
    if not sum(sizes):
        return [None] * len(sizes)
    c = pool.candidates
    mem = memory_parts(shape, c, cluster, states, overhead_gb)
    step = step_time(shape, c, cluster, states, q, grad_reduce_bytes)
    tokens = (c.micro_batch * c.micro_batches * c.dp * shape.sequence).astype(float)
    per_gpu = tokens / (step.step_s * c.tp * c.pp * c.dp)
    total = mem.total
    picks = _picks(per_gpu, total, sizes, usable_gb, none_fit)
    # the kept rows taken once for all groups; each choice reads its own row
    mem_kept, step_kept = _slice(mem, picks), _slice(step, picks)
    layouts = _layouts(c.take(picks))
    kept_total, kept_step_s = total[picks].tolist(), step_kept.step_s.tolist()
    kept_tokens, necks = tokens[picks].tolist(), step_kept.bottleneck
    out: list[Choice | None] = []
    j = 0
    for size, limit in zip(sizes, usable_gb, strict=True):
        if size == 0:
            out.append(None)
            continue
        out.append(Choice(layout=layouts[j], fits=kept_total[j] <= limit,
                          tokens_per_step=kept_tokens[j], memory_gb=kept_total[j],
                          step_s=kept_step_s[j], bottleneck=necks[j], kept_memory=mem_kept,
                          kept_step=step_kept, row=j))
        j += 1
    return out


def _layouts(kept: Candidates) -> list[Layout]:
    """``Candidates.layout`` of every row, from plain lists (one conversion per field)."""
    cols = zip(kept.tp.tolist(), kept.pp.tolist(), kept.dp.tolist(), kept.sharding.tolist(),
               kept.micro_batch.tolist(), kept.micro_batches.tolist(),
               kept.interleave.tolist(), kept.checkpointing.tolist(),
               kept.sequence_parallel.tolist(), strict=True)
    return [_layout(*row) for row in cols]


@lru_cache(maxsize=4096)  # the same layouts win again in the next projection of a profile
def _layout(tp: int, pp: int, dp: int, sharding: int, micro_batch: int, micro_batches: int,
            interleave: int, checkpointing: int, sequence_parallel: bool) -> Layout:
    return Layout(tp=tp, pp=pp, dp=dp, sharding=SHARDING[sharding], micro_batch=micro_batch,
                  micro_batches=micro_batches, interleave=interleave,
                  checkpointing=CHECKPOINTING[checkpointing],
                  sequence_parallel=sequence_parallel)


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
