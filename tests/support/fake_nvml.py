"""A stand-in for pynvml (nvidia-ml-py): the GPUs a test describes, answered the way NVML
answers."""

from __future__ import annotations

import types
from dataclasses import dataclass


class FakeNVMLError(Exception):
    pass


@dataclass
class _Mem:
    total: int
    used: int


@dataclass
class _Util:
    gpu: int
    memory: int


@dataclass
class _Pci:
    busId: bytes  # noqa: N815 - pynvml's field name


def fake_pynvml(gpus: list[dict], *, switch_links: int = 0, init_error: bool = False):
    """A pynvml stand-in: per-GPU dicts of what the real calls would return."""
    m = types.ModuleType("pynvml")
    m.NVMLError = FakeNVMLError
    m.NVML_TEMPERATURE_GPU, m.NVML_CLOCK_SM, m.NVML_NVLINK_MAX_LINKS = 0, 1, 18
    state = {"shutdown": 0}

    def init():
        if init_error:
            raise FakeNVMLError("Driver Not Loaded")

    def unsupported(*_args):
        raise FakeNVMLError("Not Supported")

    m.nvmlInit = init
    m.nvmlShutdown = lambda: state.__setitem__("shutdown", state["shutdown"] + 1)
    m.nvmlSystemGetDriverVersion = lambda: b"550.127.05"
    m.nvmlSystemGetCudaDriverVersion = lambda: 12040
    m.nvmlDeviceGetCount = lambda: len(gpus)
    m.nvmlDeviceGetHandleByIndex = lambda i: i
    m.nvmlDeviceGetName = lambda h: gpus[h]["name"]
    m.nvmlDeviceGetUUID = lambda h: f"GPU-{h:08d}-0000-0000-0000-000000000000"
    m.nvmlDeviceGetPciInfo = lambda h: _Pci(f"00000000:{0x18 + h:02X}:00.0".encode())
    m.nvmlDeviceGetMemoryInfo = lambda h: _Mem(gpus[h]["mem_mib"] * 1024 * 1024, 0)
    m.nvmlDeviceGetUtilizationRates = lambda h: _Util(gpus[h]["util"], 30)
    m.nvmlDeviceGetTemperature = lambda h, _sensor: gpus[h]["temp"]
    m.nvmlDeviceGetPowerUsage = lambda h: 300_000
    m.nvmlDeviceGetEnforcedPowerLimit = lambda h: 450_000
    m.nvmlDeviceGetPerformanceState = lambda h: 2
    m.nvmlDeviceGetClockInfo = lambda h, _clock: 2520
    m.nvmlDeviceGetCurrentClocksThrottleReasons = lambda h: gpus[h]["reasons"]
    m.nvmlDeviceGetCurrPcieLinkGeneration = lambda h: 4
    m.nvmlDeviceGetMaxPcieLinkGeneration = lambda h: 4
    m.nvmlDeviceGetCurrPcieLinkWidth = lambda h: gpus[h].get("width", 16)
    m.nvmlDeviceGetMaxPcieLinkWidth = lambda h: 16
    m.nvmlDeviceGetVirtualizationMode = lambda h: gpus[h].get("virt", 0)
    m.nvmlDeviceGetMigMode = unsupported
    m.nvmlDeviceGetNvLinkState = (lambda h, link: 1 if link < switch_links else 0)
    m.nvmlDeviceGetNvLinkRemoteDeviceType = lambda h, link: 2
    m.nvmlDeviceGetNvLinkRemotePciInfo = lambda h, link: _Pci(b"00000000:C0:00.0")
    m.nvmlDeviceGetTopologyCommonAncestor = lambda a, b: 30  # PHB
    m.state = state
    return m


RTX = {"name": "NVIDIA GeForce RTX 4090", "mem_mib": 24564, "util": 97, "temp": 70,
       "reasons": 0}

