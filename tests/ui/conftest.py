"""Recommendations several wizard and plot test files draw, each computed once for the suite
(tests/support/verdict.py): (recommendation, profile) pairs."""

import pytest

from tests.support.paths import PROFILES
from tests.support.ui import MEDIUM
from tests.support.verdict import recommended


@pytest.fixture(scope="session")
def medium():
    """The medium example (4 x RTX 4090, worth it)."""
    return recommended(MEDIUM)


@pytest.fixture(scope="session")
def cases():
    """A job nothing considered can run (2T dense on H100, nor rented), one without a card price (T4s
    owned), and the medium example."""
    return {"unrunnable": recommended(PROFILES / "verdict" / "unrunnable-2t-8xh100.yaml"),
            "no_price": recommended(PROFILES / "verdict" / "t4-own-no-price.yaml"),
            "medium": recommended(MEDIUM)}
