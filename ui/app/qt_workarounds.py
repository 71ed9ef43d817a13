"""Work-arounds for defects of the Qt binding that would crash the application.

PySide6 6.12.0 on Python 3.11 (this project's environment) returns two singletons without
taking a reference: every call of a C++ method that returns ``void`` hands back ``None``
(``QLabel.setText`` …), and every ``Signal.emit()`` hands back ``True``. Each call therefore
lowers the singleton's reference count by one; on Python 3.11 these singletons are not
immortal, so after some thousands of calls — a few seconds of live plotting — the count
reaches zero and the interpreter aborts ("none_dealloc: deallocating None" or
"bool_dealloc: deallocating True or False"), mid-session or at exit. Measured: 100 calls of
``QObject.setObjectName`` → refcount(None) − 99; 100 emits → refcount(True) − 100.

The fix, until a binding without the defect is pinned: measure the leak once at import and, if
present, give the singletons so many references (2**40) that they can never reach zero, which
is exactly what Python 3.12+ does for them ("immortal objects", PEP 683). Nothing is changed
on a binding without the leak or on Python 3.12+.
"""

from __future__ import annotations

import ctypes
import sys

from PySide6.QtCore import QObject, Signal

_EXTRA_REFERENCES = 1 << 40
_PROBE_CALLS = 16
SINGLETONS = (None, True, False, NotImplemented, Ellipsis)


class _Probe(QObject):
    ping = Signal()


def leaked_references() -> dict[str, int]:
    """References lost by ``_PROBE_CALLS`` void calls (None) and emits (True)."""
    probe = _Probe()
    none_before = sys.getrefcount(None)
    for _ in range(_PROBE_CALLS):
        probe.setObjectName("probe")
    none_lost = none_before - sys.getrefcount(None)
    true_before = sys.getrefcount(True)
    for _ in range(_PROBE_CALLS):
        probe.ping.emit()
    true_lost = true_before - sys.getrefcount(True)
    return {"None": none_lost, "True": true_lost}


def binding_leaks() -> bool:
    return any(lost >= _PROBE_CALLS // 2 for lost in leaked_references().values())


_applied = False


def keep_singletons_alive() -> bool:
    """Apply the work-around once if this binding needs it; True when it is in effect."""
    global _applied
    if _applied:
        return True
    if sys.implementation.name != "cpython" or sys.version_info >= (3, 12):
        return False  # 3.12+: the singletons are immortal, the leak cannot free them
    if not binding_leaks():
        return False
    for singleton in SINGLETONS:
        # ob_refcnt is the first field of every CPython object (a Py_ssize_t).
        ctypes.c_ssize_t.from_address(id(singleton)).value += _EXTRA_REFERENCES
    _applied = True
    return True
