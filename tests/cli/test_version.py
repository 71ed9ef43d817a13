"""`gpu-advisor --version`: the version, the dates of the built-in prices and of the projection's
fitted parameters, and the licences, in both languages; cheap to compute."""

from __future__ import annotations

import subprocess
import sys

import pytest
import yaml

from advisor import __version__
from advisor.cli import main
from advisor.files import about
from advisor.files.paths import resources_dir
from tests.support.paths import ROOT


@pytest.mark.parametrize("lang, heading", [("en", "Built-in prices as of"),
                                           ("zh", "内置价格日期")])
def test_version_names_the_dates_and_the_licences(capsys, lang, heading):
    assert main(["--version", "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"gpu-advisor {__version__}\n")
    assert heading in out
    for dates in about.price_dates():
        line = next(line for line in out.splitlines() if line.endswith(f"[{dates.file}]"))
        assert dates.newest and dates.newest in line and dates.oldest in line
    assert about.parameters_fitted_on() in out
    for licence in ("LGPL-3.0-only", "Apache-2.0", "MIT", "BSD-3-Clause", "PSF-2.0"):
        assert licence in out
    assert ("许可证" in out) == (lang == "zh")


def test_version_after_the_language_option_speaks_chinese_too(capsys):
    assert main(["--lang", "zh", "--version"]) == 0
    assert "预测模型参数拟合日期" in capsys.readouterr().out


def _as_of_values(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "as_of":
                yield value
            else:
                yield from _as_of_values(value)
    elif isinstance(node, list):
        for item in node:
            yield from _as_of_values(item)


def test_the_fast_scan_finds_the_dates_a_yaml_parse_finds():
    """The About box scans lines instead of parsing; a parse must give the same dates."""
    for dates in about.price_dates():
        text = (resources_dir() / "catalog" / dates.file).read_text(encoding="utf-8")
        values = list(_as_of_values(yaml.safe_load(text)))
        dated = [str(v) for v in values if v is not None]
        assert len(dated) + values.count(None) == len(values)
        assert dates.undated == values.count(None), dates.file
        tokens = sorted((about._DATE.search(v).group(0) for v in dated), key=about._date_key)
        assert (dates.oldest, dates.newest) == (tokens[0], tokens[-1]), dates.file


def test_dates_sort_by_time_not_by_spelling():
    found = about.scan_price_dates(
        "- as_of: '2026'\n- as_of: 2024-10-17\n- as_of: \"2026-Q1\"\n- as_of: null\n"
        "  as_of: 2020-05 (DGX A100), 2026-07 (servnetuk)\n", "f.yaml", "x", "x")
    assert (found.oldest, found.newest, found.undated) == ("2020-05", "2026-Q1", 1)
    assert found.span() == "2020-05 … 2026-Q1"


def test_the_fitted_date_is_the_one_in_the_parameters_file():
    raw = yaml.safe_load((resources_dir() / "scaling" / "parameters.yaml").read_text())
    assert about.parameters_fitted_on() == str(raw["fitted_on"])
    assert len(about.parameters_fitted_on().split("-")) == 3  # a day, written by the fit


def test_the_about_text_loads_neither_the_models_nor_the_engine():
    """`--version` must stay cheap: no YAML parser, pydantic, numpy, rule engine or catalog."""
    code = ("import sys\nfrom advisor.files.about import about_text\n"
            "about_text('en'); about_text('zh')\n"
            "heavy = {'yaml', 'pydantic', 'numpy', 'durable', 'advisor.scaling', "
            "'advisor.catalog', 'advisor.rulebase', 'advisor.verdict'}\n"
            "print(sorted(heavy & set(sys.modules)))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
