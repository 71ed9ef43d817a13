"""What the About box and ``gpu-advisor --version`` say: the version, how old the built-in prices
and the projection's fitted parameters are, and the licences of what ships with the advisor.

Cheap on purpose (``--version`` must start about as fast as Python itself): the dates come from
a line scan of a few small data files (no YAML parse, no catalog models, no rule engine), the
licences from the table below, the versions from the installed packages' metadata.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from functools import cache

from advisor import __version__
from advisor.files.paths import resources_dir

# The catalog files that hold prices, each with what its prices are for (en, zh).
PRICE_FILES = (
    ("gpu_prices.yaml", "GPU purchase prices", "显卡购买价格"),
    ("cloud_offers.yaml", "cloud rental prices", "云端租用价格"),
    ("electricity.yaml", "electricity prices", "电价"),
    ("economics.yaml", "servers, networks, exchange rates, day rates", "服务器、网络、汇率、人天费率"),
)
PARAMETERS_FILE = ("scaling", "parameters.yaml")

# A date as the catalog writes it: 2026, 2026-Q1, 2024-03, 2024-10-17 (the first one on a line).
_AS_OF = re.compile(r"^\s*(?:-\s+)?as_of:\s*(.*?)\s*$", re.MULTILINE)
_DATE = re.compile(r"(\d{4})(?:-(Q[1-4]|\d{2})(?:-(\d{2}))?)?")
_FITTED_ON = re.compile(r"^fitted_on:\s*['\"]?([0-9-]+)['\"]?\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Component:
    """Something the advisor ships with (in the desktop bundle) or installs beside it (pip)."""

    name: str
    licence: str  # SPDX identifier
    distribution: str | None = None  # the package whose metadata gives the version
    note_en: str = ""
    note_zh: str = ""


# Every runtime dependency, what it pulls in, and what the desktop bundle adds (Python itself, the
# font). tests/architecture/test_about.py checks it against pyproject.toml and the packages'
# own metadata. Qt is used under the LGPL: the bundle keeps its libraries as separate files.
COMPONENTS = (
    Component("GPU Scaling Advisor", "MIT", "gpu-scaling-advisor"),
    Component("Python", "PSF-2.0", None, "bundled in the desktop app; with pip, your own",
              "桌面版自带；pip 安装时用您自己的"),
    Component("Qt 6 / PySide6-Essentials", "LGPL-3.0-only", "PySide6-Essentials",
              "the Qt libraries stay separate, replaceable files",
              "Qt 库以独立、可替换的文件随附"),
    Component("shiboken6", "LGPL-3.0-only", "shiboken6"),
    Component("Droid Sans Fallback", "Apache-2.0", None,
              "the CJK font; licence text in fonts/LICENSE-Apache-2.0.txt",
              "中文字体；许可证全文见 fonts/LICENSE-Apache-2.0.txt"),
    Component("durable_rules", "MIT", "durable-rules"),
    Component("pydantic", "MIT", "pydantic"),
    Component("pydantic-core", "MIT", "pydantic-core"),
    Component("pyqtgraph", "MIT", "pyqtgraph"),
    Component("colorama", "BSD-3-Clause", "colorama"),
    Component("NumPy", "BSD-3-Clause", "numpy",
              "with OpenBLAS (BSD-3-Clause) and the GCC runtime (GPL-3.0 with the runtime "
              "library exception)",
              "含 OpenBLAS（BSD-3-Clause）与 GCC 运行库（GPL-3.0，附运行库例外）"),
    Component("PyYAML", "MIT", "PyYAML"),
    Component("ruamel.yaml", "MIT", "ruamel.yaml"),
    Component("platformdirs", "MIT", "platformdirs"),
    Component("typing-extensions", "PSF-2.0", "typing-extensions"),
    Component("annotated-types", "MIT", "annotated-types"),
    Component("typing-inspection", "MIT", "typing-inspection"),
    Component("nvidia-ml-py", "BSD-3-Clause", "nvidia-ml-py",
              "optional: reads the GPUs through NVIDIA's driver library when it is present",
              "可选：有 NVIDIA 驱动库时用它读取显卡"),
)


@dataclass(frozen=True)
class PriceDates:
    file: str
    what_en: str
    what_zh: str
    oldest: str | None
    newest: str | None
    undated: int  # entries with ``as_of: null``

    def span(self) -> str:
        if self.newest is None:
            return "—"
        return self.newest if self.oldest == self.newest else f"{self.oldest} … {self.newest}"


def _date_key(token: str) -> tuple[int, int, int]:
    match = _DATE.match(token)
    assert match is not None
    year, month, day = match.groups()
    if month and month.startswith("Q"):  # a quarter sorts at its last month
        month = str(3 * int(month[1]))
    return int(year), int(month or 0), int(day or 0)


def scan_price_dates(text: str, file: str, what_en: str, what_zh: str) -> PriceDates:
    """The oldest and newest ``as_of`` dates in one catalog file's text."""
    dates: list[str] = []
    undated = 0
    for value in _AS_OF.findall(text):
        value = value.strip("'\"")
        found = _DATE.search(value)
        if value in {"", "null", "~"} or found is None:
            undated += 1
            continue
        dates.append(found.group(0))
    dates.sort(key=_date_key)
    return PriceDates(file, what_en, what_zh, dates[0] if dates else None,
                      dates[-1] if dates else None, undated)


