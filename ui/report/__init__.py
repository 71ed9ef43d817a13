"""The recommendation report as a PDF (English or Chinese), rendered with Qt."""

from ui.report.export import export_pdf, render_pdf_bytes

__all__ = ["export_pdf", "render_pdf_bytes"]
