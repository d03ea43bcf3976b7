"""Uploaded spreadsheets: kept in the server's own folder under a random token, read by the
same importer and trade-list reader as files named on the command line.

The request names no path: the folder is the server's, the token is random, and the file's
name keeps only the letters, digits, dots, dashes and spaces of the name the browser sent
(so messages say "Collection.xlsx, row 17" as the command line would).
"""

from __future__ import annotations

import re
import secrets
from pathlib import Path

from fastapi import UploadFile

from cardbase.errors import CardbaseError
from cardbase.web.guard import MAX_UPLOAD

SUFFIXES = (".xlsx", ".xlsm", ".xls", ".ods", ".csv", ".txt", ".tsv")
CHUNK = 1 << 20
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


def safe_name(name: str | None) -> str:
    base = re.split(r"[\\/]", name or "")[-1]
    cleaned = re.sub(r"[^\w .-]+", "", base, flags=re.ASCII).strip(" .")[-80:]
    suffix = Path(cleaned).suffix.lower()
    if suffix not in SUFFIXES:
        raise CardbaseError(
            f"'{base[:80]}' is not a spreadsheet cardbase reads: use {', '.join(SUFFIXES)}"
        )
    return cleaned


async def keep(folder: Path, upload: UploadFile) -> tuple[str, Path]:
    """Store an upload, at most `MAX_UPLOAD` bytes; its token and where it is."""
    name = safe_name(upload.filename)
    token = secrets.token_urlsafe(18)
    target = folder / token / name
    target.parent.mkdir(parents=True)
    size = 0
    with target.open("wb") as out:
        while chunk := await upload.read(CHUNK):
            size += len(chunk)
            if size > MAX_UPLOAD:
                out.close()
                target.unlink()
                raise CardbaseError(
                    f"{name}: over {MAX_UPLOAD // 1_000_000} MB, the importer's limit"
                )
            out.write(chunk)
    if size == 0:
        raise CardbaseError(f"{name}: the file is empty")
    return token, target


def find(folder: Path, token: str) -> Path:
    """The upload a token names; an unknown or malformed token is refused."""
    if not TOKEN.fullmatch(token):
        raise CardbaseError("that upload is not known here: upload the file again")
    files = list((folder / token).glob("*")) if (folder / token).is_dir() else []
    if len(files) != 1:
        raise CardbaseError(
            "that upload is not known here (the server restarted?): upload it again"
        )
    return files[0]
