"""Counts the model does not fit are never a setup to buy or rent: no best value, no buy-vs-rent
count and no time value on a row that cannot run; when nothing fits, the text says so in both
languages instead of naming one GPU."""

from __future__ import annotations

import json

import pytest

from advisor.cli import main
from advisor.costs import estimate_costs
from advisor.costs.text import render_text
from tests.support.costs import H100_FSDP, h100_fsdp, projection_1_to_8


def test_nothing_fits_means_no_best_value_and_no_buy_vs_rent_setup():
    prof = h100_fsdp(mode="compare")
    report = estimate_costs(prof, projection_1_to_8(2000, fits=[False] * 4), lang="en")
    assert report.best_value_gpus is None
    assert report.buy_vs_rent.gpus == 0
    assert report.buy_vs_rent.breakeven_months is None
    assert report.buy_vs_rent.breakeven_hours_per_month is None
    assert report.time_saved_value_per_month == [0.0] * 4
    assert report.net_value_per_month == [0.0] * 4
    assert report.fits == [False] * 4
    text = render_text(report, "en")
    assert "Best value: none" in text and "Best value: 1 GPU" not in text
    assert "owning pays off" not in text and "(1 GPU)" not in text
    assert "compared with 1 GPUs" not in text
    assert "性价比最高：无" in render_text(report, "zh")


@pytest.mark.parametrize("fits", [[False, False, True, True], [False, True, False, True],
                                  [True, False, False, False], [False, False, False, True]])
def test_best_value_and_buy_vs_rent_only_from_rows_that_fit(fits):
    prof = h100_fsdp(mode="compare")
    proj = projection_1_to_8(2000, fits=fits)
    report = estimate_costs(prof, proj, lang="en")
    best = report.best_value_gpus
    assert best is not None and fits[proj.gpus.index(best)]
    assert report.buy_vs_rent.gpus == best
    for i, ok in enumerate(fits):
        if not ok:  # never a hypothetical value on a row that cannot run
            assert report.time_saved_value_per_month[i] == 0.0
            assert report.net_value_per_month[i] == 0.0


def test_reviewer_h100_fsdp_profile_never_names_a_count_that_cannot_run(capsys, tmp_path):
    path = tmp_path / "h100fsdp.json"
    path.write_text(json.dumps(H100_FSDP))
    assert main(["--lang", "en", "costs", str(path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    fitting = [n for n, ok in zip(data["gpus"], data["fits"], strict=True) if ok]
    if fitting:
        assert data["best_value_gpus"] in fitting
        assert data["buy_vs_rent"]["gpus"] in fitting
    else:
        assert data["best_value_gpus"] is None and data["buy_vs_rent"]["gpus"] == 0
    for ok, value, net in zip(data["fits"], data["time_saved_value_per_month"],
                              data["net_value_per_month"], strict=True):
        if not ok:
            assert value == 0.0 and net == 0.0
