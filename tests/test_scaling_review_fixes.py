"""Regressions from the projection's acceptance review: a starved loader limits every
parallelism mode (F28), activations count in memory without a model shape, and Ethernet gives
a machine one network adapter, not one per GPU (F08)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from advisor.catalog.gpus import resolve_gpu
from advisor.catalog.profile_check import load_profile
from advisor.profile import Profile
from advisor.scaling import project
from advisor.scaling.activations import activation_bytes_per_sample
from advisor.scaling.links import link_figures, load_links
from advisor.scaling.model_parallel import TransformerShape, pipeline_parallel, tensor_parallel
from advisor.scaling.parameters import load_params
from advisor.scaling.physics import DataParallelInputs, breakdown
from tests.support.paths import ROOT

EXAMPLES = ROOT / "examples"
ECONOMICS = {"mode": "cloud", "currency": "USD", "time_value": "revenue", "value_per_day": 300}


def make(task: str, model: dict, training: dict, hardware: dict) -> Profile:
    return Profile.model_validate({"schema_version": 1, "task": task, "model": model,
                                   "training": training, "hardware": hardware,
                                   "economics": ECONOMICS})


def starved_13b(**training) -> Profile:
    return make("llm", {"name": "13B", "params_millions": 13000, "layers": 40,
                        "hidden_size": 5120, "sequence_length": 2048},
                {"single_gpu_hours": 300, "batch_per_gpu": 2, "precision": "bf16",
                 "input_pipeline": "starved", "dataloader_workers": 1, "cpu_cores": 4,
                 "storage": "hdd", **training},
                {"gpu": "h100_sxm", "gpus_per_node": 8, "intra_link": "nvswitch",
                 "cooling": "server"})


# --- 1: a starved loader caps tensor parallel, FSDP and pipelines alike (F28) ---------------

def test_starved_loader_caps_tensor_and_fsdp_rows_alike():
    r = project(starved_13b(), list(range(1, 9)))
    cap = load_params().starved_loader_capacity
    assert {"tensor", "fsdp"} <= set(r.parallelism)
    rows = r.speedup[1:]
    assert max(rows) <= cap + 1e-6  # the loader's samples/s bound every mode
    assert max(rows) - min(rows) < 0.05 * cap  # no jump between modes: a flat curve
    fitting = [i for i in range(1, 8) if r.fits[i]]
    assert all(r.bottleneck[i] == "input_pipeline" for i in fitting)


def test_tensor_parallel_scales_when_the_loader_keeps_up():
    tuned = project(starved_13b(input_pipeline="tuned"), [1, 4])
    assert tuned.parallelism[1] == "tensor" and tuned.speedup[1] > 3.0


def test_tensor_group_loader_bound_is_in_samples_per_second():
    """Data parallel on N GPUs and one N-way tensor group hit the same samples/s ceiling."""
    p = load_params()
    x = DataParallelInputs(params_millions=1000, grad_bytes_per_param=2, step_compute_s=1.0,
                           gpus_per_node=8, busbw_intra_gbs=200, loader_capacity=2.0)
    n = np.array([4.0, 8.0])
    dp = breakdown(n, x, p).speedup
    shape = TransformerShape(40, 5120, 2048, 2.0)
    tp = tensor_parallel(n, n, x, shape, 2, p)[0]
    assert np.all(dp <= 2.0 + 1e-9) and np.all(tp <= 2.0 + 1e-9)
    free = tensor_parallel(n, n, replace(x, loader_capacity=None), shape, 2, p)[0]
    assert np.all(free > 3.0)  # the cap, not the exchange, held it at 2


def test_pipeline_parallel_is_fed_by_one_loader():
    p = load_params()
    s, _ = pipeline_parallel(np.array([2.0, 4.0, 8.0]), None, p, loader_capacity=1.5)
    assert np.all(s <= 1.5)
    r = project(starved_13b(parallelism="pipeline"), [1, 4, 8])
    assert max(r.speedup[1:]) <= 1.5 + 1e-6 and r.bottleneck[1] == "input_pipeline"


# --- 2: activations without a shape (CNNs, transformers given by size) ----------------------

def resnet(params: float, batch: int, precision: str = "fp32", gpu: str = "t4",
           **model) -> Profile:
    return make("image_classification", {"name": "ResNet", "params_millions": params, **model},
                {"single_gpu_hours": 30, "batch_per_gpu": batch, "precision": precision},
                {"gpu": gpu, "gpus_per_node": 4, "intra_link": "pcie3", "cooling": "server"})


def test_resnet152_at_batch_1024_does_not_fit_a_t4():
    r = project(resnet(60, 1024), [1, 2, 4])
    assert min(r.memory_per_gpu_gb) > 16.0 and not any(r.fits)
    assert r.parallelism == ["data"] * 3  # a CNN is not split by tensor parallel
    assert any("activations alone" in note for note in r.notes)
    assert any("激活值" in note for note in r.notes_zh)


def test_resnet50_activation_per_image_is_about_100_mb_fp32_half_with_amp():
    p = load_params()
    fp32 = activation_bytes_per_sample(resnet(25.6, 1), p)
    amp = activation_bytes_per_sample(resnet(25.6, 1, "amp"), p)
    assert 70e6 <= fp32 <= 150e6
    assert amp == pytest.approx(fp32 / 2)


def test_cnn_activations_follow_the_given_flops():
    p = load_params()
    one = activation_bytes_per_sample(resnet(25.6, 1, flops_per_sample_gflops=12.3), p)
    two = activation_bytes_per_sample(resnet(25.6, 1, flops_per_sample_gflops=24.6), p)
    assert two == pytest.approx(2 * one)


def bert(**model) -> Profile:
    return make("nlp", {"name": "BERT-large", "params_millions": 340, **model},
                {"single_gpu_hours": 10, "batch_per_gpu": 32, "precision": "amp"},
                {"gpu": "rtx4090", "gpus_per_node": 4, "intra_link": "pcie4"})


def test_transformer_without_shape_gets_activations_near_the_real_shape():
    p = load_params()
    derived = activation_bytes_per_sample(bert(), p)
    known = activation_bytes_per_sample(bert(layers=24, hidden_size=1024, sequence_length=512),
                                        p)
    assert 0.7 * known <= derived <= 1.4 * known
    r = project(bert(), [1])
    assert r.memory_per_gpu_gb[0] > 340e6 * 16 / 1e9 + 1.0 + 5.0  # states + overhead + acts


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda q: q.stem)
def test_examples_still_fit_on_their_own_machines(path):
    profile = load_profile(path)
    r = project(profile, [profile.hardware.total_gpus])
    assert r.fits == [True]


# --- 3: Ethernet: one adapter per machine; InfiniBand/RoCE on servers: one per GPU (F08) ----

def test_ethernet_is_one_adapter_per_machine_even_on_nvswitch():
    gpu = resolve_gpu("a100_sxm4_80gb")
    eth = link_figures("nvswitch", "ethernet_10g", gpu, 8)
    ib = link_figures("nvswitch", "infiniband_hdr", gpu, 8)
    table = load_links()["inter"]
    assert eth.adapters_per_node == 1
    assert eth.busbw_inter_gbs == pytest.approx(table["ethernet_10g"]["busbw_gbs"])
    assert ib.adapters_per_node == 8
    assert ib.busbw_inter_gbs == pytest.approx(8 * table["infiniband_hdr"]["busbw_gbs"])
    assert link_figures("pcie4", "infiniband_hdr", gpu, 8).adapters_per_node == 1


def test_every_network_says_how_many_adapters_a_machine_has():
    for name, entry in load_links()["inter"].items():
        expected = "per_machine" if name.startswith("ethernet") else "per_gpu_on_servers"
        assert entry["adapters"] == expected, name


def bert_pretrain(inter: str) -> Profile:
    return make("nlp", {"name": "BERT-large pretrain", "params_millions": 340,
                        "sequence_length": 512},
                {"single_gpu_hours": 500, "batch_per_gpu": 32, "precision": "amp",
                 "input_pipeline": "tuned"},
                {"gpu": "a100_sxm4_80gb", "gpus_per_node": 8, "nodes": 4,
                 "intra_link": "nvswitch", "inter_link": inter, "cooling": "server"})


def test_16_gpus_over_10gbe_are_barely_faster_or_slower_than_8():  # F08
    r = project(bert_pretrain("ethernet_10g"), [1, 8, 16, 32])
    assert r.speedup[2] <= 1.1 * r.speedup[1]
    assert r.bottleneck[2] == "communication"
    assert any("one 10 GbE Ethernet network adapter per machine" in note for note in r.notes)


def test_infiniband_servers_keep_one_adapter_per_gpu_and_say_so():
    r = project(bert_pretrain("infiniband_hdr"), [1, 8, 16, 32])
    assert r.speedup[2] > 1.6 * r.speedup[1]
    assert any("one per GPU" in note for note in r.notes)
    one_node = project(bert_pretrain("infiniband_hdr"), [1, 8])
    assert not any("adapter" in note for note in one_node.notes)  # no network, no note
