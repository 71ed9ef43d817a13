"""Issue 33: nothing typed is lost. The title marks unsaved answers; New, Open and Quit ask
Save / Discard / Cancel; Save asks when the file changed on disk since it was opened (edited,
replaced by a link, removed); paths are absolute, so a session restored in another folder
never binds Save to a file there; a restored session that differs from its file is marked."""

from __future__ import annotations

import os
import shutil

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from advisor.catalog.profile_check import load_profile
from advisor.files.identity import changed_since, identity_of
from tests.support.ui import EXAMPLES, make_window
from ui.window import user_files

EXAMPLE = next(p for p in EXAMPLES if "research-deadline" in p.stem)


@pytest.fixture(autouse=True)
def warnings(monkeypatch):
    """A warning box is recorded, not shown (it would wait for a click)."""
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda parent, title, text, *a: shown.append((title, text))))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: ("", "")))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: ("", "")))
    return shown


@pytest.fixture
def profile_file(tmp_path):
    path = tmp_path / "job.yaml"
    shutil.copyfile(EXAMPLE, path)
    return path


def _asked(window, answer: str) -> list[str]:
    asked: list[str] = []
    window.document.ask_unsaved = lambda: asked.append("unsaved") or answer
    return asked


def test_the_title_marks_unsaved_answers_until_they_are_saved(qtbot, profile_file, tmp_path):
    window = make_window(qtbot, argv=[str(profile_file)])
    assert window.windowTitle().endswith("job.yaml[*]") and not window.isWindowModified()
    window.answers.set("training.single_gpu_hours", 33.0)
    assert window.isWindowModified() and window.document.is_modified()
    window.answers.set("training.single_gpu_hours",
                       load_profile(profile_file).training.single_gpu_hours)
    assert not window.isWindowModified()  # back to the file's answers: nothing unsaved
    window.answers.set("training.single_gpu_hours", 34.0)
    assert window.document.save_to(tmp_path / "other.yaml")
    assert not window.isWindowModified() and window.windowTitle().endswith("other.yaml[*]")


@pytest.mark.parametrize("answer,kept", [("cancel", True), ("discard", False)])
def test_new_asks_before_it_replaces_unsaved_answers(qtbot, profile_file, answer, kept):
    window = make_window(qtbot, argv=[str(profile_file)])
    window.answers.set("training.single_gpu_hours", 33.0)
    asked = _asked(window, answer)
    window.document.new()
    assert asked == ["unsaved"]
    assert (window.answers.get("training.single_gpu_hours") == 33.0) is kept
    assert (window.document.path == profile_file.resolve()) is kept


def test_new_saves_first_when_asked_to(qtbot, profile_file):
    window = make_window(qtbot, argv=[str(profile_file)])
    window.answers.set("training.single_gpu_hours", 33.0)
    _asked(window, "save")
    window.document.new()
    assert load_profile(profile_file).training.single_gpu_hours == 33.0
    assert window.document.path is None and not window.isWindowModified()


def test_open_and_recent_ask_too_and_nothing_is_asked_without_changes(qtbot, profile_file,
                                                                      monkeypatch):
    window = make_window(qtbot, argv=[str(profile_file)])
    asked = _asked(window, "cancel")
    window.document.new()  # nothing changed: no question
    assert asked == []
    window.answers.set("training.single_gpu_hours", 33.0)
    window.document.open_dialog()
    window.document.open_recent(str(profile_file))
    assert asked == ["unsaved", "unsaved"]
    assert window.answers.get("training.single_gpu_hours") == 33.0


@pytest.mark.parametrize("answer", ["cancel", "discard", "save"])
def test_quit_asks_and_the_autosave_is_written_before_the_question(qtbot, profile_file,
                                                                    answer):
    window = make_window(qtbot, argv=[str(profile_file)])
    window.show()
    window.answers.set("training.single_gpu_hours", 55.0)

    def ask():
        # the answers are on disk while the question is open (a crash now loses nothing)
        assert "single_gpu_hours: 55.0" in user_files.autosave_path().read_text(
            encoding="utf-8")
        return answer

    window.document.ask_unsaved = ask
    window.close()
    assert window.isVisible() is (answer == "cancel")
    restored = make_window(qtbot)
    hours = restored.answers.get("training.single_gpu_hours")
    on_disk = load_profile(profile_file).training.single_gpu_hours
    if answer == "save":
        assert on_disk == 55.0 and hours == 55.0 and not restored.isWindowModified()
    elif answer == "discard":
        assert on_disk != 55.0 and hours == on_disk and not restored.isWindowModified()
    else:
        assert hours == 55.0 and restored.isWindowModified()  # unsaved, and marked so
    window.document.ask_unsaved = lambda: "discard"


