"""YAML and JSON read strictly (issue 20, items 7, 12 and 14): YAML 1.1's surprises refused
where a number is expected, with the line; duplicate JSON keys refused like YAML's; integers
past Python's 4,300-digit limit refused, not a crash; brackets inside quoted text are text."""

from __future__ import annotations

import json

import pytest

from advisor.catalog.profile_check import parse_profile_text
from advisor.cli import main
from advisor.files.errors import InputError
from advisor.files.json_text import dumps_strict, load_json_text
from advisor.files.yaml_lines import Yaml11Scalar, dump_yaml, load_yaml_text
from tests.support.paths import EXAMPLES

MEDIUM = (EXAMPLES / "medium-model-4gpu-worth-it.yaml").read_text(encoding="utf-8")


def _problem(text: str, fmt: str | None = None) -> str:
    with pytest.raises(InputError) as info:
        parse_profile_text(text, source="p.yaml", fmt=fmt)
    return info.value.render("en")


@pytest.mark.parametrize(("old", "new", "expected"), [
    ("single_gpu_hours: 48", "single_gpu_hours: 1:30",
     "p.yaml:9: training.single_gpu_hours: must be a plain number, got '1:30': YAML 1.1 "
     "reads it as 90"),
    ("gpus_per_node: 4", "gpus_per_node: 1:04", "hardware.gpus_per_node: must be a plain "
     "number, got '1:04': YAML 1.1 reads it as 64"),
    ("gpus_per_node: 4", "gpus_per_node: 010", ":15: hardware.gpus_per_node: must be a plain "
     "number, got '010': YAML 1.1 reads it as 8"),
    ("batch_per_gpu: 8", "batch_per_gpu: yes", ":11: training.batch_per_gpu: must be a plain "
     "number, got 'yes': YAML 1.1 reads it as true"),
    ("dataloader_workers: 4", "dataloader_workers: 1_000", "must be a plain number"),
])
def test_yaml11_numbers_are_refused_with_the_line(old, new, expected):
    assert old in MEDIUM
    assert expected in _problem(MEDIUM.replace(old, new))


def test_yaml11_forms_are_refused_in_chinese_too():
    with pytest.raises(InputError) as info:
        parse_profile_text(MEDIUM.replace("single_gpu_hours: 48", "single_gpu_hours: 1:30"))
    assert "YAML 1.1 会把它读作 90" in info.value.render("zh")


def test_yaml11_forms_stay_text_where_text_is_expected():
    profile = parse_profile_text(MEDIUM.replace("name: Faster R-CNN R50-FPN", "name: 1:30"))
    assert profile.model.name == "1:30"
    profile = parse_profile_text(MEDIUM.replace("name: Faster R-CNN R50-FPN", "name: 007"))
    assert profile.model.name == "007"


def test_yaml12_numbers_and_booleans_still_read():
    data, _ = load_yaml_text("a: 0x10\nb: 0o17\nc: 1e5\nd: -2.5\ne: true\nf: .inf\ng: 0\n")
    assert data == {"a": 16, "b": 15, "c": 100000.0, "d": -2.5, "e": True, "f": float("inf"),
                    "g": 0}


def test_text_that_would_read_back_otherwise_is_quoted_when_written():
    values = {"a": "010", "b": "1e5", "c": "yes", "d": "1:30", "e": "true", "f": 7, "g": 1.5}
    data, _ = load_yaml_text(dump_yaml(values))
    assert data == values
    assert not any(isinstance(v, Yaml11Scalar) for v in data.values())


@pytest.mark.parametrize("text", ["\x85", "a\x85b", "x\x85\n", "\x85\x85", "a\u2028b", "a\r\nb"])
def test_line_break_characters_in_text_are_written_so_they_read_back(text):
    data, _ = load_yaml_text(dump_yaml({"notes": text}))
    assert data == {"notes": text}


def test_duplicate_json_keys_are_refused_like_yaml():
    text = '{\n  "schema_version": 1,\n  "task": "llm",\n  "task": "image_classification"\n}'
    assert "p.yaml:4: duplicate key 'task'" in _problem(text, "json")
    assert "duplicate key 'task'" in _problem("schema_version: 1\ntask: llm\ntask: llm\n")


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_integers_past_4300_digits_are_refused(fmt, tmp_path, capsys):
    digits = "9" * 5000
    text = (f'{{"schema_version": 1, "hardware": {{"gpus_per_node": {digits}}}}}' if fmt == "json"
            else MEDIUM.replace("gpus_per_node: 4", f"gpus_per_node: {digits}"))
    path = tmp_path / f"p.{fmt}"
    path.write_text(text, encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "a number of 5000 digits is too long" in err
    assert "internal error" not in err


def test_brackets_inside_quoted_text_are_not_nesting():
    """65 '[' in a quoted name gave "nested too deeply"."""
    profile = parse_profile_text(MEDIUM.replace("name: Faster R-CNN R50-FPN",
                                                'name: "' + "[" * 65 + '"'))
    assert profile.model.name == "[" * 65
    data = load_json_text('{"name": "' + "[" * 100 + '"}')
    assert data == {"name": "[" * 100}


@pytest.mark.parametrize("text", ["a: " + "[" * 5000 + "]" * 5000, "[" * 200_000,
                                  "a:\n" + "".join(" " * i + "- \n" for i in range(2, 400))])
def test_deep_yaml_nesting_is_refused_early(text):
    with pytest.raises(InputError, match="nested too deeply"):
        load_yaml_text(text)


def test_deep_json_nesting_is_refused_early():
    with pytest.raises(InputError, match="JSON nested too deeply"):
        load_json_text("[" * 100_000)


def test_aliases_are_refused_at_the_first_anchor():
    bomb = "a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: [*c, *c]\n"
    with pytest.raises(InputError, match=r":1: YAML anchors and aliases"):
        load_yaml_text(bomb)


def test_json_output_is_strict():
    assert dumps_strict({"a": float("nan"), "b": [float("inf"), 1.5]}, indent=None) == \
        '{"a": null, "b": [null, 1.5]}'
    with pytest.raises(InputError, match="NaN is not allowed"):
        load_json_text('{"a": NaN}')
    json.loads(dumps_strict({"x": 1}), parse_constant=pytest.fail)
