"""The series' profiles flattened into one vectorised step-time evaluation, for the fit.

``advisor.scaling.project`` is the path that is scored; a least-squares fit needs thousands
of evaluations, so it uses the same inputs stacked: for every point, the
``DataParallelInputs`` that ``project`` builds for that profile and GPU count
(``inputs.data_parallel_inputs`` with the batch of that count, ``batch_scaling``), one call of
``physics.breakdown`` for all points. ``agreement`` checks that both give the same speed-ups
(every series of the data set runs data parallel: each was measured on one GPU at its batch).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

import numpy as np

from advisor.catalog.gpus import resolve_gpu
from advisor.profile import InputPipeline, Profile
from advisor.scaling.batch_scaling import scaled_batches
from advisor.scaling.inputs import data_parallel_inputs
from advisor.scaling.links import link_figures
from advisor.scaling.parameters import ScalingParams, load_params
from advisor.scaling.physics import DataParallelInputs, breakdown
from advisor.scaling.project import NVLINK_MACHINES, _network
from advisor.scaling.waiting import held_to_ideal


@dataclass
class ProfilePoints:
    """Every non-baseline point of a list of profiles, flattened (one entry per point)."""

    series: np.ndarray  # index into the profile list
    gpus: np.ndarray
    baseline: np.ndarray
    actual: np.ndarray
    at_n: DataParallelInputs  # fields stacked over the points
    at_base: DataParallelInputs
    tuned: np.ndarray  # the stall follows pipeline_stall_tuned (a fitted parameter)
    nvlink: np.ndarray  # the machines' GPUs are joined by NVLink / NVSwitch (band regime)

    def subset(self, mask: np.ndarray) -> ProfilePoints:
        return ProfilePoints(self.series[mask], self.gpus[mask], self.baseline[mask],
                             self.actual[mask], _take(self.at_n, mask),
                             _take(self.at_base, mask), self.tuned[mask], self.nvlink[mask])


def _inputs(profile: Profile, n: int, p: ScalingParams) -> DataParallelInputs:
    """What ``project`` feeds ``breakdown`` for one data-parallel count."""
    hw = profile.hardware
    gpu = resolve_gpu(hw.gpu, hw.intra_link)
    inter, _ = _network(profile, n, gpu)
    links = link_figures(hw.intra_link, inter, gpu, hw.gpus_per_node, hw.allreduce_busbw_gbs)
    scale, steps = scaled_batches(profile, np.array([float(n)]))
    x = data_parallel_inputs(profile, gpu, links, p)
    return replace(x, batch_scale=float(scale[0]), accumulation_steps=float(steps[0]))


def _stack(rows: list[DataParallelInputs]) -> DataParallelInputs:
    values = {}
    for f in fields(DataParallelInputs):
        column = [getattr(r, f.name) for r in rows]
        if f.name == "loader_capacity":
            if any(v is not None for v in column):
                raise ValueError("a starved or core-limited loader is not stacked")
            values[f.name] = None
        elif f.name == "busbw_pair_gbs":
            values[f.name] = np.array([np.nan if v is None else v for v in column], float)
        elif f.name == "multi_socket_pcie":
            values[f.name] = np.array(column, dtype=bool)
        else:
            values[f.name] = np.array(column, dtype=float)
    return DataParallelInputs(**values)


def _take(x: DataParallelInputs, mask: np.ndarray) -> DataParallelInputs:
    return DataParallelInputs(**{f.name: (None if getattr(x, f.name) is None
                                          else np.asarray(getattr(x, f.name))[mask])
                                 for f in fields(DataParallelInputs)})


def flatten(profiles: list[Profile], counts: list[list[int]], baselines: list[int],
            actual: list[list[float]], p: ScalingParams | None = None) -> ProfilePoints:
    """Stack every (profile, count) point; ``counts[i]`` and ``actual[i]`` are the series'
    non-baseline counts and measured speed-ups over ``baselines[i]``."""
    p = p or load_params()
    idx, gpus, base, meas, at_n, at_b, tuned, nvlink = [], [], [], [], [], [], [], []
    for i, (pr, ns, b0, acts) in enumerate(zip(profiles, counts, baselines, actual,
                                               strict=True)):
        x_base = _inputs(pr, b0, p)
        for n, a in zip(ns, acts, strict=True):
            idx.append(i)
            gpus.append(float(n))
            base.append(float(b0))
            meas.append(a)
            at_n.append(_inputs(pr, n, p))
            at_b.append(x_base)
            tuned.append(pr.training.input_pipeline == InputPipeline.tuned)
            nvlink.append(pr.hardware.intra_link in NVLINK_MACHINES)
    return ProfilePoints(np.array(idx), np.array(gpus), np.array(base), np.array(meas),
                         _stack(at_n), _stack(at_b), np.array(tuned), np.array(nvlink))


def predict(points: ProfilePoints, params: ScalingParams) -> np.ndarray:
    """Projected speed-up of every point over its series' baseline count."""
    def at(gpus: np.ndarray, x: DataParallelInputs) -> np.ndarray:
        stall = np.where(points.tuned, params.pipeline_stall_tuned, x.pipeline_stall)
        return held_to_ideal(gpus, breakdown(gpus, replace(x, pipeline_stall=stall),
                                             params).speedup, params.step_time_cv)

    return at(points.gpus, points.at_n) / at(points.baseline, points.at_base)


def agreement(points: ProfilePoints, projected: np.ndarray, params: ScalingParams) -> float:
    """Largest relative difference between the stacked evaluation and ``project``'s
    speed-ups (``projected``, parallel to the points; both rounded to 5 digits there)."""
    return float(np.max(np.abs(predict(points, params) / projected - 1.0)))
