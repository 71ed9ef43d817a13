"""Issue 34, item 9: the no-display line names a command the shell can run, and every step in
the wizard's list is named as its page's title, in both languages. (The desktop entry's MIME
types: tests/bundle/test_desktop_bundle.py; ``gpu-advisor-gui --version``:
tests/ui/test_keys_sizes_and_sessions.py.)"""

from __future__ import annotations

import shlex
import subprocess
import sys

import pytest

from tests.support.ui import MEDIUM, make_window, projection_recommend, wait_results
from ui.app import launch


def test_the_command_line_is_named_as_the_shell_finds_it(monkeypatch, tmp_path):
    monkeypatch.setattr("shutil.which", lambda name: "/usr/bin/gpu-advisor")
    assert launch.command_line_program() == "gpu-advisor"
    # not on PATH, no program beside this one: this Python runs the command line's module
    monkeypatch.setattr("shutil.which", lambda name: None)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "my env" / "python"))
    monkeypatch.setattr(sys, "argv", [str(tmp_path / "gui")])
    named = launch.command_line_program()
    assert shlex.split(named) == [str(tmp_path / "my env" / "python"), "-m", "advisor.cli"]
    # the desktop bundle: the command line program beside the GUI's
    beside = tmp_path / "bundle" / "gpu-advisor"
    beside.parent.mkdir()
    beside.write_text("")
    monkeypatch.setattr(sys, "argv", [str(tmp_path / "bundle" / "gpu-advisor-gui")])
    assert shlex.split(launch.command_line_program()) == [str(beside)]


def test_the_fallback_command_runs(monkeypatch):
    monkeypatch.setattr("shutil.which", lambda name: None)
    monkeypatch.setattr(sys, "argv", ["/nonexistent/gpu-advisor-gui"])
    named = launch.command_line_program()
    done = subprocess.run([*shlex.split(named), "--help"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and "recommend" in done.stdout


def test_the_no_display_line_names_that_command(monkeypatch, capsys):
    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("shutil.which", lambda name: None)
    monkeypatch.setattr(sys, "argv", ["/nonexistent/gpu-advisor-gui"])
    assert launch.launch([], "en") == 0
    out = capsys.readouterr().out
    assert f"{launch.command_line_program()} recommend my-profile.yaml" in out
    assert "examples/" not in out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_step_is_named_as_its_page_title(qtbot, lang):
    window = make_window(qtbot, lang, projection_recommend, argv=[str(MEDIUM)])
    wait_results(qtbot, window)
    titles = {index: page.title_label.text() for index, page in enumerate(window.pages)}
    window.go_to(len(window.pages) + 1)  # the diagnosis page, built when first shown
    titles[len(window.pages) + 1] = window.diagnosis_page.title_label.text()
    window.go_to(window.compare_index)
    titles[window.compare_index] = window.compare_page.title.text()
    for index, title in titles.items():
        assert title, index
        assert window.steps.item(index).text() == f"{index + 1}. {title}", (lang, index)
    window.hub.set_language("en")
