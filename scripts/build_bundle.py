"""Build the desktop bundle for this OS: `make bundle` (or `.venv/bin/python scripts/build_bundle.py`).

PyInstaller (desktop/gpu-advisor.spec) makes one folder with both programs, `gpu-advisor` and
`gpu-advisor-gui`, and everything they need (Python, Qt, the rules, catalog, translations, the
CJK font). This script adds what a user unpacking it needs beside the programs (the icon, the
Linux menu entry and its installer, a README, the licences), packs it as one archive in dist/,
named `gpu-scaling-advisor-<version>-<os>-<machine>` with the version from pyproject.toml, and
prints and records how big it is and how long it took (build/bundle/metrics.json;
benchmarks/bundle_build.py reports it). The archive, by OS:

    Linux    .tar.gz of the folder (executable bits and links kept)
    Windows  .zip of the folder
    macOS    .zip of a folder holding `GPU Scaling Advisor.app` (PyInstaller's .app, both
             programs in Contents/MacOS), the README and the licences; packed with `ditto`, as
             Finder does, so the .app's links, modes and signature survive

    --clean     throw PyInstaller's caches away first (a from-scratch build)
    --no-pack   leave the folder unpacked (no archive)
    --archive-path  print where the last build's archive is, and build nothing
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import time
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "desktop" / "gpu-advisor.spec"
WORK = ROOT / "build" / "bundle"
NAME = "gpu-scaling-advisor"
PROGRAMS = ("gpu-advisor", "gpu-advisor-gui")
APP = "GPU Scaling Advisor.app"  # macOS: made by the spec's BUNDLE beside the folder

README = """GPU Scaling Advisor {version} · 多卡训练顾问 — desktop bundle for {system}

Nothing to install: this folder holds the advisor, its own Python and Qt, the rules, the price
catalog, both languages and a Chinese font.

{programs}
{linux_note}Licences: LICENSES/ (Qt and PySide6 under the LGPL-3.0, their libraries are the separate files
in {qt_libraries} and may be replaced; the font under Apache-2.0; the others as listed
by `gpu-advisor --version`).
"""


PROGRAM_LINES = """  {run}gpu-advisor-gui{exe}                 the desktop app (wizard)
  {run}gpu-advisor{exe} --version           version, dates of the built-in prices, licences
  {run}gpu-advisor{exe} recommend PROFILE   the command line (--lang zh for Chinese; --help)
"""

LINUX_NOTE = """Linux: ./install-desktop-entry.sh adds the app to your application menu (this user only);
./install-desktop-entry.sh --remove takes it away. The X11 platform needs the usual desktop
libraries (libxcb-cursor0, libxkbcommon-x11-0, libxcb-icccm4 and friends; every desktop
distribution has them); without a display, the command line works as is.

"""

MACOS_PROGRAM_LINES = """  GPU Scaling Advisor.app             the desktop app (wizard): drag it to Applications
                                      if you like, then double-click it. It is not signed:
                                      the first start needs right-click > Open (macOS 15 and
                                      later: System Settings > Privacy & Security > Open Anyway)
  "GPU Scaling Advisor.app/Contents/MacOS/gpu-advisor" --version
                                      the command line: version, dates of the built-in prices
  "GPU Scaling Advisor.app/Contents/MacOS/gpu-advisor" recommend PROFILE
                                      the command line (--lang zh for Chinese; --help)
