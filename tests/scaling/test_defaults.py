"""The defaults path (no throughput, no FLOPs: what most users give), the run-length-derived
throughput, bottleneck labels that follow the largest physical term, projections beyond the
machine and extreme sizes. The cases are a sweep of common workloads (2026-11-29)."""

from __future__ import annotations

import numpy as np
import pytest

from advisor.catalog.gpus import resolve_gpu
from advisor.profile import Profile
from advisor.scaling import breakdown, load_params, project
from advisor.scaling.inputs import data_parallel_inputs, step_compute_s
from advisor.scaling.links import link_figures
from ui.wizard.presets import preset_by_name


def profile(task: str, params_m: float, batch: int, gpu: str = "rtx4090", **extra) -> Profile:
    data = {"task": task, "model": {"name": "x", "params_millions": params_m},
            "training": {"single_gpu_hours": 48, "batch_per_gpu": batch, "precision": "amp",
                         "input_pipeline": "typical"},
            "hardware": {"gpu": gpu, "gpus_per_node": 8, "intra_link": "pcie4"}}
    for key, value in extra.items():
        data[key] = {**data.get(key, {}), **value}
    return Profile.model_validate(data)


def preset(name: str, gpu: str, **training) -> Profile:
    p = preset_by_name(name)
    return Profile.model_validate({
        "task": p.task, "model": {"name": p.name, "params_millions": p.params_millions,
                                  "layers": p.layers, "hidden_size": p.hidden_size,
                                  "sequence_length": p.sequence_length,
                                  "flops_per_sample_gflops": p.flops_per_sample_gflops},
        "training": {"single_gpu_hours": 24, "batch_per_gpu": p.batch_per_gpu,
                     "precision": p.precision, "input_pipeline": "typical", **training},
        "hardware": {"gpu": gpu, "gpus_per_node": 8, "intra_link": "pcie4"}})


# (task, parameters in millions, batch per GPU): the review's sweep, plain data parallel on
# one PCIe 4.0 box, every model fits one GPU.
SWEEP = [("object_detection", 41.8, 2), ("object_detection", 41.8, 8),
         ("image_classification", 25.6, 32), ("image_classification", 25.6, 64),
         ("image_classification", 88, 64), ("speech_recognition", 100, 16),
         ("nlp", 340, 8), ("nlp", 110, 32), ("segmentation", 40, 4)]


@pytest.mark.parametrize("gpu", ["rtx4090", "rtx3090", "a100_sxm4_80gb"])
@pytest.mark.parametrize(("task", "params_m", "batch"), SWEEP)
def test_two_gpus_never_slower_than_one_on_one_pcie_box(task, params_m, batch, gpu):
    r = project(profile(task, params_m, batch, gpu), [1, 2, 4])
    assert r.single_gpu_fits and r.parallelism[1] == "data"
    assert r.speedup[1] > 1.2  # was 0.96x (Faster R-CNN, batch 2, RTX 4090)
    assert r.speedup[2] > r.speedup[1]


@pytest.mark.parametrize("gpu", ["rtx4090", "rtx3090"])
def test_high_resolution_vision_defaults_scale_like_f18(gpu):
    # Faster R-CNN batch 2 was 1.31x on 4 GPUs and segmentation batch 4 1.83x: the task
    # defaults were a 300-px SSD, not the usual two-stage detector / 512-px segmenter. At two
    # images of different sizes per GPU the slowest GPU costs about a fifth of the step
    # (variable-size inputs, the detection default; fixed-scale detectors reach > 3.2x).
    assert project(profile("object_detection", 41.8, 2, gpu), [1, 4]).speedup[1] > 2.7
    assert project(profile("object_detection", 41.8, 2, gpu,
                           training={"input_sizes": "fixed"}),
                   [1, 4]).speedup[1] > 3.2
    assert project(profile("segmentation", 40, 4, gpu), [1, 4]).speedup[1] > 3.0  # F18
    assert project(profile("image_classification", 25.6, 64, gpu), [1, 4]).speedup[1] > 2.9


