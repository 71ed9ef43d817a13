"""The licences the About box and `--version` list: every package the advisor runs on is there,
each with the licence its own metadata states."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata

from packaging.requirements import Requirement

from advisor.files.about import COMPONENTS, _normalise
from tests.support.paths import ROOT


def _runtime_distributions() -> set[str]:
    """The project's dependencies (and the NVML extra) with everything they pull in here."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    todo = [Requirement(r) for r in project["dependencies"] + project["optional-dependencies"]
            ["nvml"]]
    seen: set[str] = set()
    while todo:
        requirement = todo.pop()
        name = _normalise(requirement.name)
        if name in seen or (requirement.marker and not requirement.marker.evaluate({"extra": ""})):
            continue
        seen.add(name)
        todo.extend(Requirement(r) for r in metadata.requires(requirement.name) or [])
    return seen


def test_every_package_the_advisor_runs_on_is_listed():
    listed = {_normalise(c.distribution) for c in COMPONENTS if c.distribution}
    missing = _runtime_distributions() - listed
    assert not missing, f"add to advisor/files/about.py COMPONENTS: {sorted(missing)}"


def test_each_listed_licence_is_the_one_the_package_states():
    for component in COMPONENTS:
        if component.distribution is None:
            continue
        meta = metadata.metadata(component.distribution)
        stated = " ".join([meta.get("License-Expression") or "", meta.get("License") or "",
                           *(meta.get_all("Classifier") or [])])
        family = re.sub(r"-\d.*$", "", component.licence)  # BSD-3-Clause -> BSD, for old metadata
        assert component.licence in stated or (family in stated and family == "BSD"), \
            (component.name, stated)


def test_the_font_licence_ships_beside_the_font():
    text = (ROOT / "resources" / "fonts" / "LICENSE-Apache-2.0.txt").read_text()
    assert "Apache License" in text and "Version 2.0" in text
