"""The PySide6 6.12.0 reference leaks (ui/app/qt_workarounds.py) can no longer free None or True."""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal

import ui  # noqa: F401  (applies the work-around)
from ui.app.qt_workarounds import binding_leaks, keep_singletons_alive


class _Emitter(QObject):
    changed = Signal(object)


def test_a_long_session_of_calls_and_emits_cannot_free_none_or_true():
    emitter = _Emitter()
    emitter.changed.connect(lambda value: None)
    for index in range(20_000):  # a long session's worth of redraws
        emitter.changed.emit(index)
        emitter.setObjectName("x")
    leaking = binding_leaks()
    for singleton in (None, True):
        assert sys.getrefcount(singleton) > 1_000_000 or not leaking


def test_applying_twice_is_harmless():
    first = keep_singletons_alive()
    before = sys.getrefcount(None)
    assert keep_singletons_alive() is first
    assert abs(sys.getrefcount(None) - before) < 1000