"""


def _version() -> str:
    """The project's version, from pyproject.toml (the one place it is set); the package's
    ``advisor.__version__``, which the programs print, must say the same."""
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["version"]
    sys.path.insert(0, str(ROOT))
    from advisor import __version__

    if __version__ != version:
        raise SystemExit(f"pyproject.toml says version {version} but advisor/__init__.py says "
                         f"{__version__}: make them the same before building")
    return version


def _platform_tag() -> str:
    """``linux-x86_64``, ``windows-x86_64``, ``macos-arm64``, ``macos-x86_64``: the OS and the
    machine as Python reports it (Windows' ``AMD64`` written as ``x86_64``, as elsewhere)."""
    system = {"linux": "linux", "darwin": "macos", "win32": "windows"}.get(sys.platform,
                                                                       sys.platform)
    machine = platform.machine().lower() or "unknown"
    if sys.platform == "win32" and machine == "amd64":
        machine = "x86_64"
    return f"{system}-{machine}"


def folder_size(path: Path) -> tuple[int, int]:
    """Bytes and number of files under ``path`` (symbolic links counted once, not followed)."""
    total = count = 0
    for entry in path.rglob("*"):
        if entry.is_file() or entry.is_symlink():
            total += entry.lstat().st_size
            count += 1
    return total, count


def run_pyinstaller(clean: bool) -> float:
    command = [sys.executable, "-m", "PyInstaller", str(SPEC), "--noconfirm",
               "--distpath", str(WORK / "dist"), "--workpath", str(WORK / "work"),
               "--log-level", "WARN"]
    if clean:
        command.append("--clean")
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True)
    return time.perf_counter() - start


def _program_lines() -> str:
    """How to start both programs, as this OS's user does."""
    if sys.platform == "darwin":
        return MACOS_PROGRAM_LINES
    windows = sys.platform == "win32"
    return PROGRAM_LINES.format(run="" if windows else "./", exe=".exe" if windows else "")


def add_user_files(folder: Path, version: str) -> None:
    """The icon, the Linux menu entry, a README and the licences, at the top of the folder."""
    icons = folder / "icons"
    icons.mkdir(exist_ok=True)
    for icon in (ROOT / "resources" / "icons").iterdir():
        shutil.copy2(icon, icons / icon.name)
    if sys.platform.startswith("linux"):
        for name in ("gpu-scaling-advisor.desktop", "install-desktop-entry.sh"):
            shutil.copy2(ROOT / "desktop" / "linux" / name, folder / name)
        (folder / "install-desktop-entry.sh").chmod(0o755)
    system = {"linux": "Linux", "darwin": "macOS", "win32": "Windows"}.get(sys.platform,
                                                                       sys.platform)
    qt_libraries = {"darwin": f"{APP}/Contents/Frameworks/PySide6/Qt/lib",
                    "win32": "_internal/PySide6"}.get(sys.platform, "_internal/PySide6/Qt/lib")
    readme = README.format(version=version, system=system, programs=_program_lines(),
                           linux_note=LINUX_NOTE if sys.platform.startswith("linux") else "",
                           qt_libraries=qt_libraries)
    (folder / "README.txt").write_text(readme, encoding="utf-8")
    licences = folder / "LICENSES"
    licences.mkdir(exist_ok=True)
    for text in (ROOT / "desktop" / "licenses").iterdir():
        shutil.copy2(text, licences / text.name)
    shutil.copy2(ROOT / "resources" / "fonts" / "LICENSE-Apache-2.0.txt",
                 licences / "DroidSansFallback-Apache-2.0.txt")
    for python_licence in (Path(sys.base_prefix) / "LICENSE.txt",
                           Path(sys.base_prefix) / "lib" / f"python{sys.version_info.major}."
                           f"{sys.version_info.minor}" / "LICENSE.txt"):
        if python_licence.is_file():
            shutil.copy2(python_licence, licences / "Python-PSF-2.0.txt")
            break
    internal = folder / "_internal"
    for dist_info in sorted(internal.glob("*.dist-info")):  # copied there by the spec
        found = [p for p in dist_info.rglob("*") if p.is_file()
                 and p.name.upper().startswith(("LICEN", "COPYING"))]
        for licence in found:  # kept at their paths: numpy has one per vendored library
            target = licences / dist_info.name.removesuffix(".dist-info") / licence.relative_to(
                dist_info)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(licence, target)


