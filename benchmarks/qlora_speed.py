"""How much slower Q-LoRA is than LoRA on the same card, against Qwen's published step times
(issue 30, cause 8), and the one constant fitted on them: ``dequant_bandwidth_share``.

Qwen (v1) README, "Profiling of Memory and Speed" (rows in
``benchmarks/data/llm_memory_claims.csv``, the s/it in each quote): Qwen-1.8B, 7B and 14B,
LoRA (r = 64 on every linear layer, ``--bf16``) against Q-LoRA (the Int4 GPTQ chat model as the
frozen base, ``--fp16`` under DeepSpeed ZeRO-2), batch 1 with gradient accumulation 8, one
A100-SXM4-80GB, checkpointing and FlashAttention-2, sequences of 256 to 8,192 tokens. Q-LoRA
adds an almost constant time per step whatever the sequence (7B: 1.5-1.8 s of 8 micro-batches;
14B: 3.1-3.9 s): the dequantisation of every frozen weight on every pass, about seven times
what streaming its bytes at the card's bandwidth would take (small kernels, one per matrix,
table lookups). The product models it as the dequantisation's bytes at a share of the memory
bandwidth; that share is the only number fitted here (a grid over the log ratio Q-LoRA / LoRA of
the 18 pairs). The source is allowed for fitting (DEVELOPERS.md); the issue's independent
checks on other sources are not used.

Run: ``.venv/bin/python -m benchmarks.qlora_speed`` prints each pair, the fitted share and the
error; ``--write`` stores the share in ``resources/scaling/llm_parameters.yaml``.
"""

from __future__ import annotations

import argparse
import csv
import math
import re
from contextlib import contextmanager
from pathlib import Path

import yaml

import advisor.scaling.layout_projection as layout_projection
import advisor.scaling.layouts.engine as engine
from advisor.profile import Profile
from advisor.scaling import project
from advisor.scaling.llm_compute import LlmParams, load_llm_params
from benchmarks import fit_llm
from benchmarks.finetune_memory import _QWEN_METHOD, _QWEN_RUN, QWEN
from benchmarks.llm_points import DATA

ROOT = Path(__file__).resolve().parent.parent
OUT = fit_llm.OUT
SIZES = ("1.8B", "7B", "14B")
GRID = [round(0.02 * k, 2) for k in range(2, 51)]


def published() -> dict[tuple[str, int], dict[str, float]]:
    """(size, sequence) -> {"lora": s/it, "qlora": s/it} from the CSV's quotes."""
    rows = csv.DictReader((DATA / "llm_memory_claims.csv").open(encoding="utf-8"))
    out: dict[tuple[str, int], dict[str, float]] = {}
    for r in rows:
        if r["source"] != "qwen1_readme_profile" or r["layout"] != "1 node x 1 GPU":
            continue
        size = r["model"].removeprefix("Qwen-")
        method = next((m for m, part in _QWEN_METHOD.items() if part in r["method"]), None)
        found = re.search(r"([\d.]+)s/it", r["quote"])
        if size in SIZES and method and found:
            out.setdefault((size, int(r["seq_len"])), {})[method] = float(found.group(1))
    return {k: v for k, v in out.items() if len(v) == 2}


def profile_of(size: str, seq: int, method: str) -> Profile:
    return Profile.model_validate({
        "task": "llm", "model": {**QWEN[size], "sequence_length": seq},
        "training": {"dataset_tokens": 1e8, "fine_tuning": True, "method": method,
                     "lora_rank": 64, "lora_target_share": 1.0, "batch_per_gpu": 1,
                     "gradient_accumulation_steps": 8,
                     "activation_checkpointing": "full", **_QWEN_RUN[method]},
        "hardware": {"gpu": "a100_sxm4_80gb", "gpus_per_node": 1, "nodes": 1,
                     "intra_link": "pcie4", "host_memory_gb": 1000},
        "economics": {"mode": "cloud", "currency": "USD", "time_value": "none"}})


@contextmanager
def params(q: LlmParams):
    """Project with ``q`` instead of the shipped parameters."""
    saved = layout_projection.load_llm_params, engine.load_llm_params
    layout_projection.load_llm_params = engine.load_llm_params = lambda: q
    try:
        yield
    finally:
        layout_projection.load_llm_params, engine.load_llm_params = saved


def seconds_per_sequence(size: str, seq: int, method: str) -> float:
    proj = project(profile_of(size, seq, method), [1])
    return seq / proj.tokens_per_s_per_gpu[0]


def ratios(q: LlmParams, pairs) -> list[tuple[tuple[str, int], float, float]]:
    """(pair, published Q-LoRA / LoRA, projected) for every pair."""
    with params(q):
        return [(k, v["qlora"] / v["lora"],
                 seconds_per_sequence(*k, "qlora") / seconds_per_sequence(*k, "lora"))
                for k, v in sorted(pairs.items())]


def log_error(rows) -> float:
    return sum(math.log(p / m) ** 2 for _, m, p in rows) / len(rows)


def fit(pairs, base: LlmParams | None = None) -> float:
    """The share on ``pairs``, every other parameter as in ``base`` (default: shipped; the
    host's time, ``benchmarks/finetune_speed.py``, comes first)."""
    base = base or load_llm_params()
    return min(GRID, key=lambda s: log_error(ratios(base.with_values(
        dequant_bandwidth_share=s), pairs)))


def write(share: float) -> None:
    raw = yaml.safe_load(OUT.read_text(encoding="utf-8"))
    raw["parameters"]["dequant_bandwidth_share"] = {
        "value": share, "unit": "1", "fitted": True,
        "meaning": "share of the memory bandwidth at which a 4-bit frozen weight is "
                   "dequantised to 16 bits on each pass (Q-LoRA); the rest of the step is "
                   "the LoRA step",
        "source": "fitted on the Qwen (v1) README's LoRA vs Q-LoRA s/it, Qwen-1.8B/7B/14B "
                  "on one A100 (benchmarks/qlora_speed.py)"}
    fit_llm.dump(raw)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    pairs = published()
    share = fit(pairs)
    rows = ratios(load_llm_params().with_values(dequant_bandwidth_share=share), pairs)
    print("| model | sequence | Q-LoRA / LoRA published | projected | error % |")
    print("|---|---:|---:|---:|---:|")
    for (size, seq), m, p in rows:
        print(f"| Qwen-{size} | {seq} | {m:.2f} | {p:.2f} | {100 * (p / m - 1):+.0f} |")
    mape = 100 * sum(abs(p / m - 1) for _, m, p in rows) / len(rows)
    shipped = ratios(load_llm_params(), pairs)
    print(f"\nfitted dequant_bandwidth_share {share} on {len(rows)} pairs: ratio MAPE "
          f"{mape:.1f} % (shipped value {load_llm_params().dequant_bandwidth_share}: "
          f"{100 * sum(abs(p / m - 1) for _, m, p in shipped) / len(shipped):.1f} %)")
    if args.write:
        write(share)
        print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
