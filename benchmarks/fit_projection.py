"""Fit the projection's free parameters and write resources/scaling/parameters.yaml.

    .venv/bin/python -m benchmarks.fit_projection

Fits the FITTED parameters by least squares on log speed-up ratios of every non-flagged
published series (benchmarks/data/scaling-dev.csv; weak priors on the overlap / bandwidth
pair, see projection_eval.PRIORS), then sets the band width from the
leave-one-family-out residuals (so the band reflects error on unseen model families).
Deterministic: same data, same output.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import numpy as np
import yaml

from advisor.scaling import parameters
from advisor.scaling.parameters import FITTED, ScalingParams
from benchmarks.projection_eval import fit, predict, subset
from benchmarks.scaling_series import flatten, load_series

OUT = Path(__file__).resolve().parents[1] / "resources" / "scaling" / "parameters.yaml"

# name -> (unit, meaning, how the value was obtained). Order = order in the YAML.
DOCS: dict[str, tuple[str, str, str]] = {
    "overlap_fraction": ("1", "share of the gradient all-reduce that can run during the backward pass (bucketed DDP/Horovod); the rest is exposed", "fitted, weak prior 0.6 (projection_eval.PRIORS)"),
    "busbw_efficiency": ("1", "achieved share of the nccl-tests large-message busbw during training (25 MB buckets, contention with compute)", "fitted, weak prior 0.85 (projection_eval.PRIORS)"),
    "sample_time_cv": ("1", "coefficient of variation of one sample's processing time (image sizes, sequence lengths, proposals); a step of b samples jitters by cv/sqrt(b) and waits for the slowest of N GPUs, E[max] ~ sqrt(2 ln N)", "fitted"),
    "fixed_step_fraction": ("1", "share of a single-GPU step that does not shrink with a smaller per-GPU batch (launches, optimizer step); matters for strong scaling", "fitted"),
    "pipeline_stall_tuned": ("1 per log2 N", "input-pipeline stall of a tuned loader, as a share of the compute time per doubling of GPUs (F28)", "fitted"),
    "sync_latency_s": ("s per log2 N", "per-step coordination cost (framework negotiation, small un-bucketed all-reduces) per doubling of GPUs; paid once per optimizer step, so gradient accumulation over k micro-batches divides it by k like the exposed all-reduce", "fitted"),
    "band_log_width_tuned": ("1 per log2 N", "half-width of the low/high band in log speed-up per doubling, tuned world: 80th percentile of leave-one-family-out |log error|/log2(N/N0)", "cross-validation residuals"),
    "pipeline_stall_typical": ("1 per log2 N", "stall of a default data loader (F13 workers not scaled, shared storage); calibrated so a typical PCIe setup lands mid-range in F04 (4 GPUs 2.8-3.3x, 8 GPUs 5-5.5x)", "calibrated to article F04/F01"),
    "pipeline_stall_starved": ("1 per log2 N", "stall of a single-threaded loader before it hits its capacity (F28)", "calibrated to article F28/F30"),
    "starved_loader_capacity": ("single-GPU steps", "samples a single-threaded loader feeds per node, in units of one GPU's appetite: 4 GPUs mostly wait (F28)", "calibrated to article F28"),
    "band_log_width_typical": ("1 per log2 N", "band half-width for typical/starved pipelines: the article's own ranges (F04 2.8-3.3 at 4, F01 4-6 at 8) span about +-8 % per doubling", "article ranges F01/F04"),
    "alternating_fraction": ("1", "serial share of alternating training (GAN / RL sub-networks in turn): Amdahl cap 1/s = 1.54x (F21: often < 1.5x)", "calibrated to article F21"),
    "backward_fraction": ("1", "share of a step spent in the backward pass (about 2/3: backward costs twice the forward)", "standard FLOP count"),
    "bucket_mb": ("MB", "DDP gradient bucket size; one latency term per bucket", "PyTorch DDP default bucket_cap_mb=25"),
    "pcie_multi_socket_factor": ("1", "busbw of rings of more than 4 PCIe GPUs in one machine (two root complexes / sockets)", "NVIDIA/nccl#1639: 8x RTX 5090 28 GB/s vs 4 GPUs 35 GB/s"),
    "throttle_per_card_open_air": ("1 per card", "clock loss per card beyond two packed with open-air coolers (F27)", "assumption, F27"),
    "throttle_per_card_blower": ("1 per card", "clock loss per card beyond two with blower coolers (F27)", "assumption, F27"),
    "throttle_per_degc": ("1 per degC", "clock loss per degree of measured max temperature above 84 degC (F27)", "assumption, F27 (most GPUs slow above 84 degC)"),
    "reference_flops_per_byte": ("FLOP/B", "FLOPs per byte of memory traffic at which the memory-bound part of a step is converted to time: the A100's dense FP16 peak over its bandwidth (312 TFLOP/s / 2,039 GB/s); only its product with the fitted memory-bound share matters", "A100 SXM4 data sheet"),
    "model_flops_utilisation": ("1", "fallback share of the GPU's dense peak a step reaches when compute time is estimated from FLOPs; per-task values in mfu_by_task are medians measured on the data set's single-GPU throughputs", "assumption; see mfu_by_task"),
    "default_microbatches_per_stage": ("1", "pipeline micro-batches per stage when not given: m = 2p gives 4 GPUs about 3x (F06)", "calibrated to article F06"),
    "tensor_activation_exchanges_per_layer": ("1", "activation all-reduces per transformer layer per step in tensor parallel (2 forward, 2 backward; Megatron-LM)", "Megatron-LM"),
    "memory_usable_fraction": ("1", "share of GPU memory a job can use (allocator fragmentation, reserve)", "assumption"),
    "memory_overhead_gb": ("GB", "CUDA context, cuDNN/cuBLAS workspaces, NCCL buffers per GPU", "assumption"),
    "optimizer_bytes_per_param": ("B", "weights + gradients + Adam states per parameter (mixed precision: 2+2+4+4+4 = 16; fp32 Adam: 4+4+8 = 16) (F24)", "ZeRO paper (Rajbhandari et al. 2020)"),
    "activation_bytes_per_token_width_layer": ("B", "activation memory per token x hidden x layer of a transformer without recomputation (34 + attention)", "Korthikanti et al. 2022"),
    "transformer_width_per_layer": ("1", "hidden size per layer assumed for a transformer given only its parameter count (params ~ 12 L h^2, h = r L): r = 64 as in BERT-base and GPT-2 small (768 / 12); larger models use ~128 (GPT-3 6.7 B+, Llama), BERT-large 43; the loss is insensitive to it over 20-200 (Kaplan et al. 2020). Activations scale with r^(1/3), so 64 errs towards more memory for large models", "assumption, Kaplan et al. 2020 / published shapes"),
    "recommendation_dense_fraction": ("1", "share of a DLRM-style recommender's parameters in its dense MLPs, used when its embedding tables do not fit one GPU: only this share is all-reduced, the tables are sharded (model parallel, TorchRec / HugeCTR); MLPerf DLRM has ~24 B embedding vs a few M dense parameters (< 0.1 %), small Criteo models a few %: 1 % errs towards more traffic", "assumption, DLRM (Naumov et al. 2019) / MLPerf DLRM"),
    "embedding_bytes_per_param": ("B", "GPU memory per embedding parameter of sharded tables: fp32 weight + an Adagrad-size optimizer state, no dense gradient buffer (sparse updates fused into the backward pass)", "assumption, TorchRec fused embedding optimizers"),
    "embedding_bytes_per_sample": ("B", "looked-up embedding vectors one sample sends through the all-to-all each way (forward vectors, backward gradients): 26 sparse features x 128 dims x 4 B", "MLPerf DLRM on Criteo 1TB (26 categorical features, dim 128)"),
}

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
        gpu = gpu_spec(s.gpu)
        half = s.precision in ("AMP", "FP16/AMP", "BF16", "FP16")
        tf32 = s.precision in ("TF32", "FP32/TF32") and s.generation not in ("Volta", "Turing")
        peak = gpu.tflops_fp16_dense if half else (
            max(gpu.tflops_fp32, gpu.tflops_fp16_dense / 2) if tf32 else gpu.tflops_fp32)
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
    # Tasks without a measured family (recommendation, GAN, RL, other): the plain median share
    # of peak over every row, as a peak-only rate (no memory-bound share is known for them).
    pooled = [a / p for values in rows.values() for p, _, a in values]
    mfu["other"], membound["other"] = round(float(np.median(pooled)), 3), 0.0
    return mfu, membound


ARTICLE_TARGET_4 = 3.1  # F04 2.8-3.3x on 4 GPUs, and F18: image classification > 3x
ARTICLE_GPUS = ("rtx3090", "rtx4090")  # consumer PCIe 4.0 cards of the article's world


def article_profiles():
    """The article's typical world: ResNet-50 as the wizard preset sets it (batch 128, AMP, no
    throughput: the defaults path most users take), default loader, consumer PCIe 4.0 cards."""
    from advisor.profile import Profile

    return [Profile.model_validate({
        "task": "image_classification", "model": {"name": "ResNet-50", "params_millions": 25.6,
                                                  "flops_per_sample_gflops": 12.3},
        "training": {"single_gpu_hours": 24, "batch_per_gpu": 128, "precision": "amp",
                     "input_pipeline": "typical"},
        "hardware": {"gpu": gpu, "gpus_per_node": 8, "intra_link": "pcie4"}})
        for gpu in ARTICLE_GPUS]


def calibrate_typical_stall(params: ScalingParams) -> ScalingParams:
    """Bisection on pipeline_stall_typical so the article world averages 3.1x on 4 GPUs."""
    from advisor.scaling.project import project

    profiles = article_profiles()
    lo, hi = params.pipeline_stall_tuned, 1.0
    for _ in range(40):
        mid = (lo + hi) / 2
        trial = params.with_values(pipeline_stall_typical=mid)
        s4 = np.mean([project(pr, [1, 4], trial).speedup[1] for pr in profiles])
        lo, hi = (mid, hi) if s4 > ARTICLE_TARGET_4 else (lo, mid)
    return params.with_values(pipeline_stall_typical=round((lo + hi) / 2, 4))


def leave_one_family_out(series, params: ScalingParams) -> tuple[np.ndarray, np.ndarray]:
    """Out-of-family predictions for every point (and the point's family index)."""
    points = flatten(series)
    families = np.array([series[i].family for i in points.series])
    predicted = np.empty_like(points.actual)
    for family in sorted(set(families)):
        held = families == family
        fitted = fit(subset(points, ~held), params)
        predicted[held] = predict(subset(points, held), fitted)
    return points, predicted


def _write(params: ScalingParams, mfu: dict[str, float], membound: dict[str, float]) -> None:
    entries = {}
    for name, (unit, meaning, how) in DOCS.items():
        entries[name] = {"value": round(float(getattr(params, name)), 6), "unit": unit,
                         "fitted": name in FITTED, "meaning": meaning, "source": how}
    doc = {"generated_by": "benchmarks/fit_projection.py (do not edit fitted values by hand)",
           "fitted_on": date.today().isoformat(),  # shown by About and `gpu-advisor --version`
           "data": "benchmarks/data/scaling-dev.csv, non-flagged series with a known batch",
           "parameters": entries,
           "flops_per_param_by_task": FLOPS_PER_PARAM,
           "mfu_by_task": mfu,
           "membound_share_by_task": membound,
           "default_sequence_length": DEFAULT_SEQUENCE,
           "loader_s_per_sample_by_task": LOADER_S_PER_SAMPLE,
           "activation_bytes_per_flop_by_task": ACTIVATION_BYTES_PER_FLOP}
    OUT.write_text("# The projection's parameters; see advisor/scaling/parameters.py.\n"
                   + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100),
                   encoding="utf-8")
    # The runtime caches the file; the calibration below must see the tables just written.
    for cached in (parameters._raw, parameters.load_params, parameters.mfu_by_task,
                   parameters.flops_per_param_by_task, parameters.default_sequence_length,
                   parameters.loader_s_per_sample_by_task, parameters.membound_share_by_task,
                   parameters.activation_bytes_per_flop_by_task):
        cached.cache_clear()


def main() -> None:
    series, _ = load_series()
    clean = [s for s in series if not s.flagged]
    start = ScalingParams()
    params = fit(flatten(clean), start)
    points, cv_pred = leave_one_family_out(clean, start)
    doublings = np.log2(points.gpus / points.baseline)
    width = float(np.quantile(np.abs(np.log(cv_pred / points.actual)) / doublings, 0.8))
    params = params.with_values(band_log_width_tuned=round(width, 4))
    mfu, membound = measured_compute(series, params.reference_flops_per_byte)
    _write(params, mfu, membound)  # the typical-world calibration uses the new tables
    params = calibrate_typical_stall(params)
    _write(params, mfu, membound)
    for name in FITTED + ("band_log_width_tuned", "pipeline_stall_typical"):
        print(f"{name:24s} {getattr(params, name):.5f}")
    from advisor.scaling.project import project

    for pr in article_profiles():
        print(pr.hardware.gpu, "typical:", project(pr, [1, 2, 4, 8], params).speedup)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
