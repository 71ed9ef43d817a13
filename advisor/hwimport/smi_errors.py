"""What nvidia-smi prints instead of a table when something is wrong, explained.

"No devices were found", "couldn't communicate with the NVIDIA driver", "Failed to initialize
NVML: Driver/library version mismatch" and "Unable to determine the device handle for GPU ...:
GPU is lost" are nvidia-smi output too: they are read as facts (no GPUs, a lost GPU), never
rejected as "not nvidia-smi output".
"""

from __future__ import annotations

import re

from advisor.hwimport.reading import Reading
from advisor.text.i18n import Text

_LOST = re.compile(r"Unable to determine the device handle for (?:GPU)?\s*([0-9A-Fa-f:.]+)"
                   r"\s*:\s*([^\n]+)")

_MESSAGES = (
    ("No devices were found", 0,
     Text(en="nvidia-smi found no NVIDIA GPU on this machine (driver loaded, no device visible)",
          zh="nvidia-smi 在这台机器上没有找到 NVIDIA 显卡（驱动已加载，但看不到设备）")),
    ("couldn't communicate with the NVIDIA driver", None,
     Text(en="nvidia-smi could not talk to the NVIDIA driver: it is not installed or not "
             "loaded (often after a kernel update)",
          zh="nvidia-smi 无法与 NVIDIA 驱动通信：驱动未安装或未加载（常见于内核升级之后）")),
    ("Driver/library version mismatch", None,
     Text(en="NVML driver/library version mismatch: the driver was updated but the old one is "
             "still loaded; reboot (or reload the nvidia modules)",
          zh="NVML 驱动与库版本不匹配：驱动已更新但旧驱动仍在运行；请重启（或重新加载 nvidia 模块）")),
)


def error_messages(text: str) -> Reading | None:
    """A reading made of nvidia-smi's own error messages in ``text``, or None if there are none."""
    if "No devices" not in text and "NVIDIA driver" not in text and "NVML" not in text \
            and "device handle" not in text:
        return None
    reading = Reading(kind="table")
    for needle, count, message in _MESSAGES:
        if needle in text:
            reading.recognised = True
            reading.warnings.append(message)
            if count is not None:
                reading.declared_gpu_count = count
    for bus, reason in _LOST.findall(text):
        reading.recognised = True
        reading.warnings.append(Text(
            en=f"nvidia-smi cannot reach GPU {bus}: {reason.strip()} (a GPU that fell off the "
               "bus slows or stops every multi-GPU job; reboot, then check power and cooling)",
            zh=f"nvidia-smi 无法访问 GPU {bus}：{reason.strip()}（掉卡会拖慢或中断所有多卡任务；"
               "请重启并检查供电与散热）"))
    return reading if reading.recognised else None
