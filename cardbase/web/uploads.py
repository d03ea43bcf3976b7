"""Uploaded spreadsheets: kept in the server's own folder under a random token, read by the
same importer and trade-list reader as files named on the command line.

The request names no path: the folder is the server's, the token is random, and the file's
name keeps only the letters, digits (of any script), dots, dashes and spaces of the name the
browser sent (so messages say "Collection.xlsx, row 17" or "Коллекция.csv, row 17" as the
command line would); the server's folder never appears in a message.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from fastapi import UploadFile

from cardbase.errors import CardbaseError
from cardbase.web.guard import MAX_UPLOAD

SUFFIXES = (".xlsx", ".xlsm", ".xls", ".ods", ".csv", ".txt", ".tsv")
CHUNK = 1 << 20
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


MAX_NAME_BYTES = 200  # of the kept name in UTF-8: a file system takes 255


def safe_name(name: str | None) -> str:
    """The name to keep the upload under. The extension is read from the name as sent, and
    the rest keeps letters and digits of every script (NFC, as a Mac may send them
    decomposed); a name with none left is "upload" with its extension."""
    base = unicodedata.normalize("NFC", re.split(r"[\\/]", name or "")[-1])
    stem, dot, extension = base.rpartition(".")
    suffix = f".{extension}" if dot and stem.strip(" .") else ""
    if suffix.lower() not in SUFFIXES:
        shown = "".join(ch if ch.isprintable() else "?" for ch in base[:80])
        raise CardbaseError(
            f"'{shown}' is not a spreadsheet cardbase reads: use {', '.join(SUFFIXES)}"
        )
    cleaned = re.sub(r"[^\w .-]+", "", stem).strip(" .")[-80:]
    while len(cleaned.encode()) > MAX_NAME_BYTES:
        cleaned = cleaned[1:]
    return f"{cleaned.strip(' .') or 'upload'}{suffix}"


@contextmanager
def as_uploaded(path: Path) -> Iterator[None]:
    """A reader's message names the file as the user uploaded it (`Collection.xlsx: not a
    .xlsx workbook`), not the server's folder it was kept in."""
    try:
        yield
    except CardbaseError as exc:
        folder = str(path.parent)
        for attribute in ("message", "hint"):
            text = getattr(exc, attribute, None)
            if isinstance(text, str) and folder in text:
                setattr(exc, attribute, text.replace(f"{folder}/", "").replace(folder, ""))
        if exc.args and isinstance(exc.args[0], str):
            exc.args = (exc.message, *exc.args[1:])
        raise


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
