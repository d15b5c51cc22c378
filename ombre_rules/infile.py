"""Files read from a path a person or a record gives (variant files, scenarios, records): regular files only.

A FIFO or a device named as a file would block the reader or never end (`ombre check FIFO`, a record whose
variant is `/dev/stdin`), a folder cannot be read: each is refused with a message naming the path. The path
is looked at, then opened without blocking and looked at again on the open file, so that a file swapped for a
FIFO between the two is refused too; it is read up to a size limit.
"""
from __future__ import annotations

import os
import stat
from typing import BinaryIO

from .errors import OmbreError

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def _regular(mode: int, shown: str, error: type[OmbreError]) -> None:
    if stat.S_ISREG(mode):
        return
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    raise error(f"cannot read '{shown}': it is {kind}, not a regular file")


def open_binary(path: str, error: type[OmbreError] = OmbreError, name: str | None = None) -> BinaryIO:
    """The regular file at `path` opened for reading bytes (looked at, opened without blocking, looked at
    again); otherwise `error` naming the file as `name` (default: the path) and saying why."""
    shown = path if name is None else name
    try:
        _regular(os.stat(path).st_mode, shown, error)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise error(f"cannot read '{shown}': {e.strerror or e}") from None
    f = os.fdopen(fd, "rb")
    try:
        _regular(os.fstat(f.fileno()).st_mode, shown, error)
    except BaseException:
        f.close()
        raise
    return f


def read_bytes(path: str, limit: int, error: type[OmbreError] = OmbreError, name: str | None = None) -> bytes:
    """The bytes of the regular file at `path`, at most `limit` of them; otherwise `error` naming the file as
    `name` (default: the path) and saying why."""
    shown = path if name is None else name
    try:
        with open_binary(path, error, name) as f:
            raw = f.read(limit + 1)
    except OSError as e:
        raise error(f"cannot read '{shown}': {e.strerror or e}") from None
    if len(raw) > limit:
        raise error(f"cannot read '{shown}': larger than {limit} bytes")
    return raw
