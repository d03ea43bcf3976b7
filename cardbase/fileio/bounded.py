"""Reading what people hand us within bounds: regular files only, never more than a cap.

A path can name a pipe that blocks forever, /dev/zero that never ends, a folder, or a file
far larger than any collection. Each is refused in one line, by what `fstat` says before a
byte is read, and again while reading: at most cap + 1 bytes are read, so a file that grows
while it is read is caught too. The caps are in `cardbase.limits`.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from cardbase.errors import CardbaseError
from cardbase.text import shown

NOT_REGULAR = (  # what a path names instead of a file, and how a message says it
    (stat.S_ISDIR, "a folder; name a file in it"),
    (stat.S_ISFIFO, "a pipe; save what it carries to a file and name that"),
    (stat.S_ISSOCK, "a socket; save what it carries to a file and name that"),
    (stat.S_ISCHR, "a device, not a file"),
    (stat.S_ISBLK, "a device, not a file"),
)


class InputFileError(CardbaseError):
    """A path that names no readable regular file, or one past its size cap."""


def read_bounded(
    path: Path,
    cap: int,
    what: str,
    head: int | None = None,
    error: type[CardbaseError] = InputFileError,
    noun: str = "file",
) -> bytes:
    """The bytes of the regular file at `path` (or its first `head` bytes), at most `cap`.

    Opened without blocking, so a pipe with no writer is refused rather than waited on.
    Refusals are `error`s, so that each caller's own error type names them; a file that
    cannot be opened is "the {noun}".
    """
    try:
        return _read_regular(path, cap, what, head, noun)
    except InputFileError as exc:
        if error is InputFileError:
            raise
        raise error(exc.message) from exc


def _read_regular(path: Path, cap: int, what: str, head: int | None, noun: str) -> bytes:
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        reason = exc.strerror or exc
        raise InputFileError(f"{shown(path)}: cannot read the {noun} ({reason})") from exc
    try:
        mode = os.fstat(fd)
        for test, kind in NOT_REGULAR:
            if test(mode.st_mode):
                raise InputFileError(f"{shown(path)}: not a regular file: it is {kind}")
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as handle:  # a folder's descriptor would not be taken
        if head is not None:
            return _read(handle, path, min(head, cap), noun)
        check_size(path, mode.st_size, cap, what)
        # Asked for as much as fstat says is there (a read of `cap` bytes would set the whole
        # cap aside first), then, if the file grew meanwhile, for the rest up to the cap.
        data = _read(handle, path, mode.st_size + 1, noun)
        if len(data) > mode.st_size:
            data += _read(handle, path, cap + 1 - len(data), noun)
    check_size(path, len(data), cap, what, read=True)
    return data


def _read(handle: BinaryIO, path: Path, size: int, noun: str) -> bytes:
    try:
        return handle.read(size)
    except OSError as exc:
        reason = exc.strerror or exc
        raise InputFileError(f"{shown(path)}: cannot read the {noun} ({reason})") from exc


def check_size(source: Path | str, size: int, cap: int, what: str, *, read: bool = False) -> None:
    """Refuse `size` bytes past `cap`: no real `what` is that large.

    `read` says the size is what reading stopped at (cap + 1), not what the file claims.
    """
    if size > cap:
        said = f"more than {cap:,} bytes" if read else f"{size:,} bytes"
        raise InputFileError(
            f"{shown(source)}: {said} is more than a {what} holds (at most {cap:,}); "
            "is it the right file? If it is, split it"
        )
