"""The report as one QTextDocument (HTML), paginated onto A4 and painted into a PDF.

The document is laid out in 96-dpi pixels, the unit Qt's rich text uses, and the painter is
scaled to the writer's resolution, as ``QTextDocument.print`` does; the report paints its own
pages so that every page gets a footer in the report's language.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QIODevice, QMarginsF, QRectF, QSizeF, Qt, QUrl
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFont,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QTextBlock,
    QTextBlockFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextTable,
)

from advisor.text.safe import strip
from ui.report.fonts import ReportFonts
from ui.report.plot_images import PlotImage

DOC_DPI = 96  # Qt rich text units
PDF_DPI = 1200
MARGINS_MM = QMarginsF(16, 14, 16, 12)
FOOTER_PX = 28  # reserved at the bottom of every page, in document pixels

CSS = """
body { font-size: 9.5pt; color: #1a1a1a; }
h1 { font-size: 20pt; margin-top: 0; margin-bottom: 6px; color: #14315f; }
h2 { font-size: 14pt; margin-top: 14px; margin-bottom: 6px; color: #14315f; }
h3 { font-size: 11pt; margin-top: 10px; margin-bottom: 4px; color: #14315f; }
p { margin-top: 3px; margin-bottom: 3px; }
table.grid { border-collapse: collapse; border-color: #c5ccd8; border-style: solid; }
table.grid th { font-size: 8.5pt; color: #14315f; }
table.grid td { font-size: 8.5pt; }
table.keys td { font-size: 10pt; padding: 4px; }
.muted { color: #5c6470; font-size: 8pt; }
.code { font-family: 'DejaVu Sans Mono', monospace; font-size: 8pt; color: #444444; }
.caption { color: #5c6470; font-size: 8pt; }
.pagebreak { page-break-before: always; }
"""


@dataclass(frozen=True)
class PageSetup:
    """A4 portrait with the report's margins, in document pixels."""

    content_w_px: float
    content_h_px: float  # without the footer band


def page_layout() -> QPageLayout:
    return QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                       MARGINS_MM, QPageLayout.Unit.Millimeter)


def page_setup() -> PageSetup:
    paint = page_layout().paintRect(QPageLayout.Unit.Point)  # 72 per inch
    to_px = DOC_DPI / 72.0
    return PageSetup(paint.width() * to_px, paint.height() * to_px - FOOTER_PX)


def report_font(fonts: ReportFonts, lang: str, point_size: float | None = None) -> QFont:
    """The report's base font: the language's face first, the other as fallback, no ligatures
    (text copied or extracted from the PDF must read "fi", not the "ﬁ" ligature)."""
    font = QFont()
    font.setFamilies(fonts.families(lang))
    if point_size is not None:
        font.setPointSizeF(point_size)
    font.setFeature(QFont.Tag("liga"), 0)
    return font


def build_document(body_html: str, images: dict[str, PlotImage], fonts: ReportFonts,
                   lang: str, own_pages: frozenset[str] = frozenset()) -> QTextDocument:
    """The laid-out, paginated document: HTML body, plot images as resources, report fonts.
    ``own_pages``: the headings of sections that always open a page of their own (the
    appendix: a part a reader may leave unprinted), even after a nearly empty one."""
    doc = QTextDocument()
    doc.setUndoRedoEnabled(False)
    doc.setDefaultFont(report_font(fonts, lang, 9.5))
    doc.setDefaultStyleSheet(CSS)
    for plot in images.values():
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(plot.url), plot.image)
    doc.setHtml(f"<html><body>{body_html}</body></html>")
    setup = page_setup()
    doc.setPageSize(QSizeF(setup.content_w_px, setup.content_h_px))
    keep_headings_with_next(doc)
    keep_short_tables_whole(doc)
    fill_sparse_pages(doc, own_pages)
    return doc


def _first_line_top(layout: QAbstractTextDocumentLayout, block: QTextBlock) -> float:
    """Where the block's first line sits once paginated (a line that does not fit is moved
    down to the next page, the block's own rectangle is not)."""
    top = layout.blockBoundingRect(block).top()
    lines = block.layout()
    return top + lines.lineAt(0).y() if lines is not None and lines.lineCount() else top


def keep_headings_with_next(doc: QTextDocument) -> int:
    """Move a heading to the next page when what follows it starts there (rich text has no
    "keep with next"); returns how many moved."""
    page_h = doc.pageSize().height()
    layout = doc.documentLayout()
    doc.pageCount()  # Qt lays out lazily: finish it before reading positions
    moved = 0
    block = doc.begin()
    while block.isValid():
        following = block.next()
        always = QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore
        if block.blockFormat().headingLevel() and following.isValid() and \
                not block.blockFormat().pageBreakPolicy() & always:
            heading_page = layout.blockBoundingRect(block).top() // page_h
            if _first_line_top(layout, following) // page_h != heading_page:
                fmt = QTextBlockFormat()
                fmt.setPageBreakPolicy(always)
                QTextCursor(block).mergeBlockFormat(fmt)
                doc.pageCount()
                moved += 1
        block = following
    return moved


SHORT_TABLE = 0.45  # of a page: a table this short is never split across two pages


def keep_short_tables_whole(doc: QTextDocument) -> int:
    """Move a short table that a page break would split, or whose heading was left at the foot
    of the page before, to the next page together with that heading: a page holding three
    rows of a table cut off from its section reads as a stray. Returns how many moved."""
    page_h = doc.pageSize().height()
    layout = doc.documentLayout()
    moved = 0
    for frame in doc.rootFrame().childFrames():
        if not isinstance(frame, QTextTable):
            continue
        doc.pageCount()
        rect = layout.frameBoundingRect(frame)
        target = _heading_above(doc, frame.firstPosition())
        heading_page = layout.blockBoundingRect(target).top() // page_h
        split = rect.top() // page_h != (rect.bottom() - 1) // page_h
        cut_off = heading_page != rect.top() // page_h  # title at the foot of the page before
        if rect.height() > SHORT_TABLE * page_h or not (split or cut_off) or \
                target.blockFormat().pageBreakPolicy() & \
                QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore:
            continue
        fmt = QTextBlockFormat()
        fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
        QTextCursor(target).mergeBlockFormat(fmt)
        moved += 1
    doc.pageCount()
    return moved


SPARSE_PAGE = 0.3  # a page filled less than this lets the next section start on it


def _content_bottom(doc: QTextDocument, block: QTextBlock) -> float:
    """Where ``block`` ends on the page, or the table it sits in."""
    layout = doc.documentLayout()
    table = QTextCursor(block).currentTable()
    return layout.frameBoundingRect(table).bottom() if table is not None else \
        layout.blockBoundingRect(block).bottom()


def fill_sparse_pages(doc: QTextDocument, own_pages: frozenset[str] = frozenset()) -> int:
    """A section that starts a new page (``pagebreak``) starts on the page before instead when
    that page holds only a short tail (a measured table with its heading), so no page is
    left nearly empty; its heading still goes with what follows. A section whose heading is
    in ``own_pages`` stays on its own page. Returns how many moved up."""
    page_h = doc.pageSize().height()
    moved = 0
    always = QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore
    block = doc.begin()
    while block.isValid():
        previous = block.previous()
        if block.blockFormat().headingLevel() == 2 and \
                block.blockFormat().pageBreakPolicy() & always and previous.isValid() and \
                block.text() not in own_pages:
            doc.pageCount()
            bottom = _content_bottom(doc, previous)
            top_of_page = (bottom // page_h) * page_h
            if bottom - top_of_page < SPARSE_PAGE * page_h and bottom > top_of_page:
                fmt = block.blockFormat()
                fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_Auto)
                QTextCursor(block).setBlockFormat(fmt)
                moved += 1
        block = block.next()
    if moved:
        keep_headings_with_next(doc)
    return moved


def _heading_above(doc: QTextDocument, table_start: int) -> QTextBlock:
    """The heading a few blocks above a table (its section's title and intro go with it), or
    the block just above the table when there is none near."""
    block = doc.findBlock(max(0, table_start - 1))
    candidate = block
    for _ in range(3):
        if not candidate.isValid():
            break
        if candidate.blockFormat().headingLevel():
            return candidate
        candidate = candidate.previous()
    return block


def write_pdf(doc: QTextDocument, target: str | QIODevice, *, title: str, footer_left: str,
              footer_right: str, fonts: ReportFonts, lang: str) -> int:
    """Paint every page of ``doc`` as a PDF into ``target`` (a file name or an open device);
    returns the page count.
    ``footer_right`` is formatted with ``page`` and ``pages``."""
    writer = QPdfWriter(target)
    writer.setResolution(PDF_DPI)
    writer.setPageLayout(page_layout())
    # a model name is the user's text: no ESC, NUL or direction override in the metadata
    writer.setTitle(strip(title))
    footer_left = strip(footer_left)
    writer.setCreator("GPU Scaling Advisor (多卡训练顾问)")
    setup = page_setup()
    pages = doc.pageCount()
    footer_font = report_font(fonts, lang)
    footer_font.setPixelSize(10)  # document pixels: the painter is already scaled
    painter = QPainter()
    if not painter.begin(writer):
        raise OSError("Qt cannot start painting the PDF")
    try:
        scale = PDF_DPI / DOC_DPI
        painter.scale(scale, scale)
        for page in range(pages):
            if page:
                writer.newPage()
            painter.save()
            top = page * setup.content_h_px
            painter.translate(0, -top)
            doc.drawContents(painter, QRectF(0, top, setup.content_w_px, setup.content_h_px))
            painter.restore()
            _footer(painter, setup, footer_font, footer_left,
                    footer_right.format(page=page + 1, pages=pages))
    finally:
        painter.end()
    return pages


def _footer(painter: QPainter, setup: PageSetup, font: QFont, left: str, right: str) -> None:
    band = QRectF(0, setup.content_h_px + 8, setup.content_w_px, FOOTER_PX - 8)
    painter.save()
    painter.setPen(QColor("#c5ccd8"))
    painter.drawLine(band.topLeft(), band.topRight())
    painter.setPen(QColor("#5c6470"))
    painter.setFont(font)
    flags = Qt.AlignmentFlag.AlignVCenter
    painter.drawText(band, int(flags | Qt.AlignmentFlag.AlignLeft), left)
    painter.drawText(band, int(flags | Qt.AlignmentFlag.AlignRight), right)
    painter.restore()