@pytest.mark.parametrize("change", ["edited", "replaced_by_link", "removed"])
@pytest.mark.parametrize("answer", ["cancel", "overwrite", "reload"])
def test_save_asks_when_the_file_changed_on_disk(qtbot, profile_file, tmp_path, change,
                                                 answer):
    window = make_window(qtbot, argv=[str(profile_file)])
    window.answers.set("training.single_gpu_hours", 66.0)
    text = profile_file.read_text(encoding="utf-8")
    if change == "edited":  # a colleague's edit, a git pull
        profile_file.write_text(text.replace("runs_per_month", "runs_per_month") + "# edited\n",
                                encoding="utf-8")
    elif change == "replaced_by_link":
        target = tmp_path / "elsewhere.yaml"
        target.write_text(text, encoding="utf-8")
        profile_file.unlink()
        os.symlink(target, profile_file)
    else:
        profile_file.unlink()
    before = profile_file.read_text(encoding="utf-8") if profile_file.exists() else None
    asked: list[str] = []
    window.document.ask_changed_on_disk = lambda path: asked.append(str(path)) or answer
    saved = window.document.save()
    assert asked == [str(profile_file.parent.resolve() / profile_file.name)]
    if answer == "cancel":
        assert not saved
        assert (profile_file.read_text(encoding="utf-8") if profile_file.exists()
                else None) == before
    elif answer == "overwrite":
        assert saved and load_profile(profile_file).training.single_gpu_hours == 66.0
        window.answers.set("training.single_gpu_hours", 67.0)
        asked.clear()
        assert window.document.save() and asked == []  # its own write is not a change
    elif change != "removed":
        assert not saved and window.answers.get("training.single_gpu_hours") != 66.0


def test_a_file_rewritten_with_the_same_bytes_is_not_a_change(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text("x: 1\n", encoding="utf-8")
    seen = identity_of(path)
    os.replace(_copy(path, tmp_path / "b.yaml"), path)  # an editor's save by rename
    assert not changed_since(path, seen)
    path.write_text("x: 2\n", encoding="utf-8")
    assert changed_since(path, seen)
    path.unlink()
    assert changed_since(path, seen)


def _copy(src, dst):
    shutil.copyfile(src, dst)
    return dst


def test_a_restored_session_never_binds_save_to_a_relative_path(qtbot, tmp_path,
                                                                monkeypatch):
    # an earlier version kept the path as typed: started in another folder, that folder's
    # file of the same name must not become the one Save writes
    monkeypatch.chdir(tmp_path)
    decoy = tmp_path / "profile.yaml"
    shutil.copyfile(EXAMPLE, decoy)
    answers = make_window(qtbot).answers.data
    user_files.write_autosave(answers, "profile.yaml")
    window = make_window(qtbot)
    assert window.document.path is None
    assert window.windowTitle().endswith("untitled[*]")


def test_a_restored_session_that_differs_from_its_file_is_marked(qtbot, profile_file):
    window = make_window(qtbot, argv=[str(profile_file)])
    window.answers.set("training.single_gpu_hours", 44.0)
    window.document.autosave_now()
    restored = make_window(qtbot)
    assert restored.document.path == profile_file.resolve()
    assert restored.isWindowModified()
    same = make_window(qtbot, argv=[str(profile_file)])
    same.document.autosave_now()
    again = make_window(qtbot)
    assert again.document.path == profile_file.resolve() and not again.isWindowModified()


@pytest.mark.parametrize("lang,words,changed", [
    ("en", "not saved", "was changed, replaced or removed"),
    ("zh", "尚未保存", "已被修改、替换或删除")])
def test_the_questions_are_asked_in_the_apps_language(qtbot, profile_file, lang, words,
                                                      changed):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    window = make_window(qtbot, lang=lang, argv=[str(profile_file)])
    seen: list[str] = []

    def answer_cancel():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, answer_cancel)
            return
        seen.append(box.text())
        box.button(QMessageBox.StandardButton.Cancel).click()

    QTimer.singleShot(20, answer_cancel)
    assert window.document._ask_unsaved() == "cancel"
    QTimer.singleShot(20, answer_cancel)
    assert window.document._ask_changed_on_disk(profile_file) == "cancel"
    assert words in seen[0] and changed in seen[1], seen


