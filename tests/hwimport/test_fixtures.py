"""Every recorded nvidia-smi output parses to the facts read from it by hand.

Fixtures: tests/fixtures/nvidia-smi/ (copied from the team reference set, sources in
SOURCES.md there). Each row below was written by reading the file, not by running the parser:
GPU count and names from the rows/headers, NVLink from the NV# cells, temperatures from the
"C" columns, throttle reasons from the "Active" lines, and so on.
"""

from __future__ import annotations

import pytest

from advisor.hwimport import parse_text
from tests.support.paths import TESTS

FIXTURES = TESTS / "fixtures" / "nvidia-smi"
H100 = "NVIDIA H100 80GB HBM3"
A100_40 = "NVIDIA A100-SXM4-40GB"
MLX5 = [f"mlx5_{i}" for i in range(12)]

# file → facts. Keys: kind, count, names (set of distinct names), nvlink, pairs (number of NVLink
# pairs), max_nv, nics, numa, worst (GPU-GPU PCIe path), nic (worst GPU-to-nearest-NIC path), intra, virt, throttle, temp, util (mean), width_down,
# gen_max, mem (set of MiB), obs (observation ids), driver, cuda, per_util, mig (GPU0 devices).
EXPECTED: dict[str, dict] = {
    # --- topo -m / -mp ---
    "topo/8gpu-topo-mp-pcie-only-view-12nic-interleaved-cpu-affinity.txt": dict(
        kind="topo", count=8, nic="PIX",  nvlink=None, pairs=None, worst="SYS", nics=MLX5, numa=2,
        intra=None, obs=[]),
    "topo/a100-8gpu-nv12-4nic-legend.txt": dict(
        kind="topo", count=8, nic="SYS",  nvlink="full", pairs=28, max_nv=12, nics=MLX5[:4], numa=2,
        worst=None, intra="nvswitch", obs=[]),
    "topo/della-a100-4gpu-nv4-1mlx5-2numa.txt": dict(
        kind="topo", count=4, nic="SYS",  nvlink="full", pairs=6, max_nv=4, nics=["mlx5_0"], numa=2,
        worst=None, intra="nvlink", obs=[]),
    "topo/dgx2-16gpu-nv6-nvswitch-10mlx5-space-aligned-TRUNCATED.txt": dict(
        kind="topo", count=16, nvlink="full", max_nv=6, nics=MLX5[:10], worst=None,
        intra="nvswitch", obs=[], warn="cut off"),
    "topo/h100-8gpu-nv18-vm-single-numa-no-nic-TRUNCATED-legend.txt": dict(
        kind="topo", count=8, nvlink="full", pairs=28, max_nv=18, nics=[], numa=1,
        intra="nvswitch", obs=[]),
    "topo/h100-della-8gpu-nv18-6nic-empty-cpu-affinity.txt": dict(
        kind="topo", count=8, nic="NODE",  nvlink="full", pairs=28, max_nv=18, nics=MLX5[:6], numa=2,
        intra="nvswitch", obs=[]),
    "topo/h100-sglang-env-ansi-residue-9nic-bond.txt": dict(
        kind="topo", count=8, nic="PXB",  nvlink="full", pairs=28, max_nv=18,
        nics=[f"mlx5_{i}" for i in range(10, 18)] + ["mlx5_bond_0"], numa=2,
        intra="nvswitch", obs=[]),
    "topo/nv4-4gpu-1nic-vm-affinity-0_64-numa-0-3-timestamp-prefix.txt": dict(
        kind="topo", count=4, nic="SYS",  nvlink="full", pairs=6, max_nv=4, nics=["mlx5_0"], numa=4,
        intra="nvlink", obs=[]),
    "topo/p4d-a100-8gpu-nv12-no-nic-columns.txt": dict(
        kind="topo", count=8, nic=None,  nvlink="full", pairs=28, max_nv=12, nics=[], numa=2,
        intra="nvswitch", obs=[]),
    "topo/pcie-8gpu-mlx4-old-cpu-affinity-only-space-aligned-TRUNCATED.txt": dict(
        kind="topo", count=8, nic="SYS",  nvlink="none", pairs=0, worst="SYS", nics=["mlx4_0"],
        obs=["no_nvlink"], warn="cut off"),
    "topo/rtx5060ti-x4-pcie-phb-no-legend.txt": dict(
        kind="topo", count=4, nvlink="none", worst="PHB", nics=[], numa=1, obs=["no_nvlink"]),
    "topo/rtx5090-x2-pcie-phb-gpu-numa-id.txt": dict(
        kind="topo", count=2, nvlink="none", worst="PHB", nics=[], obs=["no_nvlink"]),
    "topo/v100-sxm2-8gpu-hybrid-cube-mesh-580-sys-halves-1nic.txt": dict(
        kind="topo", count=8, nic="SYS",  nvlink="partial", pairs=16, max_nv=2, worst="SYS",
        nics=["mlx5_2"], numa=2, intra="nvlink", obs=[]),
    "topo/vllm-collect-env-5gpu-pcie-phb-indented-header.txt": dict(
        kind="topo", count=5, nvlink="none", pairs=0, worst="PHB", nics=[], numa=1,
        obs=["no_nvlink"]),
    # --- nvidia-smi -q ---
    "query/a16-nutanix-host-vgpu-sriov-470-i0-attached4-x4-link.txt": dict(
        kind="query", count=4, names={"NVIDIA A16"}, virt="host_vgpu", throttle=["gpu_idle"],
        temp=48, width_down=False, gen_max=4, mem={15105}, obs=["vgpu_sharing"],
        driver="470.129.04", cuda=None, warn="1 of 4"),
    "query/a40-10gpu-550-two-sw-power-cap-active.txt": dict(
        kind="query", count=10, names={"NVIDIA A40"}, virt="none",
        throttle=["gpu_idle", "sw_power_cap"], temp=30, util=0, width_down=False,
        mem={46068}, obs=[], intra="pcie4", driver="550.127.05", cuda="12.4"),
    "query/gh200-550-passthrough-clocks-event-reasons.txt": dict(
        kind="query", count=1, names={"NVIDIA GH200 480GB"}, virt="passthrough",
        throttle=["gpu_idle"], temp=31, width_down=False, mem={97871}, obs=[]),
    "query/h100-sxm-8gpu-565-full-multi-gpu.txt": dict(
        kind="query", count=8, names={H100}, virt="none", throttle=["gpu_idle"], temp=31,
        util=0, width_down=False, gen_max=5, mem={81559}, intra="nvswitch", obs=[],
        driver="565.57.01", cuda="12.7"),
    "query/partial-d-power-clock-temp-perf-440-old-narrow-TRUNCATED.txt": dict(
        kind="query", count=1, throttle=["gpu_idle"], temp=37, obs=[], driver="440.33.01",
        cuda="10.2"),
    "query/partial-d-power-temp-perf-545-sw-power-cap-under-load-TRUNCATED.txt": dict(
        kind="query", count=1, throttle=["sw_power_cap"], temp=77, obs=["power_capped"],
        driver="545.29.06"),
    "query/partial-grep-bar1-wide-key-column-595.txt": dict(
        kind="query", count=None, throttle=None, temp=None, obs=[], warn="fragment"),
    "query/partial-grep-clocks-throttle-reasons-old-narrow.txt": dict(
        kind="query", count=None, throttle=["gpu_idle"], obs=[], warn="fragment"),
    "query/partial-grep-gb10-power-temperature-570plus.txt": dict(
        kind="query", count=None, throttle=None, temp=38, obs=[]),
    "query/partial-host-vgpu-unlocked-rtx-grep-A-separators.txt": dict(
        kind="query", count=1, names={"NVIDIA GeForce RTX 4088"}, virt="host_vgpu",
        obs=["vgpu_sharing"], driver="525.147.01", cuda=None),
    "query/partial-v100-sxm2-c4130-hw-power-brake-active.txt": dict(
        kind="query", count=None, throttle=["hw_power_brake_slowdown", "hw_slowdown"],
        obs=["power_capped"]),
    "query/rtx5090-570-sw-power-cap-active-pcie-x8.txt": dict(
        kind="query", count=1, names={"NVIDIA GeForce RTX 5090"}, virt="none",
        throttle=["sw_power_cap"], temp=25, width_down=True, gen_max=5, mem={32607},
        intra="pcie5", obs=["pcie_link_downgraded"]),
    # --- the nvidia-smi table ---
    "smi/a100-8gpu-450-mig-pending-disabled-star-edited-processes.txt": dict(
        kind="table", count=8, names={"A100-SXM4-40GB"}, temp=34, mem={40537}, obs=[],
        per_util=[1, 12, 90, 0, 0, 0, 0, None], driver="450.102.04", cuda="11.0",
        warn="pending"),
    "smi/a100-mig-580-doubled-pipes-markdown-mangled-TRUNCATED.txt": dict(
        kind="table", count=1, names={A100_40}, temp=40, mem={40960}, per_util=[None],
        driver="580.126.09", mig=1),
    "smi/a100-mig-580-shared-memory-usage-4-mig-devices.txt": dict(
        kind="table", count=1, names={A100_40}, temp=40, mem={40960}, mig=4, cuda="13.0"),
    "smi/gh200-550-single-gpu.txt": dict(
        kind="table", count=1, names={"NVIDIA GH200 480GB"}, temp=31, util=0, mem={97871}),
    "smi/gt640-415-old-processes-header-no-gi-ci-TRUNCATED.txt": dict(
        kind="table", count=1, names={"GeForce GT 640"}, temp=30, mem={1999},
        per_util=[None], driver="415.27", cuda="10.0"),
    "smi/h100-595-cuda13.2-cut-after-processes-header.txt": dict(
        kind="table", count=1, names={H100}, temp=29, util=0, mem={81559},
        driver="595.71.05", cuda="13.2"),
    "smi/h100-nvl-2gpu-550.54-thamada.txt": dict(
        kind="table", count=2, names={"NVIDIA H100 NVL"}, temp=32, mem={95830}, util=0),
    "smi/h100-sxm-8gpu-565-thamada.txt": dict(
        kind="table", count=8, names={H100}, temp=31, mem={81559}, util=0, obs=[]),
    "smi/mx330-laptop-465-power-na-no-processes.txt": dict(
        kind="table", count=1, names={"NVIDIA GeForce ..."}, temp=67, util=7, mem={2002}),
    "smi/nvidia-smi-vgpu-host-table-525.txt": dict(
        kind="table", count=1, names={"NVIDIA GeForce RTX 408..."}, virt="host_vgpu",
        obs=["vgpu_sharing"], driver="525.147.01", cuda=None),
    "smi/partial-header-line-only-570.txt": dict(
        kind="table", count=None, names=set(), driver="570.211.01", cuda="12.8",
        warn="no GPU rows"),
    "smi/rtx2080ti-418-no-mig-row-truncated-names-TRUNCATED.txt": dict(
        kind="table", count=4, names={"GeForce RTX 208..."}, temp=43, mem={10989},
        per_util=[0, 0, 0, None], driver="418.87.00"),
    "smi/rtx4090-8gpu-550-thamada.txt": dict(
        kind="table", count=8, names={"NVIDIA GeForce RTX 4090"}, temp=28, mem={24564},
        intra="pcie4", obs=[]),
    "smi/rtx5090-570-single-gpu.txt": dict(
        kind="table", count=1, names={"NVIDIA GeForce RTX 5090"}, temp=25, mem={32607}),
    "smi/windows-rtx3060-laptop-581-wddm-81C-100pct-processes-TRUNCATED.txt": dict(
        kind="table", count=1, names={"NVIDIA GeForce RTX 3060 ..."}, temp=81, util=100,
        mem={6144}, obs=[], driver="581.32"),
    # --- nvidia-smi -L ---
    "list/a100-8gpu-with-4-mig-devices-580.txt": dict(
        kind="list", count=8, names={A100_40}, mig=4, intra="nvswitch"),
    "list/a16-4gpu-single-board.txt": dict(kind="list", count=4, names={"NVIDIA A16"}),
    "list/h100-8gpu-from-markdown-quote.txt": dict(kind="list", count=8, names={H100}),
    "list/h100-8gpu-rhel-ai-vm-list-gpus.txt": dict(kind="list", count=8, names={H100}),
    "list/v100-anonymized-uuid-placeholder.txt": dict(
        kind="list", count=1, names={"Tesla V100-SXM2-32GB"}),
    "list/v100-x2-old-tesla-naming-then-elided-smi.txt": dict(
        kind="merged", kinds=["list", "table"], count=2, names={"Tesla V100-SXM2-32GB"},
        driver="440.44", cuda="10.2", warn="no GPU rows"),
    # --- dmon and --query-gpu CSV ---
    "dmon/csv-h100-595-inventory-pcie-gen-temp-util.txt": dict(
        kind="csv", count=1, names={H100}, temp=29, util=0, mem={81559}, driver="595.71.05"),
    "dmon/csv-h200-8gpu-inventory-570.txt": dict(
        kind="csv", count=8, names={"NVIDIA H200"}, mem={143771}, driver="570.211.01"),
    "dmon/csv-rtx5060ti-x4-pcie-link-gen-width.txt": dict(
        kind="csv", count=4, names={"NVIDIA GeForce RTX 5060 Ti"}, width_down=False,
        gen_max=3, intra="pcie3", obs=[]),
    "dmon/csv-v100-32gb-loop5-training-99pct-one-dip.txt": dict(
        kind="csv", count=1, mem={32480}, util=round(824 / 9, 2), obs=[]),
    "dmon/dmon-1gpu-nvenc-100-low-sm.txt": dict(
        kind="dmon", count=1, temp=27, util=round(80 / 11, 2), obs=[]),
    "dmon/dmon-1gpu-ramp-up-to-99sm-morpheus.txt": dict(
        kind="dmon", count=1, temp=57, util=round(460 / 9, 2), obs=[]),
    "dmon/dmon-new-1gpu-training-100sm-trailing-spaces.txt": dict(
        kind="dmon", count=1, temp=42, util=78.25, obs=[]),
    "dmon/dmon-new-gb10-mclk-dash-c1.txt": dict(kind="dmon", count=1, temp=38, util=0),
    "dmon/dmon-new-t4-idle-with-ellipsis-and-comments.txt": dict(
        kind="dmon", count=1, temp=41, util=0, obs=[]),
    "dmon/dmon-s-pucm-4gpu-fb-bar1-idle.txt": dict(
        kind="dmon", count=4, temp=35, util=0, per_util=[0, 0, 0, 0], obs=[]),
    # --- captured on this project's lent H200 machine (scripts/device_capture.sh, 2026-11-30):
    # one H200 in a Firecracker VM, driver 580.159.04, idle and under bf16 matrix products.
    "topo/h200-1gpu-580-vm-ansi-underline-header-no-nic.txt": dict(
        kind="topo", count=1, nvlink=None, pairs=0, nics=[], numa=1, worst=None, intra=None,
        obs=[]),
    "topo/h200-1gpu-580-vm-topo-mp.txt": dict(
        kind="topo", count=1, nvlink=None, nics=[], numa=1, worst=None, obs=[]),
    "query/h200-580-vm-under-load-sw-power-cap-tlimit-margins.txt": dict(
        kind="query", count=1, names={"NVIDIA H200"}, mem={143771}, virt="passthrough",
        throttle=["sw_power_cap"], temp=48.0, util=99.0, width_down=False, gen_max=5,
        driver="580.159.04", cuda="13.0", obs=["power_capped"]),
    "query/h200-580-vm-idle-gpu-idle.txt": dict(
        kind="query", count=1, names={"NVIDIA H200"}, mem={143771}, virt="passthrough",
        throttle=["gpu_idle"], temp=26.0, util=0.0, width_down=False, gen_max=5,
        driver="580.159.04", cuda="13.0", obs=[]),
    "smi/h200-580-vm-single-gpu-693w-99pct-under-load.txt": dict(
        kind="table", count=1, names={"NVIDIA H200"}, mem={143771}, temp=48.0, util=99.0,
        driver="580.159.04", cuda="13.0", obs=[]),
    "dmon/dmon-h200-580-load-starts-after-two-idle-samples.txt": dict(
        kind="dmon", count=1, temp=49.0, util=60.0, obs=[]),
    "dmon/csv-h200-580-under-load-hex-clocks-event-reasons.txt": dict(
        kind="csv", count=1, names={"NVIDIA H200"}, mem={143771}, throttle=["sw_power_cap"],
        temp=49.0, util=99.0, width_down=False, gen_max=5, obs=["power_capped"]),
    "dmon/csv-h200-580-idle-noheader-nounits.txt": dict(
        kind="csv", count=1, names={"NVIDIA H200"}, driver=None, obs=[],
        warn="without a header"),
    "list/h200-1gpu-580-vm.txt": dict(kind="list", count=1, names={"NVIDIA H200"}, obs=[]),
}


