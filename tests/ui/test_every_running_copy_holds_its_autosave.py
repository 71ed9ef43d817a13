"""Review D3: every running copy holds its autosave lock, a copy started with a file (a
double-click on a .yaml) too, so a second copy never takes its autosave for a dead session's
and deletes it; a copy started with a file still says that the answers of sessions that ended
unsaved are kept (File > Recover answers…); one such session is "1 session", not "sessions"."""

from __future__ import annotations

import os
import shutil
import time

import pytest
from PySide6.QtWidgets import QMessageBox

from advisor.files.yaml_lines import dump_yaml
from tests.support.ui import EXAMPLES, make_window
from ui.window import user_files

EXAMPLE = next(p for p in EXAMPLES if "research-deadline" in p.stem)


@pytest.fixture(autouse=True)
def warnings(monkeypatch):
    """A warning box is recorded, not shown; this test's copy claims its lock afresh (the
    process's lock of an earlier test lies in that test's state folder)."""
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda parent, title, text, *a: shown.append((title, text))))
    monkeypatch.setattr(user_files, "_session_lock", None)
    yield shown
    lock = user_files._session_lock
    if lock is not None:
        lock.unlock()


def _crashed_session(pid: int, name: str, age_s: float = 0.0):
    """The autosave a copy (process ``pid``) left when it crashed: no lock is held for it."""
    path = user_files.autosave_path(pid)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dump_yaml({"autosave_version": 1, "source": None,
                               "answers": {"model": {"name": name}}}), encoding="utf-8")
    stamp = time.time() - age_s
    os.utime(path, (stamp, stamp))
    return path


@pytest.fixture
def profile_file(tmp_path):
    path = tmp_path / "job.yaml"
    shutil.copyfile(EXAMPLE, path)
    return path


def test_a_copy_started_with_a_file_holds_its_autosave_lock(qtbot, profile_file):
    window = make_window(qtbot, argv=[str(profile_file)])
    window.answers.set("model.name", "FileSessionNet")
    window.document.autosave_now()
    own = user_files.autosave_path()
    assert own.exists()
    # what a second copy asks before it recovers an autosave: is a running copy holding it?
    assert user_files._held_by_a_running_copy(own)


def test_a_second_copy_leaves_a_file_copys_autosave_alone(qtbot, profile_file, monkeypatch):
    window = make_window(qtbot, argv=[str(profile_file)])
    window.answers.set("model.name", "FileSessionNet")
    window.document.autosave_now()
    own = user_files.autosave_path()
    # the second copy runs as another process: its own autosave is another pid's, so the
    # first copy's is among those it looks at and must be refused as held
    real_own = user_files.autosave_path
    other_pid = os.getpid() + 100000

    def second_copys(pid=None):
        return real_own(other_pid if pid is None else pid)

    with monkeypatch.context() as m:
        m.setattr(user_files, "autosave_path", second_copys)
        assert own not in user_files.recoverable_autosaves()
    assert own.exists() and window.answers.get("model.name") == "FileSessionNet"


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "The answers of 1 session that ended without being saved are kept"),
    ("zh", "有 1 个未保存就结束的会话"),
])
def test_a_copy_started_with_a_file_says_a_crashed_sessions_answers_are_kept(
        qtbot, profile_file, warnings, lang, said):
    crashed = _crashed_session(424251, "CrashedSessionNet")
    window = make_window(qtbot, lang=lang, argv=[str(profile_file)])
    assert warnings, "nothing said about the crashed session"
    text = warnings[-1][1]
    assert said in text and str(crashed) in text
    assert ("Recover answers" if lang == "en" else "恢复答案") in text
    # the file's answers are shown, the crashed session's are kept for File > Recover answers…
    assert window.answers.get("model.name") != "CrashedSessionNet" and crashed.exists()


def test_no_word_about_other_sessions_when_there_are_none(qtbot, profile_file, warnings):
    make_window(qtbot, argv=[str(profile_file)])
    assert warnings == []


@pytest.mark.parametrize(("count", "said"), [(1, "1 more session that"), (2, "2 more sessions")])
def test_one_more_session_is_singular(qtbot, warnings, count, said):
    for i in range(count + 1):
        _crashed_session(424260 + i, f"Net{i}", age_s=60 * (i + 1))
    make_window(qtbot)
    text = warnings[-1][1]
    assert said in text
    assert ("opens it:" if count == 1 else "opens them:") in text
