"""The advisor's own data files (``rules/``, ``resources/``) read fast, and their compiled forms.

Built-in files are ours, not the user's: they are read with libyaml's safe loader (the C
parser PyYAML ships; the pure-Python one when PyYAML was built without it), still refusing a
duplicate key. A user's file goes through ``advisor.files.yaml_lines`` instead, whose messages
name the line of every problem.

``compiled(name, sources, build)`` keeps what ``build()`` makes from the files (the checked
rule base, the GPU table, the catalog's entries) in the user's cache folder, pickled under a
key that hashes the files' bytes and paths, the source files (path, size and time) of the
advisor packages that build it and define its classes, and the Python, pydantic, PyYAML and
advisor versions. A changed file, a moved installation or new code gives a new key, so a stale form is never read; a form that
cannot be read or written is built again (the advisor never depends on its cache).
``GPU_ADVISOR_CACHE_DIR`` moves the folder; ``GPU_ADVISOR_NO_CACHE=1`` turns the cache off.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import sys
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import yaml

T = TypeVar("T")
_BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
FORMAT = b"gpu-advisor compiled data 1\n"


class BuiltinLoader(_BASE):  # type: ignore[misc, valid-type]
    """libyaml's safe loader that refuses a key given twice in one mapping."""


def _unique_mapping(loader: BuiltinLoader, node: yaml.MappingNode, deep: bool = False):
    seen: set[Any] = set()
    for key_node, _value in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping", node.start_mark,
                f"found duplicate key {key!r}", key_node.start_mark)
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


BuiltinLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _unique_mapping)


def read_builtin(path: Path) -> Any:
    """The data of one built-in YAML file (a broken built-in file is a bug: it raises)."""
    return yaml.load(path.read_bytes(), Loader=BuiltinLoader)  # noqa: S506 - a safe loader


def cache_dir() -> Path | None:
    """Where compiled forms are kept (None: the cache is off)."""
    if os.environ.get("GPU_ADVISOR_NO_CACHE", "") not in ("", "0"):
        return None
    override = os.environ.get("GPU_ADVISOR_CACHE_DIR")
    if override:
        return Path(override)
    import platformdirs

    from advisor.files.logs import APP

    return Path(platformdirs.user_cache_dir(APP, appauthor=False)) / "compiled"


_PACKAGE = Path(__file__).resolve().parents[1]  # advisor/


@cache
def _layer_digest(layer: str) -> bytes | None:
    """A digest of one advisor package's source files, once per process (the code that is
    loaded is the code that was there when it was imported): each file's path, size and
    modification time in nanoseconds, as Python keys its own bytecode on the source's size
    and time. An edit, a checkout or an installation writes the file and so changes its time;
    reading every source file's bytes at every start cost more than the rest of the key."""
    files = sorted(os.path.join(root, n) for root, _dirs, names in os.walk(_PACKAGE / layer)
                   for n in names if n.endswith(".py"))
    if not files:  # installed without its source: nothing to key the cache on
        return None
    digest = hashlib.sha256()
    for file in files:
        info = os.stat(file)
        digest.update(f"{os.path.relpath(file, _PACKAGE)}\0{info.st_size}\0"
                      f"{info.st_mtime_ns}\0".encode())
    return digest.digest()


def _key(name: str, sources: Iterable[Path], layers: Iterable[str]) -> str | None:
    """A digest of everything the compiled form depends on: the source files' paths and bytes,
    the code of ``layers`` (by the layer contract, ``tests/architecture/test_layers.py``, no
    other advisor code can decide it) and the versions of Python, pydantic, PyYAML and the
    advisor. None when the code is not there to hash: nothing is cached then."""
    import pydantic

    from advisor import __version__

    code = [_layer_digest(layer) for layer in sorted(set(layers))]
    if any(c is None for c in code):
        return None
    digest = hashlib.sha256(FORMAT)
    digest.update("\0".join((name, sys.version, pydantic.VERSION, yaml.__version__,
                              _BASE.__name__, __version__, str(_PACKAGE), "")).encode())
    for c in code:
        digest.update(c)  # type: ignore[arg-type]
    for path in sources:
        digest.update(f"{os.path.abspath(path)}\0".encode())
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def compiled(name: str, sources: Iterable[Path], build: Callable[[], T],
             layers: Iterable[str]) -> T:
    """``build()``'s result, from the cache when the ``sources`` and the code of ``layers``
    (the advisor packages that build it and define its classes) are unchanged since it was
    stored; built and stored otherwise."""
    folder = cache_dir()
    key = _key(name, sources := list(sources), layers) if folder is not None else None
    if folder is None or key is None:
        return build()
    file = folder / f"{name}-{key[:24]}.pickle"
    header = FORMAT + key.encode() + b"\n"
    blob = _read_cache(file)
    if blob.startswith(header):
        try:
            return pickle.loads(blob[len(header):])  # noqa: S301 - our own file, keyed above
        except Exception:  # noqa: BLE001 - a damaged cache file is rebuilt, never trusted
            pass
    value = build()
    _store(file, header, value)
    return value


CACHE_MAX_BYTES = 64 << 20  # far above any compiled form (the rule base's is under 1 MB)


def _read_cache(file: Path) -> bytes:
    """The cache file's bytes, read only when it is a regular file of a sane size (issue 35:
    a FIFO in its place blocked every command; a link to /dev/zero grew without end): b"" for
    anything else, which is then rebuilt and replaced."""
    try:
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return b""
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > CACHE_MAX_BYTES:
            return b""
        chunks, total = [], 0
        while total <= CACHE_MAX_BYTES:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            total += len(chunk)
        return b""
    except OSError:
        return b""
    finally:
        os.close(fd)


KEEP = 4  # compiled forms kept per name (several installations may share the folder)


def _store(file: Path, header: bytes, value: object) -> None:
    """Write atomically and drop the oldest forms of the same name; a folder that cannot be
    written only costs the next start its time."""
    try:
        blob = header + pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        file.parent.mkdir(parents=True, exist_ok=True)
        import tempfile  # only when a compiled form is written (tempfile imports shutil)

        fd, tmp = tempfile.mkstemp(dir=file.parent, prefix=f".{file.name}.")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(blob)
            os.replace(tmp, file)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        stem = file.name.rsplit("-", 1)[0]
        others = sorted(file.parent.glob(f"{stem}-*.pickle"), key=lambda p: p.stat().st_mtime)
        for old in others[:-KEEP]:
            old.unlink(missing_ok=True)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        pass


def load_builtin(path: Path) -> Any:
    """The data of one built-in YAML file, kept compiled like the rule base (constructing
    the values is Python even with libyaml: a pickle reads several times faster)."""
    return compiled(f"data-{path.parent.name}-{path.stem}", [path], lambda: read_builtin(path),
                    ("files",))
