"""Import dialog: paste nvidia-smi output or open saved files, or detect this machine (NVML);
shows what was found and hands a ``HardwareDescription`` back to the wizard.

Usage::

    dialog = ImportDialog(parent, lang)
    if dialog.exec() == QDialog.Accepted:
        desc = dialog.result_description()      # advisor.hwimport.HardwareDescription
        profile = apply_to_profile(desc, profile)
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from advisor.files.errors import InputError
from advisor.hwimport import HardwareDescription, NvmlUnavailable, detect_machine, parse_texts
from advisor.hwimport.display import observation_title, severity_label
from advisor.hwimport.importer import MAX_FILES, MAX_TOTAL_CHARS, read_file_text
from advisor.hwimport.summary_rows import summary_rows
from ui.app.folders import remember, start_at
from ui.app.theme import readable_hex
from ui.app.translation import tr_lang

CONTEXT = "ImportDialog"  # the class name: the context lupdate gives its self.tr() strings


class ImportDialog(QDialog):
    """Paste / open / detect, preview, accept → ``result_description()``."""

    def __init__(self, parent: QWidget | None = None, lang: str = "en") -> None:
        super().__init__(parent)
        self._lang = "zh" if lang == "zh" else "en"
        self._files: list[tuple[str, str]] = []  # (text, file name)
        # files past what one import reads (advisor.hwimport.importer): named, never held
        self._left_out: list[str] = []
        self._description: HardwareDescription | None = None
        self.setWindowTitle(self.tr("Import nvidia-smi output"))
        self.resize(900, 680)

        hint = QLabel(self.tr("Paste what one of these printed on the GPU server: "
                              "nvidia-smi, nvidia-smi -q, nvidia-smi -L, "
                              "nvidia-smi topo -m, nvidia-smi dmon, or "
                              "nvidia-smi --query-gpu=... --format=csv. Several "
                              "outputs of one machine can be combined."))
        hint.setWordWrap(True)
        self.paste_edit = QPlainTextEdit()
        self.paste_edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.paste_edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.open_button = QPushButton(self.tr("Open files…"))
        self.detect_button = QPushButton(self.tr("Detect this machine"))
        self.clear_button = QPushButton(self.tr("Clear"))
        self.files_label = QLabel()
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary_view = QTextBrowser()
        self.button_box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok |
                                           QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = self.button_box.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("Use these facts"))

        buttons = QHBoxLayout()
        for widget in (self.open_button, self.detect_button, self.clear_button):
            buttons.addWidget(widget)
        buttons.addWidget(self.files_label, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(hint)
        layout.addWidget(self.paste_edit, 3)
        layout.addLayout(buttons)
        layout.addWidget(self.status_label)
        layout.addWidget(self.summary_view, 3)
        layout.addWidget(self.button_box)

        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(300)
        self._debounce.timeout.connect(self.read_now)
        self.paste_edit.textChanged.connect(self._debounce.start)
        self.open_button.clicked.connect(self._choose_files)
        self.detect_button.clicked.connect(self.detect)
        self.clear_button.clicked.connect(self.clear)
        self.button_box.accepted.connect(self.accept)
        self.button_box.rejected.connect(self.reject)
        self._show(None, self.tr("Nothing read yet."))

    # --- public API -------------------------------------------------------------------------
    def result_description(self) -> HardwareDescription | None:
        """What was found, once the dialog was accepted (None if cancelled or nothing read)."""
        if self.result() != QDialog.DialogCode.Accepted:
            return None
        return self._description

    def description(self) -> HardwareDescription | None:
        """What is shown right now (before accepting)."""
        return self._description

    def load_files(self, paths: list[str | Path]) -> None:
        """Add saved outputs (the "Open files…" button ends here)."""
        for path in paths:
            if len(self._files) >= MAX_FILES or \
                    sum(len(text) for text, _ in self._files) >= MAX_TOTAL_CHARS:
                self._left_out.append(Path(path).name)
                continue
            try:
                self._files.append((read_file_text(path), Path(path).name))
            except InputError as exc:
                self._show(None, exc.render(self._lang), error=True)
                return
        self.read_now()

    def read_now(self) -> None:
        """Parse the pasted text and the opened files together."""
        self._debounce.stop()
        sources = list(self._files)
        text = self.paste_edit.toPlainText()
        if text.strip():
            sources.append((text, "pasted"))
        names = ", ".join(name for _, name in self._files)
        self.files_label.setText(self.tr("Files: %1").replace("%1", names) if names else "")
        if not sources:
            self._show(None, self.tr("Nothing read yet."))
            return
        try:
            desc = parse_texts(sources, left_out=self._left_out)
        except InputError as exc:
            self._show(None, exc.render(self._lang), error=True)
            return
        self._show(desc, "")

    def detect(self) -> None:
        """Read this machine through NVML, or say plainly that there is no NVIDIA driver."""
        try:
            desc = detect_machine()
        except NvmlUnavailable as exc:
            self._show(None, exc.message.get(self._lang), error=True)
            return
        self._files.clear()
        self._left_out.clear()
        self.paste_edit.blockSignals(True)
        self.paste_edit.clear()
        self.paste_edit.blockSignals(False)
        self._show(desc, "")

    def clear(self) -> None:
        self._files.clear()
        self._left_out.clear()
        self.paste_edit.clear()
        self.read_now()

    # --- internals ----------------------------------------------------------------------------
    def tr(self, text: str) -> str:
        """Qt's ``tr``, in the language the dialog was opened in: the Qt Linguist catalog
        (advisor_zh_CN, context ``ImportDialog``) looked up explicitly, so the dialog does not
        depend on which translator is installed; lupdate collects every ``self.tr("...")``."""
        return tr_lang(self._lang, CONTEXT, text)

    def _choose_files(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, self.tr("Open files…"), start_at())
        remember(paths)
        if paths:
            self.load_files(paths)

    def _show(self, desc: HardwareDescription | None, status: str, error: bool = False) -> None:
        self._description = desc
        self.ok_button.setEnabled(desc is not None)
        self.status_label.setText(status)
        self.status_label.setStyleSheet(f"color: {readable_hex('#b00020')};" if error else "")
        self.summary_view.setHtml(self._summary_html(desc) if desc else "")

    def _summary_html(self, d: HardwareDescription) -> str:
        lang = self._lang
        # The same rows as `gpu-advisor import-smi` prints (one wording for both, en and zh).
        rows = summary_rows(d, lang)
        parts = ["<table>"]
        parts += [f"<tr><td><b>{html.escape(k)}</b></td>"
                  f"<td>&nbsp;{html.escape(v)}</td></tr>" for k, v in rows]
        parts.append("</table>")
        if d.observations:
            heading = self.tr("Observations")  # outside the f-string, where lupdate sees it
            parts.append(f"<h4>{html.escape(heading)}</h4><ul>")
            for o in d.observations:
                evidence = "<br>".join(html.escape(e) for e in o.evidence_in(self._lang))
                tag = f"[{severity_label(o.severity, lang)}] {observation_title(o.id, lang)}"
                parts.append(f"<li><b>{html.escape(tag)}</b>: "
                             f"{html.escape(o.message.get(self._lang))}"
                             f"<br><small>{evidence}</small></li>")
            parts.append("</ul>")
        if d.warnings:
            heading = self.tr("Notes")
            parts.append(f"<h4>{html.escape(heading)}</h4><ul>")
            parts += [f"<li>{html.escape(w.get(self._lang))}</li>" for w in d.warnings]
            parts.append("</ul>")
        return "".join(parts)
