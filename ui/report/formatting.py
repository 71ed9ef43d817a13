"""Numbers and HTML pieces as the report prints them: money with its symbol, readable durations."""

from __future__ import annotations

import html
import math

from advisor.text.i18n import pick
from advisor.text.safe import strip
from ui.report.plot_images import DOC_WIDTH_PX, PlotImage

_SYMBOL = {"CNY": "¥", "USD": "$", "EUR": "€"}


def esc(text: object) -> str:
    """Text for HTML, nothing interpreted."""
    return html.escape(strip(str(text)), quote=True)


def colon(lang: str) -> str:
    """A label's colon: full-width in Chinese."""
    return "：" if lang == "zh" else ": "


def money(value: float | None, currency: str) -> str:
    """¥12,345 or $1,234.50: cents only below 100."""
    if value is None or not math.isfinite(value):
        return "—"
    symbol = _SYMBOL.get(currency, currency + " ")
    sign = "−" if value < 0 else ""
    amount = abs(value)
    digits = 2 if amount < 100 else 0
    return f"{sign}{symbol}{amount:,.{digits}f}"


def hours(value: float | None, lang: str) -> str:
    """Minutes under an hour, hours under two days, then days (with the hours)."""
    if value is None or not math.isfinite(value):
        return "—"
    if value < 1:
        return pick(lang, f"{value * 60:.0f} min", f"{value * 60:.0f} 分钟")
    if value < 48:
        return pick(lang, f"{value:.1f} h", f"{value:.1f} 小时")
    days = value / 24
    return pick(lang, f"{days:.1f} days ({value:,.0f} h)", f"{days:.1f} 天（{value:,.0f} 小时）")


def times(value: float | None) -> str:
    """A speed-up: 3.12×."""
    if value is None or not math.isfinite(value):
        return "—"
    return f"{value:.2f}×"


def percent(value: float | None) -> str:
    if value is None or not math.isfinite(value):
        return "—"
    return f"{value * 100:.0f} %"


def number(value: float | int | None, digits: int = 2) -> str:
    """A plain number: integers as they are, others to ``digits`` significant places past the
    point, thousands separated."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value):,}"
    if not math.isfinite(value):
        return "—"
    text = f"{value:,.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def table(header: list[str], rows: list[list[str]], *, numeric_from: int = 1,
          css_class: str = "grid", shade: bool = True, padding_px: int = 3) -> str:
    """An HTML table; cells are already escaped HTML. Columns from ``numeric_from`` on are
    right-aligned (numbers line up); a one-cell row is a group heading spanning the table."""
    head = "".join(f"<th>{cell}</th>" for cell in header)
    body = []
    for index, row in enumerate(rows):
        if len(row) == 1:  # a group heading across the table
            body.append(f'<tr bgcolor="#e9edf4"><td colspan="{len(header)}">{row[0]}</td></tr>')
            continue
        background = ' bgcolor="#f3f5f8"' if shade and index % 2 else ""
        cells = "".join(
            f'<td align="{"right" if col >= numeric_from else "left"}">{cell}</td>'
            for col, cell in enumerate(row))
        body.append(f"<tr{background}>{cells}</tr>")
    return (f'<table class="{css_class}" width="100%" cellspacing="0" cellpadding="{padding_px}">'
            f'<thead><tr bgcolor="#dfe5ee">{head}</tr></thead>{"".join(body)}</table>')


def figure(plot: PlotImage | None, caption: str) -> str:
    """A plot, full text width, with its caption below."""
    if plot is None:
        return ""
    return (f'<p align="center"><img src="{plot.url}" width="{DOC_WIDTH_PX}" '
            f'height="{plot.doc_height_px}"></p>'
            f'<p class="caption" align="center">{esc(caption)}</p>')


def mark_row(row: list[str], recommended: bool) -> list[str]:
    """Bold the recommended GPU count's row."""
    return [f"<b>{cell}</b>" for cell in row] if recommended else row
