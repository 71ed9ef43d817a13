"""The command line builds its models without pydantic's plugin discovery
(``advisor.cli.no_pydantic_plugins``): no ``importlib.metadata`` at start, the same output as
with pydantic's own loader, and the user's named plugins left alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from advisor.cli.no_pydantic_plugins import LOADER, _NoPlugins
from tests.support.paths import EXAMPLES, ROOT

MEDIUM = str(EXAMPLES / "medium-model-4gpu-worth-it.yaml")
CODE = (
    "import io, json, sys, contextlib\n"
    "from advisor.cli import main\n"
    "out = io.StringIO()\n"
    "with contextlib.redirect_stdout(out):\n"
    "    status = main(json.loads(sys.argv[1]))\n"
    f"loader = type(sys.modules.get({LOADER!r})).__name__\n"
    "sys.__stdout__.write(json.dumps([status, out.getvalue(), loader,\n"
    "                                 'importlib.metadata' in sys.modules]))\n"
)


def _run(argv: list[str], **env: str) -> tuple[int, str, str, bool]:
    """(status, output, the loader's class name, importlib.metadata loaded) of a fresh run."""
    environment = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    environment.update(env)
    done = subprocess.run([sys.executable, "-c", CODE, json.dumps(argv)], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=120, check=True)
    status, output, loader, metadata = json.loads(done.stdout)
    return status, output, loader, metadata


def test_a_command_neither_discovers_plugins_nor_changes_its_output() -> None:
    argv = ["recommend", MEDIUM, "--format", "json"]
    status, output, loader, metadata = _run(argv)
    assert status == 0 and loader == "_NoPlugins" and not metadata
    # with plugins named (some wanted), pydantic's own loader runs: the same answer
    status2, output2, loader2, metadata2 = _run(argv, PYDANTIC_DISABLE_PLUGINS="some-plugin")
    assert status2 == 0 and loader2 == "module" and metadata2
    assert output2 == output and json.loads(output)["verdict"]


@pytest.mark.parametrize("value", ["__all__", "1", "true"])
def test_plugins_turned_off_by_the_user_take_the_stand_in_too(value) -> None:
    _status, _output, loader, metadata = _run(["validate", MEDIUM],
                                              PYDANTIC_DISABLE_PLUGINS=value)
    assert loader == "_NoPlugins" and not metadata


def test_the_stand_in_finds_no_plugins_and_answers_other_names_from_the_real_loader() -> None:
    stand_in = _NoPlugins(LOADER)
    assert stand_in.get_plugins() == ()
    assert stand_in.PYDANTIC_ENTRY_POINT_GROUP == "pydantic"  # the real loader's constant
    with pytest.raises(AttributeError):
        stand_in.__path__  # noqa: B018 - what the import system asks: not a package
