"""Random and hostile bytes and numbers through every reader and every command's JSON output
(issue 20, "done when"): whatever a file holds, the answer is exit 0 with strict JSON or exit 2
with a message, within bounded time and memory, and numpy never warns.

Readers: profile (YAML and JSON), catalog override, autosave, nvidia-smi output, measurement
CSV and dmon log. Hypothesis is derandomised (tests/conftest.py); each test draws a few dozen
examples, from raw bytes and from real files with one value replaced by a hostile one.
"""

from __future__ import annotations

import json
import os
import re
import resource
import sys
import time
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.cli import main
from tests.support.paths import EXAMPLES, FIXTURES
from ui.window import user_files

MEDIUM = EXAMPLES / "medium-model-4gpu-worth-it.yaml"
MEASURED = EXAMPLES / "measured-4gpu-only-1.8x-diagnose.yaml"
SMI = sorted((FIXTURES / "nvidia-smi").rglob("*.txt"))
DMON = FIXTURES / "diagnosis" / "dmon-4gpu-starved-input-pipeline.txt"
PER_EXAMPLE_S = 30.0  # a hang guard, not a budget (benchmarks/reader_limits.py measures)
GROWTH_MB = 400  # the process's peak memory may not grow more than this over a whole test

# Numbers and tokens that broke a reader before: extremes, non-finite, YAML 1.1 forms, huge
# integers, nesting, aliases, control and bidi characters.
HOSTILE = ["0", "-1", "-0.0", "1e308", "1e-308", "5e-324", "1e-300", "1e12", "1e300", ".nan",
           ".inf", "-.inf", "NaN", "Infinity", "9" * 400, "9" * 5000, "1:30", "010", "0x1F",
           "yes", "no", "~", "''", "[]", "{}", "[" * 70, '"' + "[" * 70 + '"', "&a 1", "*a",
           '"\\e]0;x\\a\\u202e"', "!!python/object:os.system x", "2026-13-45", "1_000"]

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))


def _peak_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


@pytest.fixture(autouse=True)
def _bounded():
    """numpy warnings are errors (they became exit 1, which fails); peak memory is bounded."""
    before = _peak_mb()
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        yield
    assert _peak_mb() - before < GROWTH_MB


def _run(argv: list[str], capsys, *, json_out: bool) -> int:
    start = time.perf_counter()
    code = main(argv)
    elapsed = time.perf_counter() - start
    out, err = capsys.readouterr()
    assert elapsed < PER_EXAMPLE_S, (argv, elapsed)
    assert code in (0, 2), (argv, code, err[-2000:])
    assert "Traceback" not in err and "internal error" not in err
    if code == 2:
        assert err.strip(), argv  # a message, never a silent refusal
    elif json_out:
        json.loads(out, parse_constant=lambda name: pytest.fail(f"{name} in JSON output"))
    return code


def _mutated(text: str) -> st.SearchStrategy[bytes]:
    """``text`` with one value (a YAML scalar, or a number in tool output) replaced by a
    hostile token."""
    spots = [m.span(1) for m in re.finditer(r":\s*([^\s,{}\[\]#][^,{}\]\n#]*)", text)]
    spots += [m.span() for m in re.finditer(r"-?\d+(?:\.\d+)?", text)]

    @st.composite
    def build(draw) -> bytes:
        start, end = draw(st.sampled_from(spots))
        token = draw(st.sampled_from(HOSTILE) | st.text(max_size=12))
        return (text[:start] + token + text[end:]).encode("utf-8", errors="surrogatepass")
    return build()


def _garbage() -> st.SearchStrategy[bytes]:
    return st.binary(max_size=600) | st.text(max_size=300).map(
        lambda t: t.encode("utf-8", errors="surrogatepass"))


PROFILE_BYTES = _mutated(MEDIUM.read_text(encoding="utf-8")) | \
    _mutated(MEASURED.read_text(encoding="utf-8")) | _garbage()


@SETTINGS
@given(raw=PROFILE_BYTES, suffix=st.sampled_from([".yaml", ".json"]),
       command=st.sampled_from(["recommend", "project", "costs", "diagnose"]))
def test_any_profile_gives_json_or_a_message(raw, suffix, command, tmp_path_factory, capsys):
    path = tmp_path_factory.mktemp("p") / f"profile{suffix}"
    path.write_bytes(raw if suffix == ".yaml" else _as_json(raw))
    if _run(["validate", str(path)], capsys, json_out=False) == 0:
        _run([command, str(path), "--format", "json"], capsys, json_out=True)