def test_every_fixture_has_expectations():
    files = {p.relative_to(FIXTURES).as_posix() for p in FIXTURES.rglob("*.txt")}
    assert files == set(EXPECTED), files ^ set(EXPECTED)
    assert len(files) == 66


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_facts(name):
    want = EXPECTED[name]
    d = parse_text((FIXTURES / name).read_text(encoding="utf-8"), name)
    assert d.kind == want["kind"]
    if "kinds" in want:
        assert d.kinds == want["kinds"]
    assert d.gpu_count == want["count"]
    checks = {
        "names": lambda: set(d.gpu_names), "nvlink": lambda: d.nvlink,
        "pairs": lambda: None if d.nvlink_pairs is None else len(d.nvlink_pairs),
        "max_nv": lambda: d.max_nv_links, "nics": lambda: d.rdma_nics,
        "numa": lambda: d.numa_nodes, "worst": lambda: d.worst_pcie_path,
        "nic": lambda: d.worst_nic_path,
        "intra": lambda: d.intra_link, "virt": lambda: d.virtualization,
        "throttle": lambda: d.throttle_active, "temp": lambda: d.max_gpu_temp_c,
        "util": lambda: d.mean_sm_util, "width_down": lambda: d.pcie_width_downgraded,
        "gen_max": lambda: d.pcie_gen_max, "mem": lambda: set(d.gpu_memory_mib),
        "obs": lambda: sorted(d.observation_ids()), "driver": lambda: d.driver_version,
        "cuda": lambda: d.cuda_version, "per_util": lambda: d.sm_util_per_gpu,
        "mig": lambda: d.gpus[0].mig_devices,
    }
    for key, expected in want.items():
        if key in checks:
            assert checks[key]() == expected, f"{name}: {key}"
    if "warn" in want:
        assert any(want["warn"] in w.en for w in d.warnings), [w.en for w in d.warnings]


