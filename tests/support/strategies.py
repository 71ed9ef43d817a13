"""Hypothesis strategies for valid workload Profiles (reusable by every test module)."""

from __future__ import annotations

import math

from hypothesis import strategies as st

from advisor.catalog.gpus import gpu_ids
from advisor.profile import (
    Cooling,
    GradientDtype,
    InputPipeline,
    InputSizes,
    InterLink,
    IntraLink,
    KeepBatch,
    Parallelism,
    Precision,
    Profile,
    Storage,
    SubNetworks,
    Task,
    ThroughputUnit,
    Virtualization,
)
from advisor.profile.bounds import MAX_RUN_HOURS, MIN_RUN_HOURS

INTER_LINKS = [link for link in InterLink if link != InterLink.none]


def _enum(enum_cls) -> st.SearchStrategy:
    return st.sampled_from(list(enum_cls))


@st.composite
def model_specs(draw) -> dict:
    spec = {"name": "hypothesis-model",
            "params_millions": draw(st.floats(0.5, 20_000, allow_nan=False))}
    if draw(st.booleans()):
        spec["flops_per_sample_gflops"] = draw(st.floats(0.01, 5e4, allow_nan=False))
    if draw(st.booleans()):
        spec["layers"] = draw(st.integers(1, 96))
        spec["hidden_size"] = draw(st.sampled_from([256, 768, 1024, 2048, 4096, 8192]))
        spec["sequence_length"] = draw(st.sampled_from([128, 512, 1024, 2048, 4096]))
    return spec


@st.composite
def training_specs(draw, parallelism: Parallelism | None = None,
                   pipeline: list[InputPipeline] | None = None) -> dict:
    spec: dict = {
        "batch_per_gpu": draw(st.integers(1, 512)),
        # FP8 only on the cards that have it: tests/scaling/test_fp8_training.py
        "precision": draw(_enum(Precision).filter(lambda p: p != Precision.fp8)).value,
        "gradient_dtype": draw(_enum(GradientDtype)).value,
        "parallelism": (parallelism or draw(_enum(Parallelism))).value,
        "input_pipeline": draw(st.sampled_from(pipeline or list(InputPipeline))).value,
    }
    if draw(st.booleans()):
        spec["single_gpu_hours"] = draw(st.floats(0.1, 5000, allow_nan=False))
    else:
        throughput = draw(st.floats(0.5, 50_000, allow_nan=False))
        samples = draw(st.integers(1000, 10**8))
        epochs = draw(st.floats(1, 100, allow_nan=False))
        # a run from 36 s to 100,000 hours (advisor.profile.bounds): an epoch holds at least
        # 36 seconds' worth of samples, all epochs at most 100,000 hours' worth (clamped, not
        # drawn from a narrower range: the draws, and so the examples, stay the same)
        least = math.ceil(throughput * MIN_RUN_HOURS * 3600)
        most = math.floor(throughput * MAX_RUN_HOURS * 3600 / epochs)
        spec["single_gpu_throughput"] = throughput
        spec["dataset_samples"] = min(max(samples, least), most)
        spec["epochs"] = epochs
    if draw(st.booleans()):
        spec["micro_batches"] = draw(st.integers(1, 64))
    if draw(st.booleans()):
        spec["dataloader_workers"] = draw(st.integers(1, 16))
        spec["cpu_cores"] = draw(st.integers(4, 256))
    if draw(st.booleans()):
        spec["storage"] = draw(_enum(Storage)).value
    spec["keep_batch"] = draw(_enum(KeepBatch)).value
    spec["input_sizes"] = draw(_enum(InputSizes)).value
    spec["sub_networks"] = draw(_enum(SubNetworks)).value
    return spec


