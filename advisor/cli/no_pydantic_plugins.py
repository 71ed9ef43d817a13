"""The command line runs without pydantic plugins, and so without looking for them.

Pydantic looks for plugins (third-party validation hooks, found through the entry points of
every installed package) when it builds its first validator. Its loader,
``pydantic.plugin._loader``, imports ``importlib.metadata`` to do so even when plugins are
turned off (``PYDANTIC_DISABLE_PLUGINS``): that import alone is about 95 M instructions,
12-18 ms of every start (``benchmarks/README.md``, issue 21). What the advisor prints must not
depend on other packages' hooks either, so the program uses none: before its first model is
built it puts in the loader's place one that finds no plugins, which is what pydantic's own
loader answers with plugins disabled. Any other name pydantic asks of the loader is the real
loader's, loaded then.

Where the user names plugins to turn off (``PYDANTIC_DISABLE_PLUGINS=name,...``, so some are
wanted) or the loader is loaded already, nothing is replaced.
"""

from __future__ import annotations

import os
import sys
import types
from functools import cache

LOADER = "pydantic.plugin._loader"
_ALL_OFF = ("", "__all__", "1", "true")  # unset, or pydantic's own words for "none"


class _NoPlugins(types.ModuleType):
    """``pydantic.plugin._loader`` that finds no plugins."""

    @staticmethod
    def get_plugins() -> tuple[()]:
        return ()

    def __getattr__(self, name: str):  # a name a later pydantic may ask: the real loader's
        if name.startswith("__"):  # what the import system asks of a module (``__path__``)
            raise AttributeError(name)
        return getattr(_real_loader(), name)


@cache  # loaded once, on the first name asked that is not ``get_plugins``
def _real_loader() -> types.ModuleType:
    import importlib.util

    import pydantic.plugin

    path = os.path.join(os.path.dirname(pydantic.plugin.__file__), "_loader.py")
    spec = importlib.util.spec_from_file_location("pydantic.plugin._loader_real", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def use_no_pydantic_plugins() -> bool:
    """Put the plugin-free loader in place; True when it was (see the module's docstring)."""
    if LOADER in sys.modules:
        return isinstance(sys.modules[LOADER], _NoPlugins)
    if os.environ.get("PYDANTIC_DISABLE_PLUGINS", "") not in _ALL_OFF:
        return False
    sys.modules[LOADER] = _NoPlugins(LOADER, __doc__)
    return True