def test_topo_mp_is_not_read_as_no_nvlink():
    d = parse_text((FIXTURES / "topo/8gpu-topo-mp-pcie-only-view-12nic-interleaved-cpu-affinity"
                               ".txt").read_text())
    assert d.nvlink is None and "no_nvlink" not in d.observation_ids()
    assert any("topo -mp" in w.en for w in d.warnings)


def test_per_gpu_reasons_differ_in_a40_query():
    d = parse_text((FIXTURES / "query/a40-10gpu-550-two-sw-power-cap-active.txt").read_text())
    capped = [g.bus_id for g in d.gpus if "sw_power_cap" in g.throttle_active]
    assert capped == ["0000:4F:00.0", "0000:56:00.0"]
    assert all("gpu_idle" in g.throttle_active for g in d.gpus if g.bus_id not in capped)


def test_old_and_new_key_columns_read_the_same_reasons():
    old = parse_text((FIXTURES / "query/partial-grep-clocks-throttle-reasons-old-narrow.txt")
                     .read_text())
    new = parse_text((FIXTURES / "query/h100-sxm-8gpu-565-full-multi-gpu.txt").read_text())
    assert old.throttle_active == new.throttle_active == ["gpu_idle"]


H200 = FIXTURES / "query" / "h200-580-vm-under-load-sw-power-cap-tlimit-margins.txt"
H200_DMON = FIXTURES / "dmon" / "dmon-h200-580-load-starts-after-two-idle-samples.txt"
H200_TOPO = FIXTURES / "topo" / "h200-1gpu-580-vm-ansi-underline-header-no-nic.txt"


