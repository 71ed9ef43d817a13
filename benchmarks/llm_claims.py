"""Published fit / out-of-memory claims and measured memory, as checks of the memory model.

Each claim names its row of ``benchmarks/data/llm_memory_claims.csv`` (source, a piece of the
model cell, the claim; checked when loaded) and the layout the source describes. A claim
"fits" holds when the busiest GPU needs at most the usable memory (the GPU's memory x
``memory_usable_fraction``), "oom" when it needs more; "gb" compares the GB. What a source
leaves open is stated in ``note`` (a micro-batch of 1 where none is given, the attention
kernel of the time). Fine-tuning methods and offload (LoRA, QLoRA, ZeRO-Offload) are scored by
``benchmarks/finetune_memory.py``.

Run: ``.venv/bin/python -m benchmarks.llm_claims``: each claim, the GB its busiest GPU needs,
the usable GB, and the margin (``benchmarks/llm_accuracy.py`` writes the same table).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass

from advisor.scaling.layouts.layout import Layout
from advisor.scaling.layouts.shape import ModelShape
from benchmarks.llm_points import DATA


@dataclass(frozen=True)
class Claim:
    key: str
    source: str
    model_part: str
    claim: str  # fits | oom | gb
    shape: ModelShape
    machines: str  # benchmarks.llm_points.CLUSTERS (the GPU's memory matters)
    layout: Layout
    flash: bool = False
    fp32: bool = False
    value_gb: float | None = None
    note: str = ""
    row_claim: str | None = None  # the row's own claim when it states the opposite case


def _gpt(params_b, layers, hidden, heads, seq, vocab=50257):
    return ModelShape(params_b * 1e9, layers, hidden, heads, seq, vocab)


GPT2_15 = _gpt(1.5, 48, 1600, 16, 1024)
GPT2_10B = _gpt(10.0, 50, 4096, 32, 1024)
GPT2_L = _gpt(0.762, 36, 1280, 20, 128)
GPT2_XL = _gpt(1.5, 48, 1600, 25, 128)
K = {"22B": _gpt(22, 48, 6144, 64, 2048, 51200), "175B": _gpt(175, 96, 12288, 96, 2048, 51200),
     "530B": _gpt(530, 105, 20480, 128, 2048, 51200),
     "1T": _gpt(1000, 128, 25600, 160, 2048, 51200)}
K_LAYOUT = {"22B": (1, 4, 4), "175B": (8, 1, 64), "530B": (35, 1, 280), "1T": (64, 1, 512)}


def claims() -> list[Claim]:
    out = [
        Claim("deepspeed-gpt2-1.5B-dp8-oom", "deepspeed_zero_tutorial", "GPT-2 1.5B", "oom",
              GPT2_15, "dgx2h", Layout(1, 1, 8, micro_batch=1), note="batch 1 per GPU"),
        Claim("deepspeed-gpt2-1.5B-zero1-fits", "deepspeed_zero_tutorial", "GPT-2 1.5B", "fits",
              GPT2_15, "dgx2h", Layout(1, 1, 8, "zero1", micro_batch=1)),
        Claim("deepspeed-gpt2-10B-zero2-fits", "deepspeed_zero_tutorial", "GPT-2 10B", "fits",
              GPT2_10B, "dgx2h", Layout(1, 1, 32, "zero2", micro_batch=1, checkpointing="full"),
              note="micro-batch not stated: 1"),
        Claim("zero-gpt2-1.5B-1gpu-oom", "zero2019_s3", "GPT-2 1.5B", "oom", GPT2_15, "dgx2h",
              Layout(1, 1, 1, micro_batch=1)),
        Claim("zero-dp-1.5B-oom", "zero2019_s104", "GPT-2-like", "oom", GPT2_15, "dgx2h",
              Layout(1, 1, 128, micro_batch=1), note="'largest with DP alone 1.4B'"),
        Claim("narayanan-530B-zero3-560-oom", "narayanan2021_t2", "GPT 530B", "oom", K["530B"],
              "selene", Layout(1, 1, 560, "zero3", micro_batch=4, checkpointing="full")),
        Claim("narayanan-530B-zero3-640-fits", "narayanan2021_t2", "GPT 530B", "fits",
              K["530B"], "selene", Layout(1, 1, 640, "zero3", micro_batch=4,
                                          checkpointing="full"),
              note="the same row: 'fits on 640 GPUs at microbatch 4'", row_claim="oom"),
        Claim("narayanan-20B-tp8-fits", "narayanan2021_s1", "GPT", "fits",
              _gpt(20, 44, 6144, 48, 2048, 51200), "selene",
              Layout(8, 1, 1, micro_batch=1, checkpointing="full", sequence_parallel=False),
              note="'about 20B' on one 8-GPU machine by tensor parallel; shape assumed"),
        Claim("fsdp-175B-128-fits", "fsdp2023_s54", "minGPT-175B", "fits",
              _gpt(175, 96, 12288, 96, 2048, 50000), "fsdp_roce",
              Layout(1, 1, 128, "fsdp", micro_batch=2, checkpointing="full"),
              note="ran; the allocator reserved all 80 GB (fragmentation), not scored as GB",
              row_claim="measured_gb"),
        Claim("fsdp-t5-2.28B-ddp-fits", "fsdp2023_s52", "T5", "fits",
              ModelShape(2.28e9, 48, 1024, 32, 512, 32128), "fsdp_roce",
              Layout(1, 1, 8, micro_batch=8, checkpointing="full"),
              note="encoder-decoder taken as 48 layers of the parameters' width; batch 8",
              row_claim="oom"),
        Claim("fsdp-t5-11B-ddp-oom", "fsdp2023_s52", "T5", "oom",
              ModelShape(11e9, 48, 1024, 128, 512, 32128), "fsdp_roce",
              Layout(1, 1, 8, micro_batch=8, checkpointing="full")),
        Claim("fsdp-t5-11B-fsdp-fits", "fsdp2023_s52", "T5", "fits",
              ModelShape(11e9, 48, 1024, 128, 512, 32128), "fsdp_roce",
              Layout(1, 1, 8, "fsdp", micro_batch=8, checkpointing="full"), row_claim="oom"),
        Claim("hf-gpt2-large-ddp-b7-fits", "hf_blog_pytorch_fsdp_t1", "GPT-2 Large", "fits",
              GPT2_L, "titan", Layout(1, 1, 2, micro_batch=7), fp32=True),
        Claim("hf-gpt2-large-shardgradop-b11-fits", "hf_blog_pytorch_fsdp_t1", "GPT-2 Large",
              "fits", GPT2_L, "titan", Layout(1, 1, 2, "zero2", micro_batch=11), fp32=True),
        Claim("hf-gpt2-large-fullshard-b15-fits", "hf_blog_pytorch_fsdp_t1", "GPT-2 Large",
              "fits", GPT2_L, "titan", Layout(1, 1, 2, "fsdp", micro_batch=15), fp32=True),
        Claim("hf-gpt2-xl-ddp-1gpu-oom", "hf_blog_pytorch_fsdp_t2", "GPT-2 XL", "oom", GPT2_XL,
              "titan", Layout(1, 1, 1, micro_batch=1), fp32=True),
        Claim("hf-gpt2-xl-ddp-2gpu-oom", "hf_blog_pytorch_fsdp_t2", "GPT-2 XL", "oom", GPT2_XL,
              "titan", Layout(1, 1, 2, micro_batch=1), fp32=True),
        Claim("hf-gpt2-xl-fsdp-b5-fits", "hf_blog_pytorch_fsdp_t2", "GPT-2 XL", "fits", GPT2_XL,
              "titan", Layout(1, 1, 2, "fsdp", micro_batch=5), fp32=True),
        Claim("peft-mt0-xxl-full-oom", "peft_readme", "mt0-xxl", "oom",
              ModelShape(12.9e9, 48, 4096, 64, 256, 250112), "a100_1", Layout(1, 1, 1),
              note="full fine-tuning on one A100 80GB; short sequences (256 assumed)"),
        Claim("peft-bloomz-7b1-full-oom", "peft_readme", "bloomz-7b1", "oom",
              ModelShape(7.07e9, 30, 4096, 32, 256, 250880), "a100_1", Layout(1, 1, 1)),
        Claim("hf-bert-large-measured", "hf_model_memory_anatomy", "bert-large", "gb",
              ModelShape(0.336e9, 24, 1024, 16, 512, 30522), "v100_16",
              Layout(1, 1, 1, micro_batch=4), fp32=True, value_gb=14.949,
              note="fp32 AdamW, batch 4 of 512 tokens, one V100 16 GB"),
    ]
    for name, (p, b, batch) in K_LAYOUT.items():
        v = 3 if name in ("175B", "530B") else 1
        out.append(Claim(f"korthikanti-{name}-no-recompute-oom", "korthikanti2022_s61",
                         "GPT 22B/175B/530B/1T", "oom", K[name], "selene",
                         Layout(8, p, 1, micro_batch=b, micro_batches=batch // b, interleave=v,
                                sequence_parallel=False)))
        out.append(Claim(f"korthikanti-{name}-selective-fits", "korthikanti2022_s61",
                         "GPT 22B/175B/530B/1T", "fits", K[name], "selene",
                         Layout(8, p, 1, micro_batch=b, micro_batches=batch // b, interleave=v,
                                checkpointing="selective", sequence_parallel=True),
                         note="the Table 5 runs with sequence parallel + selective ran",
                         row_claim="oom"))
    return out


def check_against_csv(items: list[Claim]) -> None:
    rows = list(csv.DictReader((DATA / "llm_memory_claims.csv").open(encoding="utf-8")))
    for c in items:
        want = c.row_claim or {"gb": "measured_gb"}.get(c.claim, c.claim)
        if not any(r["source"] == c.source and c.model_part in r["model"] and r["claim"] == want
                   for r in rows):
            raise ValueError(f"{c.key}: no row {c.source} / {c.model_part} / {want}")


def main() -> None:
    from advisor.scaling.card_memory import usable_gb
    from advisor.scaling.parameters import load_params
    from benchmarks.llm_accuracy import claim_memory
    from benchmarks.llm_points import cluster

    items = claims()
    check_against_csv(items)
    agree = 0
    print(f"{'claim':<40} {'says':>9} {'needs':>7} {'usable':>7} {'margin':>7}")
    for c in items:
        need = claim_memory(c)
        limit = usable_gb(cluster(c.machines, c.flash).memory_gb, load_params())
        if c.claim == "gb":
            ok = abs(need / c.value_gb - 1.0) <= 0.15
            said = f"{c.value_gb:g} GB"
        else:
            ok = (need <= limit) == (c.claim == "fits")
            said = c.claim
        agree += ok
        print(f"{c.key:<40} {said:>9} {need:>7.1f} {limit:>7.1f} {limit - need:>+7.1f}"
              f"{'' if ok else '  WRONG'}")
    print(f"\n{agree} of {len(items)} claims agree (usable memory "
          f"{load_params().memory_usable_fraction:.1%} of the card's bytes)")


if __name__ == "__main__":
    main()