def pack(folder: Path, version: str) -> Path:
    """One archive holding the folder (executable bits and links kept in the .tar.gz)."""
    out = ROOT / "dist"
    out.mkdir(exist_ok=True)
    stem = f"{NAME}-{version}-{_platform_tag()}"
    if sys.platform == "darwin":
        return _pack_macos_app(folder, out, stem)
    if sys.platform == "win32":
        archive = out / f"{stem}.zip"
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
            for path in sorted(folder.rglob("*")):
                zf.write(path, Path(stem) / path.relative_to(folder))
        return archive
    archive = out / f"{stem}.tar.gz"
    tmp = archive.with_suffix(".tmp")
    with tarfile.open(tmp, "w:gz", compresslevel=6) as tar:
        tar.add(folder, arcname=stem)
    os.replace(tmp, archive)
    return archive


def _pack_macos_app(folder: Path, out: Path, stem: str) -> Path:
    """``<stem>.zip`` holding ``<stem>/GPU Scaling Advisor.app``, README.txt and LICENSES/.

    ``ditto`` copies and packs the .app the way Finder does (links, modes, extended attributes
    and the ad-hoc signature PyInstaller gave it kept); Finder, ``ditto -x -k`` and ``unzip``
    unpack it."""
    app = folder.parent / APP
    if not (app / "Contents" / "MacOS" / "gpu-advisor-gui").is_file():
        raise SystemExit(f"no {APP} beside {folder}: the spec's BUNDLE step did not run")
    staging = WORK / "macos-archive"
    shutil.rmtree(staging, ignore_errors=True)
    top = staging / stem
    top.mkdir(parents=True)
    subprocess.run(["ditto", str(app), str(top / APP)], check=True)
    shutil.copy2(folder / "README.txt", top / "README.txt")
    shutil.copytree(folder / "LICENSES", top / "LICENSES")
    archive = out / f"{stem}.zip"
    tmp = archive.with_suffix(".tmp")
    tmp.unlink(missing_ok=True)
    subprocess.run(["ditto", "-c", "-k", "--sequesterRsrc", "--keepParent", str(top), str(tmp)],
                   check=True)
    os.replace(tmp, archive)
    shutil.rmtree(staging, ignore_errors=True)
    return archive


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true")
    parser.add_argument("--no-pack", action="store_true")
    parser.add_argument("--archive-path", action="store_true")
    args = parser.parse_args(argv)
    if args.archive_path:
        metrics_file = WORK / "metrics.json"
        if not metrics_file.is_file():
            print(f"no bundle built yet ({metrics_file} missing): run `make bundle`",
                  file=sys.stderr)
            return 2
        print(json.loads(metrics_file.read_text(encoding="utf-8")).get("archive", ""))
        return 0
    version = _version()
    build_s = run_pyinstaller(args.clean)
    folder = WORK / "dist" / NAME
    add_user_files(folder, version)
    size_b, files = folder_size(folder)
    metrics = {"version": version, "platform": _platform_tag(), "folder": str(folder),
               "build_s": round(build_s, 1), "unpacked_bytes": size_b, "files": files,
               "cpus": os.cpu_count(), "clean": args.clean}
    if not args.no_pack:
        start = time.perf_counter()
        archive = pack(folder, version)
        metrics.update(archive=str(archive), archive_bytes=archive.stat().st_size,
                       pack_s=round(time.perf_counter() - start, 1))
    (WORK / "metrics.json").write_text(json.dumps(metrics, indent=2) + "\n", encoding="utf-8")
    print(f"bundle: {folder.relative_to(ROOT)} — {size_b / 1e6:.0f} MB unpacked in {files} "
          f"files, built in {build_s:.0f} s ({'clean' if args.clean else 'with caches'}, "
          f"{os.cpu_count()} CPUs)")
    if "archive" in metrics:
        print(f"archive: {Path(metrics['archive']).relative_to(ROOT)} — "
              f"{metrics['archive_bytes'] / 1e6:.0f} MB, packed in {metrics['pack_s']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