def _as_json(raw: bytes) -> bytes:
    """The mutated YAML as JSON when it parses (so JSON's own reader is fuzzed too)."""
    from advisor.files.errors import InputError
    from advisor.files.yaml_lines import load_yaml_text

    try:
        data, _ = load_yaml_text(raw.decode("utf-8"))
        return json.dumps(data, default=str).encode()
    except (InputError, UnicodeDecodeError, ValueError, TypeError):
        return raw


CATALOG = ("gpus:\n  - {id: rtx4090, tdp_w: 400, launch_price_usd: 1599}\n"
           "gpu_prices:\n  - {id: p, gpu: rtx4090, price: 13000, price_low: 12000, "
           "price_high: 14000, currency: CNY, source: shop}\n"
           "migration: {days: 2, days_low: 1, days_high: 3}\nfx: {cny_per_usd: 7.1}\n"
           "cloud_offers:\n  - {id: lab, provider: lab, gpu: rtx4090, gpus_per_instance: 4, "
           "price_per_hour: 6.0, currency: CNY, source: x}\n")


@SETTINGS
@given(raw=_mutated(CATALOG) | _garbage())
def test_any_catalog_override_gives_warnings_never_a_failure(raw, capsys):
    path = Path(os.environ["GPU_ADVISOR_CONFIG_DIR"]) / "catalog.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(raw)
    stamp = time.time_ns()  # a new version of the file for the catalog's cache
    os.utime(path, ns=(stamp, stamp))
    assert _run(["costs", str(MEDIUM), "--format", "json"], capsys, json_out=True) == 0


@settings(SETTINGS, max_examples=60)
@given(raw=_mutated(
    "autosave_version: 1\nsaved_at: '2026-01-01T00:00:00'\nsource: null\n"
    "source_broken: false\nanswers:\n  model: {name: m, params_millions: 25}\n"
    "  hardware: {gpus_per_node: 4}\n") | _garbage())
def test_any_autosave_is_restored_or_moved_aside(raw):
    path = user_files.autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(raw)
    try:
        saved = user_files.read_autosave()
    except user_files.BrokenAutosave as exc:
        assert exc.reason("en") and exc.reason("zh") and not path.exists()
        return
    assert saved is None or isinstance(saved.answers, dict)


SMI_TEXT = [p.read_text(encoding="utf-8") for p in SMI[::6]]


@SETTINGS
@given(raw=st.one_of(*[_mutated(t) for t in SMI_TEXT], _garbage()))
def test_any_nvidia_smi_output_gives_json_or_a_message(raw, tmp_path_factory, capsys):
    path = tmp_path_factory.mktemp("smi") / "smi.txt"
    path.write_bytes(raw)
    _run(["import-smi", str(path), "--format", "json"], capsys, json_out=True)


@SETTINGS
@given(rows=st.lists(st.tuples(st.sampled_from(["1", "2", "4", "8", "0", "-1", "1e9", "nan",
                                                "3.5", "9" * 400, "x"]),
                               st.sampled_from(HOSTILE + ["100", "190", "350", "1e-9"])),
                     max_size=6),
       header=st.sampled_from(["gpus,throughput\n", "gpus,step_time_s\n", "", "#\n"]))
def test_any_measurement_csv_gives_json_or_a_message(rows, header, tmp_path_factory, capsys):
    path = tmp_path_factory.mktemp("csv") / "m.csv"
    path.write_text(header + "".join(f"{n},{v}\n" for n, v in rows), encoding="utf-8")
    for scaling in ("weak", "strong"):
        _run(["diagnose", str(path), "--scaling", scaling, "--format", "json"], capsys,
             json_out=True)


@settings(SETTINGS, max_examples=12)  # each example refits the measured run
@given(raw=_mutated(DMON.read_text(encoding="utf-8")) | _garbage())
def test_any_dmon_log_gives_json_or_a_message(raw, tmp_path_factory, capsys):
    path = tmp_path_factory.mktemp("dmon") / "dmon.txt"
    path.write_bytes(raw)
    _run(["diagnose", str(MEASURED), "--dmon", str(path), "--format", "json"], capsys,
         json_out=True)
