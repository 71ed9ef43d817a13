"""Qt Linguist catalogs: the installed UI language, and lookups in an explicit language.

The widgets use ``self.tr()`` with the installed translator. Builders that take ``lang``
(plots, shared with the PDF report) use :func:`tr_lang`, so a Chinese report can be drawn
while the window speaks English; their strings are marked with ``QT_TRANSLATE_NOOP`` so
``pyside6-lupdate`` collects them into the same ``.ts`` file.

After changing UI strings (tests/ui/test_language.py fails until this is done)::

    .venv/bin/pyside6-lupdate -no-obsolete $(find ui -name '*.py' -not -path 'ui/report/*' \
        -not -path 'ui/diagnosis/*' | sort) -ts resources/i18n/advisor_zh_CN.ts
    # translate the new entries (pyside6-linguist, or edit the XML: fill each <translation> and
    # drop type="unfinished"), then:
    .venv/bin/pyside6-lrelease resources/i18n/advisor_zh_CN.ts -qm resources/i18n/advisor_zh_CN.qm
"""

from __future__ import annotations

import logging
from functools import cache

from PySide6.QtCore import (
    QCoreApplication,
    QLibraryInfo,
    QLocale,
    QObject,
    QTranslator,
    Signal,
)

from advisor.files.paths import resources_dir

CATALOG = "advisor_zh_CN"


def qm_path() -> str:
    return str(resources_dir() / "i18n" / f"{CATALOG}.qm")


@cache
def _zh_translator() -> QTranslator:
    translator = QTranslator()
    if not translator.load(qm_path()):  # English stays readable; the log says why
        logging.getLogger("advisor.ui").warning("translation catalog missing: %s", qm_path())
    return translator


QT_BASE_CATALOG = "qtbase_zh_CN"  # Qt's own dialogs: "Cancel", "Look in:", "File name:", "Open"


def qt_base_qm_dir() -> str:
    """Where the Qt the binding ships keeps its translations (PySide6/Qt/translations)."""
    return QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)


@cache
def _qt_base_translator() -> QTranslator:
    """Qt's own strings in Chinese, so the file dialogs and message boxes speak the app's
    language; English stays when the binding ships no catalog (the log says so)."""
    translator = QTranslator()
    if not translator.load(QT_BASE_CATALOG, qt_base_qm_dir()):
        logging.getLogger("advisor.ui").warning("Qt's own translation catalog missing: %s in %s",
                                                QT_BASE_CATALOG, qt_base_qm_dir())
    return translator


def tr_lang(lang: str, context: str, text: str) -> str:
    """``text`` (English source) in ``lang``; falls back to English when untranslated."""
    if lang != "zh":
        return text
    return _zh_translator().translate(context, text) or text


class LanguageHub(QObject):
    """The application's current language; installs the translator and tells the widgets."""

    languageChanged = Signal(str)

    def __init__(self, lang: str = "en", parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._lang = "en"
        self.set_language(lang)

    @property
    def lang(self) -> str:
        return self._lang

    def set_language(self, lang: str) -> None:
        lang = "zh" if lang == "zh" else "en"
        if QCoreApplication.instance() is not None:
            # One catalog object for the whole process: removing it first means a language
            # switch (or a second window) never stacks or leaks translators.
            for translator in (_zh_translator(), _qt_base_translator()):
                QCoreApplication.removeTranslator(translator)
            if lang == "zh":
                QCoreApplication.installTranslator(_qt_base_translator())
                QCoreApplication.installTranslator(_zh_translator())  # the app's own first
        QLocale.setDefault(QLocale(QLocale.Language.Chinese if lang == "zh"
                                   else QLocale.Language.English))
        changed = lang != self._lang
        self._lang = lang
        if changed:
            self.languageChanged.emit(lang)
