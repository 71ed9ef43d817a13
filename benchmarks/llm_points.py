"""Published large-model training runs as points the layout model can be scored on.

Each point names its row of ``benchmarks/data/llm_runs.csv`` (source, model, GPUs, metric and
value, checked against the file when loaded), the machines it ran on, what the source fixes
of its layout, and how its metric becomes tokens per second per GPU (the quantity scored):

* ``narayanan``: TFLOP/s by Narayanan et al. 2021 Eq. 3, ``96 B s l h^2 (1 + s/6h + V/16lh)``
  per iteration, which counts the recomputed forward pass (Megatron-LM, BLOOM, the FSDP
  paper's "hardware utilization" and the Megatron 2019 V100 runs use it);
* ``palm``: model FLOPs ``6 P + 12 l h s`` per token (Llama 3's TFLOP/s and MFU);
* ``tokens``: tokens per second per GPU as printed; ``step``: the iteration time of
  ``global_batch`` sequences on ``gpus`` GPUs.

Sets: ``layout`` (the layout is published; unknown knobs such as the micro-batch are searched
as their authors tuned them), ``auto`` (only the model, GPUs and batch are published: the
advisor's own layout search picks the layout), ``context`` (reported, not scored: a peak or a
whole-run average, a layout the model cannot express). Machines the source does not describe
fully are assumptions stated in ``CLUSTERS``.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from advisor.catalog.gpus import resolve_gpu
from advisor.profile import IntraLink, Precision
from advisor.scaling.layouts.cluster import Cluster
from advisor.scaling.layouts.search import Fixed
from advisor.scaling.layouts.shape import ModelShape
from advisor.scaling.links import link_figures
from advisor.scaling.parameters import load_params
from advisor.scaling.peak import peak_tflops

DATA = Path(__file__).resolve().parent / "data"
RDMA_SHARE = 0.9  # busbw over line rate of an RDMA network (links.yaml: HDR 24 of 25 GB/s)


@dataclass(frozen=True)
class Machines:
    gpu: str  # catalog id
    per_node: int
    intra: str  # IntraLink value
    network_gbps: float  # line rate per machine, all adapters together (0: one machine)
    note: str
    memory_gb: float | None = None  # when the catalog's card has another memory size


CLUSTERS = {
    # Selene / DGX A100 SuperPOD: 8 x HDR 200 Gb/s per node (Narayanan 2021 Sec. 5)
    "selene": Machines("a100_sxm4_80gb", 8, "nvswitch", 8 * 200, "DGX A100, 8 x HDR (stated)"),
    # DGX-2H: 16 V100 on NVSwitch, 8 x EDR 100 Gb/s (DGX-2 data sheet; Megatron 2019 Sec. 5)
    "dgx2h": Machines("v100_sxm2_32gb", 16, "nvswitch", 8 * 100, "DGX-2H, 8 x EDR (data sheet)"),
    # IBM Vela-class nodes as the blog states them: 400 Gb/s (A100) / 800 Gb/s (H100) a node
    "ibm_a100": Machines("a100_sxm4_80gb", 8, "nvswitch", 400, "400 Gb/s per node (stated)"),
    "ibm_h100": Machines("h100_sxm", 8, "nvswitch", 800, "800 Gb/s per node (stated)"),
    # FSDP paper Sec. 5.1: "A100 80GB GPUs interconnected by a 2Tb/s RoCE network"
    "fsdp_roce": Machines("a100_sxm4_80gb", 8, "nvswitch", 2000, "2 Tb/s RoCE per node (stated)"),
    # Llama 3: H100 SXM servers, 8 x 400 Gb/s RoCE or InfiniBand (assumed from the paper's
    # description of one 400 Gb/s NIC per GPU)
    "meta_h100": Machines("h100_sxm", 8, "nvswitch", 8 * 400, "8 x 400 Gb/s (assumed)"),
    # BLOOM on Jean Zay: 8 A100 80GB per node, 4 x OmniPath 100 Gb/s (model card)
    "jean_zay": Machines("a100_sxm4_80gb", 8, "nvswitch", 4 * 100, "4 x OmniPath (stated)"),
    # single machines of the memory claims
    "a100_1": Machines("a100_sxm4_80gb", 1, "nvswitch", 0, "one A100 80GB"),
    "v100_16": Machines("v100_sxm2_16gb", 1, "nvlink", 0, "one V100 16 GB"),
    # Titan RTX 24 GB (Turing, not in the catalog): a 2080 Ti's figures with 24 GB
    "titan": Machines("rtx2080ti", 2, "pcie3", 0, "2 x Titan RTX 24 GB", memory_gb=24.0),
}


def cluster(name: str, flash: bool, precision_bytes: float = 2.0,
            machines: dict[str, Machines] | None = None) -> Cluster:
    """The layouts' ``Cluster`` of the machines ``name`` in ``machines`` (default: the
    dense runs' ``CLUSTERS``; ``benchmarks.moe_accuracy`` passes its own)."""
    m = (CLUSTERS if machines is None else machines)[name]
    gpu = resolve_gpu(m.gpu)
    links = link_figures(IntraLink(m.intra), "none", gpu, m.per_node)
    eff = load_params().busbw_efficiency
    precision = Precision.bf16 if precision_bytes < 4 else Precision.fp32
    return Cluster(peak_tflops=peak_tflops(gpu, precision), memory_gb=m.memory_gb or gpu.memory_gb,
                   memory_bandwidth_gbs=gpu.memory_bandwidth_gbs, generation=gpu.generation,
                   gpus_per_node=m.per_node, busbw_intra_gbs=links.busbw_intra_gbs * eff,
                   busbw_node_gbs=m.network_gbps / 8.0 * RDMA_SHARE * eff,
                   latency_intra_s=links.latency_intra_s, latency_inter_s=10e-6,
                   bytes_per_value=precision_bytes, flash_attention=flash,
                   nccl_busbw_gbs=links.busbw_intra_gbs)


