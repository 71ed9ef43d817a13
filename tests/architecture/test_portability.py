"""The same code runs on Linux, Windows and macOS (the desktop bundle builds on each): no
POSIX-only module or call in advisor/ or ui/ without a fallback, and the user's folders come
from platformdirs, never from a home-folder path spelled out."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.paths import ROOT

POSIX_MODULES = {"fcntl", "pwd", "grp", "termios", "tty", "pty", "resource", "posix", "syslog",
                 "crypt", "spwd", "nis"}
POSIX_CALLS = {("os", name) for name in (
    "fchmod", "fchown", "chown", "lchown", "getuid", "geteuid", "getgid", "getegid", "setuid",
    "setgid", "fork", "forkpty", "killpg", "setsid", "getpgid", "setpgrp", "nice", "mkfifo",
    "mknod", "sync", "statvfs", "getloadavg", "sched_getaffinity", "geteuid")}
POSIX_CALLS |= {("signal", name) for name in (
    "SIGKILL", "SIGHUP", "SIGALRM", "SIGUSR1", "SIGUSR2", "SIGCHLD", "SIGPIPE", "SIGQUIT",
    "SIGSTOP", "SIGCONT", "alarm", "setitimer", "pause", "siginterrupt")}
HOME_GUESSES = {("Path", "home"), ("path", "expanduser"), ("os", "getlogin")}

# A use that has a fallback, by file and name, so each one stays visible.
WITH_FALLBACK: set[tuple[str, str]] = {
    # a read-only file of our own is refused even as root; without geteuid (Windows) the
    # file's writability (os.access) decides
    ("advisor/files/atomic.py", "os.geteuid"),
}


def _sources() -> list[Path]:
    return sorted(p for base in ("advisor", "ui") for p in (ROOT / base).rglob("*.py"))


def _uses(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names} & POSIX_MODULES
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] in POSIX_MODULES:
                found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names
                      if (node.module, a.name) in POSIX_CALLS | HOME_GUESSES}
        elif isinstance(node, ast.Attribute):  # os.fchmod, os.path.expanduser (base "path")
            base = (node.value.id if isinstance(node.value, ast.Name) else
                    node.value.attr if isinstance(node.value, ast.Attribute) else None)
            if (base, node.attr) in POSIX_CALLS | HOME_GUESSES:
                found.add(f"{base}.{node.attr}")
    return found


def test_no_posix_only_call_without_a_fallback():
    offenders = [f"{path.relative_to(ROOT)}: {use}" for path in _sources()
                 for use in sorted(_uses(path))
                 if (path.relative_to(ROOT).as_posix(), use) not in WITH_FALLBACK]
    assert offenders == []


def test_the_scan_sees_what_it_forbids(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import fcntl, os, signal\nfrom pathlib import Path\n"
                     "os.fchmod(1, 0)\nsignal.alarm(1)\nPath.home()\nos.path.expanduser('~')\n")
    assert _uses(probe) == {"fcntl", "os.fchmod", "signal.alarm", "Path.home", "path.expanduser"}


def test_user_folders_come_from_platformdirs():
    """Logs, the user's catalog and the wizard's state: each module that picks a user folder
    asks platformdirs (an environment override first, for tests and portable installs)."""
    for rel, call in (("advisor/files/logs.py", "user_log_dir"),
                      ("advisor/catalog/overrides.py", "user_config_dir"),
                      ("ui/window/user_files.py", "user_state_dir")):
        assert f"platformdirs.{call}(" in (ROOT / rel).read_text(encoding="utf-8"), rel
