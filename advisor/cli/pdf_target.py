"""Where ``--pdf`` may write: never over a file the command reads, nor over a file that is
not a PDF report (a profile, a log, notes), which a mistyped name would otherwise destroy
(review 4: ``recommend p.yaml --pdf p.yaml`` replaced the profile with its report)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from advisor.files.atomic import check_target
from advisor.files.errors import InputError

PDF_MAGIC = b"%PDF-"


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def check_pdf_target(path: str, inputs: Iterable[str | Path | None]) -> Path:
    """``check_target``'s path, after refusing one that is (a link to) an input of the
    command, or an existing file that does not begin as a PDF does."""
    target = check_target(path)
    for given in inputs:
        if given is None or str(given) in ("", "-"):
            continue
        if target.exists() and Path(given).exists() and _same_file(target, Path(given)):
            raise InputError.single(
                f"is the file this command reads ({given}): not replaced (choose another "
                "name for the PDF)",
                f"是本命令读取的文件（{given}）：未覆盖（请为 PDF 另选文件名）", source=path)
    if target.is_file():
        try:
            with open(target, "rb") as f:
                head = f.read(len(PDF_MAGIC))
        except OSError:
            head = b""
        if head != PDF_MAGIC and os.path.getsize(target) > 0:
            raise InputError.single(
                "exists and is not a PDF: not replaced (delete it first, or choose another "
                "name)",
                "已存在且不是 PDF：未覆盖（请先删除它，或另选文件名）", source=path)
    return target
