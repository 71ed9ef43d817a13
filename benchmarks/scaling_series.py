"""Published multi-GPU measurements (benchmarks/data/scaling-dev.csv) as projection inputs.

Each series becomes what a user would know: model parameters, precision, batch per GPU,
single-GPU (baseline) throughput, GPU, links and nodes. Its multi-GPU throughputs are only
the targets (benchmarks/series_profiles.py turns each series into the profile its user fills).
"""

from __future__ import annotations

import csv
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from advisor.catalog.gpus import GpuSpec, load_gpus
from advisor.scaling.links import link_figures

DATA = Path(__file__).resolve().parent / "data" / "scaling-dev.csv"

# name fragment -> (family for cross-validation, parameters in millions, throughput units per
# batch sample, task). Parameter counts: the models' papers / NVIDIA DLE READMEs, rounded;
# units per sample convert e.g. tokens/s to sentences when the batch counts sentences.
MODELS: list[tuple[str, str, float, float, str]] = [
    ("SE-ResNeXt101", "resnet", 49.0, 1, "image_classification"),
    ("ResNeXt101", "resnet", 44.2, 1, "image_classification"),
    ("ResNet-50", "resnet", 25.6, 1, "image_classification"),
    ("SSD300", "ssd", 22.9, 1, "object_detection"),
    ("SSD320", "ssd", 33.0, 1, "object_detection"),
    ("EfficientDet", "efficientdet", 3.9, 1, "object_detection"),
    ("Mask R-CNN", "maskrcnn", 44.2, 1, "segmentation"),
    ("BERT-base", "bert", 110.0, 1, "nlp"),
    ("BERT-large", "bert", 340.0, 1, "nlp"),
    ("BART-large XSum", "bart", 406.0, 450, "nlp"),
    ("BART-large", "bart", 406.0, 1, "nlp"),
    ("Transformer-big", "transformer", 210.0, 1, "nlp"),
    ("GNMT", "gnmt", 160.0, 56, "nlp"),
    ("3D U-Net", "unet", 19.1, 1, "segmentation"),
    ("U-Net Industrial", "unet", 1.9, 1, "segmentation"),
    ("U-Net Medical", "unet", 31.0, 1, "segmentation"),
    ("V-Net", "unet", 45.6, 1, "segmentation"),
    ("NCF", "recommendation", 31.8, 1, "recommendation"),
    ("VAE-CF", "recommendation", 24.3, 1, "recommendation"),
    ("Wide & Deep", "recommendation", 60.0, 1, "recommendation"),
    ("SIM", "recommendation", 30.0, 1, "recommendation"),
    ("DLRM", "recommendation", 3.0, 1, "recommendation"),
    ("Tacotron", "tts", 28.2, 570, "speech_recognition"),
    ("FastPitch", "tts", 45.0, 570, "speech_recognition"),
    ("FastSpeech", "tts", 30.1, 570, "speech_recognition"),
    ("HiFi-GAN", "tts", 84.0, 32, "gan"),
    ("wav2vec", "wav2vec", 95.0, 4400, "speech_recognition"),
]

# GPUs of the data set that the product catalog does not carry (specs: NVIDIA data sheets).
EXTRA_GPUS = {
    "GeForce RTX 2080 Ti": dict(id="rtx2080ti", name="RTX 2080 Ti", **{"class": "consumer"},
                                memory_gb=11, memory_bandwidth_gbs=616, tflops_fp16_dense=57, tflops_fp32=13.4,
                                tdp_w=250, pcie_gen=3, nvlink="bridge"),
    "Quadro RTX 8000": dict(id="quadro_rtx8000", name="Quadro RTX 8000",
                            **{"class": "workstation"}, memory_gb=48,
                            memory_bandwidth_gbs=672, tflops_fp16_dense=130,
                            tflops_fp32=16.3, tdp_w=295, pcie_gen=3, nvlink="bridge",
                            nvlink_gbs_unidirectional=50),
    "GeForce RTX 3070": dict(id="rtx3070", name="RTX 3070", **{"class": "consumer"},
                             memory_gb=8, memory_bandwidth_gbs=448, tflops_fp16_dense=40, tflops_fp32=20.3, tdp_w=220,
                             pcie_gen=4),
    "A40": dict(id="a40", name="A40", **{"class": "datacenter"}, memory_gb=48,
                memory_bandwidth_gbs=696,
                tflops_fp16_dense=150, tflops_fp32=37.4, tdp_w=300, pcie_gen=4,
                nvlink="bridge", nvlink_gbs_unidirectional=56.25),
}
for _name, _cls, _bw in (("RTX A5500", 34.1, 768), ("RTX A5000", 27.8, 768),
                         ("RTX A4500", 23.7, 640)):
    EXTRA_GPUS[_name] = dict(id=_name.lower().replace(" ", "_"), name=_name,
                             **{"class": "workstation"}, memory_gb=24,
                             memory_bandwidth_gbs=_bw, tflops_fp16_dense=100,
                             tflops_fp32=_cls, tdp_w=230, pcie_gen=4, nvlink="bridge",
                             nvlink_gbs_unidirectional=56.25)
