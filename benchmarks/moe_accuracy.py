"""Mixture-of-experts layouts against published MoE training runs (issue 32).

    .venv/bin/python -m benchmarks.moe_accuracy      # writes benchmarks/results/moe_accuracy.md

The runs are rows of ``benchmarks/data/moe_runs.csv``, each with its source, the passage it
was read from and the assumptions it needs (the points below are checked against the file,
so no number is typed twice). None of them is a reserved source, and nothing is fitted to
them: the layout model's parameters are the dense fit's (``resources/scaling/
llm_parameters.yaml``); an MoE adds only its physics (experts' memory, their narrower matmuls,
the all-to-all, the capacity factor: ``advisor/scaling/layouts/``).

Sets: ``measured`` (a throughput measured for the benchmark: Liu et al. 2025's Table 1, the
MCore rows whose expert parallelism sits inside data parallel as the advisor places it, and
its TP + EP + DP rows), ``run`` (a whole training run's GPU hours per token: DeepSeek-V2 and
DeepSeek 67B on the same H800 cluster, JetMoE-8B), ``context`` (reported, not scored: a
layout the advisor does not model, MoE Parallel Folding and FSDP without expert parallelism,
an unstated top-k, DeepSpeed-MoE's 2021 runs at 15 % of the A100's peak), ``claim`` (a
published out-of-memory: the advisor must find no layout that fits).

Each run is predicted twice: as the advisor now plans an MoE, and as it planned one before
(entered with its total parameters as a dense model), the error this issue set out to remove.
Tokens per second per GPU are scored (MFU x peak / (6 A + 12 L h s), the PaLM convention with
the active parameters A; GPU hours per trillion tokens; samples per second x sequence / GPUs).
Three ratios on one cluster are scored too: an MoE against the dense model of its quality
(DeepSeek-V2 against DeepSeek 67B; DeepSpeed-MoE's 1.3B+MoE-128 against 6.7B dense) and a
coarse against a fine-grained MoE of the same parameters (Mixtral-8x22B against G8T8).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from advisor.scaling.card_memory import usable_gb
from advisor.scaling.layouts.cluster import Cluster
from advisor.scaling.layouts.search import Fixed, best_layout
from advisor.scaling.layouts.shape import ModelShape, with_experts
from advisor.scaling.layouts.states import mixed_precision_adam
from advisor.scaling.llm_compute import load_llm_params
from advisor.scaling.parameters import load_params
from benchmarks.llm_points import Machines
from benchmarks.llm_points import cluster as dense_cluster
from benchmarks.llm_predict import Prediction

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "benchmarks" / "data" / "moe_runs.csv"
OUT = ROOT / "benchmarks" / "results" / "moe_accuracy.md"

# The machines, as the sources describe them; what they leave out is an assumption stated here.
CLUSTERS = {
    # Eos: DGX H100, NVLink 4, "400Gbps for inter-node (InfiniBand)" per GPU (Liu 2025 Sec. 4.1)
    "eos": Machines("h100_sxm", 8, "nvswitch", 8 * 400, "DGX H100, 8 x 400 Gb/s (stated)"),
    # DeepSeek's H800 nodes: NVLink + NVSwitch, InfiniBand; the adapters are not stated
    "h800": Machines("h800_sxm", 8, "nvswitch", 8 * 400, "8 x H800, 8 x 400 Gb/s (assumed)"),
    # JetMoE: 12 nodes of 8 H100 on NVLink, InfiniBand (adapters not stated)
    "jetmoe": Machines("h100_sxm", 8, "nvswitch", 8 * 400, "8 x H100, 8 x 400 Gb/s (assumed)"),
    # DeepSpeed-MoE: 128 A100s (machines not stated): Azure's 8 x A100 40GB, 8 x HDR
    "azure_a100": Machines("a100_sxm4_40gb", 8, "nvswitch", 8 * 200,
                           "8 x A100 40GB, 8 x 200 Gb/s HDR (assumed)"),
}
ANY = ("none", "selective", "full")


def cluster(name: str, flash: bool = True) -> Cluster:
    return dense_cluster(name, flash, machines=CLUSTERS)


@dataclass(frozen=True)
class MoePoint:
    key: str
    source: str  # source_id in moe_runs.csv
    model: str  # model cell (checked)
    gpus: int
    metric: str  # mfu | gpu_hours_per_trillion_tokens | samples_per_s | oom (checked)
    value: float  # value cell (checked)
    shape: ModelShape
    machines: str
    global_batch: int
    fixed: Fixed
    checkpointing: tuple[str, ...] = ANY
    set: str = "measured"
    flash: bool = True
    grad_reduce_bytes: float = 2.0
    note: str = ""

    def tokens_per_s_per_gpu(self) -> float:
        s = self.shape
        if self.metric == "mfu":
            per_token = 6.0 * s.active_params + 12.0 * s.layers * s.hidden * s.sequence
            return self.value * cluster(self.machines).peak_tflops * 1e12 / per_token
        if self.metric == "gpu_hours_per_trillion_tokens":
            return 1e12 / (self.value * 3600.0)
        if self.metric == "samples_per_s":
            return self.value * s.sequence / self.gpus
        raise ValueError(self.metric)


def moe(total_b: float, active_b: float, layers: int, hidden: int, heads: int, kv: int | None,
        vocab: int, seq: int, experts: int, top_k: int, width: int, shared: int = 0,
        dense_layers: int = 0, capacity_factor: float = 1.25) -> ModelShape:
    base = ModelShape(params=total_b * 1e9, layers=layers, hidden=hidden, heads=heads,
                      sequence=seq, vocab=vocab, kv_heads=kv)
    shape = with_experts(base, experts, top_k, active_b * 1e9, width, dense_layers, shared)
    return replace(shape, capacity_factor=capacity_factor)


def as_dense(shape: ModelShape) -> ModelShape:
    """How the advisor planned an MoE before issue 32: its total parameters as a dense model."""
    return ModelShape(params=shape.params, layers=shape.layers, hidden=shape.hidden,
                      heads=shape.heads, sequence=shape.sequence, vocab=shape.vocab,
                      kv_heads=shape.kv_heads)


# Liu et al. 2025 (token-dropping with capacity factor 1 for the benchmark; 4,096 tokens
# assumed, the length is not stated)
MIXTRAL_8X22B = moe(140.6, 39.1, 56, 6144, 48, 8, 32000, 4096, 8, 2, 16384,
                    capacity_factor=1.0)
QWEN2_57B = moe(57.4, 14.3, 28, 3584, 28, 4, 151936, 4096, 64, 8, 2560, shared=8,
                capacity_factor=1.0)
# 64 experts of 1/8 the width, 8 per token: 8 / 64 of Mixtral's 135.3 B routed parameters run
G8T8 = moe(140.6, 22.2, 56, 6144, 48, 8, 32000, 4096, 64, 8, 2048, capacity_factor=1.0)
LLAMA3_8X70B = moe(465.2, 126.9, 80, 8192, 64, 8, 128256, 4096, 8, 2, 28672,
                   capacity_factor=1.0)
DEEPSEEK_V2 = moe(236, 21, 60, 5120, 128, 128, 102400, 4096, 160, 6, 1536, shared=2,
                  dense_layers=1)
DEEPSEEK_67B = ModelShape(params=67e9, layers=95, hidden=8192, heads=64, sequence=4096,
                          vocab=102400, kv_heads=8)
JETMOE = moe(8, 2.2, 24, 2048, 16, 16, 32000, 4096, 8, 2, 5632)
DS_MOE = moe(52, 1.35, 24, 2048, 16, None, 51200, 2048, 128, 1, 8192, dense_layers=12)
DS_DENSE = ModelShape(params=6.7e9, layers=32, hidden=4096, heads=32, sequence=2048,
                      vocab=51200)

MCORE = Fixed(sharding=("none", "zero1"))  # Megatron-Core: plain or distributed optimizer
NO_PIPELINE = Fixed(pp=1, sharding=("zero1",))
FSDP = Fixed(tp=1, pp=1, sharding=("fsdp",))
MEGATRON = 4.0  # Megatron-LM reduces bf16 gradients in fp32


def points() -> list[MoePoint]:
    out = []
    t1 = (("Mixtral-8x22B", MIXTRAL_8X22B, 128, 0.463, 0.366, 0.493, 0.043),
          ("Qwen2-57B-A14B", QWEN2_57B, 64, 0.353, 0.231, 0.39, 0.099),
          ("Mixtral-8x22B-G8T8", G8T8, 128, 0.171, 0.087, 0.288, None))
    for name, shape, n, mcore, tpep, folding, fsdp in t1:
        key = name.lower()
        out.append(MoePoint(f"liu-mcore-{key}", "liu2025_t1", name, n, "mfu", mcore, shape,
                            "eos", 256, MCORE, grad_reduce_bytes=MEGATRON))
        out.append(MoePoint(f"liu-tp-ep-dp-{key}", "liu2025_t1", name, n, "mfu", tpep, shape,
                            "eos", 256, NO_PIPELINE, grad_reduce_bytes=MEGATRON))
        out.append(MoePoint(f"liu-folding-{key}", "liu2025_t1", name, n, "mfu", folding,
                            shape, "eos", 256, MCORE, set="context",
                            grad_reduce_bytes=MEGATRON, note="folding not modelled"))
        if fsdp is not None:
            out.append(MoePoint(f"liu-fsdp-{key}", "liu2025_t1", name, n, "mfu", fsdp, shape,
                                "eos", 256, FSDP, set="context",
                                note="every expert gathered per micro-batch"))
    out.append(MoePoint("liu-mcore-llama3-8x70b", "liu2025_t1", "Llama3-8x70B", 256, "mfu",
                        0.388, LLAMA3_8X70B, "eos", 256, MCORE, set="context",
                        grad_reduce_bytes=MEGATRON, note="top-2 assumed"))
    out.append(MoePoint("liu-tp-ep-dp-llama3-8x70b-oom", "liu2025_t1", "Llama3-8x70B", 256,
                        "oom", 1.0, LLAMA3_8X70B, "eos", 256, NO_PIPELINE, set="claim",
                        grad_reduce_bytes=MEGATRON))
    out.append(MoePoint("liu-fsdp-llama3-8x70b-oom", "liu2025_t1", "Llama3-8x70B", 256, "oom",
                        1.0, LLAMA3_8X70B, "eos", 256, FSDP, set="claim"))
    out.append(MoePoint("deepseek-v2", "deepseek2024_v2", "DeepSeek-V2", 1024,
                        "gpu_hours_per_trillion_tokens", 172800, DEEPSEEK_V2, "h800", 9216,
                        Fixed(tp=1, pp=16, ep=8, sharding=("zero1",)), ("selective", "full"),
                        set="run", note="1,024 GPUs assumed"))
    out.append(MoePoint("deepseek-67b", "deepseek2024_v2", "DeepSeek-67B", 1024,
                        "gpu_hours_per_trillion_tokens", 300600, DEEPSEEK_67B, "h800", 4608,
                        MCORE, set="run", note="dense; batch and GPU count assumed"))
    out.append(MoePoint("jetmoe-8b", "shen2024_jetmoe", "JetMoE-8B", 96,
                        "gpu_hours_per_trillion_tokens", 24000, JETMOE, "jetmoe", 1024,
                        Fixed(tp=1, ep=1, sharding=("none", "zero1")), set="run",
                        grad_reduce_bytes=MEGATRON, note="pipeline, no expert parallelism"))
    out.append(MoePoint("deepspeed-moe-1.3b-moe-128", "rajbhandari2022_t3", "1.3B+MoE-128",
                        128, "samples_per_s", 372, DS_MOE, "azure_a100", 512,
                        Fixed(tp=1, pp=1, ep=128, sharding=("none", "zero1", "zero2")),
                        set="context", flash=False, note="2021 DeepSpeed"))
    out.append(MoePoint("deepspeed-6.7b-dense", "rajbhandari2022_t3", "6.7B dense", 128,
                        "samples_per_s", 70, DS_DENSE, "azure_a100", 1024, Fixed(),
                        set="context", flash=False, note="2021 DeepSpeed"))
    return out


RATIOS = (  # (case, MoE point, the other point, what the source says of the other)
    ("DeepSeek-V2 / DeepSeek 67B (same H800 cluster)", "deepseek-v2", "deepseek-67b"),
    ("DeepSpeed-MoE 1.3B+MoE-128 / 6.7B dense (128 A100)", "deepspeed-moe-1.3b-moe-128",
     "deepspeed-6.7b-dense"),
    ("Mixtral-8x22B / its fine-grained G8T8 (MCore, 128 H100)", "liu-mcore-mixtral-8x22b",
     "liu-mcore-mixtral-8x22b-g8t8"),
)


def check_against_csv(items: list[MoePoint]) -> None:
    """Every point's cells must be those of its row in moe_runs.csv."""
    rows = list(csv.DictReader(DATA.open(encoding="utf-8")))
    for pt in items:
        hit = [r for r in rows if r["source_id"] == pt.source and r["model"] == pt.model
               and r["metric"] == pt.metric and int(r["gpus"]) == pt.gpus
               and abs(float(r["value"]) - pt.value) < 1e-9 * max(1.0, pt.value)]
        if not hit:
            raise ValueError(f"{pt.key}: no row {pt.source} / {pt.model} / {pt.metric} = "
                             f"{pt.value} in {DATA.name}")