@cache
def price_dates() -> tuple[PriceDates, ...]:
    folder = resources_dir() / "catalog"
    return tuple(scan_price_dates((folder / name).read_text(encoding="utf-8"), name, en, zh)
                 for name, en, zh in PRICE_FILES)


@cache
def parameters_fitted_on() -> str | None:
    """The day benchmarks/fit_projection.py last fitted the projection's parameters."""
    path = resources_dir().joinpath(*PARAMETERS_FILE)
    found = _FITTED_ON.search(path.read_text(encoding="utf-8"))
    return found.group(1) if found else None


@cache
def installed_versions() -> dict[str, str]:
    """Versions of the installed distributions, by normalised name, from the names of their
    ``NAME-VERSION.dist-info`` folders on ``sys.path`` (a directory listing, no file read:
    reading every METADATA file costs ~20 ms)."""
    versions: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = [e.name for e in os.scandir(entry or ".") if e.name.endswith(".dist-info")]
        except OSError:
            continue
        for name in names:
            dist, _, version = name[: -len(".dist-info")].rpartition("-")
            if dist:
                versions.setdefault(_normalise(dist), version)
    return versions


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def component_version(component: Component) -> str | None:
    if component.name == "Python":
        return ".".join(str(part) for part in sys.version_info[:3])
    if component.distribution == "gpu-scaling-advisor":  # no dist-info inside the bundle
        return __version__
    if component.distribution is None:
        return None
    return installed_versions().get(_normalise(component.distribution))


def about_text(lang: str = "en") -> str:
    """The plain-text About: what ``gpu-advisor --version`` prints (Chinese with ``lang="zh"``)."""
    zh = lang == "zh"
    lines = [f"gpu-advisor {__version__}",
             "GPU Scaling Advisor · 多卡训练顾问" if not zh else "多卡训练顾问 · GPU Scaling Advisor",
             ""]
    lines.append("内置价格日期（as_of）：" if zh else "Built-in prices as of:")
    for dates in price_dates():
        what = dates.what_zh if zh else dates.what_en
        undated = ""
        if dates.undated:
            undated = (f"（另有 {dates.undated} 项未注明日期）" if zh
                       else f" ({dates.undated} undated)")
        lines.append(f"  {what}{'：' if zh else ': '}{dates.span()}{undated}  [{dates.file}]")
    fitted = parameters_fitted_on() or ("未知" if zh else "unknown")
    lines.append(("预测模型参数拟合日期：" if zh else "Projection parameters fitted on: ") + fitted
                 + "  [scaling/parameters.yaml]")
    lines.append("")
    lines.append("许可证（随附或安装的组件）：" if zh else "Licences of what ships with it:")
    named = [(f"{c.name} {v}" if (v := component_version(c)) else c.name, c) for c in COMPONENTS]
    width = max(len(name) for name, _ in named)
    for name, component in named:
        note = component.note_zh if zh else component.note_en
        lines.append(f"  {name:<{width}}  {component.licence}" + (f" — {note}" if note else ""))
    return "\n".join(lines)
