"""Each published series as the Profile a user would fill for it, projected by the real
``advisor.scaling.project``: the path every user's numbers take.

What goes in is what the user of that job knows and the source states: task, parameter count,
GPU (a catalog id, else the card's own numbers as a custom GPU), GPUs per machine, machines and
their links, precision, batch per GPU, gradient accumulation and whether the global batch is
held (strong scaling), and the measured single-GPU throughput in the unit the source prints
(samples, images, tokens or frames per second) with a data set size and epochs. The sequence
length is left empty unless the throughput counts tokens or frames (then it is the unit's
size). Published benchmark runs use NVIDIA's tuned input pipelines (DALI, prefetching) in
server chassis: ``input_pipeline: tuned``, ``cooling: server``. Nothing else is set.

The multi-GPU throughputs are only the targets. ``projected(series)`` returns the speed-up of
every non-baseline point over the series' baseline count.
"""

from __future__ import annotations

from advisor.profile import CustomGpu, Profile
from benchmarks.scaling_series import CATALOG_IDS, EXTRA_GPUS, Series, model_info

RUN_HOURS = 24.0  # the data set is sized for a day's run: run hours scale, speed-ups do not
# Throughput units of the data set (column throughput_unit) -> the profile's unit
_UNITS = {"tokens/s": "tokens", "tokens/s (transformer tokens)": "tokens",
          "mel frames/s": "frames", "images/s": "images"}


def gpu_field(name: str) -> str | dict:
    """The profile's ``hardware.gpu``: the catalog id, else the card's data-sheet numbers as
    a user types them for a card the catalog lacks (memory, FP16 / FP32 TFLOP/s, PCIe)."""
    for key, gid in CATALOG_IDS.items():
        if name.startswith(key):
            return gid
    spec = EXTRA_GPUS[name]
    if spec["id"] in ("rtx2080ti", "a40"):
        return spec["id"]
    return CustomGpu(name=spec["name"], memory_gb=spec["memory_gb"],
                     tflops_fp16=spec["tflops_fp16_dense"], tflops_fp32=spec["tflops_fp32"],
                     tdp_w=spec["tdp_w"], pcie_gen=spec.get("pcie_gen", 4)).model_dump()


def precision(s: Series) -> str:
    """The profile's precision for the source's label (Lambda's 'FP32/TF32' is TF32 on Ampere
    and newer, FP32 before)."""
    p = s.precision
    if p in ("AMP", "FP16/AMP", "FP16"):
        return "amp"
    if p == "BF16":
        return "bf16"
    if p == "TF32" or (p == "FP32/TF32" and s.generation not in ("Volta", "Turing")):
        return "tf32"
    return "fp32"


def _unit(s: Series) -> tuple[str, float]:
    """(throughput unit, units per batch sample) as the source prints the throughput."""
    _, _, per_sample, _ = model_info(s.model)
    unit = _UNITS.get(s.throughput_unit, "samples")
    if unit in ("tokens", "frames") and per_sample == 1:
        # the batch counts tokens too (Transformer-big: tokens per GPU): a sample is a token
        return unit, 1.0
    return unit, float(per_sample)


def _accumulation_one_gpu(s: Series) -> int:
    """Accumulation steps on one GPU: the baseline's, times the baseline count when the global
    batch is held (a 16-GPU baseline at 32 steps is one GPU at 512)."""
    steps = s.accumulation0 * (s.baseline if s.holds_global_batch else 1)
    return int(min(max(1, round(steps)), 4096))


# Whether the models' inputs change size from step to step, as their users know it (for the
# variant that states training.input_sizes; the headline leaves it at auto, by task):
# classifiers train on fixed crops, SSD and EfficientDet resize to a fixed square, Mask R-CNN
# keeps aspect ratios, BERT pre-training and SQuAD pad to a fixed length, translation and
# summarisation batch sentences of any length, speech models utterances, HiFi-GAN fixed
# audio segments, U-Net / V-Net fixed tiles and volumes, recommenders fixed feature vectors.
VARIABLE_MODELS = ("Mask R-CNN", "GNMT", "Transformer-big", "XSum", "Tacotron", "FastPitch",
                   "FastSpeech", "wav2vec")


def stated_input_sizes(s: Series) -> str:
    return "variable" if any(key in s.model for key in VARIABLE_MODELS) else "fixed"


def profile_for(s: Series, pipeline: str = "tuned", cooling: str = "server",
                input_sizes: str = "auto", measured: bool = True) -> Profile:
    """The profile a user of the series' job fills (see the module docstring). Variants:
    ``input_sizes="stated"`` says whether inputs vary (``stated_input_sizes``); ``measured=
    False`` gives run hours instead of the throughput (the defaults path: compute from the
    model's size and the GPU)."""
    unit, per_sample = _unit(s)
    nodes = max(s.nodes + [1])
    per_gpu = s.baseline_throughput / s.baseline * (1e6 if s.throughput_unit.startswith(
        "million") else 1.0)
    model: dict = {"name": s.model[:120], "params_millions": s.params_m}
    training: dict = {
        "single_gpu_throughput": per_gpu, "throughput_unit": unit,
        "dataset_samples": max(1, round(per_gpu / per_sample * RUN_HOURS * 3600)), "epochs": 1,
        "batch_per_gpu": max(1, round(s.batch0)), "precision": precision(s),
        "gradient_accumulation_steps": _accumulation_one_gpu(s),
        "keep_batch": "global" if s.holds_global_batch else "per_gpu",
        "input_pipeline": pipeline,
        "input_sizes": stated_input_sizes(s) if input_sizes == "stated" else input_sizes}
    if unit in ("tokens", "frames"):
        model["sequence_length"] = max(1, round(per_sample))
    if not measured:
        for key in ("single_gpu_throughput", "throughput_unit", "dataset_samples", "epochs"):
            training.pop(key)
        training["single_gpu_hours"] = 24.0
    return Profile.model_validate({
        "task": s.task, "model": model, "training": training,
        "hardware": {"gpu": gpu_field(s.gpu), "gpus_per_node": s.gpus_per_node,
                     "nodes": nodes, "intra_link": s.link, "inter_link": s.inter,
                     "cooling": cooling}})


def _counts(s: Series) -> tuple[int, ...]:
    return tuple(sorted({s.baseline, *s.gpus}))


def projected(s: Series, profile: Profile | None = None, params=None):
    """(speed-up of each point over the baseline count, the Projection) through
    ``advisor.scaling.project`` (``params``: a fold's fitted parameters)."""
    from advisor.scaling import project

    result = project(profile or profile_for(s), list(_counts(s)), params)
    base = result.speedup[result.at(s.baseline)]
    return [result.speedup[result.at(n)] / base for n in s.gpus], result