def test_snapshot_joined_to_a_log_keeps_the_logs_ramp_up_apart():
    """A -q snapshot (99 %) read with a dmon log that starts before the load (0, 0, 100, 100,
    100) is two recordings: the log's idle start is not "GPU waiting for data"."""
    from advisor.hwimport import parse_texts

    d = parse_texts([(H200.read_text(), "q"), (H200_TOPO.read_text(), "t"),
                     (H200_DMON.read_text(), "d")])
    assert d.gpus[0].busy_util_pct == pytest.approx(99.75)
    assert "data_starvation" not in d.observation_ids()
    assert d.observation_ids() == ["power_capped"]
    # The same samples in one recording do count the idle stretch inside the run.
    from advisor.hwimport.summary import busy_mean
    assert busy_mean([100, 0, 0, 100]) == 50
    assert busy_mean([99, 0, 0, 100, 100, 100], breaks=[1]) == pytest.approx(99.75)


def test_the_t_limit_margins_are_not_read_as_temperatures():
    d = parse_text(H200.read_text())
    assert d.gpus[0].temp_c == 48.0 and d.gpus[0].slowdown_temp_c is None


def test_one_gpu_says_links_do_not_apply():
    from advisor.hwimport import parse_texts
    from advisor.hwimport.summary_rows import summary_rows

    d = parse_texts([(H200.read_text(), "q"), (H200_TOPO.read_text(), "t")])
    rows = dict(summary_rows(d, "en"))
    assert rows["NVLink"] == rows["Link inside the machine"] == "not applicable (one GPU)"
    assert rows["Worst GPU-to-nearest-NIC path"] == "not applicable (no RDMA NIC)"
    zh = dict(summary_rows(d, "zh"))
    assert zh["NVLink"] == "不适用（只有一张卡）"


