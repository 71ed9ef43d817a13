"""Where the test data lives: the repository, the tests' own folder and its fixture folders."""

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
EXAMPLES = ROOT / "examples"
FIXTURES = TESTS / "fixtures"
PROFILES = TESTS / "profiles"
