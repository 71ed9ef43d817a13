"""The layouts tried for one GPU count, and the one kept (as NeMo's auto-configurator and
Calculon's optimal execution search do).

Tensor-parallel degrees divide the attention heads and the width and stay inside one machine;
pipeline degrees divide the layers; the data-parallel degree is what remains. The replicas
hold their states plainly, with ZeRO-1/2, or fully or hybrid sharded (FSDP) when there is no
pipeline; pipelines take ZeRO-1 at most (Megatron-LM's distributed optimizer, DeepSpeed's
pipeline engine). The micro-batch is the profile's batch per GPU or a power of two below it;
the global batch is held; interleaving (2 or 4 chunks per GPU) needs as many micro-batches
as stages and at least a layer in every chunk of every stage. What the profile fixes (degrees, sharding, interleaving) is kept as given. A
mixture of experts also tries every expert-parallel degree that divides its experts and the
data-parallel degree, with plain or ZeRO-1/2 replicas (fully sharded replicas gather every
expert: no expert parallelism, as FSDP runs an MoE without it). A sequence of at least
``LONG_SEQUENCE`` tokens is also tried split over 2, 4, ... GPUs (context parallel, ``cp``:
layout.py), which tensor parallelism and recomputation cannot replace once one sequence's
activations outgrow a GPU; a shorter one never is (its few tokens per GPU would only add
the key / value exchange).

The fastest layout whose busiest GPU needs at most the usable memory wins; when none fits,
the one that needs the least memory is returned (and reported as not fitting).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import lru_cache
from itertools import product

import numpy as np

from advisor.files.records import record
from advisor.scaling.layouts.cluster import Cluster
from advisor.scaling.layouts.kept_rows import KeptRows, sliced
from advisor.scaling.layouts.layout import (
    CHECKPOINTING,
    SHARDING,
    Candidates,
    Layout,
)
from advisor.scaling.layouts.memory import MEMORY_FIELDS, MemoryParts, evicted, memory_parts
from advisor.scaling.layouts.shape import ModelShape
from advisor.scaling.layouts.shared_memory import remembered
from advisor.scaling.layouts.states import StateBytes
from advisor.scaling.layouts.step import StepTime, step_time
from advisor.scaling.llm_compute import LlmParams

AUTO_SHARDING = ("none", "zero1", "zero2", "fsdp", "hsdp")
PIPELINE_SHARDING = ("none", "zero1")
EXPERT_SHARDING = ("none", "zero1", "zero2")  # replicas that may split their experts
INTERLEAVES = (1, 2, 4)
LONG_SEQUENCE = 32_768  # tokens from which a sequence is also tried split (context parallel)
CONTEXT_DEGREES = (2, 4, 8, 16, 32)  # Llama 3's 131 k-token stage ran CP 16


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
    ep: int | None = None  # expert-parallel degree (a mixture of experts); None: searched
    cp: int | None = None  # context-parallel degree; None: searched for long sequences


@record
class Choice:
    """The layout kept for one count: whether it fits, its tokens per step, and its memory
    and step time (``memory``, ``step``: arrays of length 1, row ``row`` of the search's
    kept rows)."""

    layout: Layout
    fits: bool
    tokens_per_step: float
    kept: KeptRows = field(repr=False, compare=False)
    row: int = 0

    @property
    def memory(self) -> MemoryParts:
        return self.kept.memory_of(self.row)

    @property
    def step(self) -> StepTime:
        return self.kept.step_of(self.row)

    @property
    def memory_gb(self) -> float:
        return float(self.kept.total[self.row])

    @property
    def needed_gb(self) -> float:
        """What must fit the card: ``memory_gb`` less paged optimizer states (memory.py)."""
        return float(self.kept.needed[self.row])

    @property
    def step_s(self) -> float:
        return float(self.kept.step.step_s[self.row])

    @property
    def bottleneck(self) -> str:
        """The step's bottleneck (``StepTime.bottleneck``)."""
        return self.kept.bottleneck[self.row]

    @property
    def host_gb(self) -> float:
        """Host memory of one GPU's offloaded states (0 without offload)."""
        host = self.kept.memory.host
        return float(host[self.row]) if host is not None else 0.0

    def machine_host_gb(self, gpus_per_node: int) -> float:
        """Host memory one machine needs for its GPUs' offloaded states (0 without offload):
        ``machine_host_gb`` of this row."""
        host = self.kept.memory.host
        return 0.0 if host is None else float(host[self.row] * min(self.layout.gpus,
                                                                   gpus_per_node))

    @property
    def paged_out_gb(self) -> float | None:
        """GB of paged optimizer states evicted to host RAM (None: nothing paged)."""
        out = self.kept.memory.paged_out
        return None if out is None else float(out[self.row])


def _divisors(n: int) -> list[int]:
    return [k for k in range(1, n + 1) if n % k == 0]


