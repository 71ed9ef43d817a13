"""The two faces the report is set in: one for Latin text, one for Chinese, both embeddable.

Chinese must render on a machine with no CJK font installed, so a system face is used when
there is a good one and the Apache-2.0 Droid Sans Fallback shipped in ``resources/fonts`` is
registered otherwise. A face is "good" only if Qt's PDF writer can embed it: Qt subsets
TrueType (``glyf``) outlines; a CFF-outline OpenType face comes out as a font entry with no
outlines at all (seen with Qt 6.12 and Nimbus Sans: no /FontFile2, viewers substitute), so such
faces are skipped, as are faces whose licence bits forbid embedding.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from PySide6.QtGui import QFont, QFontDatabase, QRawFont

from advisor.files.paths import resources_dir

BUNDLED_CJK_FILE = "DroidSansFallbackFull.ttf"

# Widely installed faces first, so reports look the same on most machines: Linux, Windows, macOS.
PREFERRED_CJK = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "Microsoft YaHei",
                 "PingFang SC", "Hiragino Sans GB", "WenQuanYi Micro Hei", "WenQuanYi Zen Hei",
                 "Droid Sans Fallback", "SimHei", "DengXian", "SimSun")
PREFERRED_LATIN = ("DejaVu Sans", "Segoe UI", "Arial", "Helvetica Neue", "Helvetica",
                   "Liberation Sans", "Noto Sans", "Open Sans")

_FSTYPE_RESTRICTED = 0x0002  # OS/2 fsType: no embedding at all
_FSTYPE_BITMAP_ONLY = 0x0200  # OS/2 fsType: only bitmaps may be embedded


@dataclass(frozen=True)
class ReportFonts:
    latin: str
    cjk: str
    cjk_source: str  # "system" or "bundled"

    def families(self, lang: str) -> list[str]:
        """Font families in CSS order: the language's own face first, the other as fallback."""
        return [self.cjk, self.latin] if lang == "zh" else [self.latin, self.cjk]


def embeddable(family: str, sample: str) -> bool:
    """Whether ``family`` is installed (not a substitute), draws ``sample`` and can be embedded
    with its outlines by Qt's PDF writer."""
    raw = QRawFont.fromFont(QFont(family))
    if not raw.isValid() or raw.familyName().casefold() != family.casefold():
        return False
    # Glyph lookup, not supportsCharacter(): in PySide6 6.12 the latter says False for
    # characters the font's cmap has (训, 练, 算 in Droid Sans Fallback).
    if 0 in raw.glyphIndexesForString(sample):
        return False
    if not raw.fontTable("glyf"):  # CFF outlines: see the module docstring
        return False
    os2 = bytes(raw.fontTable("OS/2"))
    fs_type = int.from_bytes(os2[8:10], "big") if len(os2) >= 10 else 0
    return not (fs_type & (_FSTYPE_RESTRICTED | _FSTYPE_BITMAP_ONLY))


def _first_embeddable(candidates: list[str], sample: str) -> str | None:
    for family in candidates:
        if embeddable(family, sample):
            return family
    return None


def _ordered(preferred: tuple[str, ...], available: list[str]) -> list[str]:
    """Preferred faces that exist, then every other available face, alphabetically."""
    lowered = {family.casefold(): family for family in available}
    first = [lowered[name.casefold()] for name in preferred if name.casefold() in lowered]
    return first + sorted(family for family in available if family not in first)


def bundled_cjk_family() -> str:
    """Register the shipped CJK face with Qt (once) and return its family name."""
    path = resources_dir() / "fonts" / BUNDLED_CJK_FILE
    font_id = QFontDatabase.addApplicationFont(str(path))
    families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
    if not families:
        raise RuntimeError(f"cannot load the bundled CJK font {path}")
    return families[0]


def system_cjk_family() -> str | None:
    """The best embeddable Simplified-Chinese face installed on this machine, if any."""
    available = QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese)
    return _first_embeddable(_ordered(PREFERRED_CJK, available), "划算多卡训练")


def latin_family(cjk: str) -> str:
    """An embeddable Latin face; the CJK face itself when none is found (it then must draw
    Latin, which the system's choice is checked for)."""
    general = QFontDatabase.systemFont(QFontDatabase.SystemFont.GeneralFont).family()
    available = QFontDatabase.families(QFontDatabase.WritingSystem.Latin)
    candidates = _ordered(PREFERRED_LATIN + (general,), available)
    return _first_embeddable(candidates, "Ag1×–") or cjk


@cache
def report_fonts(prefer_system: bool = True) -> ReportFonts:
    """The faces for the report. Needs a Qt GUI application. ``prefer_system=False`` forces
    the bundled CJK face (what a machine without CJK fonts gets)."""
    cjk = system_cjk_family() if prefer_system else None
    source = "system"
    if cjk is None:
        cjk, source = bundled_cjk_family(), "bundled"
    return ReportFonts(latin=latin_family(cjk), cjk=cjk, cjk_source=source)
