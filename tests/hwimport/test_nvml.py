"""'Detect this machine' through a fake pynvml module (CI has no NVIDIA driver)."""

from __future__ import annotations

import sys

import pytest

from advisor.cli import main
from advisor.hwimport import NvmlUnavailable, apply_to_profile, detect_machine
from advisor.profile import IntraLink, Profile
from tests.support.fake_nvml import RTX, FakeNVMLError, fake_pynvml
from tests.support.paths import TESTS


def test_driver_present_pcie_box(monkeypatch):
    gpus = [dict(RTX), dict(RTX, temp=87, reasons=0x40, width=8)]
    fake = fake_pynvml(gpus)
    monkeypatch.setitem(sys.modules, "pynvml", fake)
    d = detect_machine()
    assert d.kind == "nvml" and d.gpu_count == 2
    assert d.gpu_names == ["NVIDIA GeForce RTX 4090"] * 2 and d.gpu_memory_mib == [24564] * 2
    assert d.driver_version == "550.127.05" and d.cuda_version == "12.4"
    assert d.nvlink == "none" and d.worst_pcie_path == "PHB" and d.intra_link == "pcie4"
    assert d.throttle_active == ["hw_thermal_slowdown"] and d.max_gpu_temp_c == 87
    assert d.virtualization == "none" and d.pcie_width_downgraded is True
    assert {"thermal_throttling", "pcie_link_downgraded", "no_nvlink", "laggard_gpu"} <= \
        set(d.observation_ids())
    assert fake.state["shutdown"] == 1
    p = apply_to_profile(d, Profile())
    assert p.hardware.gpu == "rtx4090" and p.hardware.gpus_per_node == 2


def test_driver_present_nvswitch_box(monkeypatch):
    h100 = {"name": "NVIDIA H100 80GB HBM3", "mem_mib": 81559, "util": 0, "temp": 30,
            "reasons": 0x1}
    monkeypatch.setitem(sys.modules, "pynvml", fake_pynvml([dict(h100)] * 8, switch_links=18))
    d = detect_machine()
    assert d.gpu_count == 8 and d.nvlink == "full" and d.max_nv_links == 18
    assert d.intra_link == "nvswitch" and d.throttle_active == ["gpu_idle"]
    assert apply_to_profile(d, Profile()).hardware.intra_link == IntraLink.nvswitch


def test_vgpu_guest_through_nvml(monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", fake_pynvml([dict(RTX, virt=2)]))
    d = detect_machine()
    assert d.virtualization == "vgpu" and "vgpu_sharing" in d.observation_ids()


def test_no_driver_says_so(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pynvml", fake_pynvml([], init_error=True))
    with pytest.raises(NvmlUnavailable) as err:
        detect_machine()
    assert "no NVIDIA driver" in err.value.message.en and "NVIDIA 驱动" in err.value.message.zh
    assert "Driver Not Loaded" in err.value.detail
    assert main(["import-smi", "--detect"]) == 2
    assert "no NVIDIA driver" in capsys.readouterr().err


def test_pynvml_not_installed(monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", None)  # makes `import pynvml` raise ImportError
    with pytest.raises(NvmlUnavailable) as err:
        detect_machine()
    assert "nvidia-ml-py" in err.value.message.en


def test_cli_detect_json(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pynvml", fake_pynvml([dict(RTX)]))
    assert main(["import-smi", "--detect", "--format", "json"]) == 0
    assert '"kind": "nvml"' in capsys.readouterr().out


def test_replay_of_the_real_h200_agrees_with_its_nvidia_smi_q(monkeypatch):
    """Values NVML returned on the project's lent H200 (scripts/device_capture.sh) against the
    `nvidia-smi -q` captured on the same machine at the same moment of load."""

    from advisor.hwimport import parse_text

    h200 = {"name": "NVIDIA H200", "mem_mib": 143771, "util": 99, "temp": 48, "reasons": 0x4,
            "virt": 1}
    fake = fake_pynvml([h200])
    fake.nvmlSystemGetDriverVersion = lambda: "580.159.04"  # str in nvidia-ml-py 13
    fake.nvmlSystemGetCudaDriverVersion = lambda: 13000
    fake.nvmlDeviceGetCurrPcieLinkGeneration = lambda h: 5
    fake.nvmlDeviceGetMaxPcieLinkGeneration = lambda h: 5
    fake.nvmlDeviceGetNvLinkState = lambda h, link: (_ for _ in ()).throw(
        FakeNVMLError("Not Supported"))
    monkeypatch.setitem(sys.modules, "pynvml", fake)
    nvml = detect_machine()
    q = parse_text((TESTS / "fixtures" / "nvidia-smi" / "query" /
                    "h200-580-vm-under-load-sw-power-cap-tlimit-margins.txt").read_text())
    for field in ("gpu_count", "gpu_names", "gpu_memory_mib", "driver_version", "cuda_version",
                  "virtualization", "throttle_active", "pcie_width_downgraded", "pcie_gen_max",
                  "max_gpu_temp_c", "mean_sm_util"):
        assert getattr(nvml, field) == getattr(q, field), field
    assert nvml.observation_ids() == q.observation_ids() == ["power_capped"]
    # NVML cannot see network cards: it must not claim there are none.
    assert nvml.rdma_nics is None and nvml.nvlink is None and nvml.intra_link is None


def test_hostile_nvml_values_end_cleanly(monkeypatch, capsys):
    """Issue 35, classes 8 and 12: a NaN memory size, a text temperature and a GPU count that
    is not a whole number are not read as values; a count of 10^9 is read up to the limit."""
    from advisor.hwimport.reading import MAX_GPUS

    fake = fake_pynvml([dict(RTX), dict(RTX)])
    fake.nvmlDeviceGetMemoryInfo = lambda h: type("M", (), {"total": float("nan"), "used": 0})()
    fake.nvmlDeviceGetTemperature = lambda h, _s: "hot"
    monkeypatch.setitem(sys.modules, "pynvml", fake)
    d = detect_machine()
    assert d.gpu_count == 2 and not any(d.gpu_memory_mib or [])
    assert main(["import-smi", "--detect"]) == 0
    fake.nvmlDeviceGetCount = lambda: 2.5
    assert detect_machine().gpu_count == 0
    assert main(["import-smi", "--detect"]) in (0, 2)
    fake.nvmlDeviceGetCount = lambda: 10**9
    fake.nvmlDeviceGetHandleByIndex = lambda i: 0  # every index answers as GPU 0
    many = detect_machine()
    assert many.gpu_count <= MAX_GPUS
    assert any("1,000,000,000" in w.en for w in many.warnings)
    capsys.readouterr()
