"""``export_pdf``: the recommendation report as a PDF, in English or Chinese.

Rendered into memory, then written in one atomic step (``advisor.files.atomic``): a failed export
leaves neither a half-written report nor a temporary file behind.
"""

from __future__ import annotations

import logging
import os
from datetime import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QBuffer, QIODevice

from advisor.diagnosis import Diagnosis, diagnose, from_measured_spec, read_gpu_logs
from advisor.files.atomic import atomic_write_bytes
from advisor.files.atomic import check_target as atomic_check_target
from advisor.files.errors import InputError
from advisor.profile import Profile
from advisor.text.i18n import LANGS
from advisor.verdict.result import Recommendation
from ui.plots.compare import compare_plot
from ui.report import labels as L
from ui.report.appendix_section import appendix_html
from ui.report.compare_section import compare_html
from ui.report.cost_section import costs_html
from ui.report.diagnosis_section import diagnosis_html
from ui.report.document import build_document, write_pdf
from ui.report.fonts import report_fonts
from ui.report.guidance_sections import advice_html, pitfalls_html, setups_html
from ui.report.plot_images import PlotImage, plot_images, render
from ui.report.projection_section import projection_html
from ui.report.qt_app import ensure_app
from ui.report.summary_section import breakeven_text, summary_html
from ui.report.workload_section import workload_html

log = logging.getLogger("advisor.report")
# A little flatter than the other plots, and only the front's labels (the table names every
# option): a chart's labels are what make its JPEG large, and the reports stay under 1 MB.
COMPARE_SIZE_PX = (600, 300)


def check_target(path: str | os.PathLike[str], *, replace_read_only: bool = False) -> Path:
    """Fail before rendering when the report cannot be written there: no name, a folder, a
    device, a FIFO or a link to nothing (``advisor.files.atomic.check_target``), a missing
    or unwritable folder, a read-only file (unless ``replace_read_only``). The file to write
    (a link's target)."""
    if str(path).strip() and os.path.isdir(path):  # os.path: False, not an error, on ENAMETOOLONG
        raise InputError.single("this is a folder; give a file name ending in .pdf",
                                "这是一个文件夹；请给出以 .pdf 结尾的文件名", source=str(path))
    target = atomic_check_target(path, replace_read_only=replace_read_only)
    folder = target.parent if str(target.parent) else Path(".")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError.single(f"no permission to write in {folder}",
                                f"没有在 {folder} 中写入的权限", source=str(path))
    return target


def report_html(rec: Recommendation, profile: Profile, lang: str, images: dict,
                generated: datetime, diagnosis: Diagnosis | None = None, *,
                appendix: bool = False, comparison: Any = None) -> str:
    """The whole report body, section by section (the diagnosis only when there is one; the
    setups compared when there is a comparison; the full rule trace only with ``appendix``: a
    reader acts on the summary, the costs and the pitfalls, and the trace is for checking the
    advisor's reasoning)."""
    deadline_given = profile.economics.deadline_days is not None
    return "".join([
        summary_html(rec, profile, lang, generated, diagnosis),
        workload_html(profile, lang, rec.costs.currency),
        projection_html(rec, lang, images),
        diagnosis_html(diagnosis, lang, images),
        costs_html(rec, lang, images, breakeven_text(rec, lang), deadline_given),
        pitfalls_html(rec, lang),  # on the break-even's page: read with the money
        setups_html(rec, lang),
        advice_html(rec, profile, lang),
        compare_html(comparison, lang, images),  # its own pages, after the set-up
        appendix_html(rec, lang) if appendix else "",
    ])


def report_diagnosis(profile: Profile, diagnosis: Diagnosis | None) -> Diagnosis | None:
    """The diagnosis the report shows: the one given, else that of the profile's ``measured``
    section (F30), else none."""
    if diagnosis is not None or profile.measured is None:
        return diagnosis
    telemetry = None
    if profile.measured.logs:  # the run's GPU logs, when they can still be read
        try:
            telemetry = read_gpu_logs(profile.measured.logs)
        except InputError:
            telemetry = None
    return diagnose(from_measured_spec(profile.measured), profile, telemetry)


