"""Clock throttle ("clocks event") reasons under one snake_case vocabulary.

`nvidia-smi -q` prints them as "SW Power Cap : Active" under "Clocks Throttle Reasons"
(drivers up to ~530) or "Clocks Event Reasons" (535+); `--query-gpu` names them
``clocks_throttle_reasons.sw_power_cap`` or gives the bit mask ``clocks_throttle_reasons.active``;
NVML returns the same bit mask.
"""

from __future__ import annotations

import re

# NVML's nvmlClocksThrottleReason* bits (stable across drivers).
REASON_BITS: dict[int, str] = {
    0x1: "gpu_idle",
    0x2: "applications_clocks_setting",
    0x4: "sw_power_cap",
    0x8: "hw_slowdown",
    0x10: "sync_boost",
    0x20: "sw_thermal_slowdown",
    0x40: "hw_thermal_slowdown",
    0x80: "hw_power_brake_slowdown",
    0x100: "display_clock_setting",
}

_ALIASES = {
    "idle": "gpu_idle",
    "gpu_idle": "gpu_idle",
    "applications_clocks_setting": "applications_clocks_setting",
    "application_clocks_setting": "applications_clocks_setting",
    "user_defined_clocks": "applications_clocks_setting",
    "sw_power_cap": "sw_power_cap",
    "hw_slowdown": "hw_slowdown",
    "hw_thermal_slowdown": "hw_thermal_slowdown",
    "hw_power_brake_slowdown": "hw_power_brake_slowdown",
    "sync_boost": "sync_boost",
    "sw_thermal_slowdown": "sw_thermal_slowdown",
    "display_clock_setting": "display_clock_setting",
    "display_clocks_setting": "display_clock_setting",
}

THERMAL_REASONS = frozenset({"hw_thermal_slowdown", "sw_thermal_slowdown", "thermal_violation"})
POWER_REASONS = frozenset({"sw_power_cap", "hw_power_brake_slowdown", "power_violation"})
# Reasons that say nothing bad about the machine.
BENIGN_REASONS = frozenset({"gpu_idle", "applications_clocks_setting", "sync_boost",
                            "display_clock_setting"})

_NON_WORD = re.compile(r"[^a-z0-9]+")


def reason_name(label: str) -> str:
    """``"HW Power Brake Slowdown"`` → ``hw_power_brake_slowdown``; unknown labels snake_cased."""
    snake = _NON_WORD.sub("_", label.strip().lower()).strip("_")
    return _ALIASES.get(snake, snake)


def is_active(value: str) -> bool | None:
    """``Active`` / ``Not Active`` (also ``Yes``/``No``); None when unreadable."""
    v = value.strip().lower()
    if v in ("active", "yes", "true", "1"):
        return True
    if v in ("not active", "no", "false", "0", "inactive"):
        return False
    return None


def reasons_from_mask(mask: int) -> set[str]:
    return {name for bit, name in REASON_BITS.items() if mask & bit}


def parse_mask(text: str) -> int | None:
    """``0x0000000000000004`` (CSV) → 4."""
    s = text.strip().lower()
    try:
        return int(s, 16) if s.startswith("0x") else int(s)
    except ValueError:
        return None
