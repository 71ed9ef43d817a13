"""One way to split a training job over GPUs, and its name in both languages.

``Candidates`` holds many layouts as parallel numpy arrays (the search evaluates them all at
once); ``Layout`` is one of them, with a label such as "TP 8 x PP 4 x DP 16, ZeRO-1".

A mixture of experts may also split its routed experts over ``ep`` of the data-parallel
replicas (expert parallelism inside data parallel, as GShard, DeepSpeed-MoE and Megatron-LM
place it): each holds E / ep of every MoE layer's experts and the tokens travel to them by
all-to-all; ``ep`` divides both the experts and the data-parallel degree, and does not change
the GPU count ("TP 2 x PP 4 x DP 16 (EP 8)").

A long sequence may also be split over ``cp`` GPUs (context parallelism: Megatron-LM's
``--context-parallel-size``, ring attention, Llama 3's all-gathered keys and values): each
holds and computes 1 / cp of every sequence's tokens, its attention reading the others' keys
and values; the GPUs of a context-parallel group hold the same weights, so they reduce their
gradients and share their ZeRO / FSDP shards with the data-parallel replicas (dp x cp GPUs).
GPUs = tp x cp x pp x dp ("TP 8 x CP 16 x PP 16 x DP 4").
"""

from __future__ import annotations

from dataclasses import fields
from functools import lru_cache

import numpy as np

from advisor.files.records import record
from advisor.text.i18n import Text

# How the data-parallel replicas hold their states (codes used in the arrays).
SHARDING = ("none", "zero1", "zero2", "zero3", "fsdp", "hsdp")
NONE, ZERO1, ZERO2, ZERO3, FSDP, HSDP = range(len(SHARDING))
CHECKPOINTING = ("none", "selective", "full")
CK_NONE, CK_SELECTIVE, CK_FULL = range(len(CHECKPOINTING))

_SHARDING_WORDS = {
    "zero1": ("ZeRO-1", "ZeRO-1"), "zero2": ("ZeRO-2", "ZeRO-2"), "zero3": ("ZeRO-3", "ZeRO-3"),
    "fsdp": ("FSDP full shard", "FSDP 全分片"), "hsdp": ("FSDP hybrid shard", "FSDP 混合分片"),
}
_CHECKPOINT_WORDS = {"selective": ("selective recomputation", "选择性重计算"),
                     "full": ("full recomputation", "完整重计算")}


@record
class Layout:
    tp: int
    pp: int
    dp: int
    sharding: str = "none"
    micro_batch: int = 1  # sequences per micro-batch of one replica
    micro_batches: int = 1  # micro-batches per replica per optimizer step
    interleave: int = 1  # model chunks per GPU (interleaved 1F1B)
    checkpointing: str = "none"
    sequence_parallel: bool = True  # with tp > 1 (Megatron-LM --sequence-parallel)
    ep: int = 1  # expert parallel: data-parallel replicas one MoE layer's experts are split over
    cp: int = 1  # context parallel: GPUs one sequence's tokens are split over

    @property
    def gpus(self) -> int:
        return self.tp * self.cp * self.pp * self.dp

    @property
    def family(self) -> str:
        """The coarse name the rules use: data | zero | fsdp | tensor | pipeline | hybrid."""
        split = (self.tp > 1) + (self.pp > 1) + (self.cp > 1)
        if split == 0:
            return {"none": "data", "zero1": "zero", "zero2": "zero", "zero3": "zero"}.get(
                self.sharding, "fsdp")
        if split == 2 or self.dp > 1:
            return "hybrid"
        if self.cp > 1:  # the sequence split: a model split over GPUs (no family of its own)
            return "hybrid"
        return "tensor" if self.tp > 1 else "pipeline"

    def label(self) -> Text:
        """E.g. "TP 8 x PP 4 x DP 16, ZeRO-1, micro-batch 1 x 32"."""
        text = self.__dict__.get("_label")
        if text is None:  # kept on the (frozen) layout: the search hands out shared layouts
            text = self.__dict__["_label"] = _label(
                self.tp, self.pp, self.dp, self.interleave, self.sharding, self.checkpointing,
                self.micro_batch, self.micro_batches, self.ep, self.cp)
        return text