EXTRA_GPUS["RTX A4000"] = dict(id="rtx_a4000", name="RTX A4000", **{"class": "workstation"},
                               memory_gb=16, memory_bandwidth_gbs=448, tflops_fp16_dense=76, tflops_fp32=19.2,
                               tdp_w=140, pcie_gen=4)

CATALOG_IDS = {"A100-SXM4-80GB": "a100_sxm4_80gb", "A100-SXM4-40GB": "a100_sxm4_40gb",
               "V100-SXM2-16GB": "v100_sxm2_16gb", "V100-SXM2-32GB": "v100_sxm2_32gb",
               "V100-SXM3-32GB": "v100_sxm2_32gb", "GeForce RTX 3090": "rtx3090",
               "RTX A6000": "rtx_a6000", "A100-PCIE-40GB": "a100_pcie_40gb",
               "A100-PCIE-80GB": "a100_pcie_80gb", "H100-SXM5-80GB": "h100_sxm",
               "H100-PCIe-80GB": "h100_pcie", "RTX 6000 Ada Generation": "rtx6000_ada",
               "B200": "b200_sxm", "GeForce RTX 4090": "rtx4090"}
GENERATION = {"V100": "Volta", "2080": "Turing", "Quadro RTX": "Turing", "A100": "Ampere",
              "3090": "Ampere", "3070": "Ampere", "A40": "Ampere", "RTX A": "Ampere",
              "Ada": "Ada", "4090": "Ada", "H100": "Hopper", "B200": "Blackwell"}
INTER_BY_GENERATION = {"Volta": "infiniband_edr", "Ampere": "infiniband_hdr",
                       "Hopper": "infiniband_ndr"}


def gpu_spec(name: str) -> GpuSpec:
    for key, gid in CATALOG_IDS.items():
        if name.startswith(key):
            return load_gpus()[gid]
    return GpuSpec.model_validate(EXTRA_GPUS[name])


def generation(name: str) -> str:
    return next(gen for key, gen in GENERATION.items() if key in name)


def model_info(name: str) -> tuple[str, float, float, str]:
    """The model a row names: the key found earliest in the name (longest on a tie), so
    'Mask R-CNN (ResNet-50 FPN)' is Mask R-CNN and not its ResNet-50 backbone."""
    found = [(name.index(key), -len(key), family, params, units, task)
             for key, family, params, units, task in MODELS if key in name]
    if not found:
        raise KeyError(name)
    _, _, family, params, units, task = min(found)
    return family, params, units, task


@dataclass
class Series:
    sid: str
    source: str
    model: str
    family: str
    task: str
    gpu: str
    generation: str
    link: str  # intra link type used for the inputs
    inter: str
    precision: str
    scaling: str
    baseline: int
    flagged: bool
    gpus: list[int]  # non-baseline GPU counts
    actual: list[float]  # measured speed-up over the baseline
    nodes: list[int]
    batch: list[float]  # per-GPU batch at each point
    batch0: float
    step_compute_s: float
    params_m: float
    grad_bytes: float
    gpus_per_node: int
    busbw_intra: float
    busbw_pair: float
    busbw_inter: float
    lat_intra: float
    lat_inter: float
    multi_socket: bool
    framework: str = ""  # as the source names it (e.g. 'TensorFlow 1 (NGC 20.06)')
    throughput_unit: str = "samples/s"  # as the source prints it (column throughput_unit)
    baseline_throughput: float = 0.0  # at the baseline count, in throughput_unit
    # the global batch is held as GPUs are added (strong scaling, or fewer accumulation steps)
    holds_global_batch: bool = False
    accumulation: list[float] | None = None  # micro-batches per optimizer step at each point
    accumulation0: float = 1.0  # ... at the baseline


# What the sources' notes say about gradient accumulation (benchmarks/data/scaling-dev-sources.md).
_GLOBAL_BATCH = re.compile(r"per-GPU batch x grad-accumulation x GPUs = (\d+)")
_SHRINKS = ("via gradient accumulation", "accumulation shrinks", "accumulation steps shrink",
            "grad accumulation 8->1")


def accumulation_steps(notes: str, gpus: int, batch: float, largest: int) -> float:
    """Micro-batches per optimizer step at one point, as a user running that job knows it.
    Where a note gives the global batch (FastPitch: batch x accumulation x GPUs = 256) it is
    exact; where it says only that accumulation holds the global batch while the GPUs grow
    (BERT pre-training, wav2vec 2.0), the series' largest count has at least one micro-batch
    per step, so ``largest / gpus`` is a lower bound (the sources' real counts are higher,
    e.g. DLE BERT phase 1 accumulates 32-256 micro-batches; the CSV does not carry them)."""
    found = _GLOBAL_BATCH.search(notes)
    if found:
        return max(1.0, float(found.group(1)) / (batch * gpus))
    if any(text in notes for text in _SHRINKS):
        return max(1.0, largest / gpus)
    return 1.0


