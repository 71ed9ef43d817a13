"""Issue 30: what a perfectly calibrated 80 % band would show in cells of a given size
(benchmarks/band_chance), against which the band's measured 78-85 % cells are read."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binom

from benchmarks import band_chance as bc


def test_a_large_cell_of_an_ideal_band_almost_always_reads_inside_the_range():
    n = 20_000
    chance = bc.ideal_band_outside([[np.ones(n, bool)]], np.arange(n), together=False,
                                   draws=400)
    assert chance.mean_outside < 0.01 and chance.all_inside > 0.99


def test_a_small_cell_reads_outside_as_often_as_the_binomial_says():
    n = 57
    # printed as whole per cents: 78-85 % of 57 points is 45..48 hits (78.9 .. 84.2 %) once
    # rounded; 44 hits is 77.2 % -> 77, outside
    inside_hits = [k for k in range(n + 1) if 78 <= round(100 * k / n) <= 85]
    expected = 1.0 - sum(binom.pmf(k, n, 0.8) for k in inside_hits)
    chance = bc.ideal_band_outside([[np.ones(n, bool)]], np.arange(n), together=False)
    assert chance.mean_outside == pytest.approx(expected, abs=0.03)
    assert 0.3 < expected < 0.7  # a 57-point cell misses the range about half the time


def test_series_that_move_together_scatter_more_than_independent_points():
    series = np.repeat(np.arange(20), 10)  # 20 series of 10 points
    cells = [[np.ones(200, bool)]]
    free = bc.ideal_band_outside(cells, series, together=False)
    tied = bc.ideal_band_outside(cells, series, together=True)
    assert tied.mean_outside > free.mean_outside + 0.2
    one_series = bc.ideal_band_outside(cells, np.zeros(200), together=True, draws=200)
    assert one_series.mean_outside == 1.0  # 0 % or 100 %, never 78-85 %


def test_every_scheme_counts_its_cells_and_empty_cells_are_not_cells():
    n = 20_000
    everything, empty = np.ones(n, bool), np.zeros(n, bool)
    chance = bc.ideal_band_outside([[everything, empty], [everything]], np.arange(n),
                                   together=False, draws=200)
    assert chance.mean_outside < 0.01
    seen, cells = bc.observed_outside([[everything, empty], [everything]],
                                      [np.arange(n) % 5 != 0, np.arange(n) % 2 == 0])
    assert (seen, cells) == (1, 2)  # 80 % inside, 50 % outside
