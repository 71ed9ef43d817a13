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

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, QTimer
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

from advisor.errors import InputError
from advisor.hwimport import HardwareDescription, NvmlUnavailable, detect_machine, parse_texts
from advisor.hwimport.importer import read_file_text
from ui.translation import tr_lang

CONTEXT = "ImportDialog"
# English source → Chinese, used until the Qt catalog carries these strings.
_ZH = {
    QT_TRANSLATE_NOOP("ImportDialog", "Import nvidia-smi output"): "导入 nvidia-smi 输出",
    QT_TRANSLATE_NOOP("ImportDialog", "Paste what one of these printed on the GPU server: "
                                      "nvidia-smi, nvidia-smi -q, nvidia-smi -L, "
                                      "nvidia-smi topo -m, nvidia-smi dmon, or "
                                      "nvidia-smi --query-gpu=... --format=csv. Several "
                                      "outputs of one machine can be combined."):
        "粘贴 GPU 服务器上以下命令的输出：nvidia-smi、nvidia-smi -q、nvidia-smi -L、"
        "nvidia-smi topo -m、nvidia-smi dmon 或 nvidia-smi --query-gpu=... --format=csv。"
        "同一台机器的多个输出可以一起导入。",
    QT_TRANSLATE_NOOP("ImportDialog", "Open files…"): "打开文件…",
    QT_TRANSLATE_NOOP("ImportDialog", "Detect this machine"): "检测本机",
    QT_TRANSLATE_NOOP("ImportDialog", "Clear"): "清空",
    QT_TRANSLATE_NOOP("ImportDialog", "Files: %1"): "文件：%1",
    QT_TRANSLATE_NOOP("ImportDialog", "Nothing read yet."): "尚未读取任何内容。",
    QT_TRANSLATE_NOOP("ImportDialog", "Read from"): "来源",
    QT_TRANSLATE_NOOP("ImportDialog", "GPUs"): "显卡数",
    QT_TRANSLATE_NOOP("ImportDialog", "Model"): "型号",
    QT_TRANSLATE_NOOP("ImportDialog", "Memory per GPU"): "单卡显存",
    QT_TRANSLATE_NOOP("ImportDialog", "Link inside the machine"): "机内互联",
    QT_TRANSLATE_NOOP("ImportDialog", "Worst GPU-GPU PCIe path"): "最差 GPU 间 PCIe 路径",
    QT_TRANSLATE_NOOP("ImportDialog", "Worst GPU-to-nearest-NIC path"): "GPU 到最近网卡的最差路径",
    QT_TRANSLATE_NOOP("ImportDialog", "RDMA NICs"): "RDMA 网卡",
    QT_TRANSLATE_NOOP("ImportDialog", "Virtualisation"): "虚拟化",
    QT_TRANSLATE_NOOP("ImportDialog", "Clock limits active"): "生效的降频原因",
    QT_TRANSLATE_NOOP("ImportDialog", "Hottest GPU"): "最高温度",
    QT_TRANSLATE_NOOP("ImportDialog", "Mean GPU utilisation"): "平均利用率",
    QT_TRANSLATE_NOOP("ImportDialog", "unknown"): "未知",
    QT_TRANSLATE_NOOP("ImportDialog", "none"): "无",
    QT_TRANSLATE_NOOP("ImportDialog", "Observations"): "发现",
    QT_TRANSLATE_NOOP("ImportDialog", "Notes"): "说明",
    QT_TRANSLATE_NOOP("ImportDialog", "Use these facts"): "使用这些信息",
}