def _held_accumulation(notes: str, b0: int, batch0: float, points, batches) -> float:
    """Strong scaling without an accumulation note: the global batch the table holds at its
    largest count over the baseline's samples per step is the baseline's accumulation
    (HiFi-GAN: 32 per GPU on 1 GPU and 16 on 8, global 128: 4 steps at 1 GPU)."""
    if "scaling=strong" not in notes or not points:
        return 1.0
    largest, batch = points[-1][0], batches[-1]
    return max(1.0, largest * batch / (b0 * batch0))


def _intra_link(interconnect: str, spec: GpuSpec) -> str:
    if interconnect.startswith("nvswitch"):
        return "nvswitch"
    if interconnect.startswith("nvlink (2-GPU"):
        return "nvlink_bridge"
    if interconnect.startswith("nvlink"):
        return "nvlink"
    return f"pcie{min(max(spec.pcie_gen or 4, 3), 5)}"


def load_series(path: Path = DATA) -> tuple[list[Series], list[str]]:
    """All series with a known batch, and the ids of those skipped (no batch per GPU)."""
    groups: dict[str, list[dict]] = defaultdict(list)
    with path.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            groups[re.search(r"series=([^;]*)", row["notes"]).group(1)].append(row)
    out, skipped = [], []
    for sid, rows in groups.items():
        notes = rows[0]["notes"]
        b0 = int(re.search(r"baseline_gpus=(\d+)", notes).group(1))
        base = next(r for r in rows if int(r["gpus"]) == b0)
        batch_text = base["batch_per_gpu"].strip()
        if not batch_text or not batch_text[0].isdigit() or _batch(batch_text) <= 0:
            skipped.append(sid)  # the source does not say the batch (or it is 0: a failed run)
            continue
        spec = gpu_spec(base["gpu_model"])
        gen = generation(base["gpu_model"])
        family, params_m, units, task = model_info(base["model"])
        link = _intra_link(base["interconnect"], spec)
        multi = max(int(r["nodes"]) for r in rows) > 1
        inter = INTER_BY_GENERATION.get(gen, "infiniband_hdr") if multi else "none"
        per_node = max(int(r["gpus"]) // int(r["nodes"]) for r in rows)
        figs = link_figures(link, inter, spec, per_node)
        unit_scale = 1e6 if base["throughput_unit"].startswith("million") else 1.0
        per_gpu = float(base["throughput"]) * unit_scale / b0 / units
        batch0 = _batch(base["batch_per_gpu"])
        prec = base["precision"].upper()
        points = sorted((int(r["gpus"]), r) for r in rows if int(r["gpus"]) != b0)
        largest = max(int(r["gpus"]) for r in rows)
        batches = [_batch(r["batch_per_gpu"]) if r["batch_per_gpu"].strip() else batch0
                   for _, r in points]
        out.append(Series(
            sid=sid, source=base["source_id"], model=base["model"], family=family, task=task,
            gpu=base["gpu_model"], generation=gen, link=link, inter=inter, precision=prec,
            scaling=re.search(r"scaling=(\w+)", notes).group(1), baseline=b0,
            flagged="quality_flag" in notes,
            gpus=[n for n, _ in points],
            actual=[float(r["throughput"]) / float(base["throughput"]) for _, r in points],
            nodes=[int(r["nodes"]) for _, r in points],
            batch=batches, framework=base["framework"],
            throughput_unit=base["throughput_unit"], baseline_throughput=float(base["throughput"]),
            holds_global_batch="scaling=strong" in notes or any(t in notes for t in _SHRINKS)
            or bool(_GLOBAL_BATCH.search(notes)),
            accumulation=[accumulation_steps(notes, n, b, largest)
                          for (n, _), b in zip(points, batches, strict=True)],
            accumulation0=max(accumulation_steps(notes, b0, batch0, largest),
                              _held_accumulation(notes, b0, batch0, points, batches)),
            batch0=batch0, step_compute_s=batch0 / per_gpu, params_m=params_m,
            grad_bytes=2.0 if prec in ("BF16", "FP16") else 4.0,  # AMP keeps fp32 gradients
            gpus_per_node=per_node, busbw_intra=figs.busbw_intra_gbs,
            busbw_pair=figs.busbw_intra_pair_gbs if link == "nvlink_bridge" else np.nan,
            busbw_inter=figs.busbw_inter_gbs, lat_intra=figs.latency_intra_s,
            lat_inter=figs.latency_inter_s, multi_socket=figs.multi_socket_pcie))
    return out, skipped


def _batch(text: str) -> float:
    text = text.strip().lower().replace(",", "")
    return float(text[:-1]) * 1000 if text.endswith("k") else float(text)
