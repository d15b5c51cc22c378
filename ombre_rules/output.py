"""Where the commands' files go: every file a command writes is opened here, `-` meaning standard output."""
from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import IO

from .errors import OmbreError


@contextlib.contextmanager
def open_output(path: str, binary: bool = False) -> Iterator[IO]:
    """Open `path` for writing (`-`: standard output). A file appears only complete: it is written beside its
    place and moved there once closed; on an error nothing is left behind."""
    if path == "-":
        stream = sys.stdout.buffer if binary else sys.stdout
        yield stream
        stream.flush()
        return
    part = path + ".part"
    try:
        f = open(part, "wb") if binary else open(part, "w", encoding="utf-8", newline="")
    except OSError as e:
        raise OmbreError(f"cannot write '{path}': {e.strerror or e}") from None
    try:
        with f:
            yield f
        os.replace(part, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(part)
        raise
