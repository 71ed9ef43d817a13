"""Linear error reporting with limits, and a log folder that cannot be written (issue 20,
items 4 and 7): the first problems and a count, long values echoed shortened; an internal
error never prints a traceback, nor points to a log that was not written."""

from __future__ import annotations

import os

import pytest

from advisor.catalog.profile_check import parse_profile_text
from advisor.cli import main
from advisor.files import logs
from advisor.files.errors import MAX_SHOWN_PROBLEMS, InputError
from advisor.files.validation_messages import MAX_PROBLEMS
from advisor.files.yaml_lines import MAX_ITEMS, LineIndex
from tests.support.paths import EXAMPLES

MEDIUM = EXAMPLES / "medium-model-4gpu-worth-it.yaml"


def test_thousands_of_unknown_keys_give_the_first_problems_and_a_count(tmp_path, capsys,
                                                                        monkeypatch):
    """88,324 unknown keys took 9 minutes and printed 88k lines: the line of each was found
    by scanning every key, and every problem was printed."""
    keys = MAX_ITEMS - 1  # the most one mapping may hold, with schema_version
    path = tmp_path / "many.yaml"
    path.write_text("schema_version: 1\n" + "".join(f"k{i}: 1\n" for i in range(keys)))
    lookups = []
    original = LineIndex.line_of
    monkeypatch.setattr(LineIndex, "line_of",
                        lambda self, loc: lookups.append(loc) or original(self, loc))
    assert main(["validate", str(path)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == MAX_SHOWN_PROBLEMS + 1
    assert lines[0] == f"{path}:2: k0: unknown key 'k0'"
    assert lines[-1] == f"... and {keys - MAX_SHOWN_PROBLEMS:,} more problem(s)"
    assert len(lookups) <= MAX_PROBLEMS  # the rest are counted, not looked up


def test_more_entries_than_a_mapping_may_hold_are_refused_at_the_first_one_over(tmp_path,
                                                                               capsys):
    """88,324 keys: refused at key 10,001, before anything is built."""
    path = tmp_path / "many.yaml"
    path.write_text("schema_version: 1\n" + "".join(f"k{i}: 1\n" for i in range(88_324)))
    assert main(["validate", str(path)]) == 2
    assert capsys.readouterr().err.strip() == \
        f"{path}:10001: more than 10,000 entries in one mapping or list"


def test_line_lookups_index_each_mapping_once():
    import yaml

    root = yaml.compose("".join(f"k{i}: {i}\n" for i in range(5000)))
    index = LineIndex(root)
    assert index.line_of(("k4999",)) == 5000 and index.line_of(("k0",)) == 1
    assert len(index._keys) == 1  # one table for the one mapping, built once


def test_a_long_value_is_echoed_shortened():
    """A 500 KB unknown GPU name was echoed whole."""
    text = MEDIUM.read_text(encoding="utf-8").replace("gpu: rtx4090", "gpu: " + "x" * 500_000)
    with pytest.raises(InputError) as info:
        parse_profile_text(text)
    message = info.value.render("en")
    assert "unknown GPU" in message and len(message) < 1000


def test_an_unwritable_log_folder_gives_no_traceback(tmp_path, monkeypatch, capsys):
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("")
    monkeypatch.setenv("GPU_ADVISOR_LOG_DIR", str(blocked / "log"))  # its parent is a file
    import advisor.cli.commands.schema as schema

    monkeypatch.setattr(schema.Profile, "model_json_schema", lambda: 1 / 0)  # a bug
    code = main(["schema"])
    err = capsys.readouterr().err
    assert code == 1
    assert "Traceback" not in err
    assert "ZeroDivisionError" in err and "no log was written" in err
    assert str(blocked / "log") in err
    assert logs.active_log_file() is None


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_a_fifo_where_the_log_goes_is_not_opened(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "log"
    folder.mkdir()
    os.mkfifo(folder / "advisor.log")  # opening it for writing would wait for a reader
    monkeypatch.setenv("GPU_ADVISOR_LOG_DIR", str(folder))
    assert logs.setup_logging() is None
    assert main(["validate", str(MEDIUM)]) == 0


def test_internal_error_message_points_to_the_log_it_wrote(monkeypatch, capsys):
    path = logs.setup_logging()
    assert path is not None and logs.active_log_file() == path
    message = logs.internal_error_message(RuntimeError("x"), "zh")
    assert str(path) in message and "内部错误" in message


def test_a_command_that_logs_nothing_opens_no_log(tmp_path):
    """The command line attaches the log file when it first has something to log: a call that
    logs nothing neither creates the log folder nor loads the file handler's modules."""
    import json
    import subprocess
    import sys

    folder = tmp_path / "log"
    code = ("import json, sys, contextlib, io\n"
            "from advisor.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    status = main(['validate', {str(MEDIUM)!r}])\n"
            "print(json.dumps([status, 'logging.handlers' in sys.modules]))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "GPU_ADVISOR_LOG_DIR": str(folder)}, timeout=120,
                          check=True)
    assert json.loads(done.stdout) == [0, False]
    assert not folder.exists()


def test_what_is_logged_reaches_the_log_file_when_logging_starts_with_it():
    from advisor.files.json_text import dumps_strict

    assert dumps_strict({"x": float("nan")}, indent=None) == '{"x": null}'
    assert "1 non-finite number(s) written as null" in logs.log_file().read_text("utf-8")