@pytest.mark.parametrize("gpu", ["rtx3090", "rtx4090"])
def test_wizard_presets_land_in_the_article_ranges(gpu):
    resnet = project(preset("ResNet-50", gpu), [1, 4, 8]).speedup
    assert 3.0 < resnet[1] <= 3.3 and 5.0 <= resnet[2] <= 5.5  # F04, F18
    # F19's "sequence dependence": sentences of different lengths (packed or padded
    # sequences, the auto default for NLP, scale better: tests/scaling/test_stragglers.py)
    bert = project(preset("BERT-large", gpu, input_sizes="variable"), [1, 4, 8]).speedup
    assert 2.5 <= bert[1] <= 3.5 and 4.4 <= bert[2] <= 5.6  # F01, F19: about 5x on 8
    rcnn = project(preset("Faster R-CNN R50-FPN", gpu), [1, 4, 8]).speedup
    # F18 > 3x on 4; F01 "most cases" 4-6x on 8: this compute-heavy detector sits at its top
    assert 3.0 < rcnn[1] <= 3.5 and 4.0 <= rcnn[2] <= 6.2


def test_throughput_follows_from_run_hours_samples_and_epochs():
    base = profile("object_detection", 41.8, 8)
    run = profile("object_detection", 41.8, 8,
                  training={"dataset_samples": 118_000, "epochs": 12})  # COCO 1x, 48 h
    given = profile("object_detection", 41.8, 8, training={
        "single_gpu_throughput": 118_000 * 12 / (48 * 3600.0), "dataset_samples": 118_000,
        "epochs": 12})
    gpu, p = resolve_gpu("rtx4090"), load_params()
    assert step_compute_s(run, gpu, p) == pytest.approx(8 / (118_000 * 12 / (48 * 3600.0)))
    assert step_compute_s(run, gpu, p) != pytest.approx(step_compute_s(base, gpu, p))
    assert project(run, [1, 2, 4, 8]).speedup == project(given, [1, 2, 4, 8]).speedup


def _parts(pr: Profile, counts: list[int]):
    gpu, hw = resolve_gpu(pr.hardware.gpu), pr.hardware
    links = link_figures(hw.intra_link, hw.inter_link, gpu, hw.gpus_per_node)
    return breakdown(counts, data_parallel_inputs(pr, gpu, links, load_params()), load_params())


def test_input_stall_follows_samples_per_second_not_step_time():
    llm = Profile.model_validate({
        "task": "llm", "model": {"name": "7B", "params_millions": 6740, "layers": 32,
                                 "hidden_size": 4096, "sequence_length": 4096},
        "training": {"single_gpu_hours": 500, "batch_per_gpu": 4, "precision": "bf16",
                     "input_pipeline": "typical"},
        "hardware": {"gpu": "a100_sxm4_80gb", "gpus_per_node": 8, "intra_link": "nvswitch",
                     "cooling": "server"}})
    r = project(llm, [1, 2, 4, 8])
    assert "input_pipeline" not in r.bottleneck  # was input_pipeline at an 8-9 s step
    part = _parts(llm, [8])
    assert part.stall_s[0] < 0.01 * part.step_s[0]  # a few samples/s: the loader keeps up


@pytest.mark.parametrize("pipeline", ["typical", "tuned"])
@pytest.mark.parametrize("batch", [32, 64])
def test_f20_small_model_on_fast_gpus_is_labelled_communication(pipeline, batch):
    # ResNet-18 on 8x H100 PCIe: per-step coordination (small all-reduces) is network time,
    # so the classic F20 case reads "communication", not "synchronisation".
    r18 = profile("image_classification", 11.7, batch, "h100_pcie",
                  model={"flops_per_sample_gflops": 5.5},
                  training={"input_pipeline": pipeline},
                  hardware={"intra_link": "pcie5", "cooling": "server"})
    assert project(r18, [1, 8]).bottleneck[1] == "communication"
    part = _parts(r18, [8])
    assert part.comm_s[0] + part.coordination_s[0] > part.sync_s[0] - part.coordination_s[0]


def test_extreme_sizes_keep_the_band_inside_0_and_n_and_warn():
    huge = profile("image_classification", 25.6, 64, hardware={
        "gpus_per_node": 64, "nodes": 4096, "inter_link": "ethernet_10g"})
    r = project(huge)
    n = np.array(r.gpus, dtype=float)
    low, mid, high = (np.array(v) for v in (r.speedup_low, r.speedup, r.speedup_high))
    assert np.all(low >= 0) and np.all(low <= mid) and np.all(mid <= high) and np.all(high <= n)
    assert any("1024" in note for note in r.notes) and any("1024" in n for n in r.notes_zh)
    assert not any("1024" in note for note in project(huge, [1, 8, 1024]).notes)
