"""Catalog overrides are validated like profile fields, bounded in what they cost (issue 20,
items 4, 7, 11 and 12): negative, NaN and infinite prices, reversed bands and ids that differ
only in case or spaces are refused with file, entry and line; 20,000 sections or 10,000 GPUs
cost a capped list of warnings, not half a minute; a 5,000-digit number is the catalog's
problem, not the profile's."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from advisor.catalog import catalog_warnings, load_catalog, load_gpus, resolve_gpu
from advisor.catalog.override_file import MAX_ENTRIES, MAX_WARNINGS
from advisor.cli import main
from tests.support.paths import EXAMPLES

MEDIUM = str(EXAMPLES / "medium-model-4gpu-worth-it.yaml")


def _write(text: str) -> Path:
    path = Path(os.environ["GPU_ADVISOR_CONFIG_DIR"]) / "catalog.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _rendered() -> str:
    return "\n".join(w.render("en") for w in catalog_warnings())


@pytest.mark.parametrize("price", ["-5000", ".nan", ".inf"])
def test_a_launch_price_must_be_a_finite_non_negative_number(price, capsys):
    """launch_price_usd: -5000 gave "owning wins above -306 training hours", .nan "$nan"."""
    path = _write(f"gpus:\n  - {{id: rtx4090, launch_price_usd: {price}}}\n")
    assert f"{path}:2: gpus[rtx4090]: launch_price_usd: must be" in _rendered()
    assert load_gpus()["rtx4090"].launch_price_usd == 1599  # the built-in price kept
    assert main(["costs", MEDIUM, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out, parse_constant=pytest.fail)
    assert all(v >= 0 for v in report["cost_per_run"])


def test_reversed_bands_are_refused_with_the_line():
    path = _write("gpu_prices:\n"
                  "  - {id: my_4090, gpu: rtx4090, price: 12999, price_low: 900, "
                  "price_high: 100, currency: CNY, source: shop}\n"
                  "migration: {days_low: 5, days_high: 1}\n")
    text = _rendered()
    assert (f"{path}:2: gpu_prices[my_4090]: price_low: must not exceed price_high (100.0), "
            "got 900") in text
    assert f"{path}:3: migration: days_low: must not exceed days_high" in text
    assert load_catalog().migration.days_low <= load_catalog().migration.days_high


def test_a_price_outside_its_own_band_is_refused_and_a_new_price_drops_the_old_band():
    _write("gpu_prices:\n"
           "  - {id: p1, gpu: rtx4090, price: 50, price_low: 100, price_high: 200, "
           "currency: CNY, source: shop}\n")
    assert "price: must lie between price_low (100.0) and price_high (200.0), got 50" \
        in _rendered()


def test_ids_differing_in_case_or_spaces_are_one_gpu():
    """" RTX4090 " and "rtx4090" made two GPUs, and gpu: "4090" ambiguous."""
    path = _write("gpus:\n  - {id: \" RTX4090 \", tdp_w: 400}\n  - {id: rtx4090, tdp_w: 380}\n"
                  "  - {id: rtx 4090, tdp_w: 380}\n")
    text = _rendered()
    assert f"{path}:3: gpus[rtx4090]: the same id appears twice in the file (first at line 2)" \
        in text
    assert f"{path}:4: gpus[2]: id may hold only letters, digits" in text
    assert resolve_gpu("4090").tdp_w == 400 and resolve_gpu("RTX 4090").id == "rtx4090"
    # one RTX 4090 (the China-only RTX 4090 D is another card)
    assert {s.id for s in load_gpus().values() if "4090" in s.id} == {"rtx4090", "rtx4090d"}


def test_price_entry_ids_are_compared_without_case():
    _write("cloud_offers:\n  - {id: LAB_4X4090, provider: lab, gpu: rtx4090, "
           "gpus_per_instance: 4, price_per_hour: 6.0, currency: CNY, source: x}\n"
           "  - {id: lab_4x4090, provider: lab, gpu: rtx4090, gpus_per_instance: 4, "
           "price_per_hour: 7.0, currency: CNY, source: x}\n")
    assert "the same id appears twice" in _rendered()
    assert [o.price_per_hour for o in load_catalog().cloud_offers if o.id == "lab_4x4090"] == [6.0]


def test_yaml11_numbers_are_refused_in_the_catalog_too():
    path = _write("fx: {cny_per_usd: 7:10}\n")
    assert f"{path}:1: fx: cny_per_usd: must be a plain number, got '7:10'" in _rendered()


def test_a_5000_digit_number_is_the_catalogs_problem(capsys):
    """It was blamed on the profile's hardware line."""
    path = _write("gpus:\n  - {id: rtx4090, tdp_w: " + "9" * 5000 + "}\n")
    assert main(["validate", MEDIUM]) == 0
    assert f"{path}:2: a number of 5000 digits is too long" in _rendered()


def test_thousands_of_unknown_sections_give_a_capped_list(capsys):
    _write("".join(f"section{i}: []\n" for i in range(5_000)))
    warnings = catalog_warnings()
    assert len(warnings) == MAX_WARNINGS + 1
    assert "and 4,950 more problem(s) in this file" in warnings[-1].render("en")
    assert main(["costs", MEDIUM]) == 0


def test_twenty_thousand_sections_are_one_warning():
    """20,000 unknown sections made every command take 24-35 s."""
    path = _write("".join(f"section{i}: []\n" for i in range(20_000)))
    assert [w.render("en") for w in catalog_warnings()] == [
        f"{path}:10001: more than 10,000 entries in one mapping or list (built-in catalog "
        "used)"]


def test_thousands_of_gpus_are_read_up_to_the_cap():
    """10,000 user GPUs made every command take 24-35 s."""
    _write("gpus:\n" + "".join(
        f"  - {{id: gpu{i}, name: G{i}, memory_gb: 10, tflops_fp16_dense: 10, tflops_fp32: 5, "
        f"tdp_w: 100}}\n" for i in range(MAX_ENTRIES + 100)))
    assert f"{MAX_ENTRIES + 100:,} entries; only the first {MAX_ENTRIES} are read" in _rendered()
    assert "gpu499" in load_gpus() and "gpu500" not in load_gpus()
    with pytest.raises(Exception, match="unknown GPU") as info:
        resolve_gpu("no-such-card")
    assert len(str(info.value)) < 20_000


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_a_fifo_as_the_override_file_is_a_warning_not_a_hang(capsys):
    path = Path(os.environ["GPU_ADVISOR_CONFIG_DIR"]) / "catalog.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    assert "is a pipe (FIFO)" in _rendered()
    assert main(["costs", MEDIUM]) == 0
