"""What N GPUs lose to each other that one GPU never does, per step and per run.

* **Waiting for the slowest.** Every step ends in a collective that waits for the last GPU.
  A step's time varies from step to step (boost clocks, host scheduling, the loader), by a
  coefficient of variation ``cv``; the expected maximum of N such draws lies about
  ``cv sqrt(2 ln N)`` above the mean (the Gaussian extreme-value bound). With ``cv`` = 1 %
  (``ScalingParams.step_time_cv``), 8 GPUs wait 2.0 % of a step, 512 GPUs 3.5 %, 16,384 GPUs
  4.4 %: no count of 8 or more GPUs is exactly N times one GPU.
* **Interruptions.** A failed GPU, host or link stops the whole job, which restarts from its
  last checkpoint. Llama 3's pre-training (Dubey et al. 2024, Sec. 3.3.4) saw 419 unexpected
  interruptions in 54 days on 16,384 H100s, 1.97e-5 per GPU-hour, and kept more than 90 % of
  its time for training; 20 minutes lost per interruption (restart, and the work since the
  last checkpoint) gives that 90 %. The share of a run kept is
  ``1 / (1 + N x rate x hours lost)``: 99.97 % on 64 GPUs, 99.7 % on 512, 97.5 % on 4,096.
"""

from __future__ import annotations

import numpy as np

INTERRUPTIONS_PER_GPU_HOUR = 419.0 / (54.0 * 24.0 * 16384.0)  # Llama 3, Sec. 3.3.4
HOURS_LOST_PER_INTERRUPTION = 1.0 / 3.0  # restart + work since the last checkpoint (assumed)
SOURCE = "Dubey et al. 2024 (The Llama 3 Herd of Models), Sec. 3.3.4"


def slowest_wait_share(gpus, cv: float) -> np.ndarray:
    """Expected wait for the slowest of N GPUs, as a share of one step: cv sqrt(2 ln N)."""
    n = np.maximum(np.asarray(gpus, dtype=float), 1.0)
    return cv * np.sqrt(2.0 * np.log(n))


def kept_share(gpus) -> np.ndarray:
    """Share of a run's wall time spent training rather than recovering from interruptions."""
    n = np.maximum(np.asarray(gpus, dtype=float), 1.0)
    return 1.0 / (1.0 + n * INTERRUPTIONS_PER_GPU_HOUR * HOURS_LOST_PER_INTERRUPTION)


def held_to_ideal(gpus, speedup, cv: float) -> np.ndarray:
    """A projected speed-up over one GPU held to what N GPUs can give: N GPUs as fast as one,
    less the wait for the slowest; then the share of the run kept from interruptions. Not a
    number, infinite or negative: 0."""
    n = np.asarray(gpus, dtype=float)
    s = np.asarray(speedup, dtype=float)
    ideal = n / (1.0 + slowest_wait_share(n, cv))
    return np.minimum(np.maximum(np.where(np.isfinite(s), s, 0.0), 0.0), ideal) * kept_share(n)
