"""The profile as a document: new, open, save, recent files, autosave and restore, and the
two hand-offs (nvidia-smi import, PDF export). A broken file is reported, never overwritten."""

from __future__ import annotations

import importlib
import importlib.util
import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QFileDialog, QMessageBox

from advisor.catalog.profile_check import load_profile, parse_profile_text
from advisor.files.atomic import ReadOnlyTarget
from advisor.files.errors import InputError
from advisor.files.reading import read_text_file
from advisor.profile import Profile
from advisor.profile.reading import load_profile_data
from advisor.profile.writing import save_profile
from ui.window import user_files
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

    # -- title --------------------------------------------------------------------------------
    def update_title(self) -> None:
        name = self.path.name if self.path else (
            self.broken_source.name if self.broken_source else self.tr("untitled"))
        self.window.setWindowTitle(self.tr("GPU Scaling Advisor") + f" — {name}")

    def _lang(self) -> str:
        return self.window.lang

    def _filters(self) -> str:
        return self.tr("Profiles (*.yaml *.yml *.json);;All files (*)")

    def _warn(self, title: str, text: str) -> None:
        with modal(self.window):
            QMessageBox.warning(self.window, title, text)

    # -- new / open ---------------------------------------------------------------------------
    def new(self) -> None:
        self.path = self.broken_source = None
        self.window.answers.load_profile(Profile())
        self.update_title()

    def open_dialog(self) -> None:
        with modal(self.window):
            path, _ = QFileDialog.getOpenFileName(self.window, self.tr("Open profile"), "",
                                                  self._filters())
        if path:
            self.open_path(path)

    def open_path(self, path: str | Path) -> bool:
        """Load a profile; invalid answers load with messages at their fields. True if the
        file was valid."""
        path = Path(path)
        try:
            text = read_text_file(path)
        except InputError as exc:
            self._warn(self.tr("Cannot open the profile"), exc.render(self._lang()))
            return False
        fmt = "json" if path.suffix.lower() == ".json" else None
        try:
            profile = parse_profile_text(text, source=str(path), fmt=fmt)
        except InputError as exc:
            raw = _raw_mapping(text, str(path), fmt)
            if raw is not None:
                # Show what could be read, with the problems at the fields; Save will ask for
                # a new name so the original file is never overwritten.
                self.window.answers.load(raw)
                self.path, self.broken_source = None, path
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
        self.path, self.broken_source = path, None
        self._remember(path)
        self.update_title()
        return True

    def open_recent(self, path: str) -> None:
        if not Path(path).exists():
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
            path, _ = QFileDialog.getSaveFileName(self.window, self.tr("Save profile"), start,
                                                  self._filters())
        return self.save_to(Path(path)) if path else False

    def save_to(self, path: Path) -> bool:
        answers = self.window.answers
        if answers.all_problems():
            self._warn(self.tr("Cannot save yet"),
                       self.tr("Some answers need attention; they are marked at their fields."))
            return False
        if self.broken_source is not None and path.resolve() == self.broken_source.resolve():
            self._warn(self.tr("Cannot save yet"),
                       self.tr("Choose a new name: the file with problems is kept as it was."))
            return False
        try:
            self._replacing(path, lambda replace: save_profile(answers.profile, path,
                                                               replace_read_only=replace))
        except _Declined:
            return False
        except InputError as exc:
            self._warn(self.tr("Cannot save the profile"), exc.render(self._lang()))
            return False
        self.path, self.broken_source = path, None
        self._remember(path)
        self.update_title()
        self.window.statusBar().showMessage(self.tr("Saved %1").replace("%1", str(path)), 5000)
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

    def autosave_now(self) -> None:
        self._autosave_timer.stop()
        source = self.path or self.broken_source
        try:
            user_files.write_autosave(self.window.answers.data, str(source) if source else None,
                                      source_broken=self.path is None and source is not None)
        except (InputError, OSError) as exc:
            log.warning("autosave failed: %s", exc)

    def restore_autosave(self) -> bool:
        """Bring back the last session's answers; True when there were any."""
        try:
            saved = user_files.read_autosave()
        except user_files.BrokenAutosave as exc:
            self._warn(self.tr("Previous answers could not be restored"),
                       self.tr("The autosaved answers were damaged (%1). They were kept as "
                               "%2; starting with a new profile.")
                       .replace("%1", exc.reason(self._lang())).replace("%2", str(exc.kept_as)))
            return False
        if saved is None:
            return False
        self._restoring = True
        try:
            self.window.answers.load(saved.answers)
        finally:
            self._restoring = False
        self.path = self.broken_source = None
        if saved.source and Path(saved.source).exists():
            # A file that had problems keeps its mark across the restart: Save asks for a new
            # name instead of writing over it (an autosave of an earlier version has no mark:
            # whether the file still loads decides)
            if saved.source_broken or not _loads(Path(saved.source)):
                self.broken_source = Path(saved.source)
            else:
                self.path = Path(saved.source)
        self.update_title()
        self.window.statusBar().showMessage(self.tr("Restored the answers of the last session."),
                                            5000)
        return True

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
        start = (self.path.with_suffix(".pdf").name if self.path else "recommendation.pdf")
        with modal(window):
            path, _ = QFileDialog.getSaveFileName(window, self.tr("Export PDF"), start,
                                                  "PDF (*.pdf)")
        if not path:
            return
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
        window.answers.set_many({f"hardware.{k}": v for k, v in
                                 updated.hardware.model_dump(mode="json").items()})


class _Declined(Exception):
    """The user chose not to replace a read-only file."""


def _raw_mapping(text: str, source: str, fmt: str | None) -> dict | None:
    """The file's data if it parses to a mapping (even an invalid profile), else None; read by
    the same strict readers as a profile (no recursion error on deep JSON)."""
    try:
        data, _ = load_profile_data(text, source=source, fmt=fmt)
    except InputError:
        return None
    return data if isinstance(data, dict) else None


def _loads(path: Path) -> bool:
    """Whether ``path`` is a valid profile now."""
    try:
        load_profile(path)
    except InputError:
        return False
    return True