# each search hands out new layouts, and the same layout is kept at a count by several
# options and setting changes: its label is made once (a Text is frozen)
@lru_cache(maxsize=1024)
def _label(tp: int, pp: int, dp: int, interleave: int, sharding: str, checkpointing: str,
           micro_batch: int, micro_batches: int, ep: int = 1, cp: int = 1) -> Text:
    dims = [f"{name} {k}" for name, k in (("TP", tp), ("CP", cp), ("PP", pp), ("DP", dp))
            if k > 1] or ["1 GPU"]
    en, zh = [" × ".join(dims)], [" × ".join(dims).replace("1 GPU", "单卡")]
    if ep > 1:
        en[0] += f" (EP {ep})"
        zh[0] += f"（专家并行 {ep}）"
    if interleave > 1:
        en.append(f"{interleave} chunks per GPU")
        zh.append(f"每卡 {interleave} 个交错块")
    if sharding in _SHARDING_WORDS and dp > 1:
        e, z = _SHARDING_WORDS[sharding]
        en.append(e)
        zh.append(z)
    if checkpointing in _CHECKPOINT_WORDS:
        e, z = _CHECKPOINT_WORDS[checkpointing]
        en.append(e)
        zh.append(z)
    en.append(f"micro-batch {micro_batch} × {micro_batches}")
    zh.append(f"微批次 {micro_batch} × {micro_batches}")
    return Text(en=", ".join(en), zh="，".join(zh))


@record
class Candidates:
    """Many layouts at once: parallel integer arrays, one entry per candidate."""

    tp: np.ndarray
    pp: np.ndarray
    dp: np.ndarray
    sharding: np.ndarray  # index into SHARDING
    micro_batch: np.ndarray
    micro_batches: np.ndarray
    interleave: np.ndarray
    checkpointing: np.ndarray  # index into CHECKPOINTING
    sequence_parallel: np.ndarray  # bool
    ep: np.ndarray  # expert-parallel degree (1: every expert on every replica)
    cp: np.ndarray  # context-parallel degree (1: every GPU holds whole sequences)

    @property
    def size(self) -> int:
        return int(self.tp.size)

    @property
    def gpus(self) -> np.ndarray:
        return self.tp * self.cp * self.pp * self.dp

    @property
    def replicas(self) -> np.ndarray:
        """GPUs that hold the same weights and reduce their gradients together: the
        data-parallel replicas and, inside each, its context-parallel ranks."""
        return self.dp * self.cp

    def take(self, index: np.ndarray) -> Candidates:
        return Candidates(**{f.name: getattr(self, f.name)[index] for f in fields(self)})

    def layout(self, i: int) -> Layout:
        return Layout(tp=int(self.tp[i]), pp=int(self.pp[i]), dp=int(self.dp[i]),
                      sharding=SHARDING[int(self.sharding[i])],
                      micro_batch=int(self.micro_batch[i]),
                      micro_batches=int(self.micro_batches[i]),
                      interleave=int(self.interleave[i]),
                      checkpointing=CHECKPOINTING[int(self.checkpointing[i])],
                      sequence_parallel=bool(self.sequence_parallel[i]), ep=int(self.ep[i]),
                      cp=int(self.cp[i]))


def candidates_of(layouts: list[Layout]) -> Candidates:
    """Arrays of explicit layouts (tests and benchmarks describe published runs this way)."""
    def col(name, convert=lambda v: v):
        return np.array([convert(getattr(x, name)) for x in layouts])
    return Candidates(tp=col("tp"), pp=col("pp"), dp=col("dp"),
                      sharding=col("sharding", SHARDING.index),
                      micro_batch=col("micro_batch"), micro_batches=col("micro_batches"),
                      interleave=col("interleave"),
                      checkpointing=col("checkpointing", CHECKPOINTING.index),
                      sequence_parallel=col("sequence_parallel").astype(bool), ep=col("ep"),
                      cp=col("cp"))
