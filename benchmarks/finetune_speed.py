"""Fine-tuning step times against published ones (issue 31, cause 8), and the two constants of
the host's time fitted on them: ``host_layer_s`` and ``zero3_layer_s``.

Source: the Qwen (v1) README, "Profiling of Memory and Speed" (rows and quotes in
``benchmarks/data/llm_memory_claims.csv``; the s/it is read from each quote): seconds per
optimizer step of Qwen-1.8B / 7B / 14B / 72B at 256 to 8,192 tokens, batch 1 with gradient
accumulation 8, A100-SXM4-80GB, gradient checkpointing and FlashAttention-2, run with
QwenLM/Qwen's scripts of the time (read in the repository's history, Oct.-Dec. 2023):

* ``lora``: ``finetune_lora_single_gpu.sh`` (``--bf16``, no DeepSpeed), r = 64 on every linear
  layer, one GPU;
* ``qlora``: ``finetune_qlora_single_gpu.sh`` (the Int4 GPTQ chat model, ``--fp16``,
  DeepSpeed ZeRO-2), one GPU;
* ``lora_zero3``: 72B LoRA on 4 GPUs with ``ds_config_zero3.json`` (as the README says);
* ``full_zero3``: full-parameter, ``finetune_ds.sh``, whose DeepSpeed config was
  ``ds_config_zero3.json`` (1.8B on one GPU, 7B on two); on one GPU DeepSpeed still runs
  its hooks, and the one-GPU figure is that layout's (``layouts/engine.py``, the reference
  keeps a fine-tune's ZeRO-3);
* ``lora_multinode``: 7B LoRA on two servers of two GPUs, ``finetune_lora_ds.sh`` (ZeRO-2).
  The README says "the rest of configurations are the same", but that script's
  ``--per_device_train_batch_size`` is 2, and the published memory per GPU agrees with 2
  (within 5 % at every length, where batch 1 falls 23 % short at 8,192 tokens; printed
  below): the rows are scored at micro-batch 2. Per sequence they are then no slower than
  one GPU's: the published "halving" of the per-GPU speed is the doubled batch. The network
  between the servers is not stated (HDR InfiniBand taken; the adapters' gradients, 0.3 GB
  per micro-batch, weigh little on any);
* ``lora_emb`` (the embedding and output layer trained beside the adapters) is printed with
  the LoRA profile and not scored: a profile cannot train them.

Each point is a profile as a user would fill it (model shape, method, rank, precision,
sharding, batch 1 x 8 accumulation steps, checkpointing, GPU and count) projected through
``advisor.scaling.project``; the step is 8 x batch x tokens / the projected tokens per second
per GPU.

The mechanism (``advisor/scaling/llm_compute.py``, ``layouts/step.py``): a fine-tune's layers
are eager PyTorch modules launched kernel by kernel from Python; the host's time per layer and
pass does not shrink with the sequence, and the GPU waits for it when its own work is shorter
(a Qwen-1.8B LoRA step takes 1.0 s at 256 and at 512 tokens). DeepSpeed ZeRO-3 adds its
per-module fetch / release hooks and blocks the host on its gathers, so there the host's time
adds to the GPU's. Fitted, in this order, each a grid over the mean squared log error:
``host_layer_s`` on the 18 ``lora`` points (no dequantisation, no sharding), then
``zero3_layer_s`` on the 15 ZeRO-3 points; ``benchmarks/qlora_speed.py`` then refits Q-LoRA's
``dequant_bandwidth_share`` on the LoRA / Q-LoRA ratios. The 24 ``qlora`` and 6
``lora_multinode`` absolute times are fitted on by none of them. Every scored point comes
from one source, so there is no source to leave out: the cross-validation leaves one model
size out (all three constants refitted without it).

torchtune's README table ("Memory and training speed", tokens/s) is printed, not scored: the
recipes log ``num_tokens / time_per_step`` of rank 0 as "tokens_per_second_per_gpu", read so
the 70B LoRA on 8 A100s (3,497) would need 3.2 times an A100's dense bf16 peak for its
4 x 70.6 B FLOPs per token, and the 8B LoRA on one RTX A6000 (4,699) 97 % of that card's
(154.8 TFLOP/s); neither reading (per GPU, or summed over the GPUs) makes every row physical,
and the rows run torch.compile, which a profile cannot say. Unsloth's README gives speed-ups
over Hugging Face, not times.

Run: ``.venv/bin/python -m benchmarks.finetune_speed`` prints each point, the fit, the MAPE per
set and source and the leave-one-model-out MAPE; ``--write`` stores both constants in
``resources/scaling/llm_parameters.yaml`` (then rerun ``benchmarks.qlora_speed --write``).
"""

