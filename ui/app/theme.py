"""Colours from the palette, so the window reads in a light and in a dark theme (issue 34).

Nothing on screen names a fixed grey: secondary text is the palette's window text blended a
little towards the window (``muted``), coloured text is moved towards the text colour until it
reads on the background (``readable``: WCAG contrast 4.5 : 1), and the banners have a light
and a dark variant. A widget styled here follows a palette change while the app runs
(``follow_palette``: a system switching to dark mode). The PDF report is print and keeps its
own light colours (``ui/report``).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QWidget

AA_CONTRAST = 4.5  # WCAG 2 level AA for body text
MUTED_SHARE = 0.3  # how far secondary text moves from the text colour towards the window

Role = QPalette.ColorRole


def app_palette() -> QPalette:
    app = QApplication.instance()
    return app.palette() if isinstance(app, QApplication) else QPalette()


def _channel(value: float) -> float:
    value /= 255.0
    return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4


def luminance(color: QColor) -> float:
    """Relative luminance (WCAG 2)."""
    return (0.2126 * _channel(color.red()) + 0.7152 * _channel(color.green())
            + 0.0722 * _channel(color.blue()))


def contrast(first: QColor, second: QColor) -> float:
    """WCAG contrast ratio, 1 (none) to 21 (black on white)."""
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def blend(first: QColor, second: QColor, share: float) -> QColor:
    """``first`` moved ``share`` (0…1) of the way towards ``second``."""
    return QColor(*(round(a + (b - a) * share) for a, b in (
        (first.red(), second.red()), (first.green(), second.green()),
        (first.blue(), second.blue()))))


def is_dark(palette: QPalette | None = None) -> bool:
    palette = palette or app_palette()
    return palette.color(Role.Window).lightness() < 128


def readable(color: QColor | str, background: QColor | None = None,
             palette: QPalette | None = None) -> QColor:
    """``color`` as it is where it reads on ``background`` (the palette's window), else moved
    towards the text colour (lighter on a dark window) until it does."""
    palette = palette or app_palette()
    background = background or palette.color(Role.Window)
    target = palette.color(Role.WindowText)
    if contrast(target, background) < AA_CONTRAST:  # a palette whose own text is faint
        target = max((QColor("white"), QColor("black")),
                     key=lambda c: contrast(c, background))  # at least 4.58 : 1
    start = QColor(color)
    for step in range(11):
        shown = blend(start, target, step / 10)
        if contrast(shown, background) >= AA_CONTRAST:
            return shown
    return target


def muted(palette: QPalette | None = None) -> QColor:
    """Secondary text (an introduction, a caption, a field's unit): quieter than the text but
    still at 4.5 : 1 on the window."""
    palette = palette or app_palette()
    text, window = palette.color(Role.WindowText), palette.color(Role.Window)
    return readable(blend(text, window, MUTED_SHARE), window, palette)


def hex_of(color: QColor) -> str:
    return color.name(QColor.NameFormat.HexRgb)


def muted_hex() -> str:
    """``muted`` for inline HTML (``<span style='color:…'>``)."""
    return hex_of(muted())


def readable_hex(color: str, background: QColor | None = None) -> str:
    return hex_of(readable(color, background))


# (light background, light text) for a light window; (dark background, light text) for a dark
BANNERS = {"warning": (("#fff4d6", "#5c4400"), ("#4a3a10", "#ffe8a8")),
           "error": (("#fde7e5", "#7a1c15"), ("#5a1d19", "#ffd6d1"))}


def banner_style(kind: str, palette: QPalette | None = None) -> str:
    """A banner's style sheet for the palette's lightness (its own colours contrast)."""
    background, text = BANNERS[kind][1 if is_dark(palette) else 0]
    return f"background: {background}; color: {text}; padding: 6px; border-radius: 4px;"


class _Follower(QObject):
    """Re-applies a widget's colours when its palette or the application's changes."""

    EVENTS = (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange,
              QEvent.Type.StyleChange, QEvent.Type.ThemeChange)

    def __init__(self, widget: QWidget, apply: Callable[[QWidget], None]) -> None:
        super().__init__(widget)
        self._apply = apply
        self._busy = False
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt name)
        if event.type() in self.EVENTS and not self._busy and isinstance(watched, QWidget):
            self._busy = True  # applying colours sends another PaletteChange
            try:
                self._apply(watched)
            finally:
                self._busy = False
        return False


def follow_palette(widget: QWidget, apply: Callable[[QWidget], None]) -> QWidget:
    """``apply(widget)`` now and again whenever the palette changes; returns ``widget``."""
    apply(widget)
    _Follower(widget, apply)
    return widget


def _set_text_color(widget: QWidget, color: QColor) -> None:
    palette = widget.palette()
    if palette.color(Role.WindowText) != color or palette.color(Role.Text) != color:
        palette.setColor(Role.WindowText, color)
        palette.setColor(Role.Text, color)
        widget.setPalette(palette)


def mute(widget: QWidget) -> QWidget:
    """Secondary text in the palette's muted colour (never a fixed grey)."""
    return follow_palette(widget, lambda w: _set_text_color(w, muted()))


def tint(widget: QWidget, color: str) -> QWidget:
    """Coloured text (a warning's amber, an error's red) made readable on the palette."""
    return follow_palette(widget, lambda w: _set_text_color(w, readable(color)))


def styled(widget: QWidget, style: Callable[[], str]) -> QWidget:
    """A style sheet made from the palette (``banner_style``) and made again when it
    changes."""
    def apply(w: QWidget) -> None:
        sheet = style()
        if w.styleSheet() != sheet:
            w.setStyleSheet(sheet)

    return follow_palette(widget, apply)


def dark_palette() -> QPalette:
    """The dark palette Qt's Fusion style gives a system in dark mode (``qt_fusionPalette``
    with a dark appearance, Qt 6): the tests' and the screenshots' dark theme, where the
    platform offers none."""
    window, text = QColor(50, 50, 50), QColor(240, 240, 240)
    dark = window.darker(150)
    mid = window.darker(130)
    palette = QPalette()
    colors = {Role.Window: window, Role.WindowText: text, Role.Base: window.darker(140),
              Role.AlternateBase: window.darker(110), Role.ToolTipBase: QColor(255, 255, 220),
              Role.ToolTipText: QColor("black"), Role.Text: text, Role.Button: window,
              Role.ButtonText: text, Role.BrightText: QColor("white"),
              Role.Link: QColor(48, 140, 198).lighter(130), Role.Highlight: QColor(48, 140, 198),
              Role.HighlightedText: text, Role.Light: window.lighter(150),
              Role.Midlight: mid.lighter(110), Role.Mid: mid, Role.Dark: dark,
              Role.Shadow: dark.darker(135)}
    for role, color in colors.items():
        palette.setColor(role, color)
    placeholder = QColor(text)
    placeholder.setAlpha(128)
    palette.setColor(Role.PlaceholderText, placeholder)
    disabled = QPalette.ColorGroup.Disabled
    for role in (Role.WindowText, Role.Text, Role.ButtonText):
        palette.setColor(disabled, role, QColor(130, 130, 130))
    palette.setColor(disabled, Role.Base, window)
    palette.setColor(disabled, Role.Shadow, dark.darker(135).lighter(150))
    return palette


__all__ = ["banner_style", "blend", "contrast", "dark_palette", "follow_palette", "hex_of",
           "is_dark", "luminance", "mute", "muted", "muted_hex", "readable", "readable_hex",
           "styled", "tint"]
