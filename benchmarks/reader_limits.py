"""Worst-case time and peak memory of every reader on its largest allowed input (issue 20).

    .venv/bin/python -m benchmarks.reader_limits [--only NAME] [--repeat 3]

Each reader gets the input that costs it most within its cap, written to a file as a user's
would be, and is run in a fresh process (``--child``) that reports the wall time of the read
and the growth of its peak resident memory over the process after imports and a warm-up
(``ru_maxrss``; the input's own bytes count, as they do for the user). The cases:

- profile (YAML, JSON): 1 MB of unknown keys: 10,000 long ones, the most a YAML mapping may
  hold, and 88,000 short ones (the case that took 9 minutes: a line lookup scanning every key
  per error, 88k messages printed; now refused at key 10,001);
- catalog override: 1 MB of unknown sections (10,000; 20,000 took 24-35 s per command), and
  1 MB of GPU entries (about 9,000; read up to the 500-entry cap);
- autosave: 1 MB (the cap) of 9,990 answers, restored through the user files' guards;
- nvidia-smi output: the 32 MiB cap of a mixed paste of every recorded output kind, and a
  query CSV of 300,000 rows over 100,000 GPU indices (ran past 590 s for 5.7 MB);
- measurement CSV: 1 MB (the cap) with the 1,000 points allowed and comments;
- dmon log: the 32 MiB cap of a 4-GPU dmon log, read for a diagnosis;
- nvidia-smi topo -m of 2,048 GPUs, every pair NV18 (21 MB: 16-74 s and 0.6-1 GB before
  issue 35), a `-L` of 100,000 GPUs (cut to 10,000 without a note) and a dmon log of 100,000
  rows over 5,000 GPUs in no fixed order (a pass over the rows per GPU: minutes);
- one import of many outputs: 40 dmon logs of 32 MiB each (38 s and 2.2 GB before issue 35),
  through import-smi and through diagnose --dmon, read up to the import's caps (``MAX_FILES``
  outputs, ``MAX_TOTAL_CHARS`` in all) with a note naming the rest; 100 small outputs;
- special files: /dev/zero and a FIFO, refused (they hung or grew to gigabytes).

The limits the code holds are printed first (read from the modules, not copied here), so the
figures and the README's statement of them come from one run.

Prints one row per case (median of ``--repeat`` runs, the largest peak) and exits 1 if any
case takes over ``BUDGET_S`` or grows memory by over ``BUDGET_MB`` (generous: the point is
that every reader is bounded, not fast on a shared machine).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SMI = ROOT / "tests" / "fixtures" / "nvidia-smi"
DMON = ROOT / "tests" / "fixtures" / "diagnosis" / "dmon-4gpu-starved-input-pipeline.txt"
MEDIUM = ROOT / "examples" / "medium-model-4gpu-worth-it.yaml"
MEASURED = ROOT / "examples" / "measured-4gpu-only-1.8x-diagnose.yaml"
BUDGET_S = 60.0
BUDGET_MB = 1500.0
MB = 1_000_000


def _fill(unit: Callable[[int], str], cap: int, head: str = "") -> str:
    parts, size, i = [head], len(head.encode()), 0
    while True:
        piece = unit(i)
        if size + len(piece.encode()) > cap:
            return "".join(parts)
        parts.append(piece)
        size += len(piece.encode())
        i += 1


def _key(i: int) -> str:
    """One of 10,000 keys (the most a YAML mapping may hold) long enough to fill 1 MB."""
    return f"key_{i:05d}_" + "x" * 85


def _repeat_to(text: str, cap: int) -> str:
    """``text`` repeated to at most ``cap`` bytes of UTF-8, cut at a line end."""
    unit = text.encode("utf-8")
    body = (unit * (cap // max(len(unit), 1) + 1))[:cap].decode("utf-8", errors="ignore")
    return body[:body.rfind("\n") + 1]


def _topo(n: int) -> str:
    """`topo -m` of ``n`` GPUs joined by an NVSwitch (every pair NV18), with affinities."""
    head = "\t" + "\t".join(f"GPU{i}" for i in range(n)) + \
        "\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n"
    rows = "".join(f"GPU{i}\t" + "\t".join(" X " if i == j else "NV18" for j in range(n))
                   + f"\t0-55\t{i % 2}\t\tN/A\n" for i in range(n))
    return "nvidia-smi topo -m\n" + head + rows + "\nLegend:\n\n  X    = Self\n  NV#  = " \
        "Connection traversing a bonded set of # NVLinks\n"


def _shuffled_dmon(dmon: list[str], rows: int, gpus: int) -> str:
    """A dmon log of ``rows`` rows over ``gpus`` GPU indices in no fixed order."""
    import random

    order = [i % gpus for i in range(rows)]
    random.Random(35).shuffle(order)
    return "\n".join(dmon[:2]) + "\n" + "".join(
        f" {i}  300  50  40  {i % 100}  40  0  0  2619  1980\n" for i in order)


def limits() -> list[tuple[str, str]]:
    """The caps the readers hold, read from the code."""
    from advisor.files import reading, yaml_lines
    from advisor.hwimport import importer, links
    from advisor.hwimport import reading as smi_reading

    mib = 2**20
    out = [("profile, catalog override, autosave, measurement CSV",
            f"{getattr(reading, 'MAX_TEXT_BYTES', MB):,} bytes")]
    for name, what in (("MAX_ITEMS", "YAML entries in one mapping or list"),
                       ("MAX_NESTING", "YAML levels of nesting")):
        if hasattr(yaml_lines, name):
            out.append((what, f"{getattr(yaml_lines, name):,}"))
    out += [("nvidia-smi output or log, each", f"{importer.MAX_FILE_BYTES // mib} MiB")]
    if hasattr(importer, "MAX_FILES"):
        out += [("outputs in one import", f"{importer.MAX_FILES}"),
                ("characters in one import", f"{importer.MAX_TOTAL_CHARS // mib} MiB")]
    out.append(("GPUs kept from one output", f"{smi_reading.MAX_GPUS:,}"))
    if hasattr(links, "MAX_LISTED_PAIRS"):
        out.append(("NVLink pairs listed", f"{links.MAX_LISTED_PAIRS:,}"))
    return out


# name -> (file name, builder of its content, how the child reads it[, copies]): a case of
# several copies is a folder of that many files (hard links to one), read as one import
def _cases(tmp: Path) -> dict[str, tuple]:
    from advisor.files import reading
    from advisor.hwimport import importer

    # getattr: the same cases can be run on a checkout from before the caps (``cd`` there)
    MAX_TEXT_BYTES = getattr(reading, "MAX_TEXT_BYTES", MB)  # noqa: N806
    MAX_FILE_BYTES = getattr(importer, "MAX_FILE_BYTES", 32 * 1024 * 1024)  # noqa: N806

    smi_all = "\n".join(p.read_text(encoding="utf-8") for p in sorted(SMI.rglob("*.txt")))
    dmon = DMON.read_text(encoding="utf-8").splitlines()
    return {
        "profile YAML: 1 MB, 9,999 unknown keys": (
            "p.yaml", lambda: "schema_version: 1\n" + "".join(f"{_key(i)}: 1\n"
                                                             for i in range(9_999)), "profile"),
        "profile YAML: 1 MB, 88,000 keys (refused)": (
            "p.yaml", lambda: _fill(lambda i: f"k{i}: 1\n", MAX_TEXT_BYTES,
                                    "schema_version: 1\n"), "profile"),
        "profile JSON: 1 MB of unknown keys": (
            "p.json", lambda: _fill(lambda i: f'"k{i}": 1,\n', MAX_TEXT_BYTES - 20,
                                    '{"schema_version": 1,\n') + '"end": 1}\n', "profile"),
        "catalog: 1 MB, 10,000 unknown sections": (
            "catalog.yaml", lambda: "".join(f"{_key(i)}: []\n" for i in range(10_000)),
            "catalog"),
        "catalog: 0.9 MB, 9,000 GPU entries": (
            "catalog.yaml", lambda: "gpus:\n" + "".join(
                f"  - {{id: gpu{i}, name: G{i}, memory_gb: 10, tflops_fp16_dense: 10, "
                f"tflops_fp32: 5, tdp_w: 100}}\n" for i in range(9_000)),
            "catalog"),
        "autosave: 1 MB, 9,990 answers": (
            "autosave.yaml", lambda: "autosave_version: 1\nsource: null\nanswers:\n" + "".join(
                f"  {_key(i)[:64]}: {{name: n{i}, millions: {i}}}\n" for i in range(9_990)),
            "autosave"),
        "nvidia-smi: 32 MiB mixed paste": (
            "smi.txt", lambda: _repeat_to(smi_all, MAX_FILE_BYTES), "smi"),
        "nvidia-smi: CSV of 100,000 GPU indices": (
            "smi.csv", lambda: "index, name, memory.total [MiB], utilization.gpu [%]\n" + "".join(
                f"{i % 100_000}, NVIDIA H100 80GB HBM3, 81559 MiB, {i % 100} %\n"
                for i in range(300_000)), "smi"),
        "measurement CSV: 1 MB, 1,000 points": (
            "m.csv", lambda: "gpus,throughput\n" + "".join(
                f"{n},{100 * n}\n" for n in range(1, 1001)) + _fill(
                    lambda i: f"# comment {i}\n", MAX_TEXT_BYTES - 12_000), "csv"),
        "dmon log: 32 MiB, 4 GPUs": (
            "dmon.txt", lambda: "\n".join(dmon[:2]) + "\n" + _repeat_to(
                "\n".join(dmon[2:]) + "\n", MAX_FILE_BYTES - 200), "dmon"),
        "nvidia-smi: topo -m of 2,048 GPUs (NVSwitch)": ("topo.txt", lambda: _topo(2048), "smi"),
        "nvidia-smi: -L of 100,000 GPUs": (
            "list.txt", lambda: "".join(
                f"GPU {i}: NVIDIA H100 80GB HBM3 (UUID: GPU-{i:08x}-0000-0000-0000-"
                "000000000000)\n" for i in range(100_000)), "smi"),
        "dmon log: 100,000 rows, 5,000 GPUs, no order": (
            "dmon.txt", lambda: _shuffled_dmon(dmon, 100_000, 5_000), "smi"),
        "import-smi: 40 dmon logs of 32 MiB": (
            "dmon.txt", lambda: "\n".join(dmon[:2]) + "\n" + _repeat_to(
                "\n".join(dmon[2:]) + "\n", MAX_FILE_BYTES - 200), "smi-files", 40),
        "diagnose --dmon: 40 logs of 32 MiB": (
            "dmon.txt", lambda: "\n".join(dmon[:2]) + "\n" + _repeat_to(
                "\n".join(dmon[2:]) + "\n", MAX_FILE_BYTES - 200), "dmon-files", 40),
        "import-smi: 100 small outputs": (
            "smi.txt", lambda: (SMI / "topo" / "a100-8gpu-nv12-4nic-legend.txt").read_text(
                encoding="utf-8"), "smi-files", 100),
        "/dev/zero as a profile": ("/dev/zero", lambda: None, "profile"),
        "a FIFO as an nvidia-smi output": ("fifo", lambda: None, "smi"),
    }


def _read(kind: str, path: str) -> str:
    """The reader a command uses for ``kind``; 'ok' or 'refused' (exit 2's InputError)."""
    from advisor.files.errors import InputError

    try:
        if kind == "profile":
            from advisor.catalog.profile_check import load_profile

            load_profile(path)
        elif kind == "catalog":
            from advisor.catalog.catalog import load_catalog

            os.environ["GPU_ADVISOR_CONFIG_DIR"] = str(Path(path).parent)
            catalog = load_catalog()
            from advisor.catalog.gpus import load_gpus

            load_gpus()
            first = catalog.warnings[0].message_en[:40] if catalog.warnings else ""
            return f"ok, {len(catalog.warnings)} warnings ({first})"
        elif kind == "autosave":
            from ui.window import user_files

            os.environ["GPU_ADVISOR_STATE_DIR"] = str(Path(path).parent)
            try:
                user_files.read_autosave()
            except user_files.BrokenAutosave:
                return "moved aside"
        elif kind in ("smi", "smi-files"):
            from advisor.hwimport import parse_files

            desc = parse_files(_paths(kind, path))
            return f"ok, {len(desc.gpus)} GPUs" + _notes(desc.warnings)
        elif kind == "csv":
            from advisor.diagnosis import diagnose, read_measurements_csv

            diagnose(read_measurements_csv(path))
        elif kind in ("dmon", "dmon-files"):
            from advisor.diagnosis import read_gpu_logs

            telemetry = read_gpu_logs(_paths(kind, path))
            return "ok" + _notes(getattr(telemetry, "notes", ()))
    except InputError as exc:
        return "refused: " + exc.problems[0].message_en[:50]
    return "ok"


def _paths(kind: str, path: str) -> list[str]:
    """One file, or the files of a folder (a case of several copies), in order."""
    if kind.endswith("-files"):
        return [str(p) for p in sorted(Path(path).iterdir())]
    return [path]


def _notes(warnings) -> str:
    """The notes that say what was not read (left out, only the first N), shortened."""
    said = [w.en for w in warnings if any(
        words in w.en for words in ("left out", "only the first", "lists the first",
                                    "were not read"))]
    return "; " + "; ".join(n[:60] for n in said) if said else ""


def _maxrss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def child(kind: str, path: str) -> None:
    """Time one read in this fresh process; print JSON."""
    from advisor.catalog.profile_check import load_profile
    from advisor.diagnosis import diagnose, from_measured_spec

    if kind == "autosave":
        import ui.window.user_files  # noqa: F401 - imported before the baseline
    with tempfile.TemporaryDirectory() as warm:  # imports, the catalog, a first fit: once
        os.environ.setdefault("GPU_ADVISOR_CONFIG_DIR", warm)
        os.environ.setdefault("GPU_ADVISOR_STATE_DIR", warm)
        profile = load_profile(MEASURED)
        diagnose(from_measured_spec(profile.measured), profile)
        _read("smi", str(next(SMI.rglob("*.txt"))))
    baseline = _maxrss_mb()
    start = time.perf_counter()
    outcome = _read(kind, path)
    seconds = time.perf_counter() - start
    print(json.dumps({"s": seconds, "mb": max(_maxrss_mb() - baseline, 0.0),
                      "outcome": outcome}))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default=None, help="run the cases whose name holds this")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child", nargs=2, metavar=("KIND", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(*args.child)
        return 0
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONWARNINGS": "error::RuntimeWarning"}
    failed = False
    print("limits held by the code:")
    for what, value in limits():
        print(f"  {what:<54} {value}")
    print()
    print(f"{'reader and input':<44} {'size':>10} {'median s':>9} {'max s':>7} {'peak MB':>8}"
          "  outcome")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for name, (file_name, build, kind, *more) in _cases(tmp).items():
            if args.only and args.only not in name:
                continue
            case_dir = tmp / str(abs(hash(name)))
            case_dir.mkdir()
            path = Path(file_name) if file_name.startswith("/") else case_dir / file_name
            text = build()
            if text is not None:
                path.write_text(text, encoding="utf-8")
            elif file_name == "fifo":
                os.mkfifo(path)
            size = path.stat().st_size if path.is_file() else 0
            copies = more[0] if more else 1
            if copies > 1:  # a folder of that many files: hard links to the one written
                folder = case_dir / "files"
                folder.mkdir()
                for i in range(copies):
                    os.link(path, folder / f"{i:03d}-{file_name}")
                path, size = folder, size * copies
            runs = []
            for _ in range(args.repeat):
                out = subprocess.run([sys.executable, "-m", "benchmarks.reader_limits", "--child",
                                      kind, str(path)], capture_output=True, text=True,
                                     env=env, cwd=ROOT, timeout=600)
                if out.returncode != 0:
                    print(f"{name}: the child failed\n{out.stderr[-2000:]}")
                    return 1
                runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
            median = statistics.median(r["s"] for r in runs)
            worst = max(r["s"] for r in runs)
            peak = max(r["mb"] for r in runs)
            failed |= worst > BUDGET_S or peak > BUDGET_MB
            print(f"{name:<44} {size / MB:>8.2f}MB {median:>9.2f} {worst:>7.2f} {peak:>8.1f}  "
                  f"{runs[0]['outcome']}", flush=True)
    print(f"\nbudget: every case under {BUDGET_S:.0f} s and {BUDGET_MB:.0f} MB -> "
          f"{'FAIL' if failed else 'ok'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
