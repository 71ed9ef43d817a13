"""The assumption tables of the projection's compute and memory estimates, with sources, and
the fit of the achieved share of peak on the data set's single-GPU throughputs.

Written into resources/scaling/parameters.yaml by ``fit_projection.py``; read at runtime by
``advisor.scaling.parameters``.
"""

from __future__ import annotations

import numpy as np

# Training FLOPs per sample per parameter of each task's *typical* model at its *typical*
# input size, used when a profile gives neither throughput nor FLOPs: a user who says nothing
# about the model is taken to train the usual model of the task. Counted like the wizard
# presets and the vision literature: 3 x the forward pass, multiply-adds as the papers and
# mmdetection / torchvision list them (the MFU below is measured in the same units).
FLOPS_PER_PARAM = {
    # ResNet-50 at 224 px: 3 x 4.1 G / 25.6 M (torchvision)
    "image_classification": 480,
    # two-stage detectors at 800-1333 px: Faster R-CNN R50-FPN 3 x 206 G at 1280 x 800
    # (mmdetection model zoo) / 41.8 M = 14,800; Mask R-CNN R50-FPN 3 x 260 G / 44.2 M = 17,600
    "object_detection": 14800,
    # semantic segmentation at 512 x 512: DeepLabV3+ R101 ~177 G / 59 M x 3 = 9,000;
    # U-Net (31 M) ~220 G x 3 = 21,000 (4 x its 256 px count); the lower middle is used
    "segmentation": 12000,
    # GANs: StyleGAN2 config-f at 1024 px, the task's usual model (G 30 M + D 29 M params).
    # Its generator costs 144 G multiply-adds per image (Lin et al., "Anycost GANs", CVPR 2021,
    # sec. 1: "the StyleGAN2 generator consumes 144G MACs"; ~45 G at 256 px). A training image
    # runs G forward+backward and the discriminator forward+backward on a real and a fake image,
    # D costing about as much as G: about 6 x 144 G = 864 G per image / 60 M = 14,400 per
    # parameter (at 256 px about a third of that). The former 500 (a ResNet-like count) made
    # a GAN step ~30x too short and its projection communication-bound below 1x.
    "gan": 14400,
    # PPO/DQN on Atari (Nature CNN, 1.7 M params, ~9.4 M MACs forward): 3 x 9.4 M / 1.7 M = 17
    # per parameter for one update; rollouts re-run the forward pass for every sample and PPO
    # makes ~4 epochs over each batch, hence ~100. RL steps are mostly waiting on simulators.
    "recommendation": 6, "reinforcement_learning": 100, "other": 1000,
    # nlp / llm / speech_recognition: 6 x params x tokens (frames), defaults below - inputs.py
}
# Activation bytes per training FLOP of one sample (fp32 activations; AMP / 16-bit keep about
# half), for models without a transformer shape (activations.py): activations grow with the
# feature maps a sample runs through, i.e. with its FLOPs, not with the parameters. Orders of
# magnitude, from each task's typical model at its typical input size:
ACTIVATION_BYTES_PER_FLOP = {
    # ResNet-50 at 224 px: about 100 MB per image kept for the backward pass in fp32 (about
    # 50 MB with AMP: a 16 GB card trains it at batch ~128 in fp32, ~256 with AMP) / 12.3 G
    # = 0.0081; a ViT-B/16 keeps about 90 MB per image at 16-bit (34 s h L + 5 a s^2 L,
    # Korthikanti et al.) / the 41 G its 86 M parameters imply = 0.0044. A model given without
    # its shape may be either: the geometric mean, 0.006, errs by ~1.35x at most both ways
    # (review 5: ViT-B "could not run" on a 40 GB card at 0.0081).
    "image_classification": 0.006,
    # Detectron2 model zoo "train mem": Faster R-CNN R50-FPN 3.0 GB, Mask R-CNN 3.4 GB per GPU
    # at 2 images of 1333 x 800 (fp32), less ~0.7 GB of model states: ~1.2-1.4 GB per image /
    # 620-780 G
    "object_detection": 0.002,
    # mmsegmentation model zoo, PSPNet / DeepLabV3 R50-D8 at 512 x 1024: ~6 GB per GPU at 2
    # images (fp32), ~2.5 GB per image / ~810 G
    "segmentation": 0.003,
    # StyleGAN2 config-f at 1024 px: the 864 G per image count both phases (G step, D step on
    # a real and a fake image), the peak holds one phase: G forward + D on the fake, about
    # 100 M activations per network at 1024 px (~0.8-1 GB fp32) / 864 G
    "gan": 0.001,
    # DLRM: MLP and interaction activations of a few tens of kB per sample; the FLOPs default
    # (6 per parameter) counts embedding rows, so the ratio is tiny
    "recommendation": 0.00001,
    # Nature CNN on 84 x 84 x 4 frames: ~20 k activations (80 kB fp32, ~0.25 MB with what the
    # backward keeps) / ~170 M per sample
    "reinforcement_learning": 0.0015,
    # unknown model: between a classifier and a detector
    "other": 0.004,
}
# Sequence length when none is given: BERT pre-training phase 2 / GPT-style LLMs; speech:
# encoder frames of a ~15 s utterance at 20 ms (Whisper: 1,500 for 30 s; Conformer at 40 ms
# after 4x sub-sampling: 250-500 for 10-20 s).
DEFAULT_SEQUENCE = {"nlp": 512, "llm": 2048, "speech_recognition": 750}
# CPU seconds a default loader (a few workers per GPU) spends per sample on one GPU's behalf.
# Assumptions of order of magnitude (JPEG decode + augment ~5-8 ms per 224 px image per core,
# ~4 workers; 1333 x 800 detection images: decode, resize, flip, pad ~40 ms per core with
# mmdetection's default 2 workers per GPU; audio decode, resampling, log-mel and SpecAugment of
# a ~15 s utterance ~10 ms per core; pre-tokenised text): only the ratio to the GPU's step
# matters, and it decides whether a job can be loader-bound at all (an LLM step of seconds
# never is).
LOADER_S_PER_SAMPLE = {
    "image_classification": 0.002, "object_detection": 0.02, "segmentation": 0.01,
    "speech_recognition": 0.003, "nlp": 0.0001, "llm": 0.0001, "recommendation": 0.00001,
    "gan": 0.002, "reinforcement_learning": 0.0005, "other": 0.002,
}
# Training FLOPs per sample (3 x forward, multiply-adds) of the data set's models whose count
# is published; the achieved share of peak is measured on them (name fragment -> GFLOPs).
MODEL_TRAIN_GFLOPS = {
    "ResNet-50": 12.3,  # 3 x 4.1 G at 224 px
    "ResNeXt101": 24.0,  # 3 x 8.0 G (32x4d)
    "SE-ResNeXt101": 24.0,  # 3 x 8.0 G (32x4d; SE blocks add < 1 %)
    "Mask R-CNN": 780.0,  # 3 x 260 G at 1280 x 800 (mmdetection model zoo)
}
# task -> model families whose single-GPU throughput gives the task's achieved share of peak.
# Detection and segmentation use the two-stage detector at full resolution (Mask R-CNN), the
# typical model of FLOPS_PER_PARAM; SSD300 at 300 px runs at a much higher share and is not
# what a detection user usually trains.
MFU_FAMILIES = {"resnet": ("image_classification",), "maskrcnn": ("object_detection",
                                                                  "segmentation"),
                "bert": ("nlp",)}


