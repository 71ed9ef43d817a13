"""The projection's physics, parameters, links and memory model, piece by piece."""

from __future__ import annotations

import re
from dataclasses import fields, replace

import numpy as np
import pytest
import yaml

import advisor
from advisor.profile import InterLink, IntraLink, Profile
from advisor.scaling import (
    CITED_FACTS,
    FITTED,
    DataParallelInputs,
    ScalingParams,
    breakdown,
    default_gpu_counts,
    load_params,
    project,
    speedup,
)
from advisor.scaling.physics import allreduce_time_s
from tests.support.paths import ROOT

ROOT = ROOT
SCALING_SRC = ROOT / "advisor" / "scaling"
REQUIRED_FACTS = {"F01", "F03", "F04", "F05", "F06", "F07", "F08", "F18", "F19", "F20", "F21",
                  "F25", "F32"}


def profile(**parts) -> Profile:
    data = {"task": "image_classification", "model": {"params_millions": 25.6},
            "training": {"single_gpu_hours": 10, "batch_per_gpu": 64, "precision": "amp",
                         "input_pipeline": "typical"},
            "hardware": {"gpu": "rtx4090", "gpus_per_node": 8, "intra_link": "pcie4"}}
    for key, value in parts.items():
        data[key] = {**data.get(key, {}), **value} if isinstance(value, dict) else value
    return Profile.model_validate(data)


def test_cited_facts_lint():
    assert REQUIRED_FACTS <= set(CITED_FACTS)
    source = "\n".join(p.read_text(encoding="utf-8") for p in SCALING_SRC.glob("*.py")
                       if p.name != "__init__.py")
    cited_in_code = set(re.findall(r"\bF\d\d\b", source))
    assert REQUIRED_FACTS <= cited_in_code
    assert all(re.fullmatch(r"F\d\d", fact) for fact in CITED_FACTS)


def test_parameters_file_names_explains_and_values_every_parameter():
    raw = yaml.safe_load((ROOT / "resources" / "scaling" / "parameters.yaml").read_text(
        encoding="utf-8"))
    entries = raw["parameters"]
    for f in fields(ScalingParams):
        entry = entries[f.name]
        assert isinstance(entry["value"], int | float)
        assert entry["meaning"] and entry["source"] and "unit" in entry
        assert entry["fitted"] == (f.name in FITTED)
    assert load_params().overlap_fraction == pytest.approx(entries["overlap_fraction"]["value"])


def test_a_refit_writes_every_parameter_back_with_its_provenance():
    """benchmarks/fit_projection.py rewrites parameters.yaml from its DOCS: a parameter it does
    not know would be dropped (and its provenance with it) by the next refit."""
    from benchmarks.fit_projection import DOCS

    raw = yaml.safe_load((ROOT / "resources" / "scaling" / "parameters.yaml").read_text(
        encoding="utf-8"))
    assert list(DOCS) == list(raw["parameters"])
    assert {f.name for f in fields(ScalingParams)} <= set(DOCS)
    for name, (unit, meaning, source) in DOCS.items():
        entry = raw["parameters"][name]
        assert (entry["unit"], entry["meaning"], entry["source"]) == (unit, meaning, source), name


def test_links_catalog_is_complete_and_ordered():
    raw = yaml.safe_load((ROOT / "resources" / "catalog" / "links.yaml").read_text(
        encoding="utf-8"))
    intra = [raw["intra"][link.value] for link in IntraLink]
    inter = [raw["inter"][link.value] for link in InterLink if link != InterLink.none]
    for entry in intra + inter:
        assert entry["busbw_gbs"] > 0 and entry["latency_us"] > 0
        assert entry["source"] and entry["as_of"]
    pcie = [e["busbw_gbs"] for e in intra[:3]]
    assert pcie == sorted(pcie)
    net = [e["busbw_gbs"] for e in inter]
    assert net == sorted(net)


def _inputs(**kw) -> DataParallelInputs:
    base = dict(params_millions=100.0, grad_bytes_per_param=4.0, step_compute_s=0.5,
                gpus_per_node=8, busbw_intra_gbs=100.0)
    return DataParallelInputs(**{**base, **kw})


def test_ring_allreduce_time_is_2_n_minus_1_over_n_bytes_over_busbw():  # F07
    t = allreduce_time_s(np.array([2.0, 4.0, 8.0]), 8, 1e9, 100.0, 0.0, 0.0, 0.0, 1e12)
    assert t == pytest.approx([1e9 / 100e9, 1.5e9 / 100e9, 1.75e9 / 100e9])


