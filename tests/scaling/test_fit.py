"""The shipped parameters are what the fit produces, the fit's stacked path is the real
``project`` path, and out of sample (leave one source out, benchmarks/data/scaling-dev.csv in
the repo) the projection beats the fitted Amdahl baseline and its band holds 80 %."""

from __future__ import annotations

import numpy as np
import pytest

from advisor.scaling.parameters import FITTED, load_params
from benchmarks import projection_eval as ev
from benchmarks.profile_points import agreement, flatten
from benchmarks.scaling_series import load_series
from benchmarks.series_profiles import profile_for, projected


def _points(series, **options):
    return flatten([profile_for(s, **options) for s in series], [s.gpus for s in series],
                   [s.baseline for s in series], [s.actual for s in series])


@pytest.fixture(scope="module")
def clean():
    series, skipped = load_series()
    assert len(series) + len(skipped) == 567
    return [s for s in series if not s.flagged]


@pytest.fixture(scope="module")
def stated(clean):
    return _points(clean, input_sizes="stated")


@pytest.fixture(scope="module")
def as_left(clean):
    return _points(clean)


@pytest.fixture(scope="module")
def out_of_source(clean, stated, as_left):
    labels = ev.fold_labels(clean, as_left, "source")
    return labels, ev.out_of_fold(as_left, labels, ev.fold_params(stated, labels))


def test_shipped_parameters_are_the_fit(stated):
    fitted = ev.fit(stated)
    shipped = load_params()
    for name in FITTED:
        assert getattr(shipped, name) == pytest.approx(getattr(fitted, name), rel=1e-3, abs=1e-6)


def test_the_fit_scores_the_path_every_profile_takes(clean, as_left):
    """The fit's stacked evaluation gives what ``advisor.scaling.project`` gives for each
    series' profile (so the headline figure is the real path's)."""
    shipped = load_params()
    real = np.concatenate([projected(s, profile_for(s), shipped)[0] for s in clean])
    assert agreement(as_left, real, shipped) < 1e-3


def test_the_fit_does_not_depend_on_where_it_starts(stated):
    a = ev.fit(stated, ev.fit_start().with_values(overlap_fraction=0.9, busbw_efficiency=0.5))
    b = ev.fit(stated, ev.fit_start().with_values(overlap_fraction=0.4, busbw_efficiency=0.95))
    for name in FITTED:
        assert getattr(a, name) == pytest.approx(getattr(b, name), rel=1e-2, abs=1e-4)


def test_out_of_source_projection_beats_the_fitted_amdahl_by_a_fifth(as_left, out_of_source):
    labels, predicted = out_of_source
    amdahl = ev.amdahl_out_of_fold(as_left, labels)
    multi = as_left.gpus > as_left.at_n.gpus_per_node

    def mape(pred, mask):
        return float(np.mean(np.abs(pred[mask] / as_left.actual[mask] - 1.0)))

    ours, theirs = mape(predicted, ~multi), mape(amdahl, ~multi)
    assert ours <= 0.8 * theirs, (ours, theirs)  # 7.0 % vs 12.5 % when written
    assert mape(predicted, multi) <= 0.10  # 4.4 % when written
    linear = ev.linear(as_left)
    assert ours < mape(linear, ~multi) and ours < mape(ev.article(as_left), ~multi)