def _train_gflops(s) -> float | None:
    found = [(s.model.index(k), -len(k), v) for k, v in MODEL_TRAIN_GFLOPS.items()
             if k in s.model]
    return min(found)[2] if found else None


def measured_compute(series, ridge: float) -> tuple[dict[str, float], dict[str, float]]:
    """Per task: achieved share of peak and memory-bound share of the step, fitted by least
    squares on the log single-GPU throughputs of models whose FLOPs per sample are known
    (every GPU and precision of the data), with the runtime's formula
    rate = share / ((1 - m) / peak + m / (bandwidth x ridge)). Tasks without data: speech and
    LLMs use the NLP values (transformer / conformer encoders), others the pooled median share of peak."""
    from scipy.optimize import least_squares

    from benchmarks.scaling_series import gpu_spec

    rows: dict[str, list[tuple[float, float, float]]] = {}
    for s in series:
        tasks = MFU_FAMILIES.get(s.family)
        if tasks is None:
            continue
        peak, _ = _peak_and_streamed(s, ridge)
        gpu = gpu_spec(s.gpu)
        if tasks[0] == "nlp":
            seq = 384 if "squad" in s.model.lower() else (512 if "512" in s.model else 128)
            flops = 6.0 * s.params_m * 1e6 * seq
        else:
            gflops = _train_gflops(s)
            if gflops is None:
                continue
            flops = gflops * 1e9
        achieved = s.batch0 / s.step_compute_s * flops / 1e12
        for task in tasks:
            rows.setdefault(task, []).append((peak, gpu.memory_bandwidth_gbs, achieved))
    mfu, membound = {}, {}
    for task, values in rows.items():
        peak, bw, achieved = (np.array(v) for v in zip(*values, strict=True))
        streamed = bw * ridge / 1000.0

        def residuals(theta, peak=peak, streamed=streamed, achieved=achieved):
            share, m = theta
            return np.log(share / ((1 - m) / peak + m / streamed)) - np.log(achieved)

        fit_ = least_squares(residuals, [0.3, 0.3], bounds=([0.01, 0.0], [1.0, 0.99]),
                             loss="soft_l1", f_scale=0.1)
        mfu[task], membound[task] = round(float(fit_.x[0]), 3), round(float(fit_.x[1]), 3)
    for table in (mfu, membound):
        table["llm"] = table["speech_recognition"] = table["nlp"]
    # Tasks without a measured family (GAN, RL, other): the plain median share
    # of peak over every row, as a peak-only rate (no memory-bound share is known for them).
    pooled = [a / p for values in rows.values() for p, _, a in values]
    mfu["other"], membound["other"] = round(float(np.median(pooled)), 3), 0.0
    # Recommenders: no FLOPs per sample is known (their parameters are mostly embedding
    # tables), but the ratios of one model's single-GPU throughputs across cards and precisions
    # fix the memory-bound share, the share of peak cancelling. Their share of peak is the
    # pooled one: on the reference card at 16 bits the blend is the peak, so the absolute rate
    # there is what it was before the memory-bound share was known.
    m = recommender_membound(series, ridge)
    if m is not None:
        mfu["recommendation"], membound["recommendation"] = mfu["other"], m
    return mfu, membound


