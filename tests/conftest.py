"""Test set-up: headless Qt before anything imports it, and private config/log/cache folders."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("GPU_ADVISOR_LANG", "en")
# The market a profile without one is priced in (else the locale's: CN for zh_CN, EU for de_DE).
os.environ.setdefault("GPU_ADVISOR_MARKET", "US")
# Records are frozen and printable under test: code that changes one fails (advisor/files/records.py).
os.environ["GPU_ADVISOR_STRICT_RECORDS"] = "1"

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

# Deterministic property tests (the suite must give the same answer on every run and in CI):
# hypothesis draws from a fixed seed per test; a new seed is a code change, not luck.
settings.register_profile("deterministic", derandomize=True, database=None)
settings.load_profile("deterministic")


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path_factory, monkeypatch):
    """Each test writes logs, config, autosaves and compiled data under a temporary folder,
    never $HOME."""
    base = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("GPU_ADVISOR_LOG_DIR", str(base / "log"))
    monkeypatch.setenv("GPU_ADVISOR_CONFIG_DIR", str(base / "config"))
    monkeypatch.setenv("GPU_ADVISOR_STATE_DIR", str(base / "state"))
    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(base / "cache"))
    yield


@pytest.fixture(scope="session")
def recs():
    """The English recommendation of every verdict repro profile and every example, by file
    stem: computed once for the suite (tests/support/verdict.py), read by tests in several
    folders."""
    from tests.support.verdict import all_recommendations

    return all_recommendations()
