"""The CLI's numbers a reader compares (issue 19, items 1 and 3): short runs in minutes, two
run times in one unit; with what a day saved is worth not said, the extra cost a month and the
value of a day that pays for it, never a net value."""

from __future__ import annotations

import re

from advisor.cli import main
from tests.support.paths import PROFILES, ROOT

SHORT = PROFILES / "verdict" / "bert-6-minute-runs-8x4090.yaml"


def test_a_six_minute_run_is_said_in_minutes(capsys):
    assert main(["recommend", str(SHORT), "--lang", "en", "--details"]) == 0
    out = capsys.readouterr().out
    assert "one run: 6 min on 1 GPU, 3 min on 2" in out
    assert "0.1 h" not in out and "0.0 h" not in out
    assert main(["recommend", str(SHORT), "--lang", "zh", "--details"]) == 0
    assert "单次训练：1 卡 6 分钟，2 卡 3 分钟" in capsys.readouterr().out


def test_days_compare_with_days(capsys):
    medium = ROOT / "examples" / "medium-model-4gpu-worth-it.yaml"  # 48 h on one GPU
    # at the counts of its own machine (unasked, the answer rents 8 cards: 8.4 h, which reads
    # in hours beside 2.0 days, as "0.35 days" would read as nothing)
    assert main(["recommend", str(medium), "--lang", "en", "--details", "--gpus", "1,2,4"]) == 0
    line = next(row for row in capsys.readouterr().out.splitlines() if "one run:" in row)
    assert "2.0 days on 1 GPU" in line and "days on 4" in line and " h on 4" not in line


def test_a_one_gpu_time_that_no_card_can_run_is_said_to_be_a_reference(capsys):
    """The one-GPU run time of a model one card cannot hold is the speed-ups' reference, never
    a run the user can make: the CLI says so as the desktop's verdict card does."""
    large = ROOT / "examples" / "large-model-8plus-gpus-required.yaml"
    assert main(["recommend", str(large), "--lang", "en", "--details"]) == 0
    line = next(row for row in capsys.readouterr().out.splitlines() if "one run:" in row)
    assert "on 1 GPU (if one GPU held it)," in line
    assert main(["recommend", str(large), "--lang", "zh", "--details"]) == 0
    line = next(row for row in capsys.readouterr().out.splitlines() if "单次训练" in row)
    assert "（假如单卡放得下）" in line
    # a job one card holds reads plainly
    assert main(["recommend", str(SHORT), "--lang", "en", "--details"]) == 0
    assert "held it" not in capsys.readouterr().out


def test_not_said_prints_the_extra_cost_and_the_day_value(tmp_path, capsys):
    profile = tmp_path / "default.yaml"
    # the wizard's defaults, its one-GPU run time given (a file of schema_version alone is
    # refused: issue 35)
    profile.write_text("schema_version: 1\ntraining: {single_gpu_hours: 24}\n",
                       encoding="utf-8")
    assert main(["recommend", str(profile), "--lang", "en", "--details"]) == 0
    numbers = capsys.readouterr().out.split("Pitfalls:")[0]
    assert "net value" not in numbers
    # money as every other line writes it ("$12/month", never "12 USD/month": review 8)
    assert re.search(r"\$[\d,.]+/month more than 1 GPU; pays for itself if a day saved is worth "
                     r"at least \$[\d,]+", numbers), numbers
    assert main(["recommend", str(profile), "--lang", "zh", "--details"]) == 0
    numbers = capsys.readouterr().out.split("注意事项")[0]
    assert "净收益" not in numbers and "才能回本" in numbers


def test_the_net_value_reads_as_the_costs_table_writes_it(capsys):
    """Review 9: "net value vs 1 GPU: $0/month" beside the costs table's "-$0.44": one
    formatter, no rounding of its own."""
    from advisor.catalog.profile_check import load_profile
    from advisor.compare.weighed import recommend
    from advisor.costs.money import money
    from tests.support.paths import EXAMPLES

    path = EXAMPLES / "medium-model-4gpu-worth-it.yaml"
    assert main(["recommend", str(path), "--lang", "en", "--details"]) == 0
    out = capsys.readouterr().out
    rec = recommend(load_profile(path), lang="en")
    co = rec.costs
    net = money(co.net_value_per_month[co.gpus.index(rec.verdict.gpus)], co.currency)
    assert f"net value vs 1 GPU: {net}/month" in out
