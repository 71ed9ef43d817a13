"""The program ends without tearing down what it loaded (``advisor.cli.leave``), and loses
nothing by it: everything printed arrives, the exit status is the command's own, the exit
handlers run (the log file, temporary folders), and a process with another thread running or
Qt loaded leaves the usual way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.paths import EXAMPLES, ROOT

MEDIUM = str(EXAMPLES / "medium-model-4gpu-worth-it.yaml")


def _program(tmp_path: Path, prelude: str, *argv: str) -> subprocess.CompletedProcess[str]:
    """``gpu-advisor ARGV`` as the program itself (``main()`` without arguments), after
    ``prelude``; logs and caches in ``tmp_path``."""
    code = f"import sys\n{prelude}\nfrom advisor.cli import main\nsys.argv = ['gpu-advisor', " \
           f"*{list(argv)!r}]\nsys.exit(main())\n"
    env = dict(os.environ, GPU_ADVISOR_LOG_DIR=str(tmp_path / "log"),
               GPU_ADVISOR_CACHE_DIR=str(tmp_path / "cache"),
               GPU_ADVISOR_CONFIG_DIR=str(tmp_path / "cfg"), GPU_ADVISOR_LANG="en")
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


def test_everything_printed_arrives_and_the_status_is_the_commands(tmp_path) -> None:
    done = _program(tmp_path, "", "recommend", MEDIUM, "--format", "json")
    assert done.returncode == 0, done.stderr
    verdict = json.loads(done.stdout)["verdict"]  # the whole document, parsed
    assert verdict["rating"] == "worth_it" and verdict["gpus"] >= 4
    bad = _program(tmp_path, "", "recommend", str(tmp_path / "missing.yaml"))
    assert bad.returncode == 2
    assert "missing.yaml" in bad.stderr and "Traceback" not in bad.stderr


def test_the_exit_handlers_run_before_the_program_leaves(tmp_path) -> None:
    mark = tmp_path / "handler-ran"
    prelude = ("import atexit, pathlib\n"
               f"atexit.register(pathlib.Path({str(mark)!r}).write_text, 'ran')\n"
               "import advisor.cli.leave as leave\n"
               "assert leave._RUN_EXIT_HANDLERS is not None\n")
    done = _program(tmp_path, prelude, "project", MEDIUM)
    assert done.returncode == 0, done.stderr
    assert mark.read_text() == "ran"


def test_it_leaves_at_once_only_when_nothing_else_needs_the_usual_exit(tmp_path) -> None:
    # os._exit would skip what the usual exit does after the handlers: join a thread still
    # running, let Qt clean up. The probe records what was decided, then leaves as asked.
    probe = ("import advisor.cli.leave as leave\n"
             "real = leave.leave\n"
             "def spy(code):\n"
             "    print('at-once' if leave.can_leave_at_once() else 'usual', file=sys.stderr)\n"
             "    globals().get('release', lambda: None)()  # the worker may end now\n"
             "    return real(code)\n"
             "leave.leave = spy\n")
    plain = _program(tmp_path, probe, "project", MEDIUM)
    assert plain.returncode == 0 and plain.stderr.strip().endswith("at-once"), plain.stderr
    # a worker still running when the program decides, however long the command took: it
    # waits for a pipe the probe closes once the decision is made
    worker = ("import os, threading\n"
              "held, freed = os.pipe()\n"
              "threading.Thread(target=os.read, args=(held, 1)).start()\n"
              "release = lambda: os.close(freed)\n")
    busy = _program(tmp_path, worker + probe, "project", MEDIUM)
    assert busy.returncode == 0 and busy.stderr.strip().endswith("usual"), busy.stderr
    qt = _program(tmp_path, "import PySide6.QtCore\n" + probe, "project", MEDIUM)
    assert qt.returncode == 0 and qt.stderr.strip().endswith("usual"), qt.stderr


def test_a_caller_inside_a_longer_process_gets_the_status_back(capsys) -> None:
    from advisor.cli import main

    assert main(["project", MEDIUM]) == 0  # still running: this test is the caller
    assert "speed-up" in capsys.readouterr().out.lower()
