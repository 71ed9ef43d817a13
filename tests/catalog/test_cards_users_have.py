"""The cards users have are in the catalog (A10/A10G, RTX 4080/4070/3080/3060, and for China
A800, H800, H20, RTX 4090 D), each sourced; the AMD MI300X is named as not modelled, with why,
in both languages; every price and offer states its source and date."""

from __future__ import annotations

import pytest
import yaml

from advisor.catalog import load_gpus, resolve_gpu
from advisor.catalog.profile_check import parse_profile_text
from advisor.files.errors import InputError
from advisor.files.paths import resources_dir

NEW = ("a10", "a10g", "rtx4080", "rtx4080_super", "rtx4070", "rtx4070_super", "rtx4070ti",
       "rtx4070ti_super", "rtx3080", "rtx3060_12gb", "rtx4090d", "a800_pcie_80gb",
       "a800_sxm4_80gb", "h800_sxm", "h20")


@pytest.mark.parametrize("gpu", NEW)
def test_each_new_card_is_sourced_and_dated(gpu):
    spec = load_gpus()[gpu]
    assert spec.source and spec.generation and spec.gpu_class and spec.confidence
    assert spec.memory_gb > 0 and spec.tflops_fp16_dense > 0 and spec.tdp_w > 0


def test_china_export_cards_keep_compute_and_lose_nvlink():
    h100, h800 = resolve_gpu("h100_sxm"), resolve_gpu("h800_sxm")
    assert h800.tflops_fp16_dense == h100.tflops_fp16_dense
    assert h800.nvlink_gbs_unidirectional < h100.nvlink_gbs_unidirectional
    a100, a800 = resolve_gpu("a100_sxm4_80gb"), resolve_gpu("a800_sxm4_80gb")
    assert a800.tflops_fp16_dense == a100.tflops_fp16_dense
    assert a800.nvlink_gbs_unidirectional < a100.nvlink_gbs_unidirectional
    assert resolve_gpu("h20").memory_gb == 96 and resolve_gpu("rtx4090d").tdp_w == 425


def test_the_a800_family_is_settled_by_the_link():
    assert resolve_gpu("A800", "nvswitch").id == "a800_sxm4_80gb"
    assert resolve_gpu("A800", "pcie4").id == "a800_pcie_80gb"
    profile = parse_profile_text("training: {single_gpu_hours: 10}\n"
                                 "hardware: {gpu: RTX 4080, gpus_per_node: 2}\n")
    assert resolve_gpu(profile.hardware.gpu).id == "rtx4080"


def test_the_mi300x_is_not_modelled_and_says_why():
    with pytest.raises(InputError) as err:
        resolve_gpu("AMD Instinct MI300X")
    text = err.value.render("en")
    assert "not modelled" in text and "Infinity Fabric" in text and "51 %" in text
    assert "暂不支持建模" in err.value.render("zh") and "自定义显卡" in err.value.render("zh")
    with pytest.raises(InputError) as again:
        parse_profile_text("training: {single_gpu_hours: 10}\nhardware: {gpu: mi300x}\n")
    assert again.value.problems[0].path == "hardware.gpu"


@pytest.mark.parametrize("name, key", [("gpu_prices.yaml", "prices"),
                                       ("cloud_offers.yaml", "offers"),
                                       ("electricity.yaml", "prices"),
                                       ("setups.yaml", "setups")])
def test_every_price_names_its_source_and_date(name, key):
    entries = yaml.safe_load((resources_dir() / "catalog" / name).read_text("utf-8"))[key]
    for entry in entries:
        assert entry.get("source"), entry["id"]
        assert "as_of" in entry, entry["id"]  # null only where the source is undated
    economics = yaml.safe_load((resources_dir() / "catalog" / "economics.yaml")
                               .read_text("utf-8"))
    for section in ("machine_overheads", "tax"):
        for entry in economics[section]:
            assert entry.get("source") and entry.get("as_of"), entry["id"]
    for single in ("fx", "nvlink_bridge"):
        assert economics[single]["source"] and economics[single]["as_of"]


def test_l40s_and_a10g_have_cloud_offers_and_the_l40s_a_purchase_price():
    from advisor.catalog import load_catalog

    catalog = load_catalog()
    for gpu in ("l40s", "a10g", "a10", "h100_pcie"):
        assert [o for o in catalog.cloud_offers if o.gpu == gpu], gpu
    kinds = {o.kind for o in catalog.cloud_offers if o.gpu == "l40s"}
    assert {"on_demand", "spot", "reserved"} <= kinds
    for gpu in ("l40s", "h100_pcie", "a100_pcie_80gb", "rtx4090d", "h800_sxm"):
        assert catalog.gpu_price(gpu, "USD", "US") is not None, gpu