def predict(pt: MoePoint, shape: ModelShape | None = None) -> Prediction:
    """The fastest fitting layout among what the source leaves open (as
    ``benchmarks.llm_predict``); when none fits, the fastest (the run did run)."""
    q = load_llm_params()
    c = cluster(pt.machines, pt.flash)
    states = mixed_precision_adam(c.bytes_per_value)
    best: Prediction | None = None
    for ck in pt.checkpointing:
        choice = best_layout(shape or pt.shape, pt.gpus, c, states, q, pt.grad_reduce_bytes,
                             pt.global_batch, ck, usable_gb(c.memory_gb, load_params()),
                             q.context_overhead_gb, pt.fixed, none_fit="fastest")
        if choice is None:
            continue
        cand = Prediction(choice.tokens_per_step / (choice.step_s * pt.gpus), choice, ck)
        if best is None or (cand.choice.fits, cand.tokens_per_s_per_gpu) > (
                best.choice.fits, best.tokens_per_s_per_gpu):
            best = cand
    if best is None:
        raise ValueError(f"{pt.key}: no layout")
    return best


def any_fits(pt: MoePoint) -> bool:
    return any(predict(replace(pt, checkpointing=(ck,))).choice.fits for ck in ANY)


def main() -> None:
    items = points()
    check_against_csv(items)
    by_key = {pt.key: pt for pt in items}
    rows, errs, before = [], {"measured": [], "run": []}, {"measured": [], "run": []}
    rates: dict[str, float] = {}
    for pt in items:
        if pt.set == "claim":
            continue
        y = pt.tokens_per_s_per_gpu()
        pred = predict(pt)
        dense = predict(pt, as_dense(pt.shape)) if pt.shape.is_moe else pred
        rates[pt.key] = pred.tokens_per_s_per_gpu
        e = pred.tokens_per_s_per_gpu / y - 1.0
        d = dense.tokens_per_s_per_gpu / y - 1.0
        if pt.set in errs:
            errs[pt.set].append(abs(e))
            if pt.shape.is_moe:
                before[pt.set].append(abs(d))
        peak = cluster(pt.machines).peak_tflops * 1e12
        s = pt.shape
        mfu = pred.tokens_per_s_per_gpu * (6.0 * s.active_params + 12.0 * s.layers * s.hidden
                                           * s.sequence) / peak
        lay = pred.choice.layout.label().en + ("" if pred.choice.fits else " (does not fit)")
        rows.append(f"| {pt.key} | {pt.set} | {pt.gpus} | {y:,.0f} | "
                    f"{pred.tokens_per_s_per_gpu:,.0f} | {e:+.1%} | "
                    f"{d:+.1%} | {mfu:.1%} | {lay} |" if pt.shape.is_moe else
                    f"| {pt.key} | {pt.set} | {pt.gpus} | {y:,.0f} | "
                    f"{pred.tokens_per_s_per_gpu:,.0f} | {e:+.1%} | (dense) | {mfu:.1%} | "
                    f"{lay} |")
    scored = errs["measured"] + errs["run"]
    lines = ["# Mixture-of-experts layouts against published runs", "",
             "Written by `python -m benchmarks.moe_accuracy`; data: "
             "`benchmarks/data/moe_runs.csv` (each row's source, passage and assumptions). "
             "Nothing is fitted to these runs.", "",
             f"- MAPE of tokens/s per GPU: {np.mean(scored):.1%} on {len(scored)} runs "
             f"(measured: {np.mean(errs['measured']):.1%} on {len(errs['measured'])}; whole "
             f"runs: {np.mean(errs['run']):.1%} on {len(errs['run'])})",
             f"- the same MoE runs planned as before issue 32 (total parameters as a dense "
             f"model): MAPE {np.mean(before['measured'] + before['run']):.1%} on "
             f"{len(before['measured'] + before['run'])}", ""]
    lines += ["## Throughput (tokens/s per GPU)", "",
              "| run | set | GPUs | published | predicted | error | as dense (before) | "
              "predicted MFU | layout kept |", "|---|---|---|---|---|---|---|---|---|", *rows]
    lines += ["", "## Ratios on one cluster (tokens/s per GPU)", "",
              "| case | published | predicted | error |", "|---|---|---|---|"]
    ratio_errs = []
    for case, a, b in RATIOS:
        published = by_key[a].tokens_per_s_per_gpu() / by_key[b].tokens_per_s_per_gpu()
        predicted = rates[a] / rates[b]
        ratio_errs.append(abs(predicted / published - 1.0))
        lines.append(f"| {case} | {published:.2f} | {predicted:.2f} | "
                     f"{predicted / published - 1.0:+.1%} |")
    lines.insert(6, f"- MoE against dense and coarse against fine-grained on one cluster: "
                    f"ratio MAPE {np.mean(ratio_errs):.1%} on {len(ratio_errs)}")
    lines += ["", "## Out-of-memory claims", "", "| run | published | a layout fits |",
              "|---|---|---|"]
    agree = 0
    claims = [pt for pt in items if pt.set == "claim"]
    for pt in claims:
        fits = any_fits(pt)
        agree += not fits
        lines.append(f"| {pt.key} | OOM | {'yes' if fits else 'no'} |")
    lines.insert(7, f"- {agree} of {len(claims)} out-of-memory claims agree")
    lines += ["", "## Machines", "", *[f"- {k}: {m.note}" for k, m in CLUSTERS.items()], ""]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines[:9]))
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
