"""The export's files: its parts while it runs, then the archive, in the export folder.

Each step of a running export writes one part, a page of one section as JSON Lines of
`[key, record]`, under `<id>.parts/`; a part is written to a temporary name and renamed, so a
step that dies leaves no half part, and a step run twice writes the same part again. Putting
the archive together reads the parts in order, section by section, keeps the records whose rows
still exist, and writes `<id>.zip`: one `<section>.jsonl` per section and `manifest.json`. No
page and no section is ever held in memory whole.
"""

from __future__ import annotations

import json
import os
import shutil
import zipfile
from collections.abc import Callable, Iterator, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import Any, BinaryIO

from app.settings import get_settings

FORMAT_VERSION = 1
READ_BYTES = 64 * 1024


def folder(*, create: bool = True) -> Path:
    path = get_settings().exports_folder
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path


def archive_name(export_id: str) -> str:
    return f"{export_id}.zip"


def _parts_dir(export_id: str) -> Path:
    return folder() / f"{export_id}.parts"


def _json(value: Any) -> str:
    if isinstance(value, datetime | date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=_json)


def write_part(export_id: str, name: str, rows: Sequence[tuple[Any, dict[str, Any]]]) -> None:
    parts = _parts_dir(export_id)
    parts.mkdir(parents=True, exist_ok=True)
    temporary = parts / f".{name}.tmp"
    with temporary.open("w", encoding="utf-8") as out:
        for key, record in rows:
            out.write(dumps([key, record]) + "\n")
    os.replace(temporary, parts / name)


def _part_rows(export_id: str, name: str) -> list[tuple[Any, dict[str, Any]]]:
    """One part's rows (a page: at most DOSSIER_EXPORT_CHUNK). A part the progress names and
    the folder lacks raises: an archive is never put together with a page missing."""
    with (_parts_dir(export_id) / name).open(encoding="utf-8") as part:
        return [(key, record) for key, record in map(json.loads, part)]


def assemble(
    export_id: str,
    parts: Sequence[tuple[str, str]],
    sections: Sequence[str],
    keep: Callable[[str, list[Any]], set[Any]],
    manifest: dict[str, Any],
) -> tuple[str, int, dict[str, int]]:
    """Write the archive from `parts` ((section, part name) in order): each section's records
    whose keys `keep(section, keys)` returns. Returns the archive's name, size and counts."""
    counts = dict.fromkeys(sections, 0)
    name = archive_name(export_id)
    temporary = folder() / f".{name}.tmp"
    with zipfile.ZipFile(temporary, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for section in sections:
            with archive.open(f"{section}.jsonl", "w", force_zip64=True) as out:
                for part_section, part in parts:
                    if part_section != section:
                        continue
                    rows = _part_rows(export_id, part)
                    kept = keep(section, [key for key, _ in rows])
                    for key, record in rows:
                        if key in kept:
                            out.write((dumps(record) + "\n").encode())
                            counts[section] += 1
        archive.writestr(
            "manifest.json",
            json.dumps(
                {
                    "format": FORMAT_VERSION,
                    **manifest,
                    "files": {f"{s}.jsonl": n for s, n in counts.items()},
                },
                indent=2,
            ),
        )
    os.replace(temporary, folder() / name)
    return name, (folder() / name).stat().st_size, counts


def remove_parts(export_id: str) -> None:
    """The parts, and an archive left half-written by a step that died."""
    shutil.rmtree(_parts_dir(export_id), ignore_errors=True)
    (folder() / f".{archive_name(export_id)}.tmp").unlink(missing_ok=True)


def remove_archive(name: str | None) -> None:
    if name:
        (folder() / name).unlink(missing_ok=True)


def files_on_disk() -> dict[str, list[Path]]:
    """The export ids the folder holds files of (parts or archives), with those files."""
    found: dict[str, list[Path]] = {}
    for path in folder().iterdir():
        if path.name.startswith("exp_") and path.suffix in (".parts", ".zip"):
            found.setdefault(path.name.split(".", 1)[0], []).append(path)
    return found


def remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def open_archive(name: str) -> BinaryIO | None:
    """The archive opened for reading, or None when it is not in the folder. Once open it
    stays readable to the end even if the sweep removes it meanwhile."""
    try:
        return (folder(create=False) / name).open("rb")
    except OSError:  # not there, or a folder this process cannot read
        return None


def read_chunks(handle: BinaryIO) -> Iterator[bytes]:
    try:
        while chunk := handle.read(READ_BYTES):
            yield chunk
    finally:
        handle.close()