from __future__ import annotations

import argparse
import csv
import math
import re
from dataclasses import dataclass

import yaml

from advisor.profile import Profile
from advisor.scaling import project
from advisor.scaling.llm_compute import LlmParams, load_llm_params
from benchmarks import fit_llm, qlora_speed
from benchmarks.finetune_memory import LLAMA, QWEN
from benchmarks.llm_points import DATA

SOURCE = "qwen1_readme_profile"
ACCUMULATION = 8  # "batch size of 1 and gradient accumulation of 8"
HOST_GRID = [round(1e-4 * k, 6) for k in range(0, 41)]  # 0 to 4 ms per layer and pass
ZERO3_GRID = [round(1e-4 * k, 6) for k in range(0, 61)]  # 0 to 6 ms
SCORED = ("lora", "qlora", "lora_zero3", "full_zero3", "lora_multinode")
# the CSV's method cell and layout -> (set, method, GPUs per node, nodes, training settings)
_SETS = (
    ("lora (no trainable emb/output)", "lora", "lora", {"precision": "bf16"}),
    ("lora + trainable embedding", "lora_emb", "lora", {"precision": "bf16"}),
    ("qlora (Int4 GPTQ", "qlora", "qlora", {"precision": "fp16", "parallelism": "zero2"}),
    ("lora + DeepSpeed ZeRO-3", "lora_zero3", "lora",
     {"precision": "bf16", "parallelism": "zero3"}),
    ("lora (multinode)", "lora_multinode", "lora",
     {"precision": "bf16", "parallelism": "zero2", "batch_per_gpu": 2}),
    ("full", "full_zero3", "full", {"precision": "bf16", "parallelism": "zero3"}),
)


@dataclass(frozen=True)
class SpeedPoint:
    set: str
    size: str
    method: str
    sequence: int
    gpus_per_node: int
    nodes: int
    training: dict
    published_s: float  # seconds per optimizer step
    published_gb: float  # per GPU (the README's figure over the GPUs)
    source: str = SOURCE

    @property
    def key(self) -> str:
        return f"qwen-{self.size}-{self.set}-{self.sequence}"

    @property
    def gpus(self) -> int:
        return self.gpus_per_node * self.nodes

    @property
    def batch(self) -> int:
        return int(self.training.get("batch_per_gpu", 1))


def points() -> list[SpeedPoint]:
    """Every Qwen row with a published step time (the CSV's quotes)."""
    out = []
    for r in csv.DictReader((DATA / "llm_memory_claims.csv").open(encoding="utf-8")):
        found = re.search(r"([\d.]+)s/it", r["quote"])
        if r["source"] != SOURCE or not found:
            continue
        layout = re.match(r"(\d+) node x (\d+) GPU", r["layout"])
        nodes, per_node = int(layout.group(1)), int(layout.group(2))
        name, method, settings = next((s, m, t) for part, s, m, t in _SETS
                                      if r["method"].startswith(part))
        out.append(SpeedPoint(name, r["model"].removeprefix("Qwen-"), method, int(r["seq_len"]),
                              per_node, nodes, settings, float(found.group(1)),
                              float(r["value_gb"]) / (per_node * nodes)))
    return out


def profile_of(pt: SpeedPoint) -> Profile:
    hardware = {"gpu": "a100_sxm4_80gb", "gpus_per_node": pt.gpus_per_node, "nodes": pt.nodes,
                "intra_link": "nvswitch" if pt.gpus_per_node > 1 else "pcie4",
                "host_memory_gb": 1000}
    if pt.nodes > 1:
        hardware["inter_link"] = "infiniband_hdr"
    return Profile.model_validate({
        "task": "llm", "model": {**QWEN[pt.size], "sequence_length": pt.sequence},
        "training": {"dataset_tokens": 1e8, "fine_tuning": True, "method": pt.method,
                     "lora_rank": 64, "lora_target_share": 1.0, "batch_per_gpu": 1,
                     "gradient_accumulation_steps": ACCUMULATION,
                     "activation_checkpointing": "full", **pt.training},
        "hardware": hardware,
        "economics": {"mode": "cloud", "currency": "USD", "time_value": "none"}})