@dataclass(frozen=True)
class Point:
    key: str
    source: str  # source_id in llm_runs.csv
    model: str  # model cell (checked)
    gpus: int
    metric: str  # metric cell (checked)
    value: float  # value cell (checked)
    shape: ModelShape
    machines: str
    global_batch: int
    checkpointing: tuple[str, ...]  # the published one, or the options when unknown
    fixed: Fixed
    convention: str  # narayanan | palm | tokens | step
    flash: bool = False
    set: str = "layout"
    note: str = ""
    grad_reduce_bytes: float = 2.0  # 16-bit gradients reduced (Megatron fp16, DeepSpeed, FSDP)
    extra: dict = field(default_factory=dict)

    def tokens_per_s_per_gpu(self) -> float:
        s = self.shape
        if self.convention == "tokens":
            return self.value
        if self.convention == "step":
            return self.global_batch * s.sequence / (self.value * self.gpus)
        if self.convention == "narayanan":
            per_token = 96.0 * s.layers * s.hidden**2 * (
                1.0 + s.sequence / (6.0 * s.hidden) + s.vocab / (16.0 * s.layers * s.hidden))
            return self.value * 1e12 / per_token
        if self.convention == "palm":
            return self.value * 1e12 / (6.0 * s.params + 12.0 * s.layers * s.hidden * s.sequence)
        raise ValueError(self.convention)


def _gpt(params_b, layers, hidden, heads, seq=2048, vocab=51200):
    return ModelShape(params=params_b * 1e9, layers=layers, hidden=hidden, heads=heads,
                      sequence=seq, vocab=vocab)


FULL = ("full",)
ANY = ("none", "selective", "full")
T1 = [  # Narayanan 2021 Table 1: (params, layers, hidden, heads, t, p, gpus, batch, TFLOP/s)
    (1.7, 24, 2304, 24, 1, 1, 32, 512, 137), (3.6, 30, 3072, 32, 2, 1, 64, 512, 138),
    (7.5, 36, 4096, 32, 4, 1, 128, 512, 142), (18.4, 40, 6144, 48, 8, 1, 256, 1024, 135),
    (39.1, 48, 8192, 64, 8, 2, 512, 1536, 138), (76.1, 60, 10240, 80, 8, 4, 1024, 1792, 140),
    (145.6, 80, 12288, 96, 8, 8, 1536, 2304, 148), (310.1, 96, 16384, 128, 8, 16, 1920, 2160, 155),
    (529.6, 105, 20480, 128, 8, 35, 2520, 2520, 163),
    (1008.0, 128, 25600, 160, 8, 64, 3072, 3072, 163),
]
GPT175 = _gpt(174.6, 96, 12288, 96)
GPT530 = _gpt(529.6, 105, 20480, 128)


