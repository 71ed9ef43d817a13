"""The wizard's diagnosis page (offscreen): typed points, CSV, GPU logs, plot, language; a
profile's measurements fill it and its plot is drawn at once."""

from __future__ import annotations

import numpy as np

from advisor.profile import MeasuredSpec, Profile
from tests.support.paths import TESTS
from tests.support.ui import EXAMPLES, make_window, wait_results
from ui.diagnosis import DiagnosisPage

FIXTURES = TESTS / "fixtures" / "diagnosis"


def _type(page: DiagnosisPage, rows: list[tuple[str, str]]) -> None:
    page.table.setRowCount(0)
    for gpus, value in rows:
        page._add_row(None, None)
        page.table.item(page.table.rowCount() - 1, 0).setText(gpus)
        page.table.item(page.table.rowCount() - 1, 1).setText(value)


def test_typed_points_give_grade_plot_and_suspects(qtbot):
    page = DiagnosisPage(lambda: None, "en")
    qtbot.addWidget(page)
    _type(page, [("1", "100"), ("2", "170"), ("4", "180"), ("8", "")])  # 8: not measured
    with qtbot.waitSignal(page.diagnosed, timeout=5000) as blocker:
        page.run_button.click()
    d = blocker.args[0]
    assert d.measured.gpus == [1, 2, 4] and d.grade.level == "poor"
    items = page.plot.advisor_items
    np.testing.assert_allclose(items["measured"].getData()[1], [1.0, 1.7, 1.8])
    np.testing.assert_allclose(items["fitted"].getData()[0], d.fit.gpus)
    ideal_x, ideal_y = items["ideal"].getData()
    np.testing.assert_allclose(ideal_x, ideal_y)
    legend = [label.text for _, label in page.plot.advisor_legend.items]
    assert "Measured" in legend and "Projection refitted" in legend and "Ideal (linear)" in legend
    assert "poor" in page.grade_label.text()
    assert d.suspects[0].title.en in page.suspects_view.toPlainText()
    assert page.banner.isHidden()


def test_bad_rows_show_an_error_instead_of_a_result(qtbot):
    page = DiagnosisPage(lambda: None, "en")
    qtbot.addWidget(page)
    _type(page, [("1", "100"), ("two", "170")])
    assert page.run_diagnosis() is None
    assert not page.banner.isHidden() and "row 2" in page.banner.text()
    _type(page, [("1", "100")])
    assert page.run_diagnosis() is None
    assert "two or more" in page.banner.text()


def test_csv_and_gpu_logs(qtbot, tmp_path):
    csv = tmp_path / "run.csv"
    csv.write_text("gpus,throughput,unit\n1,100,images/s\n2,170,images/s\n4,180,images/s\n",
                   encoding="utf-8")
    page = DiagnosisPage(lambda: None, "en")
    qtbot.addWidget(page)
    assert page.load_gpu_logs([FIXTURES / "dmon-4gpu-hot-gpu2.txt"])
    assert "4 GPUs" in page.logs_label.text()
    d = page.load_csv(csv)
    assert d is not None and d.suspects[0].id == "thermal_throttling"
    assert page.unit_edit.text() == "images/s" and page.table.rowCount() == 3
    bad = tmp_path / "bad.csv"
    bad.write_text("gpus,throughput\n1,100\n2,x\n", encoding="utf-8")
    assert page.load_csv(bad) is None
    assert f"{bad}:3" in page.banner.text()


def test_profile_prefills_the_table_and_feeds_the_refit(qtbot):
    profile = Profile.model_validate({"hardware": {"gpus_per_node": 8, "intra_link": "nvlink",
                                                   "gpu": "a100_sxm4_80gb"}})
    profile.measured = MeasuredSpec(unit="images/s", points=[
        {"gpus": 1, "throughput": 900}, {"gpus": 4, "throughput": 3400},
        {"gpus": 8, "throughput": 6500}])
    page = DiagnosisPage(lambda: profile, "en")
    qtbot.addWidget(page)
    page.show()
    qtbot.waitUntil(lambda: page.table.rowCount() == 3)
    d = page.run_diagnosis()
    assert d is not None and d.measured.gpus == [1, 4, 8]
    assert not d.notes or "No profile" not in d.notes[0].en  # the profile was used


def test_language_switch_relabels_everything(qtbot):
    page = DiagnosisPage(lambda: None, "zh")
    qtbot.addWidget(page)
    assert page.run_button.text() == "诊断"
    _type(page, [("1", "100"), ("4", "270")])  # 2.7x: normal (F30)
    page.run_diagnosis()
    assert "正常" in page.grade_label.text()
    page.retranslate("en", "CNY")
    assert page.run_button.text() == "Diagnose" and "normal" in page.grade_label.text()
    legend = [label.text for _, label in page.plot.advisor_legend.items]
    assert "Measured" in legend


def test_diagnosis_page_prefilled_from_the_profile_draws_its_plot_at_once(qtbot):
    window = make_window(qtbot)
    window.document.open_path(next(p for p in EXAMPLES if "measured-4gpu" in p.stem))
    wait_results(qtbot, window)
    window.show()
    window.go_to(len(window.pages) + 1)
    page = window.diagnosis_page
    qtbot.waitUntil(lambda: page.result is not None, timeout=3000)
    xs, ys = page.plot.advisor_items["measured"].getData()
    assert len(xs) >= 2 and page.plot.advisor_items["measured"].isVisible()


def test_the_table_starts_with_the_counts_the_machine_has(qtbot):
    """Issue 19: a 4-GPU machine is not asked for an 8-GPU measurement."""
    def counts(profile):
        page = DiagnosisPage(lambda: profile, "en")
        qtbot.addWidget(page)
        return [page.table.item(r, 0).text() for r in range(page.table.rowCount())]

    assert counts(Profile()) == ["1", "2", "4"]  # the default machine: 4 GPUs
    assert counts(Profile.model_validate({"hardware": {"gpus_per_node": 8, "nodes": 2,
                                                       "inter_link": "infiniband_hdr"}})) == \
        ["1", "2", "4", "8", "16"]
    assert counts(None) == ["1", "2", "4", "8"]  # no valid answers yet
