"""What the release workflow builds, read from pyproject.toml (the one place each is set).

Prints ``version=<version>`` and ``durable-rules=<release>`` and appends them to the file named
by ``$GITHUB_OUTPUT`` when there is one. Exits 1, saying why, when:

- ``advisor/__init__.py``'s ``__version__`` (what the programs print) is not pyproject.toml's
  version;
- the workflow runs for a tag (``$GITHUB_REF_TYPE`` is ``tag``) other than ``v<version>``;
- pyproject.toml's durable-rules requirement names no single release to build wheels of
  (``==X`` or a lower bound ``>=X``), or that release does not satisfy the requirement.

    python .github/scripts/release_meta.py            # in a checkout, from its root
"""

from __future__ import annotations

import ast
import os
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]


def package_version(root: Path) -> str:
    """``__version__`` as written in advisor/__init__.py (read, not imported)."""
    tree = ast.parse((root / "advisor" / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "__version__"
                and isinstance(node.value, ast.Constant)):
            return str(node.value.value)
    raise ValueError("advisor/__init__.py sets no __version__")


def durable_rules_release(dependencies: list[str]) -> str:
    """The durable_rules release to build wheels of: the requirement's ``==`` pin, or its ``>=``
    lower bound (the release the project is tested with)."""
    found = [Requirement(d) for d in dependencies
             if canonicalize_name(Requirement(d).name) == "durable-rules"]
    if len(found) != 1:
        raise ValueError(f"pyproject.toml lists durable-rules {len(found)} times, expected once")
    requirement = found[0]
    bounds = [s.version for s in requirement.specifier if s.operator in ("==", ">=")]
    if len(bounds) != 1:
        raise ValueError(f"'{requirement}' names no single release (== or >=) to build wheels of")
    release = bounds[0]
    if not requirement.specifier.contains(Version(release), prereleases=True):
        raise ValueError(f"durable_rules {release} does not satisfy '{requirement}'")
    return release


def main() -> int:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    version = project["version"]
    problems = []
    in_package = package_version(ROOT)
    if in_package != version:
        problems.append(f"pyproject.toml says version {version}, advisor/__init__.py says "
                        f"{in_package}")
    if os.environ.get("GITHUB_REF_TYPE") == "tag":
        tag = os.environ.get("GITHUB_REF_NAME", "")
        if tag != f"v{version}":
            problems.append(f"tag {tag} is not v{version}, the version in pyproject.toml")
    try:
        durable_rules = durable_rules_release(project["dependencies"])
    except ValueError as error:
        problems.append(str(error))
        durable_rules = ""
    if problems:
        for problem in problems:
            print(f"::error::{problem}", file=sys.stderr)
        return 1
    lines = f"version={version}\ndurable-rules={durable_rules}\n"
    print(lines, end="")
    output = os.environ.get("GITHUB_OUTPUT")
    if output:
        with open(output, "a", encoding="utf-8") as handle:
            handle.write(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