def test_hierarchical_allreduce_adds_the_network_tier():
    one = allreduce_time_s(np.array([16.0]), 16, 1e9, 100.0, 10.0, 0.0, 0.0, 1e12)
    two = allreduce_time_s(np.array([16.0]), 8, 1e9, 100.0, 10.0, 0.0, 0.0, 1e12)
    # inside each machine 2(8-1)/8 of the bytes; through the network, the slowest link of
    # NCCL's rings over all 16 GPUs, 2(16-1)/16
    assert two[0] == pytest.approx(2 * 7 / 8 * 1e9 / 100e9 + 2 * 15 / 16 * 1e9 / 10e9)
    assert two[0] > one[0]


def test_speedup_of_one_gpu_is_one_and_bounded_by_n():
    s = speedup([1, 2, 4, 8], _inputs(), load_params())
    assert s[0] == pytest.approx(1.0)
    assert np.all(s <= np.array([1, 2, 4, 8])) and np.all(np.diff(s) > 0)


def test_zero3_moves_one_and_a_half_times_the_traffic():
    p = load_params().with_values(overlap_fraction=0.0)
    plain = breakdown([8], _inputs(), p).comm_s[0]
    zero3 = breakdown([8], _inputs(comm_volume_factor=1.5), p).comm_s[0]
    assert zero3 / plain == pytest.approx(1.5, rel=0.02)


def test_overlap_hides_communication_behind_backward():
    p = load_params()
    hidden = breakdown([8], _inputs(), p.with_values(overlap_fraction=1.0)).comm_s[0]
    exposed = breakdown([8], _inputs(), p.with_values(overlap_fraction=0.0)).comm_s[0]
    assert hidden < exposed


def test_vgpu_sharing_runs_8_like_2():  # F29
    s = speedup([8], _inputs(vgpus_per_physical=4.0, busbw_intra_gbs=1000.0), load_params())
    assert 1.5 < s[0] <= 2.0


def test_alternating_training_caps_speedup():  # F21, F03
    s = speedup([64], _inputs(alternating_fraction=load_params().alternating_fraction,
                              busbw_intra_gbs=1000.0, gpus_per_node=64), load_params())
    assert s[0] < 1.0 / load_params().alternating_fraction


def test_strong_scaling_pays_fixed_per_step_work():
    p = load_params().with_values(fixed_step_fraction=0.2)
    weak = speedup([8], _inputs(), p)[0]
    strong = speedup([8], _inputs(batch_scale=np.array([1 / 8])), p)[0]
    assert strong < weak


def test_small_per_gpu_batches_wait_longer_for_stragglers():
    # A step sums b variable-size samples: jitter cv/sqrt(b) (plus the system's own step
    # noise, a share of the step and a fixed time on the host), the slowest of N sets the pace.
    p = load_params().with_values(sync_latency_s=0.0, step_time_cv=0.0, step_jitter_s=0.0)
    one = breakdown([8], _inputs(batch_per_gpu=1.0), p).sync_s[0]
    many = breakdown([8], _inputs(batch_per_gpu=64.0), p).sync_s[0]
    assert one == pytest.approx(8.0 * many)
    expected = 0.5 * p.sample_time_cv * np.sqrt(2.0 * np.log(8.0))
    assert one == pytest.approx(expected)
    assert speedup([8], _inputs(batch_per_gpu=1.0), p)[0] < speedup(
        [8], _inputs(batch_per_gpu=64.0), p)[0]


def test_input_pipeline_quality_orders_projection():
    runs = {q: project(profile(training={"input_pipeline": q}), [1, 4, 8]).speedup[2]
            for q in ("starved", "typical", "tuned")}
    assert runs["starved"] < runs["typical"] < runs["tuned"]
    starved = project(profile(training={"input_pipeline": "starved"}), [1, 4])
    assert starved.speedup[1] < 2.0 and starved.bottleneck[1] == "input_pipeline"  # F28


def test_heat_lowers_the_projection():  # F27
    cool = project(profile(hardware={"cooling": "server"}), [8]).speedup[0]
    packed = project(profile(hardware={"cooling": "open_air"}), [8]).speedup[0]
    hot = project(profile(hardware={"cooling": "server", "max_gpu_temp_c": 92}), [8]).speedup[0]
    assert packed < cool and hot < cool


def test_unknown_virtualisation_widens_the_band_down():  # F29
    bare = project(profile(), [8])
    unknown = project(profile(hardware={"virtualization": "unknown"}), [8])
    assert unknown.speedup == bare.speedup
    assert unknown.speedup_low[0] < bare.speedup_low[0] / 2
    assert any("F29" in n for n in unknown.notes) and unknown.notes_zh


def test_measured_busbw_overrides_the_link_default():
    slow = project(profile(hardware={"allreduce_busbw_gbs": 2.0}), [8]).speedup[0]
    fast = project(profile(hardware={"allreduce_busbw_gbs": 200.0}), [8]).speedup[0]
    assert slow < project(profile(), [8]).speedup[0] < fast


