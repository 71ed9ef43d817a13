"""The bounds every input, and every quantity derived from the inputs, is held in.

An input field is bounded by its pydantic ``Field``; a quantity the advisor derives from
several inputs (the hours of a run from throughput × data, a speed-up from two measured
throughputs) is bounded here the same way, so nothing downstream divides by zero, overflows
to infinity or finds no count that fits: ``single_gpu_hours: 5e-324``, a throughput of
``1e-300`` next to ``1e12``, or a data set that takes 10^300 hours are refused at the field
that gave them, with its line.
"""

from __future__ import annotations

# One run on one GPU: from 36 seconds (0.01 h, the least the wizard's field can hold: a smoke
# test) to about eleven years.
MIN_RUN_HOURS = 0.01
MAX_RUN_HOURS = 100_000.0

MAX_GPUS = 100_000  # the largest GPU count a profile, a measurement or --gpus may name

# A measured value (throughput in any unit, or seconds per step).
MIN_MEASURED_VALUE = 1e-9
MAX_THROUGHPUT = 1e12
MAX_STEP_TIME_S = 1e6

# Measured speed-up over the smallest measured count: at most this share above linear (cache
# effects give a few per cent to some tens; 2x linear is a measurement or unit error) ...
SUPERLINEAR_ALLOWANCE = 0.25
# ... and at least this share of the smallest count's throughput (a thousandth: a run 1,000
# times slower on more GPUs is a unit slip, 100000 samples/s against 1).
MIN_SPEEDUP_RATIO = 1e-3


def clamp(value: float, low: float, high: float) -> float:
    """``value`` within [low, high]; NaN becomes ``low``."""
    if not value >= low:  # NaN too
        return low
    return min(value, high)
