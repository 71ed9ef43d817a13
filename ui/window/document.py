"""The profile as a document: new, open, save, recent files, autosave and restore, and the
two hand-offs (nvidia-smi import, PDF export). A broken file is reported, never overwritten.

Nothing typed is lost (issue 33): the answers as last opened or saved are kept
(``_clean``), the title marks answers that differ from them (``[*]``), and New, Open and
Quit ask Save / Discard / Cancel first (``ask_unsaved``); the file's identity is recorded
when it is opened or saved (``advisor.files.identity``), and Save asks Overwrite / Save As /
Reload / Cancel when the file changed on disk since (``ask_changed_on_disk``). Paths are kept
absolute and resolved: a session restored in another folder never binds Save to that
folder's file of the same name."""

from __future__ import annotations

import copy
import importlib
import importlib.util
import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QFileDialog, QMessageBox

from advisor.catalog.profile_check import parse_profile_text
from advisor.files.atomic import ReadOnlyTarget
from advisor.files.errors import InputError
from advisor.files.identity import FileIdentity, changed_since, identity_of
from advisor.files.reading import read_text_file
from advisor.profile import Profile
from advisor.profile.drafts import is_draft
from advisor.profile.writing import save_draft
from ui.app.folders import remember, start_at
from ui.window import user_files
from ui.window.document_files import (
    absolute,
    answers_of,
    default_answers,
    draft_answers,
    file_exists,
    import_changes,
    loaded_profile,
    raw_mapping,
    shown,
)
from ui.window.focus import modal

log = logging.getLogger("advisor.ui")


