"""Review 4: Ctrl-C ends every command with status 130 and no traceback: while the command
still loads (a traceback and death by the signal before), and while Qt draws the PDF (a
crash, an internal error or a half-drawn report before: the drawing finishes first)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from advisor.cli.interrupts import deferred_interrupt


def test_ctrl_c_inside_the_drawing_is_noted_then_raised_by_the_caller():
    with deferred_interrupt() as pressed:
        os.kill(os.getpid(), signal.SIGINT)
        assert pressed == [True]  # noted, nothing raised inside
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)  # the handler before it is back


def test_ctrl_c_while_the_command_loads_exits_130_without_a_traceback():
    code = ("import sys, advisor.cli as cli\n"
            "def stop(*a, **k):\n    raise KeyboardInterrupt\n"
            "cli.parse = stop\nsys.argv = ['gpu-advisor', 'validate', 'x.yaml']\n"
            "sys.exit(cli.main())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 130
    assert "Traceback" not in done.stderr


def test_ctrl_c_while_the_report_is_drawn_replaces_no_file(tmp_path, monkeypatch, capsys):
    """A user review: Ctrl-C once the drawing had started still renamed the new report over
    an existing PDF and said "PDF written" beside status 130. Now nothing is replaced."""
    import ui.report.export as export
    from advisor.cli import main
    from tests.support.paths import EXAMPLES

    old = tmp_path / "report.pdf"
    old.write_bytes(b"%PDF-1.4 the older report\n")
    drawn = export.render_pdf_bytes

    def draw_and_press(*args, **kwargs):
        out = drawn(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGINT)  # pressed while Qt draws: noted, not raised
        return out

    monkeypatch.setattr(export, "render_pdf_bytes", draw_and_press)
    profile = EXAMPLES / "medium-model-4gpu-worth-it.yaml"
    assert main(["--lang", "en", "recommend", str(profile), "--pdf", str(old)]) == 130
    assert old.read_bytes() == b"%PDF-1.4 the older report\n"
    err = capsys.readouterr().err
    assert "not written" in err and "PDF written" not in err
    assert [p.name for p in tmp_path.iterdir()] == ["report.pdf"]  # nothing left beside it