def report_comparison(rec: Recommendation, profile: Profile, comparison: Any) -> Any:
    """The setups the report compares: the one given (the wizard's compare page), else the
    profile's default comparison in the recommendation's market and currency; None when the
    comparison cannot be made (the rest of the report stands without it)."""
    if comparison is not None:
        return comparison
    from advisor.compare import compare

    try:
        return compare(profile, market=rec.costs.market, currency=rec.costs.currency,
                       answer=rec)
    except InputError as exc:
        log.info("report without the setups compared: %s", exc.render("en"))
        return None


def render_pdf_bytes(recommendation: Recommendation, profile: Profile, lang: str = "en", *,
                     generated: datetime | None = None,
                     diagnosis: Diagnosis | None = None,
                     appendix: bool = False, comparison: Any = None) -> tuple[bytes, int]:
    """The report as PDF bytes and its page count (nothing written to disk). ``diagnosis``
    adds the "Diagnosis of the measured run" section; without it, a profile with a
    ``measured`` section is diagnosed for the report. ``comparison`` (an
    ``advisor.compare.Comparison``; default: the profile's) is the "Setups compared"
    section."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    ensure_app()
    fonts = report_fonts()
    generated = generated or datetime.now().astimezone()
    families = fonts.families(lang)
    diagnosis = report_diagnosis(profile, diagnosis)
    comparison = report_comparison(recommendation, profile, comparison)
    images = plot_images(recommendation, profile, lang, families, diagnosis)
    if comparison is not None:
        images["compare"] = PlotImage("compare", render(
            compare_plot(comparison, lang, quiet=True), families, size_px=COMPARE_SIZE_PX))
    doc = build_document(report_html(recommendation, profile, lang, images, generated,
                                     diagnosis, appendix=appendix, comparison=comparison),
                         images, fonts, lang, own_pages=frozenset({L.H_APPENDIX.get(lang)}))
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    title = f"{L.REPORT_TITLE.get(lang)}: {profile.model.name}"
    pages = write_pdf(doc, buffer, title=title,
                      footer_left=f"{L.APP_NAME.get(lang)} · {profile.model.name}",
                      footer_right=L.PAGE_OF.get(lang), fonts=fonts, lang=lang)
    buffer.close()
    return bytes(buffer.data()), pages


def export_pdf(recommendation: Recommendation, profile: Profile, path: str | os.PathLike[str],
               lang: str = "en", *, generated: datetime | None = None,
               diagnosis: Diagnosis | None = None, replace_read_only: bool = False,
               appendix: bool = False, comparison: Any = None) -> Path:
    """Write the recommendation report for ``profile`` to ``path`` as a PDF in ``lang``
    ("en" or "zh") and return the path. Works headless (it starts an offscreen
    QApplication when none runs and there is no display); in the GUI, call it on the Qt main
    thread, since the plots are pyqtgraph widgets. An unwritable place raises InputError
    (bilingual) and leaves nothing behind; an existing file is replaced only when the new
    report is complete. ``diagnosis`` (or the profile's ``measured`` section) adds the
    diagnosis of the measured run (F30). A device, a FIFO or a read-only file is never
    replaced (``replace_read_only``: the user was asked and agreed). ``appendix`` adds every
    rule that fired with the article facts it rests on (``gpu-advisor recommend --pdf OUT
    --appendix``)."""
    target = check_target(path, replace_read_only=replace_read_only)  # "" is no name, not "."
    data, pages = render_pdf_bytes(recommendation, profile, lang, generated=generated,
                                   diagnosis=diagnosis, appendix=appendix,
                                   comparison=comparison)
    atomic_write_bytes(target, data, replace_read_only=replace_read_only)
    target = Path(path)
    log.info("report written: %s (%s, %d pages, %d bytes)", target, lang, pages, len(data))
    return target
