"""One way to split a training job over GPUs, and its name in both languages.

``Candidates`` holds many layouts as parallel numpy arrays (the search evaluates them all at
once); ``Layout`` is one of them, with a label such as "TP 8 x PP 4 x DP 16, ZeRO-1".
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

    @property
    def gpus(self) -> int:
        return self.tp * self.pp * self.dp

    @property
    def family(self) -> str:
        """The coarse name the rules use: data | zero | fsdp | tensor | pipeline | hybrid."""
        split = (self.tp > 1) + (self.pp > 1)
        if split == 0:
            return {"none": "data", "zero1": "zero", "zero2": "zero", "zero3": "zero"}.get(
                self.sharding, "fsdp")
        if split == 2 or self.dp > 1:
            return "hybrid"
        return "tensor" if self.tp > 1 else "pipeline"

    def label(self) -> Text:
        """E.g. "TP 8 x PP 4 x DP 16, ZeRO-1, micro-batch 1 x 32"."""
        text = self.__dict__.get("_label")
        if text is None:  # kept on the (frozen) layout: the search hands out shared layouts
            text = self.__dict__["_label"] = _label(
                self.tp, self.pp, self.dp, self.interleave, self.sharding, self.checkpointing,
                self.micro_batch, self.micro_batches)
        return text


# each search hands out new layouts, and the same layout is kept at a count by several
# options and setting changes: its label is made once (a Text is frozen)
@lru_cache(maxsize=1024)
def _label(tp: int, pp: int, dp: int, interleave: int, sharding: str, checkpointing: str,
           micro_batch: int, micro_batches: int) -> Text:
    dims = [f"{name} {k}" for name, k in (("TP", tp), ("PP", pp), ("DP", dp)) if k > 1] \
        or ["1 GPU"]
    en, zh = [" × ".join(dims)], [" × ".join(dims).replace("1 GPU", "单卡")]
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

    @property
    def size(self) -> int:
        return int(self.tp.size)

    def take(self, index: np.ndarray) -> Candidates:
        return Candidates(**{f.name: getattr(self, f.name)[index] for f in fields(self)})

    def layout(self, i: int) -> Layout:
        return Layout(tp=int(self.tp[i]), pp=int(self.pp[i]), dp=int(self.dp[i]),
                      sharding=SHARDING[int(self.sharding[i])],
                      micro_batch=int(self.micro_batch[i]),
                      micro_batches=int(self.micro_batches[i]),
                      interleave=int(self.interleave[i]),
                      checkpointing=CHECKPOINTING[int(self.checkpointing[i])],
                      sequence_parallel=bool(self.sequence_parallel[i]))


def candidates_of(layouts: list[Layout]) -> Candidates:
    """Arrays of explicit layouts (tests and benchmarks describe published runs this way)."""
    def col(name, convert=lambda v: v):
        return np.array([convert(getattr(x, name)) for x in layouts])
    return Candidates(tp=col("tp"), pp=col("pp"), dp=col("dp"),
                      sharding=col("sharding", SHARDING.index),
                      micro_batch=col("micro_batch"), micro_batches=col("micro_batches"),
                      interleave=col("interleave"),
                      checkpointing=col("checkpointing", CHECKPOINTING.index),
                      sequence_parallel=col("sequence_parallel").astype(bool))