def test_outputs_of_different_machines_are_said_to_be():
    """Review 4: an 8×H100 `-q` and a 1×H200 table read as one machine without a word."""
    from advisor.hwimport import parse_texts

    d = parse_texts([((FIXTURES / "query/h100-sxm-8gpu-565-full-multi-gpu.txt").read_text(), "a"),
                     ((FIXTURES / "smi/h200-580-vm-single-gpu-693w-99pct-under-load.txt")
                      .read_text(), "b")])
    assert any("different machines" in w.en and "不同的机器" in w.zh for w in d.warnings)
    same = parse_texts([((FIXTURES / "query/h100-sxm-8gpu-565-full-multi-gpu.txt").read_text(),
                         "a"), ((FIXTURES / "smi/h100-sxm-8gpu-565-thamada.txt").read_text(), "b")])
    assert not any("different" in w.en for w in same.warnings)


def test_one_gpu_never_shows_a_link_between_gpus():
    from advisor.hwimport.summary_rows import summary_rows

    d = parse_text((FIXTURES / "smi/rtx5090-570-single-gpu.txt").read_text())
    assert dict(summary_rows(d, "en"))["Link inside the machine"] == "not applicable (one GPU)"


def test_nvlink_in_a_topology_of_cards_without_it_is_flagged():
    """Review 5: an RTX 4090 table with an A100 NV12 topology read as an NVSwitch 4090 box."""
    from advisor.hwimport import parse_texts

    d = parse_texts([((FIXTURES / "smi/rtx4090-8gpu-550-thamada.txt").read_text(), "a"),
                     ((FIXTURES / "topo/a100-8gpu-nv12-4nic-legend.txt").read_text(), "b")])
    assert any("different machines" in w.en and "RTX 4090" in w.en for w in d.warnings)
