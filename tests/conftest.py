"""Test set-up: headless Qt before anything imports it, and a private config/log folder."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("GPU_ADVISOR_LANG", "en")

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path_factory, monkeypatch):
    """Each test writes logs, config and autosaves under a temporary folder, never $HOME."""
    base = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("GPU_ADVISOR_LOG_DIR", str(base / "log"))
    monkeypatch.setenv("GPU_ADVISOR_CONFIG_DIR", str(base / "config"))
    monkeypatch.setenv("GPU_ADVISOR_STATE_DIR", str(base / "state"))
    yield