BAD_AUTOSAVES = {
    "explicit_tag": "answers:\n  training: {single_gpu_hours: !!int abc}\n",
    "no_such_date": "answers:\n  training: {single_gpu_hours: 2023-02-29}\n",
    "yaml11_sexagesimal": "answers:\n  training: {single_gpu_hours: 1:30}\n",
    "yaml11_octal": "answers:\n  training: {batch_per_gpu: 010}\n",
    "not_a_number": "answers:\n  training: {single_gpu_hours: .nan}\n",
    "source_too_long": "source: /" + "a" * 5000 + "\nanswers: {}\n",
    "source_unreadable": "source: /proc/1/root/x/profile.yaml\nanswers: {}\n",
    "answers_not_a_mapping": "answers: [1, 2]\n",
    "nested_too_deeply": "answers: {model: " + "[" * 3000 + "]" * 3000 + "}\n",
}


@pytest.mark.parametrize("kind", sorted(BAD_AUTOSAVES))
def test_a_bad_autosave_of_any_kind_never_stops_the_start(qtbot, kind, warnings):
    path = user_files.autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("autosave_version: 1\n" + BAD_AUTOSAVES[kind], encoding="utf-8")
    window = make_window(qtbot)
    assert window.windowTitle().startswith("GPU Scaling Advisor")
    if warnings:  # unreadable: moved aside, said, never lost
        assert "kept as" in warnings[0][1]
        assert list(path.parent.glob("autosave.broken-*.yaml"))


def test_a_profile_with_yaml_11_numbers_on_the_command_line_is_reported(qtbot, tmp_path,
                                                                         warnings):
    bad = tmp_path / "p.yaml"
    bad.write_text("task: llm\nmodel: {name: x, params_millions: 100}\n"
                   "training: {single_gpu_hours: 1:30}\nhardware: {gpu: rtx4090}\n",
                   encoding="utf-8")
    window = make_window(qtbot, argv=[str(bad)])
    assert warnings and "single_gpu_hours" in warnings[0][1]
    assert window.document.path is None and window.document.broken_source == bad


def _session(pid: int, hours: float, age_s: float = 0.0):
    """An autosave left by a copy (process ``pid``) that no longer runs."""
    import time

    from advisor.files.yaml_lines import dump_yaml

    path = user_files.autosave_path(pid)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dump_yaml({"autosave_version": 1, "source": None, "answers": {
        "training": {"single_gpu_hours": hours}}}), encoding="utf-8")
    stamp = time.time() - age_s
    os.utime(path, (stamp, stamp))
    return path


def test_two_running_copies_keep_their_own_autosaves(qtbot):
    window = make_window(qtbot)
    window.answers.set("training.single_gpu_hours", 11.0)
    window.document.autosave_now()
    mine = user_files.autosave_path()
    other = _session(424242, 22.0)
    # the other copy is alive: its lock is held (here by this process, under its name)
    from PySide6.QtCore import QLockFile

    held = QLockFile(str(other.with_suffix(".lock")))
    held.setStaleLockTime(0)
    assert held.tryLock(0)
    assert other not in user_files.recoverable_autosaves()
    assert "single_gpu_hours: 11.0" in mine.read_text(encoding="utf-8")
    assert "single_gpu_hours: 22.0" in other.read_text(encoding="utf-8")
    held.unlock()
    assert other in user_files.recoverable_autosaves()  # its copy ended without saving


@pytest.mark.parametrize("lang,menu", [("en", "Recover answers"), ("zh", "恢复答案")])
def test_every_session_that_ended_unsaved_is_offered(qtbot, warnings, monkeypatch, lang, menu):
    older = _session(424243, 33.0, age_s=600)
    newer = _session(424244, 44.0, age_s=60)
    window = make_window(qtbot, lang=lang)
    assert menu in warnings[-1][1] and menu in window.act_recover.text().replace("&", "")
    assert window.answers.get("training.single_gpu_hours") == 44.0  # the newest comes back
    assert not newer.exists() and older.exists()  # it is this copy's now, never offered twice
    assert user_files.autosave_path().exists()
    assert warnings and str(older) in warnings[-1][1]  # the other one is said, with its path
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(older), "")))
    window.document.recover_dialog()  # File > Recover Answers…
    assert window.answers.get("training.single_gpu_hours") == 33.0
    assert not older.exists() and user_files.recoverable_autosaves() == []


def _make_invalid(window):
    hardware = next(p for p in window.pages if p.page.key == "hardware")
    window.answers.set("hardware.max_gpu_temp_c", 999)  # above 130: not valid
    assert window.answers.all_problems()
    return hardware


