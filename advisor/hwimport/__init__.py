"""Read the machine: `nvidia-smi` outputs (topo -m/-mp, -q, dmon, --query-gpu CSV, the table,
-L) and NVML, turned into one ``HardwareDescription`` with observations for the rule base.

Public API::

    parse_text(text, source=None) -> HardwareDescription      # InputError if not nvidia-smi
    parse_texts([(text, name), ...]) -> HardwareDescription    # several outputs, one machine
    parse_files(paths) -> HardwareDescription
    detect_machine() -> HardwareDescription                    # NVML; NvmlUnavailable if none
    apply_to_profile(desc, profile) -> Profile
    observation_ids(desc) -> list[str]
"""

from advisor.hwimport.importer import parse_files, parse_text, parse_texts, read_text
from advisor.hwimport.model import GpuFacts, HardwareDescription, Observation
from advisor.hwimport.nvml import NvmlUnavailable, detect_machine
from advisor.hwimport.profile_apply import apply_to_profile, hardware_updates, observation_ids

# Article facts this package relies on (../shared/domain/seed-facts.md).
CITED_FACTS = {
    "F25": "NVLink vs PCIe between GPUs: 30 % up to 2x difference in speed-up (nvlink, "
           "intra_link, no_nvlink, pcie_link_downgraded)",
    "F27": "thermal throttling: most GPUs slow down above 84 °C (thermal_throttling, "
           "power_capped)",
    "F28": "GPU utilisation below 80 %: check the data pipeline first (data_starvation)",
    "F29": "vGPU vs pass-through: '8 GPUs' may run like 2 (virtualization, vgpu_sharing)",
    "F30": "watch each GPU with `nvidia-smi dmon` to find the one holding the others back "
           "(dmon parser, laggard_gpu)",
}

__all__ = [
    "CITED_FACTS", "GpuFacts", "HardwareDescription", "NvmlUnavailable", "Observation",
    "apply_to_profile", "detect_machine", "hardware_updates", "observation_ids", "parse_files",
    "parse_text", "parse_texts", "read_text",
]