def _peak_and_streamed(s, ridge: float) -> tuple[float, float]:
    """A series' dense peak at its precision (TF32 where the source ran it) and its card's
    memory-bound rate (bandwidth x the reference card's FLOPs per byte), in TFLOP/s."""
    from benchmarks.scaling_series import gpu_spec

    gpu = gpu_spec(s.gpu)
    half = s.precision in ("AMP", "FP16/AMP", "BF16", "FP16")
    tf32 = s.precision in ("TF32", "FP32/TF32") and s.generation not in ("Volta", "Turing")
    peak = gpu.tflops_fp16_dense if half else (
        max(gpu.tflops_fp32, gpu.tflops_fp16_dense / 2) if tf32 else gpu.tflops_fp32)
    return peak, gpu.memory_bandwidth_gbs * ridge / 1000.0


def recommender_pairs(series, ridge: float) -> list[tuple[tuple[float, float, float],
                                                          tuple[float, float, float]]]:
    """Every pair of one recommender's single-GPU runs (same source and model) on different
    cards or precisions: ((peak, streamed, samples/s), (peak, streamed, samples/s))."""
    from itertools import combinations

    runs: dict[tuple[str, str], dict[tuple[str, str], tuple[float, float, float]]] = {}
    for s in series:
        if s.task != "recommendation" or s.baseline != 1:
            continue
        peak, streamed = _peak_and_streamed(s, ridge)
        runs.setdefault((s.source, s.model), {})[(s.gpu, s.precision)] = (
            peak, streamed, s.batch0 / s.step_compute_s)
    return [pair for found in runs.values() for pair in combinations(found.values(), 2)]


def blend_rate(m: float, peak: float, streamed: float) -> float:
    """The runtime's rate per unit share of peak (advisor.scaling.inputs.effective_tflops)."""
    return 1.0 / ((1.0 - m) / peak + m / streamed)


def recommender_membound(series, ridge: float) -> float | None:
    """The recommenders' memory-bound share, fitted on the log ratios of their throughputs
    (``recommender_pairs``); None without pairs."""
    from scipy.optimize import least_squares

    pairs = recommender_pairs(series, ridge)
    if not pairs:
        return None

    def residuals(theta):
        m = theta[0]
        return np.array([np.log(blend_rate(m, a[0], a[1]) / blend_rate(m, b[0], b[1]))
                         - np.log(a[2] / b[2]) for a, b in pairs])

    fit_ = least_squares(residuals, [0.5], bounds=([0.0], [0.99]), loss="soft_l1",
                         f_scale=0.1)
    return round(float(fit_.x[0]), 3)


def recommender_ratio_error(series, ridge: float, m: float) -> tuple[int, float]:
    """The recommender pairs and the median |error| of their predicted throughput ratios at
    memory-bound share ``m`` (0: the peak-only rate used before the share was fitted)."""
    pairs = recommender_pairs(series, ridge)
    errors = [abs(blend_rate(m, a[0], a[1]) / blend_rate(m, b[0], b[1]) / (a[2] / b[2]) - 1.0)
              for a, b in pairs]
    return len(pairs), float(np.median(errors)) if errors else float("nan")