@pytest.mark.parametrize("lang,draft_word", [("en", "draft"), ("zh", "草稿")])
def test_half_finished_answers_are_saved_as_a_draft_and_reported_so(qtbot, tmp_path, warnings,
                                                                     lang, draft_word):
    window = make_window(qtbot, lang=lang, argv=[str(EXAMPLE)])
    _make_invalid(window)
    target = tmp_path / "half.yaml"
    assert window.document.save_to(target)
    assert draft_word in window.windowTitle() and not window.isWindowModified()
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# gpu-advisor draft:") and "max_gpu_temp_c: 999" in text
    # the command line names it a draft, first, in the user's language
    from advisor.files.errors import InputError

    with pytest.raises(InputError) as caught:
        load_profile(target)
    first = caught.value.render(lang).splitlines()[0]
    assert ("draft" if lang == "en" else "草稿") in first
    assert "max_gpu_temp_c" in caught.value.render(lang)
    # opened again: the answers as they were, Save bound to the draft itself
    other = make_window(qtbot, lang=lang)
    assert not other.document.open_path(target)
    assert other.document.path == target and other.document.draft
    assert other.answers.get("hardware.max_gpu_temp_c") == 999
    assert warnings  # reported as a draft
    other.answers.set("hardware.max_gpu_temp_c", 80)
    assert other.document.save()  # finished: a profile, no longer a draft
    assert not target.read_text(encoding="utf-8").startswith("# gpu-advisor draft:")
    assert load_profile(target).hardware.max_gpu_temp_c == 80
    assert draft_word not in other.windowTitle()


def test_a_draft_is_yaml_and_a_restart_keeps_it_bound(qtbot, tmp_path, warnings):
    window = make_window(qtbot, argv=[str(EXAMPLE)])
    _make_invalid(window)
    assert not window.document.save_to(tmp_path / "half.json")  # JSON has no mark
    assert warnings and ".yaml" in warnings[-1][1]
    target = tmp_path / "half.yaml"
    assert window.document.save_to(target)
    window.document.autosave_now()
    restored = make_window(qtbot)
    assert restored.document.path == target and restored.document.draft
    assert not restored.isWindowModified()


def test_save_keeps_the_users_comments_key_order_and_left_out_defaults(qtbot, profile_file):
    original = profile_file.read_text(encoding="utf-8")
    window = make_window(qtbot, argv=[str(profile_file)])
    window.answers.set("hardware.max_gpu_temp_c", 86)
    assert window.document.save()
    saved = profile_file.read_text(encoding="utf-8")
    comments = [line for line in original.splitlines() if line.startswith("#")]
    assert comments and all(line in saved for line in comments)
    assert "runs_per_week: 3" in saved  # as the user wrote it, not runs a month
    assert "max_gpu_temp_c: 86" in saved
    # the keys in the user's order, and no default the user left out added
    keys = [line.split(":")[0] for line in saved.splitlines() if line and line[0].isalpha()]
    assert keys == [line.split(":")[0] for line in original.splitlines()
                    if line and line[0].isalpha()]
    assert len(saved.splitlines()) == len(original.splitlines())
    assert load_profile(profile_file) == window.answers.profile
    # saved again after another change: still the user's file
    window.answers.set("training.batch_per_gpu", 16)
    assert window.document.save()
    again = profile_file.read_text(encoding="utf-8")
    assert all(line in again for line in comments) and "batch_per_gpu: 16" in again


def test_undo_and_redo_take_back_answers_and_typing_is_one_step(qtbot):
    window = make_window(qtbot, argv=[str(EXAMPLE)])
    stack = window.history.stack
    assert not window.act_undo.isEnabled()  # an opened file has no history
    hours = next(p for p in window.pages if p.page.key == "habits") \
        .editors["training.single_gpu_hours"]
    hours.input.selectAll()
    qtbot.keyClicks(hours.input, "123")  # three key presses, one step
    assert window.answers.get("training.single_gpu_hours") == 123
    window.answers.set("hardware.gpu", "a100_sxm4_80gb")  # the model fits cooling and link
    assert stack.count() == 2 and window.act_undo.isEnabled()
    window.act_undo.trigger()
    assert window.answers.get("hardware.gpu") == "rtx4090"
    # the cooling and link the model fitted to the A100 went back with it
    assert window.answers.get("hardware.intra_link") == load_profile(EXAMPLE).hardware.intra_link
    window.act_undo.trigger()
    assert window.answers.get("training.single_gpu_hours") == \
        load_profile(EXAMPLE).training.single_gpu_hours
    assert hours.input.text() == f"{load_profile(EXAMPLE).training.single_gpu_hours:g}"
    assert not window.isWindowModified()  # back to the file's answers
    window.act_redo.trigger()
    window.act_redo.trigger()
    assert window.answers.get("training.single_gpu_hours") == 123
    assert window.answers.get("hardware.gpu") == "a100_sxm4_80gb"
    window.document.new()  # a new document starts a new history
    assert stack.count() == 0 and not window.act_undo.isEnabled()


