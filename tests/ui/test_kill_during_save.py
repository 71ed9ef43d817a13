"""Issue 33, "done when": a kill-during-save loop stays green. A process saving a profile
(comments kept), a draft and an autosave over and over is killed with SIGKILL at random
moments; every file is always the old one or a new complete one
(``benchmarks/kill_during_save.py`` runs 250)."""

from __future__ import annotations

import sys

import pytest

from benchmarks.kill_during_save import run


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_no_file_is_ever_torn_by_a_kill_during_save():
    kills, bad = run(12, seed=7)
    assert kills == 12 and bad == []
