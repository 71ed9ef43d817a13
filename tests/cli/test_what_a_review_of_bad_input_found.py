"""A user review of how bad input ends (2026-12-08): measurements CSV cells dropped without
a word ("1,1234,5" read as 1234), a semicolon-separated file, a profile saved as
"profile.yaml.txt" read by `diagnose` as a CSV, a profile's relative log path looked up from
the current folder, and `--lang zh` on a console that cannot show Chinese printing '?????'."""

from __future__ import annotations

import shutil
import types

import pytest

from advisor.cli import _say_no_chinese, main
from advisor.diagnosis.measurements import parse_measurements_csv
from advisor.files.errors import InputError
from tests.support.paths import EXAMPLES, FIXTURES

MEASURED = EXAMPLES / "measured-4gpu-only-1.8x-diagnose.yaml"


def _refused(text: str):
    with pytest.raises(InputError) as caught:
        parse_measurements_csv(text, source="m.csv")
    return caught.value.problems[0]


def test_a_decimal_comma_is_refused_not_cut():
    p = _refused("gpus,throughput\n1,1234,5\n2,2345,6\n")
    assert p.line == 2 and "decimal comma" in p.message_en and "小数逗号" in p.message_zh
    p = _refused("1,1234,5\n2,2345,6\n")  # no header: gpus, value
    assert p.line == 1 and "3 values where 2" in p.message_en


def test_a_column_nothing_reads_is_refused():
    p = _refused("gpus,throughput,step_time_s\n1,100,0.5\n2,190,0.52\n")
    assert p.line == 1 and "'step_time_s' is not read" in p.message_en


@pytest.mark.parametrize(("sep", "word"), [(";", "';'"), ("\t", "a tab")])
def test_another_separator_is_named(sep, word):
    p = _refused(f"gpus{sep}throughput\n1{sep}100\n2{sep}190\n")
    assert f"separated by commas; this line uses {word}" in p.message_en


def test_units_and_trailing_commas_still_read():
    series = parse_measurements_csv("gpus,throughput,unit\n1,100,images/s\n2,190,images/s,\n")
    assert list(series.gpus) == [1, 2]
    assert list(parse_measurements_csv("1,100,images/s\n2,190,images/s\n").gpus) == [1, 2]


def test_a_profile_named_as_text_is_read_as_a_profile(tmp_path, capsys):
    copy = tmp_path / "profile.yaml.txt"
    shutil.copy(MEASURED, copy)
    assert main(["--lang", "en", "diagnose", str(copy)]) == 0
    assert "Measured scaling" in capsys.readouterr().out


def test_a_profiles_relative_log_is_found_beside_it(tmp_path, capsys, monkeypatch):
    dmon = FIXTURES / "diagnosis" / "dmon-4gpu-hot-gpu2.txt"
    folder = tmp_path / "run"
    folder.mkdir()
    shutil.copy(dmon, folder / "dmon.txt")
    text = MEASURED.read_text(encoding="utf-8")
    assert "logs:" not in text
    text = text.replace("measured:", "measured:\n  logs: [dmon.txt]", 1)
    (folder / "p.yaml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # the log is not in the current folder
    assert main(["--lang", "en", "diagnose", "run/p.yaml"]) == 0, capsys.readouterr().err


def test_chinese_on_a_console_without_it_says_why(capsys):
    _say_no_chinese(types.SimpleNamespace(encoding="cp1252"))
    err = capsys.readouterr().err
    assert "cannot show Chinese" in err and "--lang en" in err
    _say_no_chinese(types.SimpleNamespace(encoding="utf-8"))
    _say_no_chinese(types.SimpleNamespace(encoding="gbk"))
    assert capsys.readouterr().err == ""


def _problem(text: str):
    from advisor.catalog.profile_check import parse_profile_text

    with pytest.raises(InputError) as caught:
        parse_profile_text(text)
    return caught.value.problems[0]


JSON = """{
  "schema_version": 1,
  "task": "image_classification",
  "model": {"name": "ResNet-50", "params_millions": 25.6},
  "training": {"single_gpu_hours": 48, "batch_per_gpu": 64},
  "hardware": {"gpu": "rtx4090", "gpus_per_node": 4, "intra_link": "pcie4"},
  "economics": {"mode": "own", "time_value": "none"}
}
"""


def test_a_json_profiles_field_errors_name_their_line():
    p = _problem(JSON.replace('"single_gpu_hours": 48', '"single_gpu_hours": -5'))
    assert p.line == 5 and p.path == "training.single_gpu_hours"


def test_json_syntax_errors_are_said_in_chinese_and_name_a_trailing_comma():
    p = _problem(JSON.replace('"time_value": "none"}', '"time_value": "none"},'))
    assert "trailing comma" in p.message_en and "多了逗号" in p.message_zh
    assert "Expecting" not in p.message_zh


def test_a_second_yaml_document_is_named_in_both_languages():
    p = _problem("schema_version: 1\ntask: image_classification\n---\ntask: llm\n")
    assert "one profile" in p.message_en and "一个文件只放一份配置" in p.message_zh


def test_yaml_11s_reading_of_a_number_is_said_in_chinese():
    p = _problem("schema_version: 1\ntask: image_classification\nmodel: {name: R, "
                 "params_millions: 25.6}\ntraining:\n  single_gpu_hours: 048\n"
                 "  batch_per_gpu: 64\nhardware: {gpu: rtx4090}\n")
    assert "一个数" in p.message_zh and "a number" not in p.message_zh


def test_a_word_given_twice_is_said_so_and_unknown_words_one_by_one(capsys):
    profile = str(EXAMPLES / "medium-model-4gpu-worth-it.yaml")
    assert main(["--lang", "en", "compare", profile, "--option", "4x rtx4090 own own"]) == 2
    assert "'own' is given twice" in capsys.readouterr().err
    assert main(["--lang", "en", "compare", profile, "--option",
                 "8x h100_sxm nvswitch cloud=2.1 extra words"]) == 2
    assert "unknown words 'extra', 'words'" in capsys.readouterr().err


def test_import_smi_with_files_and_detect_says_not_both(capsys):
    smi = next((FIXTURES / "nvidia-smi" / "smi").glob("*.txt"))
    assert main(["--lang", "en", "import-smi", "--detect", str(smi)]) == 2
    assert "not both" in capsys.readouterr().err


def test_diagnose_refuses_a_second_profile_beside_one_with_measurements(capsys):
    other = str(EXAMPLES / "medium-model-4gpu-worth-it.yaml")
    assert main(["--lang", "en", "diagnose", str(MEASURED), "--profile", other]) == 2
    assert "--profile is for a CSV" in capsys.readouterr().err
