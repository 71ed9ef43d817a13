"""Page layout of the report: a short table is never cut off from its section at the top of a
page, and no page is left holding only a short tail before a new section."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor

from ui.report.document import build_document
from ui.report.fonts import report_fonts
from ui.report.qt_app import ensure_app


def _page_of(doc, text: str) -> int:
    cursor = doc.find(text)
    assert not cursor.isNull(), text
    rect = doc.documentLayout().blockBoundingRect(cursor.block())
    table = QTextCursor(cursor).currentTable()
    if table is not None:
        rect = doc.documentLayout().frameBoundingRect(table)
    return int(rect.top() // doc.pageSize().height())


def _document(filler_lines: int):
    ensure_app()
    filler = "".join(f"<p>filler line {i}</p>" for i in range(filler_lines))
    rows = "".join(f"<tr><td>{n}</td><td>{n * 1000}</td></tr>" for n in (1, 2, 4))
    body = (f"<h2>Workload</h2>{filler}<h3>Measured scaling</h3><p>Scaling: weak</p>"
            f'<table class="grid"><tr><th>GPUs</th><th>Throughput</th></tr>{rows}</table>'
            '<h2 class="pagebreak">Projected speed-up</h2><p>after the break</p>')
    return build_document(body, {}, report_fonts(), "en")


def test_a_short_table_stays_with_its_heading_and_the_next_section_fills_the_page():
    # Push the measured heading to the foot of page 1 for some filler length, whatever the
    # font metrics of this machine: the invariant holds for every one.
    seen_move = False
    for lines in range(40, 80, 3):
        doc = _document(lines)
        heading, table = _page_of(doc, "Measured scaling"), _page_of(doc, "4000")
        assert heading == table, lines
        moved = heading == 1 and _page_of(doc, f"filler line {lines - 1}") == 0
        if moved:  # the section moved: the next one follows it on the same page
            seen_move = True
            assert _page_of(doc, "Projected speed-up") == heading, lines
    assert seen_move  # some filler length put the heading at the foot of the first page
