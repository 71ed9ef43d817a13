"""Issue 31, cause 3: a custom GPU can say its architecture (and memory bandwidth), so it gets
flash attention for 16-bit runs and TF32 for fp32 convolutions like the catalog's cards of its
generation; left empty, neither is assumed."""

from __future__ import annotations

import pytest

from advisor.catalog.gpus import resolve_gpu
from advisor.profile import CustomGpu, Precision, Task
from advisor.scaling.layouts.cluster import cluster_of
from advisor.scaling.peak import peak_tflops


def _card(**extra) -> CustomGpu:
    return CustomGpu(name="My A100", memory_gb=80, tflops_fp16=312, tflops_fp32=19.5, **extra)


def test_a_custom_card_with_its_generation_runs_like_the_catalogs():
    mine = resolve_gpu(_card(generation="ampere", memory_bandwidth_gbs=2039))
    catalog = resolve_gpu("a100_sxm4_80gb")
    assert mine.generation == "ampere" and mine.memory_bandwidth_gbs == 2039
    assert peak_tflops(mine, Precision.fp32, Task.image_classification) == pytest.approx(
        peak_tflops(catalog, Precision.fp32, Task.image_classification))


def test_without_a_generation_neither_tf32_nor_flash_is_assumed():
    plain = resolve_gpu(_card())
    assert peak_tflops(plain, Precision.fp32, Task.image_classification) == 19.5
    from advisor.profile import InterLink, IntraLink
    from advisor.scaling.links import link_figures

    links = link_figures(IntraLink.pcie4, InterLink.none, plain, 1, None)
    assert not cluster_of(plain, links, Precision.bf16, 1, 0.85, None).flash_attention
    ampere = resolve_gpu(_card(generation="ampere"))
    assert cluster_of(ampere, links, Precision.bf16, 1, 0.85, None).flash_attention
