"""`import-smi` text output speaks the user's language: human labels, not ids or enum values.

The JSON keeps ids and enums (the machine interface); text for people shows "NVLink 无",
"PCIe 4.0", "软件功耗上限", "[提示] 没有 NVLink" and evidence sentences in Chinese or English.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import get_args

import pytest

from advisor.cli import main
from advisor.cli.commands.import_smi import render_text
from advisor.files.errors import InputError
from advisor.hwimport import display as d
from advisor.hwimport import parse_files
from advisor.hwimport.model import (
    GpuFacts,
    HardwareDescription,
    IntraLinkValue,
    Kind,
    NvlinkState,
    Observation,
    ObservationId,
    PciePath,
    Severity,
    VirtMode,
)
from advisor.hwimport.observations import observe
from advisor.hwimport.throttle import BENIGN_REASONS, POWER_REASONS, REASON_BITS, THERMAL_REASONS
from tests.support.paths import TESTS

FIXTURES = TESTS / "fixtures" / "nvidia-smi"
ALL_FIXTURES = sorted(FIXTURES.glob("*/*.txt"))
RTX5090_TOPO = FIXTURES / "topo/rtx5090-x2-pcie-phb-gpu-numa-id.txt"

SNAKE_ID = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
# the JSON's enum values as they would leak into a sentence (case-sensitive: "NVLink",
# "NVIDIA vGPU" and "PCIe 4.0" are labels, "nvlink", "vgpu" and "pcie4" are not)
BARE_ENUM = re.compile(r"\b(none|full|partial|info|warning|critical|pcie[345]|nvlink|nvswitch|"
                       r"passthrough|vgpu|bare_metal|host_vgpu)\b")
ENGLISH_ENUM = re.compile(r"\b(pcie[345]|nvlink|nvswitch|passthrough|vgpu)\b|\[info\]")
ENGLISH_WORD = re.compile(r"\b[a-z]{3,}\b")
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def _without_data_and_commands(text: str, desc: HardwareDescription) -> str:
    """Drop what is data or a command a user types (NIC device names such as ``mlx5_0``,
    `quoted code`, ``nvidia-smi dmon``); what is left is sentences and labels."""
    for nic in desc.rdma_nics or []:
        text = text.replace(nic, "NIC")
    text = re.sub(r"`[^`]*`", "", text)
    return re.sub(r"nvidia-smi( -{0,2}[a-z-]+)*", "", text)


def _assert_clean(desc: HardwareDescription, where: str) -> None:
    zh = _without_data_and_commands(render_text(desc, "zh"), desc)
    for pattern in (SNAKE_ID, BARE_ENUM, ENGLISH_WORD):
        assert not pattern.findall(zh), (where, pattern.findall(zh), zh)
    en = render_text(desc, "en")
    assert not CJK.findall(en), (where, en)
    # "none", "full" and "warning" are English words; the link and virtualisation enums and
    # the bare "[info]" severity are not
    en_plain = _without_data_and_commands(en, desc)
    for pattern in (SNAKE_ID, ENGLISH_ENUM):
        assert not pattern.findall(en_plain), (where, pattern.findall(en_plain), en)


def _parsed(path: Path) -> HardwareDescription | None:
    try:
        return parse_files([path])
    except InputError:
        return None  # not nvidia-smi output: nothing to render


@pytest.mark.parametrize("path", ALL_FIXTURES, ids=lambda p: f"{p.parent.name}/{p.stem[:40]}")
def test_text_of_every_fixture_has_labels_not_ids(path):
    desc = _parsed(path)
    if desc is None:
        pytest.skip("not nvidia-smi output")
    _assert_clean(desc, path.name)


def test_every_fixture_kind_is_covered():
    kinds = {k for p in ALL_FIXTURES if (desc := _parsed(p)) is not None for k in desc.kinds}
    assert kinds == set(get_args(Kind)) - {"nvml"}


def test_merged_outputs_render_cleanly():
    desc = parse_files([FIXTURES / "query/a40-10gpu-550-two-sw-power-cap-active.txt",
                        FIXTURES / "topo/rtx5060ti-x4-pcie-phb-no-legend.txt",
                        FIXTURES / "dmon/csv-v100-32gb-loop5-training-99pct-one-dip.txt"])
    assert desc.kind == "merged"
    _assert_clean(desc, "merged")


def _every_observation() -> HardwareDescription:
    """GPUs that raise every observation the importer knows (no fixture has them all)."""
    common = {"pcie_width_max": 16, "pcie_gen_max": 4, "pstate": "P0", "util_samples": 5,
              "bus_id": "0000:01:00.0"}
    gpus = [
        GpuFacts(index=0, throttle_active=["hw_thermal_slowdown", "sw_power_cap"], temp_c=91,
                 sm_util_pct=60, busy_util_pct=60, sm_clock_mhz=900, pcie_width_current=8,
                 pcie_gen_current=4, virtualization="host_vgpu", vgpus=4, **common),
        GpuFacts(index=1, throttle_active=["hw_power_brake_slowdown", "power_violation"],
                 temp_c=86, sm_util_pct=62, busy_util_pct=62, sm_clock_mhz=1800,
                 pcie_width_current=16, pcie_gen_current=3, virtualization="vgpu", **common),
        GpuFacts(index=2, throttle_active=["sw_power_cap"], sm_util_pct=79, busy_util_pct=79,
                 sm_clock_mhz=1800, pcie_width_current=16, pcie_gen_current=4, **common),
        GpuFacts(index=3, throttle_active=[], sm_util_pct=80, busy_util_pct=80,
                 sm_clock_mhz=1800, pcie_width_current=16, pcie_gen_current=4, **common),
    ]
    desc = HardwareDescription(kind="merged", kinds=["query", "topo", "dmon"], gpus=gpus,
                               gpu_count=4, nvlink="none", worst_pcie_path="SYS",
                               worst_nic_path="NODE", intra_link="pcie4",
                               virtualization="host_vgpu", rdma_nics=["mlx5_0"],
                               throttle_active=["hw_thermal_slowdown", "sw_power_cap"])
    desc.observations = observe(desc)
    return desc


def test_every_observation_renders_in_the_users_language():
    desc = _every_observation()
    assert set(desc.observation_ids()) == set(get_args(ObservationId))
    _assert_clean(desc, "synthetic")
    zh = render_text(desc, "zh")
    assert "[严重] 过热降频：" in zh and "[警告] 有一张卡拖后腿：" in zh
    assert "GPU 0 (0000:01:00.0)：硬件过热降频，91 °C" in zh
    assert "满载时软件功耗上限（P0）" in zh and "x16 的链路只用了 x8" in zh
    assert "最差的 GPU 间路径：SYS（跨 CPU 插槽）" in zh
    en = render_text(desc, "en")
    assert "[critical] Thermal throttling: " in en
    assert "GPU 0 (0000:01:00.0): hardware thermal slowdown, 91 °C" in en
    assert "worst GPU-GPU path: SYS (across CPU sockets)" in en


def test_the_reviewed_topo_output_in_chinese():
    """Review 2 item 11: "NVLink none", "[info] no_nvlink:", "worst GPU-GPU path: PHB"."""
    zh = render_text(parse_files([RTX5090_TOPO]), "zh")
    rows = dict(re.split(r"\s{2,}", line, maxsplit=1) for line in zh.split("\n\n")[0]
                .splitlines())
    assert rows["NVLink"] == "无" and rows["来源"] == "nvidia-smi topo -m（拓扑）"
    assert rows["最差 GPU 间 PCIe 路径"] == "PHB（经过 CPU 的 PCIe 主桥）"
    assert "[提示] 没有 NVLink：" in zh and "- 最差的 GPU 间路径：PHB（经过 CPU 的 PCIe 主桥）" in zh
    assert "no_nvlink" not in zh and "worst" not in zh and "[info]" not in zh


def test_query_values_in_chinese_and_english():
    path = FIXTURES / "query/a40-10gpu-550-two-sw-power-cap-active.txt"
    desc = parse_files([path])
    assert desc.intra_link == "pcie4" and desc.virtualization == "none"
    assert desc.throttle_active == ["gpu_idle", "sw_power_cap"]
    zh, en = render_text(desc, "zh"), render_text(desc, "en")
    assert re.search(r"机内互联\s+PCIe 4\.0\n", zh) and re.search(r"虚拟化\s+裸金属\n", zh)
    assert re.search(r"生效的降频原因\s+空闲、软件功耗上限\n", zh)
    assert re.search(r"Virtualisation\s+bare metal\n", en)
    assert re.search(r"Clock limits active\s+idle, software power cap\n", en)


def test_json_keeps_ids_enums_and_raw_evidence(capsys):
    assert main(["--lang", "zh", "import-smi", "--format", "json", str(RTX5090_TOPO)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["nvlink"] == "none" and data["worst_pcie_path"] == "PHB"
    obs = data["observations"][0]
    assert obs["id"] == "no_nvlink" and obs["severity"] == "info"
    assert obs["evidence"] == ["worst GPU-GPU path: PHB"]
    assert set(obs) == {"id", "severity", "message", "evidence", "sources"}
    assert "_evidence_text" not in HardwareDescription.model_json_schema()["$defs"][
        "Observation"]["properties"]


def test_evidence_read_back_from_json_falls_back_to_the_raw_strings():
    original = _every_observation()
    again = HardwareDescription.model_validate_json(original.model_dump_json())
    for before, after in zip(original.observations, again.observations, strict=True):
        assert after.evidence == before.evidence
        assert after.evidence_in("zh") == before.evidence  # no sentences: the data itself
        assert before.evidence_in("zh") != before.evidence


def test_every_value_the_importer_can_produce_has_both_labels():
    """A value without a label would fall back to its raw spelling in Chinese text."""
    tables = [
        (get_args(Kind), d.KIND), (get_args(NvlinkState), d.NVLINK),
        (get_args(PciePath), d.PCIE_PATH), (get_args(Severity), d.SEVERITY),
        (get_args(ObservationId), d.OBSERVATION_TITLE),
        (set(REASON_BITS.values()) | THERMAL_REASONS | POWER_REASONS | BENIGN_REASONS,
         d.THROTTLE),
    ]
    for values, table in tables:
        assert set(values) <= set(table), set(values) - set(table)
        for v in values:
            assert table[v].zh != table[v].en and CJK.search(table[v].zh), v
            assert table[v].en and not CJK.search(table[v].en), v
    for value in get_args(IntraLinkValue):
        assert d.link_label(value, "zh") != value and d.link_label(value, "en") != value
    for value in get_args(VirtMode):
        assert d.virtualization_label(value, "zh") != value
        assert not CJK.search(d.virtualization_label(value, "en"))


def test_unknown_values_still_print_without_underscores():
    assert d.reason_label("new_driver_reason", "zh") == "new driver reason"
    assert d.observation_title("some_new_finding", "en") == "Some new finding"
    assert d.link_label("pcie6", "zh") == "pcie6"


def test_observation_made_without_sentences_shows_its_evidence():
    obs = Observation(id="no_nvlink", severity="info", message={"en": "x", "zh": "x"},
                      evidence=["worst GPU-GPU path: SYS"])
    assert obs.evidence_in("zh") == ["worst GPU-GPU path: SYS"]


def test_a_garbled_header_after_the_command_line_is_not_a_gpu():
    """Found by random edits (review 4): the command line's fields were used for a garbled
    header line, which became a GPU named ">  name"; a row of another width could raise."""
    from advisor.hwimport import parse_text

    text = ("$ nvidia-smi --query-gpu=index,name,driver_version,pci.bus_id --format=csv\n"
            "index, >  name, driver_version, pci\n"
            "index, name, driver_version, pci.bus_id\n"
            "0, NVIDIA A100-SXM4-40GB, 535.54.03, 00000000:07:00.0\n"
            "1, NVIDIA A100-SXM4-40GB, 535.54.03, 00000000:0F:00.0\n")
    d = parse_text(text)
    assert d.gpu_count == 2 and set(d.gpu_names) == {"NVIDIA A100-SXM4-40GB"}
    noheader = parse_text("P0, NVIDIA A100-SXM4-40GB, 00000000:07:00.0\n"
                          "P0, NVIDIA A100-SXM4-40GB, 00000000:0F:00.0\n")
    assert noheader.gpu_count == 2  # a value like P0 first is data, not a header


@pytest.mark.parametrize("header", ["n\u00c3me, memory.tot@l [MiB], temp",
                                    "nme, memory.total [MiB], temperature.gpu"])
def test_a_damaged_header_is_read_through_the_command_line(header):
    """Review 5: a damaged header became a GPU, or lost the name column, although the
    command line above it names every field."""
    from advisor.hwimport import parse_text

    d = parse_text("$ nvidia-smi --query-gpu=name,memory.total,temperature.gpu --format=csv\n"
                   f"{header}\n"
                   "NVIDIA A100-SXM4-80GB, 81920 MiB, 34\n"
                   "NVIDIA A100-SXM4-80GB, 81920 MiB, 36\n")
    assert d.gpu_count == 2 and d.gpu_names == ["NVIDIA A100-SXM4-80GB"] * 2
    assert d.gpu_memory_mib == [81920, 81920] and d.max_gpu_temp_c == 36
