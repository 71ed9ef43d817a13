"""The import dialog: paste, open files, detect (fake NVML), preview, accept."""

from __future__ import annotations

import sys

import pytest

from tests.support.fake_nvml import RTX, fake_pynvml
from tests.support.paths import TESTS
from ui.dialogs.import_dialog import ImportDialog

FIXTURES = TESTS / "fixtures" / "nvidia-smi"
TOPO = FIXTURES / "topo/h100-della-8gpu-nv18-6nic-empty-cpu-affinity.txt"


@pytest.fixture
def dialog(qtbot):
    d = ImportDialog(None, "en")
    qtbot.addWidget(d)
    return d


def test_paste_shows_what_was_found_and_accept_returns_it(dialog, qtbot):
    assert not dialog.ok_button.isEnabled()
    dialog.paste_edit.setPlainText(TOPO.read_text())
    qtbot.waitUntil(lambda: dialog.description() is not None, timeout=3000)
    shown = dialog.summary_view.toPlainText()
    assert "NVSwitch" in shown and "mlx5_5" in shown and "every GPU pair linked" in shown
    assert "nvswitch" not in shown  # labels, not raw enum values
    assert dialog.ok_button.isEnabled()
    dialog.ok_button.click()
    desc = dialog.result_description()
    assert desc is not None and desc.gpu_count == 8 and desc.intra_link == "nvswitch"


def test_text_that_is_not_smi_output_is_refused(dialog):
    dialog.paste_edit.setPlainText("some notes about the cluster\n")
    dialog.read_now()
    assert "not nvidia-smi output" in dialog.status_label.text()
    assert not dialog.ok_button.isEnabled()
    dialog.button_box.rejected.emit()
    assert dialog.result_description() is None


def test_opened_files_merge_with_the_paste(dialog):
    dialog.load_files([FIXTURES / "smi/rtx5090-570-single-gpu.txt"])
    dialog.paste_edit.setPlainText((FIXTURES / "topo/rtx5090-x2-pcie-phb-gpu-numa-id.txt")
                                   .read_text())
    dialog.read_now()
    desc = dialog.description()
    assert desc is not None and desc.kinds == ["table", "topo"] and desc.gpu_count == 2
    assert "rtx5090-570-single-gpu.txt" in dialog.files_label.text()
    assert "No NVLink" in dialog.summary_view.toPlainText()
    assert "no_nvlink" not in dialog.summary_view.toPlainText()


def test_detect_this_machine(dialog, monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", fake_pynvml([dict(RTX), dict(RTX)]))
    dialog.detect_button.click()
    desc = dialog.description()
    assert desc is not None and desc.kind == "nvml" and desc.gpu_count == 2
    assert dialog.ok_button.isEnabled()


def test_detect_without_driver_says_so(dialog, monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", fake_pynvml([], init_error=True))
    dialog.detect_button.click()
    assert "no NVIDIA driver" in dialog.status_label.text()
    assert dialog.description() is None and not dialog.ok_button.isEnabled()


def test_chinese(qtbot, monkeypatch):
    d = ImportDialog(None, "zh")
    qtbot.addWidget(d)
    assert d.windowTitle() == "导入 nvidia-smi 输出"
    assert d.detect_button.text() == "检测本机"
    monkeypatch.setitem(sys.modules, "pynvml", fake_pynvml([], init_error=True))
    d.detect()
    assert "NVIDIA 驱动" in d.status_label.text()
    d.paste_edit.setPlainText(TOPO.read_text())
    d.read_now()
    assert "机内互联" in d.summary_view.toPlainText()


def test_every_label_is_translated_from_the_catalog(qtbot):
    """Chinese summary: every row label is Chinese (the rows `import-smi` prints, no English left), facts an
    output cannot show read "not shown", and GPUs counted but not shown are said."""
    d = ImportDialog(None, "zh")
    qtbot.addWidget(d)
    assert (d.open_button.text(), d.clear_button.text(), d.ok_button.text()) == \
        ("打开文件…", "清空", "使用这些信息")
    d.paste_edit.setPlainText(TOPO.read_text())
    d.read_now()
    shown = d.summary_view.toPlainText()
    for label in ("来源", "显卡数", "型号", "单卡显存", "机内互联", "最差 GPU 间 PCIe 路径",
                  "GPU 到最近网卡的最差路径", "RDMA 网卡", "虚拟化", "生效的降频原因", "最高温度",
                  "平均利用率"):
        assert label in shown
    assert "Clock limits" not in shown and "此输出未显示" in shown
    d.load_files([FIXTURES / "query/a16-nutanix-host-vgpu-sriov-470-i0-attached4-x4-link.txt"])
    d.paste_edit.clear()
    d.read_now()
    assert "NVIDIA A16（显示了 4 张中的 1 张）" in d.summary_view.toPlainText()


def test_unknown_facts_in_english(dialog):
    dialog.paste_edit.setPlainText(TOPO.read_text())
    dialog.read_now()
    shown = dialog.summary_view.toPlainText()
    assert "not shown by this output" in shown and "Clock limits active" in shown


def test_chinese_summary_shows_labels_not_raw_values(qtbot):
    d = ImportDialog(None, "zh")
    qtbot.addWidget(d)
    d.paste_edit.setPlainText(TOPO.read_text())
    d.read_now()
    shown = d.summary_view.toPlainText()
    assert "全互联" in shown or "NVSwitch" in shown
    for raw in ("nvswitch", "pcie4", "no_nvlink", "[info]", "full", "bare_metal"):
        assert raw not in shown, raw


def test_files_past_what_one_import_reads_are_named_not_held(dialog, tmp_path, monkeypatch):
    """Issue 35: each opened file was held in full, however many (40 logs of 32 MiB: 1.3 GB
    before any parsing); past ``MAX_FILES`` a file is named in the notes, never read."""
    from ui.dialogs import import_dialog

    paths = []
    for i in range(import_dialog.MAX_FILES + 2):
        path = tmp_path / f"topo{i:03d}.txt"
        path.write_text(TOPO.read_text(), encoding="utf-8")
        paths.append(path)
    read: list[str] = []
    real = import_dialog.read_file_text
    monkeypatch.setattr(import_dialog, "read_file_text",
                        lambda p: read.append(str(p)) or real(p))
    dialog.load_files(paths)
    assert len(read) == import_dialog.MAX_FILES
    notes = " ".join(w.en for w in dialog.description().warnings)
    assert "2 left out" in notes and paths[-1].name in notes
    dialog.clear()
    dialog.load_files(paths[:1])
    assert "left out" not in " ".join(w.en for w in dialog.description().warnings)
