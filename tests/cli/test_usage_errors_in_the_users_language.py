"""Review 4: a usage error (an unknown option, a choice not offered, a missing file name)
answered in English under ``--lang zh``. argparse's known wordings read in Chinese; the exit
status stays 2 and the English is unchanged."""

from __future__ import annotations

import pytest

from advisor.cli import main, usage_error_zh
from tests.support.paths import EXAMPLES

MEDIUM = str(EXAMPLES / "medium-model-4gpu-worth-it.yaml")


@pytest.mark.parametrize("argv, zh, en", [
    (["recommend", MEDIUM, "--format", "xml"], "参数 --format：无效的选择 'xml'",
     "invalid choice: 'xml'"),
    (["recommend"], "缺少必需的参数：PROFILE", "the following arguments are required: PROFILE"),
    (["recommend", MEDIUM, "--bogus"], "无法识别的参数：--bogus", "unrecognized arguments: --bogus"),
    (["diagnose", MEDIUM, "--up-to"], "参数 --up-to：需要一个值", "expected one argument"),
    (["diagnose", MEDIUM, "--up-to", "x"], "参数 --up-to：不是有效的 int 值：'x'",
     "invalid int value: 'x'"),
])
def test_a_usage_error_speaks_the_language_asked(argv, zh, en, capsys):
    with pytest.raises(SystemExit) as done:
        main(["--lang", "zh", *argv])
    assert done.value.code == 2
    assert zh in capsys.readouterr().err
    with pytest.raises(SystemExit) as done:
        main(["--lang", "en", *argv])
    assert done.value.code == 2 and en in capsys.readouterr().err


def test_an_unknown_wording_is_kept_as_it_is():
    assert usage_error_zh("something argparse may say one day") == \
        "something argparse may say one day"


def test_input_messages_say_what_was_found_in_words(tmp_path, capsys):
    """Review 4: 'got NoneType' for a file of comments only; 'not UTF-8 text (byte 316)'
    with no line and no hint; '--gpus: --gpus must…' named the option twice."""
    comments = tmp_path / "c.yaml"
    comments.write_text("# nothing but a comment\n")
    assert main(["validate", str(comments)]) == 2
    err = capsys.readouterr().err
    assert "got nothing (only comments or blank lines)" in err and "NoneType" not in err
    gbk = tmp_path / "gbk.yaml"
    gbk.write_bytes("schema_version: 1\nmodel: {name: 你好}\n".encode("gbk"))
    assert main(["validate", str(gbk)]) == 2
    err = capsys.readouterr().err
    assert f"{gbk}:2: not UTF-8 text" in err and "save the file as UTF-8" in err
    assert main(["--lang", "zh", "validate", str(gbk)]) == 2
    assert "请把文件另存为 UTF-8" in capsys.readouterr().err
    assert main(["recommend", MEDIUM, "--gpus", "0"]) == 2
    err = capsys.readouterr().err
    assert "--gpus: must be whole numbers" in err and err.count("--gpus") == 1