class Document(QObject):
    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.window = window
        self.path: Path | None = None  # where Save writes; None after a broken file
        self.broken_source: Path | None = None  # a file that loaded with problems
        self._autosave_timer = QTimer(self)
        self._autosave_timer.setSingleShot(True)
        self._autosave_timer.setInterval(400)
        self._autosave_timer.timeout.connect(self.autosave_now)
        self._restoring = False
        # the answers as last opened, saved or started (None: never matching, e.g. a file
        # with problems), and the identity of the file they were read from or written to
        self.draft = False  # the file is a draft: answers saved before they were valid
        self._text: str | None = None  # the file's text as read or written (its comments)
        self._clean: dict | None = copy.deepcopy(window.answers.data)
        self._identity: FileIdentity | None = None
        # the questions asked (replaced in tests): "save" | "discard" | "cancel", and
        # "overwrite" | "save_as" | "reload" | "cancel"
        self.ask_unsaved = self._ask_unsaved
        self.ask_changed_on_disk = self._ask_changed_on_disk
        # the import's changes shown before they are made: True applies them
        self.confirm_import = self._confirm_import

    # -- title and modified state ---------------------------------------------------------------
    def update_title(self) -> None:
        name = self.path.name if self.path else (
            self.broken_source.name if self.broken_source else self.tr("untitled"))
        if self.draft:
            name = self.tr("%1 (draft)").replace("%1", name)
        # [*]: Qt shows the platform's mark of unsaved changes there
        self.window.setWindowTitle(self.tr("GPU Scaling Advisor") + f" — {name}[*]")
        self.window.setWindowModified(self.is_modified())

    def is_modified(self) -> bool:
        """Whether the answers differ from the file's (or the new profile's)."""
        return self._clean is None or self.window.answers.data != self._clean

    def mark_clean(self) -> None:
        self._clean = copy.deepcopy(self.window.answers.data)
        self.window.setWindowModified(False)

    def edited(self) -> None:
        """An answer changed (or many were loaded): the title's mark, then the autosave."""
        self.window.setWindowModified(self.is_modified())
        self.schedule_autosave()

    def _ask_unsaved(self) -> str:
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Unsaved answers"),
                          self.tr("The answers have changes that are not saved. Save them "
                                  "first?"), parent=self.window)
        buttons = {box.addButton(QMessageBox.StandardButton.Save): "save",
                   box.addButton(QMessageBox.StandardButton.Discard): "discard",
                   box.addButton(QMessageBox.StandardButton.Cancel): "cancel"}
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        with modal(self.window):
            box.exec()
        return buttons.get(box.clickedButton(), "cancel")

    def _ask_changed_on_disk(self, path: Path) -> str:
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("The file changed on disk"),
                          self.tr("%1 was changed, replaced or removed since it was opened "
                                  "here. Overwrite it with these answers, save them under "
                                  "another name, or reload the file?").replace("%1", str(path)),
                          parent=self.window)
        buttons = {box.addButton(self.tr("Overwrite"),
                                 QMessageBox.ButtonRole.DestructiveRole): "overwrite",
                   box.addButton(self.tr("Save As…"),
                                 QMessageBox.ButtonRole.AcceptRole): "save_as",
                   box.addButton(self.tr("Reload"), QMessageBox.ButtonRole.ResetRole): "reload",
                   box.addButton(QMessageBox.StandardButton.Cancel): "cancel"}
        with modal(self.window):
            box.exec()
        return buttons.get(box.clickedButton(), "cancel")

    def may_discard(self) -> bool:
        """True when the answers may be replaced: nothing unsaved, saved now, or discarded."""
        if not self.is_modified():
            return True
        choice = self.ask_unsaved()
        if choice == "save":
            return self.save()
        return choice == "discard"

    def may_close(self) -> bool:
        """Quit: the answers are autosaved first (a crash during the question loses nothing);
        discarded answers are not brought back at the next start."""
        self.autosave_now()
        if not self.may_discard():
            return False
        if self.is_modified():  # discarded: the next start shows what was saved
            self.autosave_now(self._clean)
        return True

    def _lang(self) -> str:
        return self.window.lang

    def _filters(self) -> str:
        return self.tr("Profiles (*.yaml *.yml *.json);;All files (*)")

    def _warn(self, title: str, text: str) -> None:
        with modal(self.window):
            QMessageBox.warning(self.window, title, text)

    # -- new / open ---------------------------------------------------------------------------
    def new(self) -> None:
        if not self.may_discard():
            return
        self.path = self.broken_source = self._text = None
        self._identity, self.draft = None, False
        self.window.answers.load_profile(Profile())
        self.mark_clean()
        self.update_title()

    def open_dialog(self) -> None:
        if not self.may_discard():
            return
        with modal(self.window):
            path, _ = QFileDialog.getOpenFileName(self.window, self.tr("Open profile"),
                                                  start_at(), self._filters())
        if path:
            self.open_path(path)

    def open_path(self, path: str | Path) -> bool:
        """Load a profile; invalid answers load with messages at their fields. True if the
        file was valid."""
        path = absolute(path)
        try:
            text = read_text_file(path)
        except InputError as exc:
            self._warn(self.tr("Cannot open the profile"), exc.render(self._lang()))
            return False
        fmt = "json" if path.suffix.lower() == ".json" else None
        try:
            profile = parse_profile_text(text, source=str(path), fmt=fmt)
        except InputError as exc:
            raw = raw_mapping(text, str(path), fmt)
            if raw is not None and is_draft(text):
                # a draft: its answers come back as they were, marked at their fields, and
                # Save writes the draft again (or the profile, once the answers are valid)
                self.window.answers.load(raw)
                self.path, self.broken_source, self.draft = path, None, True
                self._identity = identity_of(path)
                self.mark_clean()
                self._remember(path)
                self.update_title()
                self.window.forget_results(self.tr(
                    "No results: this profile is a draft. Finish the marked answers to see "
                    "the results."))
                self._warn(self.tr("A draft"), exc.render(self._lang()))
                return False
            if raw is not None:
                # Show what could be read, with the problems at the fields; Save will ask for
                # a new name so the original file is never overwritten.
                self.window.answers.load(raw)
                self.path, self.broken_source = None, path
                self._clean, self._identity = None, None
                self.update_title()
                # The verdict on screen was the previous profile's: it must not stand beside
                # this file's answers (the fixed answers bring new results).
                self.window.forget_results(self.tr(
                    "No results: the opened file has problems. Fix the marked answers to see "
                    "the results for it."))
            self._warn(self.tr("The profile has problems"),
                       exc.render(self._lang()) + "\n\n" + self.tr(
                           "The file was not changed. Fix the answers and save under a "
                           "new name."))
            return False
        self.window.answers.load_profile(profile)
        self.path, self.broken_source, self.draft = path, None, False
        self._identity, self._text = identity_of(path), text
        self.mark_clean()
        self._remember(path)
        self.update_title()
        return True

    def open_recent(self, path: str) -> None:
        if not self.may_discard():
            return
        if not file_exists(path):
            user_files.forget_recent(path)
            self._warn(self.tr("Cannot open the profile"),
                       self.tr("The file no longer exists:\n%1").replace("%1", path))
            return
        self.open_path(path)

    def fill_recent_menu(self) -> None:
        menu = self.window.recent_menu
        menu.clear()
        files = user_files.recent_files()
        for path in files:
            menu.addAction(path, lambda p=path: self.open_recent(p))
        menu.setEnabled(bool(files))

    def _remember(self, path: Path) -> None:
        remember(path)  # its folder is where the next file dialog opens (issue 34)
        try:
            user_files.add_recent(path)
        except InputError as exc:  # a read-only state folder must not stop the work
            log.warning("recent files not saved: %s", exc)

    # -- save ---------------------------------------------------------------------------------
    def save(self) -> bool:
        if self.path is None:
            return self.save_as()
        return self.save_to(self.path)

    def save_as(self) -> bool:
        start = str(self.path or (self.broken_source.with_name(
            self.broken_source.stem + "-fixed.yaml") if self.broken_source else "profile.yaml"))
        with modal(self.window):
            path, _ = QFileDialog.getSaveFileName(self.window, self.tr("Save profile"),
                                                  start_at(start), self._filters())
        return self.save_to(Path(path)) if path else False

    def save_to(self, path: Path) -> bool:
        path = absolute(path)
        answers = self.window.answers
        problems = answers.all_problems()
        if problems and path.suffix.lower() == ".json":
            self._warn(self.tr("Cannot save yet"),
                       self.tr("Some answers are not valid yet: they can be saved as a draft, "
                               "which is YAML. Choose a name ending in .yaml."))
            return False
        if self.broken_source is not None and path.resolve() == self.broken_source.resolve():
            self._warn(self.tr("Cannot save yet"),
                       self.tr("Choose a new name: the file with problems is kept as it was."))
            return False
        if path == self.path and changed_since(path, self._identity):
            choice = self.ask_changed_on_disk(path)
            if choice == "save_as":
                return self.save_as()
            if choice == "reload":
                self.open_path(path)
                return False
            if choice != "overwrite":
                return False
        try:
            if problems:  # a draft: the answers as they are, marked so in the file
                self._replacing(path, lambda replace: save_draft(
                    answers.data, path, replace_read_only=replace))
            else:
                from ui.window import catalog_model  # noqa: PLC0415 - Save only

                written: list[str] = []
                self._replacing(path, lambda replace: written.append(catalog_model.save_keeping_id(
                    answers.profile, path, replace_read_only=replace, original=self._text)))
                self._text = written[-1] if written else None
        except _Declined:
            return False
        except InputError as exc:
            self._warn(self.tr("Cannot save the profile"), exc.render(self._lang()))
            return False
        self.path, self.broken_source, self.draft = path, None, bool(problems)
        self._identity = identity_of(path)
        self.mark_clean()
        self._remember(path)
        self.update_title()
        self.window.statusBar().showMessage(
            (self.tr("Saved %1 as a draft: %2 answers are not valid yet").replace(
                "%2", str(len(problems))) if problems else self.tr("Saved %1"))
            .replace("%1", str(path)), 5000)
        return True

    def _replacing(self, path: Path, write) -> None:
        """``write(replace_read_only)``; a read-only file is replaced only when the user says
        so (``_Declined`` when not)."""
        try:
            write(False)
        except ReadOnlyTarget:
            with modal(self.window):
                answer = QMessageBox.question(
                    self.window, self.tr("Replace a read-only file?"),
                    self.tr("%1 is read-only. Replace it anyway?").replace("%1", str(path)))
            if answer != QMessageBox.StandardButton.Yes:
                raise _Declined from None
            write(True)

    # -- autosave -----------------------------------------------------------------------------
    def schedule_autosave(self) -> None:
        if not self._restoring:
            self._autosave_timer.start()

    def autosave_now(self, answers: dict | None = None) -> None:
        """The answers (or ``answers``) and the file they belong to, written now."""
        self._autosave_timer.stop()
        source = self.path or self.broken_source
        try:
            user_files.write_autosave(self.window.answers.data if answers is None else answers,
                                      str(source) if source else None,
                                      source_broken=self.path is None and source is not None)
        except (InputError, OSError) as exc:
            log.warning("autosave failed: %s", exc)

    def restore_autosave(self) -> bool:
        """Bring back the last session's answers; True when there were any. This copy's own
        autosave first (a window opened again in the same run); else the newest a copy that
        no longer runs left, the others offered (File > Recover answers…)."""
        user_files.claim_session()
        others = user_files.recoverable_autosaves()
        if user_files.autosave_path().exists():
            restored = self.recover(user_files.autosave_path())
        elif others:
            restored = self.recover(others.pop(0))
        else:
            return False
        self._mention_sessions(others, more=True)  # never dropped in silence
        return restored

    def claim_and_mention_sessions(self) -> None:
        """For a copy started with a file: hold this copy's autosave lock (a second copy then
        never takes its autosave for a dead session's) and say that the answers of sessions
        that ended unsaved are kept, without loading them over the file."""
        user_files.claim_session()
        self._mention_sessions(user_files.recoverable_autosaves(), more=False)

    def _mention_sessions(self, others: list[Path], *, more: bool) -> None:
        """Say that ``others`` are kept, with where they are (File > Recover answers…);
        ``more``: besides the session whose answers were just brought back."""
        if not others:
            return
        n, paths = len(others), "\n".join(str(p) for p in others[:5])
        if self._lang() == "zh":
            text = (f"{'另有' if more else '有'} {n} 个未保存就结束的会话，其答案已保留。"
                    f"用“文件 > 恢复答案…”打开：\n{paths}")
        else:
            sessions = (f"{n} more session" if more else f"{n} session") + ("" if n == 1 else "s")
            text = (f"The answers of {sessions} that ended without being saved are kept. "
                    f"File > Recover answers… opens {'it' if n == 1 else 'them'}:\n{paths}")
        self._warn(self.tr("Answers of other sessions"), text)

    def recover_dialog(self) -> None:
        """Pick an autosave of an earlier session and bring its answers back."""
        if not self.may_discard():
            return
        with modal(self.window):
            path, _ = QFileDialog.getOpenFileName(
                self.window, self.tr("Recover answers"), str(user_files.state_dir()),
                self.tr("Autosaved answers (autosave*.yaml)"))
        if path:
            self.recover(Path(path))

    def recover(self, path: Path) -> bool:
        """The answers of the autosave ``path``; one of another session becomes this copy's
        own (written now, then the other removed: it is never offered twice)."""
        try:
            saved = user_files.read_autosave(path)
        except user_files.BrokenAutosave as exc:
            self._warn(self.tr("Previous answers could not be restored"),
                       self.tr("The autosaved answers were damaged (%1). They were kept as "
                               "%2; starting with a new profile.")
                       .replace("%1", exc.reason(self._lang())).replace("%2", str(exc.kept_as)))
            return False
        if saved is None:
            return False
        self._restore(saved)
        if path != user_files.autosave_path():
            self.autosave_now()
            if user_files.autosave_path().exists():
                user_files.retire_autosave(path)
        return True

    def _restore(self, saved: user_files.Autosave) -> None:
        self._restoring = True
        try:
            self.window.answers.load(saved.answers)
        finally:
            self._restoring = False
        self.path = self.broken_source = self._text = None
        self._clean, self._identity, self.draft = default_answers(), None, False
        # a relative path (an earlier version's autosave) names a file in whatever folder the
        # app starts in: the answers come back untitled rather than bound to another file
        if saved.source and Path(saved.source).is_absolute() and file_exists(saved.source):
            # A file that had problems keeps its mark across the restart: Save asks for a new
            # name instead of writing over it (an autosave of an earlier version has no mark:
            # whether the file still loads decides)
            source = Path(saved.source)
            loaded = loaded_profile(source)
            draft = draft_answers(source) if loaded is None else None
            if draft is not None:  # a draft: Save writes it again
                self.path, self.draft = source, True
                self._identity = identity_of(source)
                self._clean = draft
            elif saved.source_broken or loaded is None:
                self.broken_source, self._clean = source, None
            else:
                self.path = source
                # the file as it is now: answers that differ from it are unsaved changes
                self._identity = identity_of(source)
                try:
                    self._text = read_text_file(source)
                except InputError:
                    self._text = None
                self._clean = answers_of(loaded)
        self.update_title()
        self.window.statusBar().showMessage(self.tr("Restored the answers of the last session."),
                                            5000)

    # -- hand-offs ----------------------------------------------------------------------------
    def export_pdf(self, appendix: bool = False) -> None:
        """The PDF report of the results on screen; ``appendix`` adds the rule trace."""
        window = self.window
        if importlib.util.find_spec("ui.report") is None:
            self._warn(self.tr("Export PDF"),
                       self.tr("The PDF report is not available in this build."))
            return
        if window.results is None:
            self._warn(self.tr("Export PDF"), self.tr("The results are not ready yet."))
            return
        problems = window.answers.all_problems()
        if problems:  # the results on screen are of earlier answers: never exported as these
            self._warn(self.tr("Export PDF"), self.tr(
                "%1 answers are not valid: the results on screen belong to earlier answers. "
                "Fix the marked answers first.").replace("%1", str(len(problems))))
            return
        start = (self.path.with_suffix(".pdf").name if self.path else "recommendation.pdf")
        with modal(window):
            path, _ = QFileDialog.getSaveFileName(window, self.tr("Export PDF"), start_at(start),
                                                  "PDF (*.pdf)")
        if not path:
            return
        remember(path)
        report = importlib.import_module("ui.report")
        page = getattr(window, "compare_page", None)  # its comparison, when of these answers
        comparison = page.result if page is not None and page.profile == \
            window.results.profile else None
        try:
            self._replacing(Path(path), lambda replace: report.export_pdf(
                window.results.recommendation, window.results.profile, path, self._lang(),
                appendix=appendix, **({"comparison": comparison} if comparison is not None else {}),
                **({"replace_read_only": True} if replace else {})))
        except _Declined:
            return
        except InputError as exc:
            self._warn(self.tr("Export PDF"), exc.render(self._lang()))
            return
        window.statusBar().showMessage(self.tr("Saved %1").replace("%1", path), 5000)

    def import_nvidia_smi(self) -> None:
        window = self.window
        if importlib.util.find_spec("ui.dialogs.import_dialog") is None or \
                importlib.util.find_spec("advisor.hwimport") is None:
            self._warn(self.tr("Import nvidia-smi"),
                       self.tr("The nvidia-smi import is not available in this build."))
            return
        dialog_module = importlib.import_module("ui.dialogs.import_dialog")
        hwimport = importlib.import_module("advisor.hwimport")
        dialog = dialog_module.ImportDialog(window, self._lang())
        with modal(window):
            accepted = dialog.exec()
        if not accepted:
            return
        description = dialog.result_description()
        if description is None:
            return
        base = window.answers.profile or Profile()
        try:
            updated = hwimport.apply_to_profile(description, base)
        except InputError as exc:
            self._warn(self.tr("Import nvidia-smi"), exc.render(self._lang()))
            return
        changes = import_changes(window.answers, updated.hardware.model_dump(mode="json"),
                                 self._lang())
        if not changes:
            window.statusBar().showMessage(
                self.tr("The import changes none of the answers."), 5000)
            return
        if not self.confirm_import(changes):
            return
        window.answers.set_many({path: new for path, _title, _old, new in changes})
        window.statusBar().showMessage(self.tr("Imported: %1 answers changed (Edit > Undo takes "
                                               "them back).").replace("%1", str(len(changes))),
                                       8000)

    def _confirm_import(self, changes: list[tuple[str, str, Any, Any]]) -> bool:
        rows = "\n".join(f"• {title}: {shown(old)} → {shown(new)}"
                         for _path, title, old, new in changes)
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Import nvidia-smi"),
                          self.tr("The import changes these answers:") + "\n\n" + rows,
                          parent=self.window)
        apply = box.addButton(self.tr("Apply"), QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(apply)
        with modal(self.window):
            box.exec()
        return box.clickedButton() is apply


class _Declined(Exception):
    """The user chose not to replace a read-only file."""