@st.composite
def hardware_specs(draw, max_nodes: int = 4, coolings: list[Cooling] | None = None) -> dict:
    nodes = draw(st.integers(1, max_nodes))
    spec: dict = {
        "gpu": draw(st.sampled_from(gpu_ids())),
        "gpus_per_node": draw(st.integers(1, 16)),
        "nodes": nodes,
        "intra_link": draw(_enum(IntraLink)).value,
        "inter_link": (draw(st.sampled_from(INTER_LINKS)) if nodes > 1
                       else draw(_enum(InterLink))).value,
        "virtualization": draw(_enum(Virtualization)).value,
        "cooling": draw(st.sampled_from(coolings or list(Cooling))).value,
    }
    if spec["virtualization"] == "vgpu" and draw(st.booleans()):
        spec["vgpus_per_physical_gpu"] = draw(st.integers(1, 8))
    if draw(st.booleans()):
        spec["max_gpu_temp_c"] = draw(st.floats(50, 100, allow_nan=False))
    if draw(st.booleans()):
        spec["allreduce_busbw_gbs"] = draw(st.floats(0.5, 900, allow_nan=False))
    return spec


@st.composite
def profiles(draw, parallelism: Parallelism | None = None, max_nodes: int = 4,
             coolings: list[Cooling] | None = None,
             pipeline: list[InputPipeline] | None = None) -> Profile:
    """A random valid Profile; keyword arguments pin parts of it for a property."""
    model = draw(model_specs())
    training = draw(training_specs(parallelism, pipeline))
    if "single_gpu_throughput" in training and model.get("sequence_length") and draw(
            st.booleans()):  # the rate as a log prints it: tokens per second
        training["throughput_unit"] = ThroughputUnit.tokens.value
        training["single_gpu_throughput"] *= model["sequence_length"]
    return Profile.model_validate({
        "task": draw(_enum(Task)).value,
        "model": model,
        "training": training,
        "hardware": draw(hardware_specs(max_nodes, coolings)),
    })


@st.composite
def economics_specs(draw) -> dict:
    """The money: own, cloud or compare; what a day saved is worth said (deadline, revenue,
    none) or not said (left out: the article's table rates, rules/README.md); prices given or
    left to the catalog."""
    spec: dict = {"mode": draw(st.sampled_from(["own", "cloud", "compare"])),
                  "currency": draw(st.sampled_from(["CNY", "USD"])),
                  "moved_to_multi_gpu_before": draw(st.booleans())}
    said = draw(st.sampled_from(["deadline", "revenue", "none", None]))
    if said is not None:
        spec["time_value"] = said
    if said in ("revenue", "deadline") or draw(st.booleans()):
        spec["value_per_day"] = draw(st.floats(0, 1e6, allow_nan=False))
    if said == "deadline" and draw(st.booleans()):
        spec["deadline_days"] = draw(st.floats(1, 365, allow_nan=False))
    if draw(st.booleans()):
        spec["gpu_price"] = draw(st.floats(0, 300_000, allow_nan=False))
    if draw(st.booleans()):
        spec["cloud_price_per_gpu_hour"] = draw(st.floats(0.1, 200, allow_nan=False))
    return spec


@st.composite
def realistic_profiles(draw, max_nodes: int = 2) -> Profile:
    """A random profile a user could give: a catalog card on a link it can have (SXM modules
    on NVLink or NVSwitch, PCIe cards on PCIe or their bridge) and random economics."""
    from advisor.catalog.gpus import LINKS_BY_NVLINK, PCIE_LINKS, resolve_gpu

    data = draw(profiles(max_nodes=max_nodes)).model_dump(mode="json", exclude_none=True)
    spec = resolve_gpu(data["hardware"]["gpu"])
    data["hardware"]["intra_link"] = draw(st.sampled_from(
        sorted(LINKS_BY_NVLINK.get(spec.nvlink, PCIE_LINKS))))
    data["training"]["runs_per_month"] = draw(st.floats(0.5, 200, allow_nan=False))
    data["economics"] = draw(economics_specs())
    return Profile.model_validate(data)