def projected(pt: SpeedPoint, q: LlmParams | None = None) -> tuple[float, float]:
    """(seconds per optimizer step, GB on the busiest GPU) with ``q`` (default: shipped)."""
    with qlora_speed.params(q or load_llm_params()):
        proj = project(profile_of(pt), [pt.gpus])
    step = ACCUMULATION * pt.batch * pt.sequence / proj.tokens_per_s_per_gpu[0]
    return step, proj.memory_per_gpu_gb[0]


def log_error(items: list[SpeedPoint], q: LlmParams) -> float:
    return sum(math.log(projected(pt, q)[0] / pt.published_s) ** 2
               for pt in items) / len(items)


def fit(items: list[SpeedPoint], base: LlmParams | None = None) -> LlmParams:
    """``host_layer_s`` on the LoRA points, then ``zero3_layer_s`` on the ZeRO-3 ones
    (module docstring); the other parameters as in ``base``."""
    q = base or load_llm_params()
    lora = [pt for pt in items if pt.set == "lora"]
    host = min(HOST_GRID, key=lambda v: log_error(lora, q.with_values(host_layer_s=v)))
    q = q.with_values(host_layer_s=host)
    sharded = [pt for pt in items if pt.set in ("lora_zero3", "full_zero3")]
    zero3 = min(ZERO3_GRID, key=lambda v: log_error(sharded, q.with_values(zero3_layer_s=v)))
    return q.with_values(zero3_layer_s=zero3)


def fit_all(items: list[SpeedPoint], base: LlmParams | None = None) -> LlmParams:
    """The host's two constants, then Q-LoRA's dequantisation share on the ratios of the
    sizes in ``items`` (``benchmarks.qlora_speed``)."""
    q = fit(items, base)
    sizes = {pt.size for pt in items}
    pairs = {k: v for k, v in qlora_speed.published().items() if k[0] in sizes}
    return q.with_values(dequant_bandwidth_share=qlora_speed.fit(pairs, q)) if pairs else q


def mape(rows: list[tuple[SpeedPoint, float]]) -> float:
    return 100.0 * sum(abs(p / pt.published_s - 1.0) for pt, p in rows) / max(len(rows), 1)


def leave_one_model_out(items: list[SpeedPoint]) -> list[tuple[SpeedPoint, float]]:
    """Each model size predicted with all three constants refitted without it."""
    out = []
    for size in sorted({pt.size for pt in items}):
        q = fit_all([pt for pt in items if pt.size != size])
        out += [(pt, projected(pt, q)[0]) for pt in items if pt.size == size]
    return out


def torchtune_rows() -> list[tuple[str, float, float]]:
    """(row, published tokens/s, projected tokens/s per GPU), not scored (module docstring):
    batch 2 of packed 2,048-token sequences, bf16 without fp32 masters, checkpointing on."""
    rows = (("8B full 1x RTX 4090", "8B", "full", "rtx4090", 1, 1650.0),
            ("8B full 1x RTX A6000", "8B", "full", "rtx_a6000", 1, 2579.0),
            ("8B LoRA 1x RTX 4090", "8B", "lora", "rtx4090", 1, 3083.0),
            ("8B LoRA 1x RTX A6000", "8B", "lora", "rtx_a6000", 1, 4699.0),
            ("8B QLoRA 1x RTX 4090", "8B", "qlora", "rtx4090", 1, 2413.0),
            ("70B LoRA 8x A100", "70B", "lora", "a100_sxm4_80gb", 8, 3497.0))
    out = []
    for name, size, method, gpu, gpus, published in rows:
        profile = Profile.model_validate({
            "task": "llm", "model": {**LLAMA[size], "sequence_length": 2048},
            "training": {"dataset_tokens": 1e8, "fine_tuning": True, "method": method,
                         "lora_rank": 16, "batch_per_gpu": 2, "precision": "bf16",
                         "pure_16bit": True, "activation_checkpointing": "full",
                         **({"parallelism": "fsdp"} if gpus > 1 else {})},
            "hardware": {"gpu": gpu, "gpus_per_node": gpus, "nodes": 1,
                         "intra_link": "nvswitch" if gpus > 1 else "pcie4",
                         "host_memory_gb": 1000},
            "economics": {"mode": "cloud", "currency": "USD", "time_value": "none"}})
        out.append((name, published, project(profile, [gpus]).tokens_per_s_per_gpu[0]))
    return out


