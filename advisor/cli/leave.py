"""Ending the program without tearing down what it built.

A normal exit frees every module, class and validator the command loaded, one object at a
time: about 60 ms for ``recommend`` on a 2-core laptop, a sixth of the whole call, spent after
the answer is printed. The program itself (not a caller running ``main`` inside a longer
process, such as the tests) therefore ends the way mypy's ``hard_exit`` does: it runs the exit
handlers (``logging.shutdown`` flushes the log file, ``weakref.finalize`` removes temporary
folders), flushes what was printed, and leaves with ``os._exit``.

It does so only when nothing else could still need the normal exit: no other thread running
and Qt not loaded (the desktop application and the PDF writer leave as usual). A reader that
closed the pipe early (``gpu-advisor … | head``) gets no "Exception ignored" message: the
status stays the command's own.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading

# CPython's runner of the atexit handlers (what a normal exit calls first); without it the
# program leaves the usual way.
_RUN_EXIT_HANDLERS = getattr(atexit, "_run_exitfuncs", None)


def can_leave_at_once() -> bool:
    """Whether ending with ``os._exit`` loses nothing: the exit handlers can be run first, no
    other thread is running and Qt (its own clean-up at exit) is not loaded."""
    return (_RUN_EXIT_HANDLERS is not None and threading.active_count() == 1
            and "PySide6" not in sys.modules)


def leave(code: int) -> int:
    """End the process with ``code`` once the exit handlers have run and the output is
    flushed; returns ``code`` (for the usual exit) when ``can_leave_at_once`` is false."""
    if not can_leave_at_once():
        return code
    _RUN_EXIT_HANDLERS()  # type: ignore[misc]
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except BrokenPipeError:  # a reader that closed the pipe early: nothing is lost to it
            pass
        except OSError as exc:  # a full disk, a device error: what was printed is lost
            if stream is sys.stdout:
                from advisor.cli import output_failed
                from advisor.text.i18n import system_lang

                code = code or output_failed(exc, system_lang())
        except ValueError:  # a closed stream: nothing more can reach it
            pass
    os._exit(code)