def expert_degrees(shape: ModelShape, dp: int, sharding: str, fixed: Fixed) -> list[int]:
    """Expert-parallel degrees of a layout with ``dp`` replicas sharded as ``sharding``: the
    divisors of the experts that divide ``dp`` (the one fixed, when it does), 1 for a dense
    model and for fully sharded replicas."""
    if not shape.is_moe or sharding not in EXPERT_SHARDING:
        return [1]
    if fixed.ep:
        return [fixed.ep] if dp % fixed.ep == 0 and shape.experts % fixed.ep == 0 else []
    return [e for e in _divisors(dp) if shape.experts % e == 0]


@lru_cache(maxsize=4096)  # a profile's counts are searched again by every projection of it
def enumerate_layouts(shape: ModelShape, gpus: int, gpus_per_node: int, global_batch: int,
                      checkpointing: str, fixed: Fixed) -> Candidates:
    """Every layout of ``gpus`` GPUs the rules above allow."""
    tps = [fixed.tp] if fixed.tp else [t for t in shape.tensor_degrees(min(gpus_per_node, gpus))
                                       if gpus % t == 0 and t >= fixed.min_tp]
    rows = []
    for t, cp in product(tps, context_degrees(shape, gpus, fixed)):
        if gpus % (t * cp):
            continue
        split = gpus // (t * cp)  # GPUs left for the pipeline and the replicas
        # stages need not split the layers evenly: the busiest holds ceil(L / p) of them
        pps = [fixed.pp] if fixed.pp else [split] if fixed.one_pipeline else [
            p for p in _divisors(split) if fixed.min_pp <= p <= shape.layers]
        for p in pps:
            if split % p:
                continue
            d = split // p
            shardings = fixed.sharding or (PIPELINE_SHARDING if p > 1 else AUTO_SHARDING)
            if d * cp == 1:  # nothing to shard over
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
                # interleaving splits the busiest stage's layers into v chunks of at least a
                # layer each (review 7: 8 stages x 4 chunks of a 27-layer model is 32 chunks,
                # not a layout anyone can launch; Llama 3 405B ran 126 layers as 16 stages of
                # 4 chunks, a layer fewer on the first and the last stage)
                stage = -(-shape.layers // p)
                chunks = [fixed.interleave or 1] if (fixed.interleave or p == 1) else [
                    v for v in INTERLEAVES
                    if v == 1 or (stage % v == 0 and shape.layers >= p * v and m >= p)]
                for v, s in product(chunks, shardings):
                    sp = fixed.sequence_parallel if fixed.sequence_parallel is not None \
                        else t > 1
                    for e in expert_degrees(shape, d, s, fixed):
                        rows.append((t, p, d, SHARDING.index(s), b, m, v, sp, e, cp))
    rows = sorted(set(rows))
    # a global batch of B samples splits over at most B data-parallel replicas: more would
    # grow it (issue 29: a held batch of 1 is not 8), unless no layout keeps it
    held = [r for r in rows if r[2] <= max(global_batch, 1)]
    rows = held or rows
    a = np.array(rows, dtype=np.int64).reshape(-1, 10)
    ck = CHECKPOINTING.index(checkpointing)
    return Candidates(tp=a[:, 0], pp=a[:, 1], dp=a[:, 2], sharding=a[:, 3],
                      micro_batch=a[:, 4], micro_batches=a[:, 5], interleave=a[:, 6],
                      checkpointing=np.full(len(a), ck), sequence_parallel=a[:, 7].astype(bool),
                      ep=a[:, 8], cp=a[:, 9])


def context_degrees(shape: ModelShape, gpus: int, fixed: Fixed) -> list[int]:
    """Context-parallel degrees tried on ``gpus`` GPUs: the one fixed, else 1 and, for a
    sequence of ``LONG_SEQUENCE`` tokens or more, each of ``CONTEXT_DEGREES`` that divides the
    GPUs and leaves every GPU at least 1,024 of the sequence's tokens."""
    if fixed.cp:
        return [fixed.cp]
    if shape.sequence < LONG_SEQUENCE:
        return [1]
    return [1] + [k for k in CONTEXT_DEGREES if gpus % k == 0 and shape.sequence // k >= 1024]


def _fitting(shape: ModelShape, groups: list[Candidates], cluster: Cluster, states: StateBytes,
             usable_gb: list[float], overhead_gb: float, host_usable_gb: float
             ) -> tuple[Candidates, MemoryParts, np.ndarray, np.ndarray, np.ndarray]:
    """(the groups' candidates as one set, their memory, what of it must fit the card, each
    one's usable memory, whether it fits that and a machine's usable RAM)."""
    c, mem = _memory(shape, groups, cluster, states, overhead_gb)
    limits = np.repeat(np.array(usable_gb, dtype=float), [g.size for g in groups])
    host = machine_host_gb(mem, c, cluster.gpus_per_node)
    if mem.paged is not None:  # paged states that do not fit the card wait in host RAM
        per_machine = np.minimum(c.gpus, cluster.gpus_per_node)
        host = host + np.clip(mem.total - np.maximum(limits, 0.0), 0.0,
                              mem.paged) * per_machine
    total = mem.needed  # paged optimizer states need no room of their own (memory.py)
    return c, mem, total, limits, (total <= limits) & (host <= host_usable_gb)


def _memory(shape: ModelShape, groups: list[Candidates], cluster: Cluster, states: StateBytes,
            overhead_gb: float) -> tuple[Candidates, MemoryParts]:
    """(the groups' candidates as one set, their memory), once per distinct input inside
    ``shared_memory.sharing_memory``: the memory reads only the cluster's
    ``MEMORY_FIELDS``."""
    def joined_memory() -> tuple[Candidates, MemoryParts]:
        c = groups[0] if len(groups) == 1 else Candidates(
            **{f.name: np.concatenate([getattr(g, f.name) for g in groups])
               for f in fields(Candidates)})
        return c, memory_parts(shape, c, cluster, states, overhead_gb)

    key = ("memory", shape, *(getattr(cluster, name) for name in MEMORY_FIELDS), states,
           overhead_gb, *map(id, groups))
    return remembered(key, tuple(groups), joined_memory)


def kept_by_memory(shape: ModelShape, groups: list[Candidates], cluster: Cluster,
                   states: StateBytes, usable_gb: list[float], overhead_gb: float,
                   host_usable_gb: float = float("inf")) -> list[float | None]:
    """What ``choose_many`` (``none_fit="smallest"``) decides from memory alone, per group:
    None where a candidate fits (which one is kept needs the step time), else the
    ``memory_gb`` of the layout it keeps, the smallest (also for an empty group: inf)."""
    sizes = [g.size for g in groups]
    if not sum(sizes):
        return [float("inf")] * len(groups)
    _, mem, total, limits, fits = _fitting(shape, groups, cluster, states, usable_gb,
                                           overhead_gb, host_usable_gb)
    starts = np.cumsum([0, *sizes]).tolist()
    smallest = {k: a + int(np.argmin(total[a:a + size]))
                for k, (a, size) in enumerate(zip(starts, sizes, strict=False))
                if size and not fits[a:a + size].any()}
    rows = np.array(list(smallest.values()), dtype=int)
    if mem.paged is None:  # nothing to evict: what must fit is all of it
        kept = total[rows].tolist()
    else:
        kept = evicted(sliced(mem, rows), limits[rows]).total.tolist() if rows.size else []
    gb = dict(zip(smallest, kept, strict=True))
    return [None if size and k not in gb else gb.get(k, float("inf"))
            for k, size in enumerate(sizes)]


def choose_many(shape: ModelShape, groups: list[Candidates], cluster: Cluster,
                states: StateBytes, q: LlmParams, grad_reduce_bytes: float,
                usable_gb: list[float], overhead_gb: float,
                none_fit: str = "smallest",
                host_usable_gb: float = float("inf")) -> list[Choice | None]:
    """The fastest candidate of each group that fits its usable memory (and, with states
    offloaded, a machine's usable RAM: ``host_usable_gb``), all groups evaluated in one
    vectorised pass (None for an empty group). When none fits: the smallest
    (``none_fit="smallest"``: how short the memory falls) or the fastest (a published run
    that did run: its throughput is what is scored).

    Every candidate's memory is computed; the step time only of those whose speed decides:
    the candidates that fit and, in a group where none fits, its smallest (or, with
    ``none_fit="fastest"``, all of it). Every figure of a candidate is computed from its own
    row alone, so leaving the others out changes none of them."""
    sizes = [g.size for g in groups]
    if not sum(sizes):
        return [None] * len(groups)
    c, mem, total, limits, fits = _fitting(shape, groups, cluster, states, usable_gb,
                                           overhead_gb, host_usable_gb)
    starts = np.cumsum([0, *sizes]).tolist()
    timed = fits.copy()
    for size, a in zip(sizes, starts, strict=False):
        if size and not timed[a:a + size].any():  # none of the group fits
            if none_fit == "fastest":
                timed[a:a + size] = True
            else:
                timed[a + int(np.argmin(total[a:a + size]))] = True
    rows = np.flatnonzero(timed)
    some = c if rows.size == c.size else c.take(rows)
    step = step_time(shape, some, cluster, states, q, grad_reduce_bytes)
    tokens = some.micro_batch.astype(float) * some.micro_batches * some.dp * shape.sequence
    per_gpu = tokens / (step.step_s * some.gpus)
    # each group's rows among the timed ones: the fastest of them is its pick
    bounds = np.searchsorted(rows, starts).tolist()
    picks = [lo + int(np.argmax(per_gpu[lo:hi]))
             for lo, hi, size in zip(bounds, bounds[1:], sizes, strict=False) if size]
    chosen = rows[picks]
    kept = KeptRows(evicted(sliced(mem, chosen), limits[chosen]), sliced(step, np.array(picks)))
    made = iter([Choice(layout=c.layout(i), fits=bool(fits[i]), tokens_per_step=float(tokens[j]),
                        kept=kept, row=k)
                 for k, (i, j) in enumerate(zip(chosen.tolist(), picks, strict=True))])
    return [next(made) if size else None for size in sizes]


def machine_host_gb(mem: MemoryParts, c: Candidates, gpus_per_node: int) -> np.ndarray:
    """Host memory one machine needs for its GPUs' offloaded states (0 without offload)."""
    if mem.host is None:
        return np.zeros(c.size)
    return mem.host * np.minimum(c.gpus, gpus_per_node)


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
