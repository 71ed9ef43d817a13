"""A user review of how bad input ends: a misspelt key got no suggestion ("unknown key
'bach_per_gpu'"), and a full-width colon, comma or space left by a Chinese input method was
reported on the next line with advice to quote or indent. Both now name what is wrong, where,
in both languages."""

from __future__ import annotations

import pytest

from advisor.catalog.profile_check import parse_profile_text
from advisor.files.errors import InputError

GOOD = """schema_version: 1
task: image_classification
model: {name: ResNet-50, params_millions: 25.6}
training:
  single_gpu_hours: 48
  batch_per_gpu: 64
hardware: {gpu: rtx4090, gpus_per_node: 4, intra_link: pcie4}
economics: {mode: own, time_value: none}
"""


def _refused(text: str) -> tuple[int | None, str, str]:
    with pytest.raises(InputError) as caught:
        parse_profile_text(text)
    problem = caught.value.problems[0]
    return problem.line, problem.message_en, problem.message_zh


def test_the_good_profile_reads():
    assert parse_profile_text(GOOD).training.batch_per_gpu == 64


@pytest.mark.parametrize(("wrong", "meant"), [
    ("batch_per_gpu: 64", "bach_per_gpu: 64"),
    ("single_gpu_hours: 48", "singel_gpu_hours: 48"),
    ("hardware:", "hardwar:"),
])
def test_a_misspelt_key_is_matched_to_the_key_of_its_section(wrong, meant):
    line, en, zh = _refused(GOOD.replace(wrong, meant))
    right = wrong.split(":")[0]
    assert f"did you mean '{right}'?" in en and f"是否想写 '{right}'" in zh
    assert line == next(i for i, t in enumerate(GOOD.replace(wrong, meant).splitlines(), 1)
                        if meant.split(":")[0] in t)


def test_a_count_of_gpus_points_to_the_machines_fields():
    _, en, zh = _refused(GOOD.replace("gpus_per_node: 4", "gpus: 4"))
    assert "'gpus_per_node'" in en and "'nodes'" in en and "'gpus_per_node'" in zh


def test_a_key_nothing_resembles_gets_no_guess():
    _, en, _ = _refused(GOOD.replace("batch_per_gpu: 64", "zzzzzz: 64"))
    assert "unknown key 'zzzzzz'" in en and "did you mean" not in en


@pytest.mark.parametrize(("old", "new", "line", "what_en", "what_zh"), [
    ("  single_gpu_hours: 48", "  single_gpu_hours：48", 5, "full-width colon", "全角冒号"),
    ("task: image_classification", "task：image_classification", 2, "full-width colon",
     "全角冒号"),
    ("gpus_per_node: 4, intra", "gpus_per_node: 4，intra", 7, "full-width comma", "全角逗号"),
    ("  batch_per_gpu: 64", "\u3000 batch_per_gpu: 64", 6, "full-width space", "全角空格"),
])
def test_a_full_width_character_is_named_on_its_own_line(old, new, line, what_en, what_zh):
    got, en, zh = _refused(GOOD.replace(old, new))
    assert got == line and what_en in en and what_zh in zh
    assert "quote" not in en


def test_a_full_width_colon_inside_a_flow_mapping_is_named_in_its_key():
    _, en, zh = _refused(GOOD.replace("gpus_per_node: 4", "gpus_per_node：4"))
    assert "full-width colon" in en and "'gpus_per_node'" in en and "全角冒号" in zh


def test_chinese_punctuation_inside_a_value_is_no_culprit():
    """A real mistake (a tab) two lines below a name written with a Chinese comma."""
    text = GOOD.replace("{name: ResNet-50,", "{name: 我的模型，第二版,").replace(
        "  batch_per_gpu: 64", "\tbatch_per_gpu: 64")
    line, en, _ = _refused(text)
    assert line == 6 and "full-width" not in en
