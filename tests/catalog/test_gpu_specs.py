"""The GPUs the catalog ships: every card has a source and a generation, the A40 and the
RTX 2080 Ti carry their published figures, and each class comes with its cooling (passive
data-centre cards sit in servers, GeForce cards have open-air fans, the RTX A6000 a blower;
F27)."""

from __future__ import annotations

import pytest

from advisor.catalog.gpus import load_gpus, resolve_gpu


def test_new_catalog_gpus_are_sourced_and_resolvable():
    a40 = resolve_gpu("a40")
    assert a40.memory_gb == 48 and a40.tflops_fp16_dense == pytest.approx(149.7)
    assert a40.tflops_fp32 == pytest.approx(37.4) and a40.memory_bandwidth_gbs == 696
    assert a40.tdp_w == 300 and a40.pcie_gen == 4 and a40.nvlink == "bridge"
    assert a40.source and a40.as_of and a40.generation == "ampere"
    ti = resolve_gpu("rtx2080ti")
    assert (ti.memory_gb, ti.memory_bandwidth_gbs, ti.tflops_fp16_dense, ti.tflops_fp32,
            ti.tdp_w, ti.pcie_gen, ti.nvlink) == (11, 616, 53.8, 13.4, 250, 3, "bridge")
    assert ti.generation == "turing" and ti.default_cooling == "open_air"
    for spec in load_gpus().values():
        assert spec.source and spec.generation, spec.id


def test_cooling_default_follows_the_gpu_class():
    gpus = load_gpus()
    for gpu_id in ("a100_pcie_40gb", "a100_pcie_80gb", "h100_pcie", "l40s", "t4", "l4", "a40",
                   "v100_pcie_32gb"):
        assert gpus[gpu_id].default_cooling == "server", gpu_id
    for gpu_id in ("rtx3090", "rtx4090", "rtx5090", "rtx4060ti_16gb"):
        assert gpus[gpu_id].default_cooling == "open_air", gpu_id
    assert gpus["rtx_a6000"].default_cooling == "blower"