@pytest.mark.parametrize("apply,lang", [(False, "en"), (True, "en"), (True, "zh")])
def test_an_import_shows_the_answers_it_changes_before_it_changes_them(qtbot, monkeypatch,
                                                                       apply, lang):
    from advisor.hwimport import parse_texts
    from tests.support.paths import TESTS

    text = (TESTS / "fixtures" / "nvidia-smi" / "topo" /
            "h100-della-8gpu-nv18-6nic-empty-cpu-affinity.txt").read_text(encoding="utf-8")
    description = parse_texts([(text, "topo.txt")])

    class Accepting:
        def __init__(self, *args):
            pass

        def exec(self):
            return 1

        def result_description(self):
            return description

    import ui.dialogs.import_dialog as dialog_module

    monkeypatch.setattr(dialog_module, "ImportDialog", Accepting)
    window = make_window(qtbot, lang=lang, argv=[str(EXAMPLE)])
    before = copy_of(window.answers.data)
    shown: list = []
    window.document.confirm_import = lambda changes: shown.append(changes) or apply
    window.document.import_nvidia_smi()
    assert shown and shown[0], "the changes are shown first"
    paths = [path for path, _title, _old, _new in shown[0]]
    assert "hardware.gpus_per_node" in paths or "hardware.gpu" in paths
    from ui.forms.field_spec import field_spec

    assert all(title == field_spec(path).title(lang) for path, title, _o, _n in shown[0]
               if path in ("hardware.gpu", "hardware.gpus_per_node"))
    if not apply:
        assert window.answers.data == before  # nothing changed
        return
    for path, _title, _old, new in shown[0]:
        assert window.answers.get(path) == new
    window.act_undo.trigger()  # one step takes the whole import back
    assert window.answers.data == before


def copy_of(data):
    import copy

    return copy.deepcopy(data)


def test_the_diagnosis_pages_measurements_and_logs_belong_to_the_document(qtbot, tmp_path):
    from tests.support.paths import TESTS

    window = make_window(qtbot, argv=[str(EXAMPLE)])
    window.go_to(len(window.pages) + 1)
    page = window.diagnosis_page
    page.set_points([1, 2, 4], [100.0, 190.0, 340.0], unit="images/s")
    log = TESTS / "fixtures" / "nvidia-smi" / "dmon" / \
        "dmon-new-1gpu-training-100sm-trailing-spaces.txt"
    assert page.load_gpu_logs([log])
    assert page.run_diagnosis() is not None
    assert window.isWindowModified()  # typed measurements are unsaved answers
    target = tmp_path / "with-measurements.yaml"
    assert window.document.save_to(target)
    saved = load_profile(target)
    assert [p.gpus for p in saved.measured.points] == [1, 2, 4]
    assert saved.measured.points[2].throughput == 340.0 and saved.measured.unit == "images/s"
    assert saved.measured.logs == [str(log.absolute())]
    window.document.autosave_now()  # (the timer's, 0.4 s after the change)
    assert "measured:" in user_files.autosave_path().read_text(encoding="utf-8")
    # opened again, the page shows them and reads the logs
    other = make_window(qtbot, argv=[str(target)])
    other.go_to(len(other.pages) + 1)
    other.show()  # the page fills itself from the profile when it is shown
    qtbot.waitUntil(lambda: other.diagnosis_page.result is not None)
    assert other.diagnosis_page.telemetry is not None
    assert not other.isWindowModified()  # showing them changes nothing
    # and the PDF diagnoses them
    from ui.report.export import report_diagnosis

    d = report_diagnosis(saved, None)
    assert d is not None and [p for p in d.measured.gpus] == [1, 2, 4]


def test_sessions_that_ended_are_said_even_when_this_copy_has_its_own(qtbot, warnings):
    window = make_window(qtbot)
    window.answers.set("training.single_gpu_hours", 12.0)
    window.document.autosave_now()
    ended = _session(424245, 21.0)
    again = make_window(qtbot)  # this copy's own autosave comes back first
    assert again.answers.get("training.single_gpu_hours") == 12.0
    assert ended.exists() and warnings and str(ended) in warnings[-1][1]
