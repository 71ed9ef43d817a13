"""Observations, merging, the profile hand-off and the `import-smi` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.cli import main
from advisor.files.errors import InputError
from advisor.hwimport import (
    CITED_FACTS,
    apply_to_profile,
    hardware_updates,
    observation_ids,
    parse_files,
    parse_text,
    parse_texts,
)
from advisor.hwimport.names import catalog_id
from advisor.profile import IntraLink, Profile, Virtualization
from tests.support.paths import TESTS

FIXTURES = TESTS / "fixtures" / "nvidia-smi"

DMON_HEADER = ("# gpu   pwr gtemp mtemp    sm   mem   enc   dec  mclk  pclk\n"
               "# Idx     W     C     C     %     %     %     %   MHz   MHz\n")


def dmon(rows: list[tuple[int, int, int, int]]) -> str:
    """dmon text from (gpu, watts, temp C, sm %) rows, in the 2019-2023 column layout."""
    return DMON_HEADER + "".join(
        f"{g:>5} {w:>5} {t:>5}     - {sm:>5}    40     0     0  6250  {1980 if sm else 210:>4}\n"
        for g, w, t, sm in rows)


def test_cited_facts_are_the_articles():
    assert set(CITED_FACTS) == {"F25", "F27", "F28", "F29", "F30"}


def test_data_starvation_when_busy_gpus_stay_below_80_percent():  # F28
    samples = [(g, 200, 60, sm) for sm in (55, 62, 48, 70, 58) for g in range(4)]
    d = parse_text(dmon(samples))
    assert d.gpu_count == 4
    assert "data_starvation" in d.observation_ids()
    obs = next(o for o in d.observations if o.id == "data_starvation")
    assert obs.sources == ["F28"] and "80" in obs.message.en and "80%" in obs.message.zh


def test_spiky_utilisation_is_starvation_but_warm_up_is_not():
    spiky = parse_text(dmon([(0, 250, 60, sm) for sm in (0, 100, 0, 100, 0, 100, 0, 95)]))
    assert "data_starvation" in spiky.observation_ids()
    warm = parse_text(dmon([(0, 250, 60, sm) for sm in (0, 0, 5, 30, 97, 99, 98, 99, 0, 0)]))
    assert "data_starvation" not in warm.observation_ids()


def test_laggard_gpu_found_in_dmon():  # F30
    rows = [(g, 280, 65, 60 if g == 3 else 98) for _ in range(5) for g in range(4)]
    d = parse_text(dmon(rows))
    lag = next(o for o in d.observations if o.id == "laggard_gpu")
    assert lag.evidence and all(e.startswith("GPU 3") for e in lag.evidence)


def test_thermal_throttling_from_temperature_and_reasons():  # F27
    hot = parse_text(dmon([(0, 280, 88, 99), (0, 281, 89, 99)]))
    assert hot.max_gpu_temp_c == 89
    assert [o.severity for o in hot.observations if o.id == "thermal_throttling"] == ["warning"]
    q = (FIXTURES / "query/partial-d-power-temp-perf-545-sw-power-cap-under-load-TRUNCATED.txt"
         ).read_text().replace("SW Thermal Slowdown               : Not Active",
                               "SW Thermal Slowdown               : Active")
    d = parse_text(q)
    assert "sw_thermal_slowdown" in d.throttle_active
    assert [o.severity for o in d.observations if o.id == "thermal_throttling"] == ["critical"]


def test_query_gpu_csv_noheader_nounits_with_command_line():
    text = ("$ nvidia-smi --query-gpu=index,name,utilization.gpu,temperature.gpu,"
            "clocks_throttle_reasons.active --format=csv,noheader,nounits\n"
            "0, NVIDIA GeForce RTX 4090, 97, 86, 0x0000000000000040\n"
            "1, NVIDIA GeForce RTX 4090, 98, 71, 0x0000000000000000\n")
    d = parse_text(text)
    assert d.kind == "csv" and d.gpu_count == 2
    assert d.gpus[0].throttle_active == ["hw_thermal_slowdown"]
    assert d.max_gpu_temp_c == 86 and d.mean_sm_util == 97.5
    assert "thermal_throttling" in d.observation_ids()


def test_query_gpu_csv_noheader_guessed_from_values():
    d = parse_text("0, NVIDIA A100-SXM4-80GB, 81920 MiB, 45 %\n"
                   "1, NVIDIA A100-SXM4-80GB, 81920 MiB, 47 %\n")
    assert d.gpu_count == 2 and d.gpu_memory_mib == [81920, 81920]
    assert d.mean_sm_util == 46 and "data_starvation" in d.observation_ids()
    assert any("without a header" in w.en for w in d.warnings)


def test_vgpu_guest_query_and_passthrough_mapping():
    text = (FIXTURES / "query/gh200-550-passthrough-clocks-event-reasons.txt").read_text()
    guest = parse_text(text.replace("Virtualization Mode               : Pass-Through",
                                    "Virtualization Mode               : VGPU"))
    assert guest.virtualization == "vgpu" and "vgpu_sharing" in guest.observation_ids()
    profile = apply_to_profile(guest, Profile())
    assert profile.hardware.virtualization == Virtualization.vgpu
    passthrough = apply_to_profile(parse_text(text), Profile())
    assert passthrough.hardware.virtualization == Virtualization.passthrough


def test_several_outputs_of_one_machine_merge_by_bus_id():
    d = parse_files([FIXTURES / "smi/h100-sxm-8gpu-565-thamada.txt",
                     FIXTURES / "query/h100-sxm-8gpu-565-full-multi-gpu.txt"])
    assert d.kind == "merged" and d.kinds == ["table", "query"]
    assert d.gpu_count == 8 and len(d.gpus) == 8
    assert [g.index for g in d.gpus] == list(range(8))
    assert d.gpus[1].bus_id == "0000:2A:00.0" and d.gpus[1].power_limit_w == 700
    assert d.intra_link == "nvswitch" and not d.warnings


def test_topology_and_query_merge_into_one_description():
    d = parse_texts([
        ((FIXTURES / "topo/rtx5090-x2-pcie-phb-gpu-numa-id.txt").read_text(), "topo"),
        ((FIXTURES / "query/rtx5090-570-sw-power-cap-active-pcie-x8.txt").read_text(), "q"),
    ])
    assert d.gpu_count == 2 and d.nvlink == "none" and d.intra_link == "pcie5"
    assert set(d.observation_ids()) == {"no_nvlink", "pcie_link_downgraded"}


def test_bridged_pairs_and_two_card_bridge():
    pairs = ("\tGPU0\tGPU1\tGPU2\tGPU3\tCPU Affinity\tNUMA Affinity\n"
             "GPU0\t X \tNV4\tPHB\tPHB\t0-31\t0\n"
             "GPU1\tNV4\t X \tPHB\tPHB\t0-31\t0\n"
             "GPU2\tPHB\tPHB\t X \tNV4\t0-31\t0\n"
             "GPU3\tPHB\tPHB\tNV4\t X \t0-31\t0\n")
    d = parse_text(pairs)
    assert d.nvlink == "partial" and d.nvlink_pairs == [(0, 1), (2, 3)]
    assert d.worst_pcie_path == "PHB" and d.intra_link is None  # ring crosses PCIe, gen unknown
    two = parse_text("\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tNV4\t0-15\nGPU1\tNV4\t X \t0-15\n")
    assert two.nvlink == "full" and two.intra_link == "nvlink_bridge"


@pytest.mark.parametrize(("name", "memory_mib", "expected"), [
    ("NVIDIA H100 80GB HBM3", None, "h100_sxm"), ("NVIDIA GeForce RTX 4090", None, "rtx4090"),
    ("NVIDIA H100 PCIe", None, "h100_pcie"), ("A100-SXM4-40GB", None, "a100_sxm4_40gb"),
    ("NVIDIA A100-SXM4-80GB", None, "a100_sxm4_80gb"), ("NVIDIA A100 80GB PCIe", None,
                                                         "a100_pcie_80gb"),
    ("Tesla V100-SXM2-32GB", None, "v100_sxm2_32gb"), ("Tesla V100-SXM2-16GB", None,
                                                        "v100_sxm2_16gb"),
    ("Tesla T4", None, "t4"), ("NVIDIA H200", None, "h200_sxm"), ("NVIDIA L40S", None, "l40s"),
    ("NVIDIA GeForce RTX 4060 Ti", 16380, "rtx4060ti_16gb"),
    ("NVIDIA GeForce RTX 4060 Ti", 8188, None), ("GeForce RTX 208...", None, None),
    ("NVIDIA GH200 480GB", None, None), ("NVIDIA A16", None, None), (None, None, None),
])
def test_catalog_names(name, memory_mib, expected):
    assert catalog_id(name, memory_mib) == expected


def test_apply_to_profile_fills_hardware_facts():
    d = parse_files([FIXTURES / "smi/h100-sxm-8gpu-565-thamada.txt",
                     FIXTURES / "topo/h100-della-8gpu-nv18-6nic-empty-cpu-affinity.txt"])
    base = Profile()
    p = apply_to_profile(d, base)
    assert p.hardware.gpu == "h100_sxm" and p.hardware.gpus_per_node == 8
    assert p.hardware.intra_link == IntraLink.nvswitch
    # neither the table nor topo shows the virtualisation mode: unknown, the profile's own kept
    assert d.virtualization is None
    assert p.hardware.virtualization == base.hardware.virtualization
    assert "virtualization" not in hardware_updates(d)
    assert p.hardware.max_gpu_temp_c == 31
    assert p.training == base.training and p.economics == base.economics
    assert base.hardware.gpu == "rtx4090"  # the original is untouched


def test_apply_to_profile_sets_the_virtualisation_the_output_shows():
    """`-q` prints "Virtualization Mode : None" (bare metal) or "Pass-Through"; a vGPU host's
    GPUs are vGPU for the workload."""
    base = Profile().model_copy(update={"hardware": Profile().hardware.model_copy(
        update={"virtualization": Virtualization.vgpu})})
    bare = parse_files([FIXTURES / "query/h100-sxm-8gpu-565-full-multi-gpu.txt"])
    assert bare.virtualization == "none"
    assert apply_to_profile(bare, base).hardware.virtualization == Virtualization.bare_metal
    through = parse_files([FIXTURES / "query/gh200-550-passthrough-clocks-event-reasons.txt"])
    assert through.virtualization == "passthrough"
    assert apply_to_profile(through, Profile()).hardware.virtualization == \
        Virtualization.passthrough
    host = parse_files([FIXTURES / "query/a16-nutanix-host-vgpu-sriov-470-i0-attached4-x4-link"
                                   ".txt"])
    assert host.virtualization == "host_vgpu"
    assert apply_to_profile(host, Profile()).hardware.virtualization == Virtualization.vgpu


def test_apply_to_profile_keeps_what_was_not_shown():
    d = parse_text((FIXTURES / "topo/8gpu-topo-mp-pcie-only-view-12nic-interleaved-cpu-affinity"
                               ".txt").read_text())
    p = apply_to_profile(d, Profile())
    assert p.hardware.gpus_per_node == 8
    assert p.hardware.gpu == "rtx4090" and p.hardware.intra_link == IntraLink.pcie4  # defaults


def test_observation_ids_for_the_rule_base():
    d = parse_text((FIXTURES / "query/rtx5090-570-sw-power-cap-active-pcie-x8.txt").read_text())
    assert observation_ids(d) == ["pcie_link_downgraded"]


def test_cli_json_and_text(capsys):
    path = FIXTURES / "query/a16-nutanix-host-vgpu-sriov-470-i0-attached4-x4-link.txt"
    assert main(["import-smi", "--format", "json", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "query" and data["gpu_count"] == 4
    assert data["virtualization"] == "host_vgpu"
    assert [o["id"] for o in data["observations"]] == ["vgpu_sharing"]
    assert set(data["observations"][0]["message"]) == {"en", "zh"}
    assert main(["--lang", "zh", "import-smi", str(path)]) == 0
    assert "显卡数" in capsys.readouterr().out


def test_cli_rejects_text_that_is_not_smi(tmp_path, capsys):
    junk = tmp_path / "notes.txt"
    junk.write_text("just some notes\nnothing : here\n", encoding="utf-8")
    assert main(["import-smi", str(junk)]) == 2
    assert "not nvidia-smi output" in capsys.readouterr().err
    assert main(["import-smi", str(tmp_path / "missing.txt")]) == 2
    assert main(["import-smi"]) == 2


def test_utf16_file_from_powershell(tmp_path):
    text = (FIXTURES / "list/a16-4gpu-single-board.txt").read_text()
    path = tmp_path / "gpus.txt"
    path.write_bytes(text.encode("utf-16"))
    assert parse_files([path]).gpu_count == 4


def test_several_machines_in_one_list_are_counted_per_machine():
    node = (FIXTURES / "list/a16-4gpu-single-board.txt").read_text()
    other = node.replace("GPU-2", "GPU-7").replace("GPU-4", "GPU-8").replace(
        "GPU-6", "GPU-9").replace("GPU-b", "GPU-c")
    d = parse_text(node + other)
    assert d.gpu_count == 4 and any("machines" in w.en for w in d.warnings)


def test_input_error_type():
    with pytest.raises(InputError):
        parse_texts([("nothing here", "a.txt")])


def test_old_topology_with_soc_and_no_nic_legend():
    text = ("        GPU0    GPU1    GPU2    GPU3    CPU Affinity\n"
            "GPU0     X      PIX     SOC     SOC     0-11\n"
            "GPU1    PIX      X      SOC     SOC     0-11\n"
            "GPU2    SOC     SOC      X      PIX     12-23\n"
            "GPU3    SOC     SOC     PIX      X      12-23\n\n"
            "Legend:\n\n  X   = Self\n"
            "  SOC  = Connection traversing PCIe as well as the SMP link between CPU sockets\n"
            "  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge\n"
            "  PXB  = Connection traversing multiple PCIe switches\n"
            "  PIX  = Connection traversing a single PCIe switch\n"
            "  NV#  = Connection traversing a bonded set of # NVLinks\n")
    d = parse_text(text)
    assert d.gpu_count == 4 and d.nvlink == "none" and d.worst_pcie_path == "SYS"
    assert d.observation_ids() == ["no_nvlink"] and not d.warnings


def test_vgpu_guest_licence_block_does_not_rename_the_gpu():
    text = ("==============NVSMI LOG==============\n\n"
            "Driver Version                            : 535.129.03\n"
            "Attached GPUs                             : 1\n"
            "GPU 00000000:02:00.0\n"
            "    Product Name                          : GRID A100-40C\n"
            "    GPU Virtualization Mode\n"
            "        Virtualization Mode               : VGPU\n"
            "    vGPU Software Licensed Product\n"
            "        Product Name                      : NVIDIA Virtual Compute Server\n"
            "    Clocks Event Reasons                  : N/A\n")
    d = parse_text(text)
    assert d.gpu_names == ["GRID A100-40C"] and d.virtualization == "vgpu"
    assert d.throttle_active is None  # "Clocks Event Reasons : N/A": not shown in a vGPU guest


def test_csv_loop_without_index_does_not_count_samples_as_gpus():
    rows = "".join(f"{60 + i % 10} %, 1000 MiB\n" for i in range(40))
    d = parse_text("utilization.gpu [%], memory.used [MiB]\n" + rows)
    assert d.gpu_count is None and d.mean_sm_util == 64.5
    assert "data_starvation" in d.observation_ids()


def test_pmon_is_read_with_a_warning():
    d = parse_text("# gpu        pid  type    sm   mem   enc   dec   command\n"
                   "# Idx          #   C/G     %     %     %     %   name\n"
                   "    0      12345     C    98    40     -     -   python\n")
    assert d.kind == "dmon" and d.mean_sm_util == 98
    assert any("pmon" in w.en for w in d.warnings)


def test_windows_line_endings_and_markdown_quotes():
    text = (FIXTURES / "list/h100-8gpu-from-markdown-quote.txt").read_text()
    quoted = "```\r\n" + "".join(f"> {line}\r\n" for line in text.splitlines()) + "```\r\n"
    d = parse_text(quoted)
    assert d.gpu_count == 8 and d.gpu_names == ["NVIDIA H100 80GB HBM3"] * 8



def test_long_multi_gpu_dmon_log_with_a_garbled_line():
    rows = [(g, 200 + i % 50, 60 + i % 7, 90 + i % 10) for i in range(300) for g in range(2)]
    text = dmon(rows)
    d = parse_text(text)
    assert [g.util_samples for g in d.gpus] == [300, 300] and d.max_gpu_temp_c == 66
    garbled = parse_text(text.replace(f"{0:>5} {200:>5}", "    0  12 oops", 1))
    assert garbled.gpus[0].util_samples == 299
    assert any("skipped" in w.en for w in garbled.warnings)


@pytest.mark.parametrize(("text", "count", "words"), [
    ("No devices were found\n", 0, "found no NVIDIA GPU"),
    ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
     "that the latest NVIDIA driver is installed and running.\n", None, "driver"),
    ("Failed to initialize NVML: Driver/library version mismatch\n", None, "mismatch"),
])
def test_nvidia_smi_error_messages_are_facts_not_input_errors(text, count, words):
    d = parse_text(text)
    assert d.gpu_count == count and any(words in w.en for w in d.warnings)


def test_lost_gpu_message_beside_a_table():
    table = (FIXTURES / "smi/rtx4090-8gpu-550-thamada.txt").read_text()
    d = parse_text("Unable to determine the device handle for GPU0000:3B:00.0: GPU is lost.  "
                   "Reboot the system to recover this GPU\n" + table)
    assert d.gpu_count == 8 and any("GPU is lost" in w.en for w in d.warnings)


def _rendered(path: Path, lang: str) -> str:
    from advisor.cli.commands.import_smi import render_text
    return render_text(parse_files([path]), lang)


def test_outputs_that_cannot_show_clock_reasons_leave_them_unknown(capsys):
    """topo and -L say nothing about throttling, temperature or utilisation: null, not [] /
    "none"; an output that shows the reasons with none active gives []."""
    topo = FIXTURES / "topo/a100-8gpu-nv12-4nic-legend.txt"
    for path in (topo, FIXTURES / "list/a16-4gpu-single-board.txt"):
        d = parse_files([path])
        assert d.throttle_active is None and d.max_gpu_temp_c is None
        assert d.mean_sm_util is None and set(d.sm_util_per_gpu) == {None}
        assert all(g.throttle_active is None for g in d.gpus)
        text = _rendered(path, "en")
        assert "Clock limits active            not shown by this output" in text
        assert "Hottest GPU                    not shown by this output" in text
        assert "此输出未显示" in _rendered(path, "zh")
    assert main(["import-smi", "--format", "json", str(topo)]) == 0
    assert json.loads(capsys.readouterr().out)["throttle_active"] is None
    idle = FIXTURES / "query/h100-sxm-8gpu-565-full-multi-gpu.txt"  # reasons shown, none bad
    shown = parse_files([idle])
    assert shown.throttle_active is not None
    assert all(g.throttle_active is not None for g in shown.gpus)
    merged = parse_files([topo, FIXTURES / "query/a40-10gpu-550-two-sw-power-cap-active.txt"])
    assert "sw_power_cap" in merged.throttle_active


def test_laggard_reasons_are_not_compared_with_gpus_whose_reasons_are_unknown():
    from advisor.hwimport.model import GpuFacts, HardwareDescription
    from advisor.hwimport.observations import observe
    gpus = [GpuFacts(index=0, throttle_active=["hw_slowdown"], busy_util_pct=95, util_samples=1),
            GpuFacts(index=1, throttle_active=None, busy_util_pct=95, util_samples=1)]
    d = HardwareDescription(kind="merged", kinds=["query", "topo"], gpus=gpus)
    assert "laggard_gpu" not in [o.id for o in observe(d)]
    gpus[1].throttle_active = []
    assert "laggard_gpu" in [o.id for o in observe(d)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_text_table_columns_line_up_in_terminal_columns(lang):
    """Chinese labels take two terminal columns per character (east_asian_width W/F)."""
    import re

    from advisor.text.width import display_width
    text = _rendered(FIXTURES / "query/a16-nutanix-host-vgpu-sriov-470-i0-attached4-x4-link.txt",
                     lang)
    table = text.split("\n\n")[0].splitlines()
    starts = set()
    for line in table:
        m = re.match(r"^(.*?\S)\s{2,}(\S.*)$", line)
        assert m, line
        starts.add(display_width(line[:m.start(2)]))
    assert len(table) >= 14 and len(starts) == 1, table


def test_display_width_counts_wide_characters_twice():
    from advisor.text.width import display_width, pad
    assert display_width("GPU") == 3 and display_width("显卡数") == 6
    assert display_width("ＧＰＵ") == 6 and display_width("驱动 / CUDA") == 11
    assert pad("显卡数", 10) == "显卡数    " and pad("long label", 4) == "long label"


def test_gpu_lists_hold_the_gpus_shown_and_say_how_many_were_not():
    """`-q -i 0` of a 4-GPU A16 board: one GPU block, "Attached GPUs : 4"."""
    path = FIXTURES / "query/a16-nutanix-host-vgpu-sriov-470-i0-attached4-x4-link.txt"
    d = parse_files([path])
    assert d.gpu_count == 4 and len(d.gpus) == 1 and d.gpus_not_shown == 3
    assert d.gpu_names == ["NVIDIA A16"] and d.gpu_memory_mib == [15105]
    assert any("other 3 of 4 were counted but not shown" in w.en for w in d.warnings)
    assert "NVIDIA A16 (1 of 4 GPUs shown)" in _rendered(path, "en")
    full = parse_files([FIXTURES / "query/h100-sxm-8gpu-565-full-multi-gpu.txt"])
    assert full.gpus_not_shown == 0 and len(full.gpu_names) == full.gpu_count == 8
    assert parse_files([FIXTURES / "query/partial-grep-bar1-wide-key-column-595.txt"]) \
        .gpus_not_shown is None