class ImportDialog(QDialog):
    """Paste / open / detect, preview, accept → ``result_description()``."""

    def __init__(self, parent: QWidget | None = None, lang: str = "en") -> None:
        super().__init__(parent)
        self._lang = "zh" if lang == "zh" else "en"
        self._files: list[tuple[str, str]] = []  # (text, file name)
        self._description: HardwareDescription | None = None
        self.setWindowTitle(self._t("Import nvidia-smi output"))
        self.resize(900, 680)

        hint = QLabel(self._t("Paste what one of these printed on the GPU server: "
                              "nvidia-smi, nvidia-smi -q, nvidia-smi -L, "
                              "nvidia-smi topo -m, nvidia-smi dmon, or "
                              "nvidia-smi --query-gpu=... --format=csv. Several "
                              "outputs of one machine can be combined."))
        hint.setWordWrap(True)
        self.paste_edit = QPlainTextEdit()
        self.paste_edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.paste_edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.open_button = QPushButton(self._t("Open files…"))
        self.detect_button = QPushButton(self._t("Detect this machine"))
        self.clear_button = QPushButton(self._t("Clear"))
        self.files_label = QLabel()
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary_view = QTextBrowser()
        self.button_box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok |
                                           QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = self.button_box.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self._t("Use these facts"))

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
        self._show(None, self._t("Nothing read yet."))

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
        self.files_label.setText(self._t("Files: %1").replace("%1", names) if names else "")
        if not sources:
            self._show(None, self._t("Nothing read yet."))
            return
        try:
            desc = parse_texts(sources)
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
        self.paste_edit.blockSignals(True)
        self.paste_edit.clear()
        self.paste_edit.blockSignals(False)
        self._show(desc, "")

    def clear(self) -> None:
        self._files.clear()
        self.paste_edit.clear()
        self.read_now()

    # --- internals ----------------------------------------------------------------------------
    def _t(self, text: str) -> str:
        translated = tr_lang(self._lang, CONTEXT, text)
        if self._lang == "zh" and translated == text:
            return _ZH.get(text, text)
        return translated

    def _choose_files(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, self._t("Open files…"))
        if paths:
            self.load_files(paths)

    def _show(self, desc: HardwareDescription | None, status: str, error: bool = False) -> None:
        self._description = desc
        self.ok_button.setEnabled(desc is not None)
        self.status_label.setText(status)
        self.status_label.setStyleSheet("color: #b00020;" if error else "")
        self.summary_view.setHtml(self._summary_html(desc) if desc else "")

    def _summary_html(self, d: HardwareDescription) -> str:
        unknown = self._t("unknown")
        rows = [
            ("Read from", ", ".join(d.kinds)),
            ("GPUs", str(d.gpu_count) if d.gpu_count else unknown),
            ("Model", ", ".join(sorted(set(d.gpu_names))) or unknown),
            ("Memory per GPU", ", ".join(f"{m} MiB" for m in sorted(set(d.gpu_memory_mib)))
             or unknown),
            ("NVLink", d.nvlink or unknown),
            ("Link inside the machine", d.intra_link or unknown),
            ("Worst GPU-GPU PCIe path", d.worst_pcie_path or unknown),
            ("Worst GPU-to-nearest-NIC path", d.worst_nic_path or unknown),
            ("RDMA NICs", ", ".join(d.rdma_nics) if d.rdma_nics else
             (unknown if d.rdma_nics is None else self._t("none"))),
            ("Virtualisation", d.virtualization or unknown),
            ("Clock limits active", ", ".join(d.throttle_active) or self._t("none")),
            ("Hottest GPU", f"{d.max_gpu_temp_c:g} °C" if d.max_gpu_temp_c is not None
             else unknown),
            ("Mean GPU utilisation", f"{d.mean_sm_util:.0f} %" if d.mean_sm_util is not None
             else unknown),
        ]
        parts = ["<table>"]
        parts += [f"<tr><td><b>{html.escape(self._t(k) if k != 'NVLink' else k)}</b></td>"
                  f"<td>&nbsp;{html.escape(v)}</td></tr>" for k, v in rows]
        parts.append("</table>")
        if d.observations:
            parts.append(f"<h4>{html.escape(self._t('Observations'))}</h4><ul>")
            for o in d.observations:
                evidence = "<br>".join(html.escape(e) for e in o.evidence)
                parts.append(f"<li><b>[{o.severity}] {o.id}</b>: "
                             f"{html.escape(o.message.get(self._lang))}"
                             f"<br><small>{evidence}</small></li>")
            parts.append("</ul>")
        if d.warnings:
            parts.append(f"<h4>{html.escape(self._t('Notes'))}</h4><ul>")
            parts += [f"<li>{html.escape(w.get(self._lang))}</li>" for w in d.warnings]
            parts.append("</ul>")
        return "".join(parts)