def test_memory_model_and_automatic_parallelism():  # F05, F24
    small = project(profile(), [1, 8])
    assert small.single_gpu_fits and small.parallelism == ["data", "data"]
    # states (SGD with momentum, a vision task's optimizer, under AMP: fp32 weights, gradients
    # and momentum, 12 B per parameter) + overhead + activations of 64 images at AMP (a
    # shapeless image model: 480 FLOPs per parameter x 0.006 B per FLOP in fp32, half with AMP)
    act = 64 * 25.6e6 * 480 * 0.006 * 0.5 / 1e9
    assert small.memory_per_gpu_gb[0] == pytest.approx(25.6e6 * 12 / 1e9 + 1.0 + act, abs=0.01)
    # model states decide here: one image per GPU keeps the activations small
    big = project(profile(model={"params_millions": 5000},
                          training={"batch_per_gpu": 1, "optimizer": "adamw"},
                          hardware={"gpu": "a100_sxm4_80gb"}), [1, 2, 8])
    assert not big.single_gpu_fits and big.fits == [False, True, True]
    assert big.parallelism[1] in ("zero", "fsdp") and big.bottleneck[0] == "memory"
    # 40 B parameters at one short sequence per GPU (~5 GB of activations): the states fit
    # sharded over 16 GPUs, not over 8; with 64 long sequences nothing would fit
    huge = project(profile(task="llm", model={"params_millions": 40000, "sequence_length": 256},
                           training={"batch_per_gpu": 1}, hardware={
        "gpu": "a100_sxm4_80gb", "nodes": 2, "inter_link": "infiniband_hdr"}), [8, 16])
    assert huge.fits == [False, True] and huge.parallelism[1] != "data"
    assert huge.memory_per_gpu_gb[1] < 40e9 * 16 / 8 / 1e9  # the states split 16 ways


def test_explicit_zero3_shards_states():
    r = project(profile(training={"parallelism": "zero3"}), [1, 8])
    assert r.memory_per_gpu_gb[1] < r.memory_per_gpu_gb[0]
    assert r.parallelism == ["zero", "zero"]


def test_run_hours_follow_speedup():
    r = project(profile(), [1, 2, 4, 8])
    assert r.run_hours == pytest.approx([10.0 / s for s in r.speedup], rel=1e-4)
    assert r.speedup[0] == 1.0 and r.efficiency[0] == 1.0


def test_default_gpu_counts():
    assert default_gpu_counts(4) == [1, 2, 3, 4]
    assert default_gpu_counts(16) == list(range(1, 17))
    assert default_gpu_counts(24) == [1, 2, 4, 8, 16, 24]
    assert default_gpu_counts(64) == [1, 2, 4, 8, 16, 32, 64]


def test_default_counts_are_counts_a_setup_is_built_at():
    # beyond one machine, whole machines and powers of two: no "15 GPUs" on two machines of 8
    assert default_gpu_counts(16, 8) == [1, 2, 3, 4, 5, 6, 7, 8, 16]
    assert default_gpu_counts(16, 4) == [1, 2, 3, 4, 8, 12, 16]
    assert default_gpu_counts(12, 3) == [1, 2, 3, 4, 6, 8, 9, 12]
    assert default_gpu_counts(8, 8) == list(range(1, 9))
    assert default_gpu_counts(2, 1) == [1, 2]
    assert project(profile(hardware={"gpus_per_node": 4})).gpus == [1, 2, 3, 4]


def test_counts_beyond_the_machine_assume_more_machines_on_a_default_network():
    one = profile(hardware={"gpus_per_node": 4})
    r = project(one, [1, 4, 8, 16])
    assert r.nodes == [1, 1, 2, 4]
    assert r.speedup[2] < 2 * r.speedup[1]  # 25 GbE between machines: far from linear (F08)
    assert any("25 GbE" in note for note in r.notes)
    assert any("25 GbE" in note and "机器" in note for note in r.notes_zh)
    same = project(profile(hardware={"gpus_per_node": 4, "nodes": 4,
                                     "inter_link": "ethernet_25g"}), [1, 4, 8, 16])
    assert same.speedup == r.speedup  # exactly "more machines like this one over 25 GbE"
    inside = project(one, [1, 4]).notes  # inside the machine: no note of machines
    assert not any("25 GbE" in note for note in inside)
    assert [n for n in inside if "nvidia-smi" not in n] == []


def test_counts_beyond_the_nodes_keep_the_profile_network():
    two = profile(hardware={"gpus_per_node": 4, "nodes": 2, "inter_link": "infiniband_hdr"})
    r = project(two, [8, 32])
    assert r.nodes == [2, 8]
    assert any("InfiniBand HDR" in note and "8 machines" in note for note in r.notes)


def test_top_level_api_and_refit_hook():
    assert advisor.project is project
    p = load_params()
    assert replace(p, sample_time_cv=0.0).vector()[FITTED.index("sample_time_cv")] == 0.0
    assert len(p.vector()) == len(FITTED)
