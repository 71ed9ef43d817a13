"""``projection_for(profile, gpus)``: the one projection of a profile that every output shows.

The scaling model's curve (``advisor.scaling.project``), with the speed-ups replaced by the
user's own measurements when the profile has a ``measured`` section (F30: measurements win,
``advisor.verdict.measured_projection``). ``recommend``, ``project``, ``costs`` and the wizard all call
this, so one profile never gets two different curves.
"""

from __future__ import annotations

from advisor.profile import Profile
from advisor.scaling.result import Projection
from advisor.verdict.measured_projection import with_measured_speedups
from advisor.verdict.shared_projections import project_shared


def projection_for(profile: Profile, gpus: list[int] | None = None) -> Projection:
    """The projection at ``gpus`` (default: the scaling model's counts for the hardware),
    measured speed-ups in place of the model's when the profile has measurements."""
    return with_measured_speedups(profile, project_shared(profile, gpus))
