"""Chinese needs a CJK font: use the system's, else register the bundled Droid Sans Fallback."""

from __future__ import annotations

import logging

from PySide6.QtGui import QFontDatabase

from advisor.files.paths import resources_dir

BUNDLED_CJK = "DroidSansFallbackFull.ttf"


def has_cjk_font() -> bool:
    return bool(QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese))


def ensure_cjk_font(force_bundled: bool = False) -> str | None:
    """The family registered from the bundled file, or None when the system has one (or the
    file is missing: Chinese then shows as boxes, which the log says)."""
    if has_cjk_font() and not force_bundled:
        return None
    path = resources_dir() / "fonts" / BUNDLED_CJK
    font_id = QFontDatabase.addApplicationFont(str(path))
    if font_id < 0:
        logging.getLogger("advisor.ui").warning("could not load the CJK font %s", path)
        return None
    families = QFontDatabase.applicationFontFamilies(font_id)
    return families[0] if families else None
