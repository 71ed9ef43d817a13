"""Built-in data read through libyaml gives what the safe loader gives; a compiled form is used
only while its files and code are unchanged, and the advisor never depends on it."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest
import yaml

from advisor.files import builtin_data
from advisor.files.builtin_data import compiled, read_builtin
from advisor.files.paths import resources_dir, rules_dir


def _builtin_files() -> list[Path]:
    return sorted([*rules_dir().glob("*.yaml"), *rules_dir().glob("cases/*.yaml"),
                   *resources_dir().rglob("*.yaml")])


@pytest.mark.parametrize("path", _builtin_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_libyaml_reads_every_builtin_file_as_the_safe_loader_does(path: Path) -> None:
    assert read_builtin(path) == yaml.safe_load(path.read_text(encoding="utf-8"))


def test_a_key_given_twice_in_a_builtin_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "twice.yaml"
    path.write_text("gpus:\n  - id: a\n    id: b\n", encoding="utf-8")
    with pytest.raises(yaml.YAMLError, match="duplicate key 'id'"):
        read_builtin(path)


class _Builds:
    """A build function that counts its calls."""

    def __init__(self, value: object) -> None:
        self.value, self.calls = value, 0

    def __call__(self) -> object:
        self.calls += 1
        return self.value


def _source(tmp_path: Path, text: str = "a: 1\n") -> Path:
    path = tmp_path / "data.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_compiled_form_is_stored_and_read_back(tmp_path: Path) -> None:
    source = _source(tmp_path)
    build = _Builds({"a": [1, 2]})
    first = compiled("probe", [source], build, ("text",))
    again = compiled("probe", [source], build, ("text",))
    assert first == again == {"a": [1, 2]} and build.calls == 1
    assert len(list(builtin_data.cache_dir().glob("probe-*.pickle"))) == 1


def test_a_changed_file_is_built_again(tmp_path: Path) -> None:
    source = _source(tmp_path)
    compiled("probe", [source], _Builds("old"), ("text",))
    source.write_text("a: 2\n", encoding="utf-8")  # same size, other bytes
    build = _Builds("new")
    assert compiled("probe", [source], build, ("text",)) == "new" and build.calls == 1


def test_changed_code_is_built_again(tmp_path: Path, monkeypatch) -> None:
    source = _source(tmp_path)
    compiled("probe", [source], _Builds("old"), ("text",))
    monkeypatch.setattr(builtin_data, "_layer_digest", lambda layer: b"other code")
    build = _Builds("new")
    assert compiled("probe", [source], build, ("text",)) == "new" and build.calls == 1


def test_a_damaged_or_foreign_cache_file_is_never_trusted(tmp_path: Path) -> None:
    source = _source(tmp_path)
    compiled("probe", [source], _Builds("good"), ("text",))
    (stored,) = builtin_data.cache_dir().glob("probe-*.pickle")
    header = stored.read_bytes().split(b"\n", 2)
    stored.write_bytes(b"\n".join(header[:2]) + b"\n" + b"not a pickle")
    build = _Builds("rebuilt")
    assert compiled("probe", [source], build, ("text",)) == "rebuilt" and build.calls == 1
    stored.write_bytes(pickle.dumps("planted"))  # no header with the key: ignored
    build = _Builds("rebuilt again")
    assert compiled("probe", [source], build, ("text",)) == "rebuilt again"


def test_without_a_writable_cache_folder_the_data_is_built(tmp_path: Path, monkeypatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(blocker / "cache"))
    build = _Builds("built")
    assert compiled("probe", [_source(tmp_path)], build, ("text",)) == "built"
    assert compiled("probe", [_source(tmp_path)], build, ("text",)) == "built"
    assert build.calls == 2


def test_the_cache_can_be_turned_off(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("GPU_ADVISOR_NO_CACHE", "1")
    build = _Builds("built")
    compiled("probe", [_source(tmp_path)], build, ("text",))
    compiled("probe", [_source(tmp_path)], build, ("text",))
    assert build.calls == 2 and not Path(os.environ["GPU_ADVISOR_CACHE_DIR"]).exists()


def test_older_forms_of_a_name_are_dropped(tmp_path: Path) -> None:
    source = _source(tmp_path)
    for i in range(builtin_data.KEEP + 3):
        source.write_text(f"a: {i}\n", encoding="utf-8")
        compiled("probe", [source], _Builds(i), ("text",))
    assert len(list(builtin_data.cache_dir().glob("probe-*.pickle"))) == builtin_data.KEEP


def test_no_advisor_module_parses_yaml_with_the_pure_python_loader() -> None:
    """``yaml.safe_load`` is the pure-Python parser (several times slower than libyaml): built-in
    files go through ``advisor.files.builtin_data``, a user's through ``advisor.files.yaml_lines``."""
    package = Path(builtin_data.__file__).resolve().parents[1]
    slow = [str(p.relative_to(package)) for p in sorted(package.rglob("*.py"))
            if "yaml.safe_load(" in p.read_text(encoding="utf-8")]
    assert slow == []


def test_an_edited_source_file_of_the_code_changes_its_layers_digest(tmp_path: Path,
                                                                     monkeypatch) -> None:
    # The code is keyed on each file's path, size and time: an edit changes the time even
    # when the size stays (a one-character fix), a longer file changes the size.
    layer = tmp_path / "text"
    layer.mkdir()
    module = layer / "words.py"
    module.write_text("A = 1\n", encoding="utf-8")
    monkeypatch.setattr(builtin_data, "_PACKAGE", tmp_path)

    def digest() -> bytes | None:
        builtin_data._layer_digest.cache_clear()
        return builtin_data._layer_digest("text")

    first = digest()
    assert first is not None and digest() == first
    info = module.stat()
    module.write_text("A = 2\n", encoding="utf-8")  # same size
    os.utime(module, ns=(info.st_atime_ns, info.st_mtime_ns + 1))
    edited = digest()
    assert edited != first
    module.write_text("A = 22\n", encoding="utf-8")
    os.utime(module, ns=(info.st_atime_ns, info.st_mtime_ns + 1))  # the same time, larger
    larger = digest()
    assert larger not in (first, edited)
    (layer / "more.py").write_text("", encoding="utf-8")
    assert digest() != larger
    builtin_data._layer_digest.cache_clear()
