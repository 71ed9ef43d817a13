"""What ``gpu-advisor --version`` prints.

Kept apart from the parser and cheap on purpose: scripts call ``--version`` to check the
installation, so it imports nothing of the core. Lines read from small data files (dates,
licences) belong here; never the rule engine, numpy or the projection
(``tests/cli/test_fast_start.py`` fails when they are imported).
"""

from __future__ import annotations

from advisor import __version__


def version_text(prog: str = "gpu-advisor") -> str:
    return f"{prog} {__version__}"
