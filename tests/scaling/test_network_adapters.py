"""How many network adapters a machine has (F08): Ethernet gives a machine one, whatever links its
GPUs inside; InfiniBand and RoCE on servers give one per GPU. So 16 GPUs over 10 GbE are barely
faster than 8, or slower, while InfiniBand servers keep scaling; the projection's notes say
which it assumed."""

from __future__ import annotations

import pytest

from advisor.catalog.gpus import resolve_gpu
from advisor.profile import Profile
from advisor.scaling import project
from advisor.scaling.links import link_figures, load_links
from tests.support.profiles import scaling_profile


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
    return scaling_profile("nlp", {"name": "BERT-large pretrain", "params_millions": 340,
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