def write(q: LlmParams) -> None:
    raw = yaml.safe_load(fit_llm.OUT.read_text(encoding="utf-8"))
    source = ("fitted on the Qwen (v1) README's step times, {what} "
              "(benchmarks/finetune_speed.py)")
    raw["parameters"]["host_layer_s"] = {
        "value": q.host_layer_s, "unit": "s per layer and pass", "fitted": True,
        "meaning": "host time to launch one layer's kernels for one pass of one micro-batch "
                   "(forward, recomputation; the backward counts two) in eager PyTorch: a "
                   "fine-tune's Hugging Face modules with LoRA adapters; the GPU waits for it "
                   "when its own work is shorter",
        "source": source.format(what="Qwen-1.8B/7B/14B LoRA on one A100")}
    raw["parameters"]["zero3_layer_s"] = {
        "value": q.zero3_layer_s, "unit": "s per layer and pass", "fitted": True,
        "meaning": "DeepSpeed ZeRO-3's per-module fetch and release hooks, per layer and pass; "
                   "it blocks the host on its gathers, so the host's time adds to the GPU's",
        "source": source.format(what="full-parameter 1.8B/7B and 72B LoRA under ZeRO-3")}
    fit_llm.dump(raw)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    items = points()
    scored = [pt for pt in items if pt.set in SCORED]
    fitted = fit(scored)
    shipped = load_llm_params()
    print(f"fitted host_layer_s {fitted.host_layer_s * 1e3:.2f} ms, zero3_layer_s "
          f"{fitted.zero3_layer_s * 1e3:.2f} ms per layer and pass (shipped "
          f"{shipped.host_layer_s * 1e3:.2f}, {shipped.zero3_layer_s * 1e3:.2f} ms); "
          f"dequant_bandwidth_share shipped {shipped.dequant_bandwidth_share}\n")
    print("| point | GPUs | published s/step | projected | error % | GB/GPU published | "
          "projected |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    rows = []
    for pt in items:
        step, gb = projected(pt)
        mark = "" if pt.set in SCORED else " (not scored)"
        print(f"| {pt.key}{mark} | {pt.gpus} | {pt.published_s:.2f} | {step:.2f} | "
              f"{100 * (step / pt.published_s - 1):+.0f} | {pt.published_gb:.1f} | {gb:.1f} |")
        if pt.set in SCORED:
            rows.append((pt, step))
    print(f"\nMAPE, shipped parameters: {mape(rows):.1f} % on {len(rows)} points "
          f"(source {SOURCE}: {mape(rows):.1f} %); <= 1,024 tokens: "
          f"{mape([r for r in rows if r[0].sequence <= 1024]):.1f} %")
    for name in SCORED:
        part = [r for r in rows if r[0].set == name]
        print(f"  {name:15s} {mape(part):5.1f} % ({len(part)} points)")
    multinode = [pt for pt in items if pt.set == "lora_multinode"]
    if multinode:
        print("\nlora_multinode at the README's batch 1 (the script's is 2): GB/GPU published "
              "vs projected")
        for pt in multinode:
            one = SpeedPoint(pt.set, pt.size, pt.method, pt.sequence, pt.gpus_per_node,
                             pt.nodes, {**pt.training, "batch_per_gpu": 1}, pt.published_s,
                             pt.published_gb)
            step, gb = projected(one)
            print(f"  {pt.sequence:5d}: {pt.published_gb:.1f} vs {gb:.1f} GB "
                  f"({100 * (gb / pt.published_gb - 1):+.0f} %), step {step:.2f} s")
    out = leave_one_model_out(scored)
    print(f"\nleave one model size out (host, ZeRO-3 and dequantisation constants refitted "
          f"without it): MAPE {mape(out):.1f} %; <= 1,024 tokens: "
          f"{mape([r for r in out if r[0].sequence <= 1024]):.1f} % (one source: no source "
          f"to leave out)")
    for name in SCORED:
        part = [r for r in out if r[0].set == name]
        print(f"  {name:15s} {mape(part):5.1f} %")
    print("\ntorchtune README (not scored: module docstring): published tokens/s vs projected "
          "per GPU")
    for name, published, model in torchtune_rows():
        print(f"  {name:22s} {published:7.0f} {model:7.0f}")
    if args.write:
        write(fitted)
        print(f"wrote {fit_llm.OUT.relative_to(fit_llm.ROOT)}")


if __name__ == "__main__":
    main()