def points() -> list[Point]:
    out: list[Point] = []
    for pb, layers, hidden, heads, t, p, n, batch, value in T1:
        out.append(Point(f"narayanan-t1-{pb:g}B", "narayanan2021_t1", f"GPT {pb:.1f}B"
                         if pb != 1008.0 else "GPT 1008.0B", n, "tflops_per_gpu", value,
                         _gpt(pb, layers, hidden, heads), "selene", batch, FULL,
                         Fixed(tp=t, pp=p, sharding=("none",), sequence_parallel=False),
                         "narayanan"))
    for n, b, value, shape, batch in ((384, 4, 144, GPT175, 1536), (768, 2, 88, GPT175, 1536),
                                      (1536, 1, 44, GPT175, 1536), (640, 4, 138, GPT530, 2560),
                                      (1120, 2, 98, GPT530, 2240), (2240, 1, 48, GPT530, 2240)):
        out.append(Point(f"narayanan-t2-zero3-{shape.params / 1e9:.0f}B-{n}",
                         "narayanan2021_t2", f"GPT {shape.params / 1e9:.1f}B", n,
                         "tflops_per_gpu", value, shape, "selene", batch, FULL,
                         Fixed(tp=1, pp=1, sharding=("zero3",), micro_batch=b,
                               sequence_parallel=False), "narayanan",
                         note="DeepSpeed ZeRO-3, no model parallelism"))
    for n, p, value, shape in ((384, 12, 153, GPT175), (768, 12, 149, GPT175),
                               (1536, 12, 141, GPT175), (560, 35, 171, GPT530),
                               (1120, 35, 167, GPT530), (2240, 35, 159, GPT530)):
        out.append(Point(f"narayanan-t2-ptdp-{shape.params / 1e9:.0f}B-{n}", "narayanan2021_t2",
                         f"GPT {shape.params / 1e9:.1f}B", n, "tflops_per_gpu", value, shape,
                         "selene", 1536 if shape is GPT175 else 2240, FULL,
                         Fixed(tp=8, pp=p, sharding=("none",), micro_batch=1,
                               sequence_parallel=False), "narayanan",
                         note="t = 8 and p = MP / 8 as the research notes infer"))
    k_shapes = {"22B": _gpt(22, 48, 6144, 64), "175B": _gpt(175, 96, 12288, 96),
                "530B": _gpt(530, 105, 20480, 128), "1T": _gpt(1000, 128, 25600, 160)}
    for name, n, p, b, batch, full_s, sel_s, v in (
            ("22B", 8, 1, 4, 4, 1.42, 1.1, 1), ("175B", 64, 8, 1, 64, 18.13, 13.75, 3),
            ("530B", 280, 35, 1, 280, 49.05, 37.83, 3), ("1T", 512, 64, 1, 512, 94.42, 71.49,
                                                         None)):
        for ck, sp, step in (("full", False, full_s), ("selective", True, sel_s)):
            out.append(Point(f"korthikanti-t5-{name}-{ck}", "korthikanti2022_t5", f"GPT {name}",
                             n, "step_time_s", step, k_shapes[name], "selene", batch, (ck,),
                             Fixed(tp=8, pp=p, sharding=("none",), micro_batch=b,
                                   interleave=v, sequence_parallel=sp), "step"))
    out.append(Point("korthikanti-s63-530B-dp8", "korthikanti2022_s63",
                     "GPT 530B (MT-NLG config)", 2240, "step_time_s", 39.15, k_shapes["530B"],
                     "selene", 2240, ("selective",),
                     Fixed(tp=8, pp=35, sharding=("none",), micro_batch=1, interleave=3,
                           sequence_parallel=True), "step"))
    llama405 = ModelShape(params=405e9, layers=126, hidden=16384, heads=128, sequence=8192,
                          vocab=128256)
    for n, value in ((8192, 430), (16384, 400)):  # DP 64 and 128
        out.append(Point(f"llama3-405B-{n}", "llama3_405b_t4", "Llama 3 405B", n,
                         "tflops_per_gpu", value, llama405, "meta_h100", 2048, ("none",),
                         Fixed(tp=8, pp=16, sharding=("zero1",), micro_batch=1,
                               sequence_parallel=True), "palm", flash=True,
                         grad_reduce_bytes=4.0,
                         note="gradients accumulated in fp32 over the micro-batches and "
                              "reduce-scattered once a step, weights not resharded: ZeRO-1's "
                              "traffic; 'without activation checkpointing' (Sec. 3.3.2)"))
    mingpt = _gpt(175, 96, 12288, 96, vocab=50000)
    for b, value in ((1, 173), (2, 186)):
        out.append(Point(f"fsdp-mingpt-175B-b{b}", "fsdp2023_s54", "minGPT-175B", 256,
                         "tflops_per_gpu", value, mingpt, "fsdp_roce", 256 * b, FULL,
                         Fixed(tp=1, pp=1, sharding=("fsdp",), micro_batch=b,
                               sequence_parallel=False), "narayanan",
                         note="'more than': a lower bound over 128-512 GPUs; scored at 256"))
    llama2 = {"7": ModelShape(6.74e9, 32, 4096, 32, 4096, 32000),
              "13": ModelShape(13.0e9, 40, 5120, 40, 4096, 32000),
              "34": ModelShape(33.7e9, 48, 8192, 64, 4096, 32000),
              "70": ModelShape(69.0e9, 80, 8192, 64, 4096, 32000)}
    for size, ck, a100, h100 in (("7", "none", 3700, 7500), ("13", "selective", 1800, 3800),
                                 ("34", "full", 700, 1550), ("70", "full", 370, 800)):
        for machines, n, value in (("ibm_a100", 128, a100), ("ibm_h100", 96, h100)):
            partial = size == "13"
            out.append(Point(f"ibm-fsdp-{size}B-{machines[4:]}", "ibm_pytorch_fsdp_blog2024",
                             f"Llama 2 {size}B architecture", n, "tokens_per_s_per_gpu", value,
                             llama2[size], machines, 2 * n, (ck,),
                             Fixed(tp=1, pp=1, sharding=("hsdp",) if size == "7" else ("fsdp",),
                                   micro_batch=2, sequence_parallel=False), "tokens", flash=True,
                             set="context" if partial else "layout",
                             note="checkpoints every n-th block: not a layout the model "
                                  "describes" if partial else ""))
    gpt2_12 = _gpt(1.2, 40, 1536, 16, seq=1024)
    gpt2_83 = _gpt(8.3, 72, 3072, 32, seq=1024)
    out.append(Point("megatron2019-1.2B-1gpu", "shoeybi2019_s51", "GPT-2 1.2B", 1,
                     "tflops_per_gpu", 39, gpt2_12, "dgx2h", 8, FULL,
                     Fixed(tp=1, pp=1, sharding=("none",), micro_batch=8), "narayanan",
                     note="2019 software; shape and batch from secondary copies"))
    out.append(Point("megatron2019-8.3B-tp8", "shoeybi2019_s51", "GPT-2 8.3B", 8,
                     "tflops_per_gpu", 30.0, gpt2_83, "dgx2h", 8, FULL,
                     Fixed(tp=8, pp=1, sharding=("none",), micro_batch=8,
                           sequence_parallel=False), "narayanan",
                     note="DERIVED from 77 % weak-scaling efficiency"))
    # Figure 5's 74 % (the scaling study the 77 % above comes from), not the abstract's
    # "up to" 15.1 PFLOP/s (76 %): a peak, reported and not scored, as OPT's "up to" is
    out.append(Point("megatron2019-8.3B-512", "shoeybi2019_s51", "GPT-2 8.3B", 512,
                     "tflops_per_gpu", 28.86, gpt2_83, "dgx2h", 512, FULL,
                     Fixed(tp=8, pp=1, sharding=("none",), micro_batch=8,
                           sequence_parallel=False), "narayanan",
                     note="DERIVED from Figure 5's 74 % weak-scaling efficiency"))
    out.append(Point("megatron-v1-blog-1.2B-1gpu", "megatron_v1_blog", "GPT-2 1.2B", 1,
                     "tflops_per_gpu", 62.4, gpt2_12, "dgx2h", 8, FULL,
                     Fixed(tp=1, pp=1, sharding=("none",), micro_batch=8), "narayanan",
                     note="2020 software on the 2019 baseline model"))
    llama65 = ModelShape(65.2e9, 80, 8192, 64, 2048, 32000)
    out.append(Point("llama1-65B", "llama1_s24", "LLaMA-65B", 2048, "tokens_per_s_per_gpu", 380,
                     llama65, "selene", 2048, ("selective",), Fixed(), "tokens", flash=True,
                     set="auto", note="layout not published: the advisor's search picks it"))
    bloom = ModelShape(176e9, 70, 14336, 112, 2048, 250680)
    out.append(Point("bloom-176B", "bloom_modelcard_hfblog", "BLOOM-176B", 384,
                     "tflops_per_gpu", 150, bloom, "jean_zay", 2048, FULL,
                     Fixed(sharding=("none", "zero1")), "narayanan", set="auto",
                     note="'about 150'; layout not verified: the advisor's search picks it"))
    opt = _gpt(175, 96, 12288, 96, vocab=50272)
    out.append(Point("opt-175B", "opt2022_s24", "OPT-175B", 992, "tflops_per_gpu", 147, opt,
                     "selene", 1024, FULL, Fixed(tp=8, sharding=("fsdp",), pp=1), "narayanan",
                     set="context", note="'up to': a peak, not a sustained figure"))
    return out


def check_against_csv(items: list[Point]) -> None:
    """Every point's cells must be those of its row in llm_runs.csv (no number typed twice)."""
    rows = list(csv.DictReader((DATA / "llm_runs.csv").open(encoding="utf-8")))
    for pt in items:
        hit = [r for r in rows if r["source_id"] == pt.source and r["model"] == pt.model
               and r["metric"] == pt.metric and r["value"]
               and abs(float(r["value"]) - pt.value) < 1e-9 * max(1.0, pt.value)]
        if not hit:
            raise ValueError(f"{pt.key}: no row {pt.source} / {pt.model} / {pt.metric} = "
                             f"{pt.value} in llm_runs.csv")
