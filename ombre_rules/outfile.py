"""Files the command line writes: checked before any work is done, `-` for standard output, and never a
replaced FIFO, device or symlink. A regular file (or a new one) is written whole or not at all: to a temporary
file beside it, then renamed over it; anything else that exists is written in place."""
from __future__ import annotations

import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO

from .errors import OmbreError

STDOUT = "-"


@dataclass(frozen=True)
class Target:
    """Where output goes: standard output, a file replaced atomically, or a special file written in place."""

    path: str
    kind: str  # "stdout", "replace" or "in_place"

    @property
    def is_stdout(self) -> bool:
        return self.kind == "stdout"


def _fail(path: str, why: str) -> OmbreError:
    return OmbreError(f"cannot write '{path}': {why}")


def target(path: str) -> Target:
    """Check that `path` can be written, before the run that fills it starts."""
    if path == STDOUT:
        return Target(path, "stdout")
    if not path:
        raise _fail(path, "no file name")
    try:
        st = os.stat(path)  # follows a symlink to what it points at
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise _fail(path, e.strerror or str(e)) from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise _fail(path, "it is a folder")
    if os.path.islink(path) or (st is not None and not stat.S_ISREG(st.st_mode)):
        if st is None:
            raise _fail(path, "a symlink to nothing")
        if not os.access(path, os.W_OK):
            raise _fail(path, "permission denied")
        return Target(path, "in_place")  # a FIFO, a device, a symlink: written through, never replaced
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise _fail(path, f"no folder '{os.path.dirname(path) or '.'}'")
    if not os.access(folder, os.W_OK | os.X_OK) or (st is not None and not os.access(path, os.W_OK)):
        raise _fail(path, "permission denied")
    return Target(path, "replace")


def folder_target(path: str) -> str:
    """Check that `path` is a folder that can be written (or can be made), before the run that fills it."""
    if path == STDOUT or not path:
        raise OmbreError("--out needs a folder (not '-')")
    if os.path.exists(path):
        if not os.path.isdir(path):
            raise _fail(path, "it is not a folder")
        if not os.access(path, os.W_OK | os.X_OK):
            raise _fail(path, "permission denied")
        return path
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise _fail(path, f"no folder '{os.path.dirname(path) or '.'}'")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise _fail(path, "permission denied")
    return path


@contextmanager
def opened(t: Target, binary: bool = False) -> Iterator[IO]:
    """A text (or `binary`) stream to the target. A replaced file is renamed into place when the block ends
    (also when it ends early, so lines written before an interruption are kept)."""
    if t.is_stdout:
        stream = sys.stdout.buffer if binary else sys.stdout
        yield stream
        stream.flush()
        return
    mode, enc = ("wb", None) if binary else ("w", "utf-8")
    try:
        if t.kind == "in_place":
            with open(t.path, mode, encoding=enc) as f:
                yield f
            return
        folder = os.path.dirname(os.path.abspath(t.path))
        fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(t.path) + ".", suffix=".part", dir=folder)
    except OSError as e:
        raise _fail(t.path, e.strerror or str(e)) from None
    try:
        with os.fdopen(fd, mode, encoding=enc) as f:
            yield f
        os.chmod(tmp, _mode(t.path))
        os.replace(tmp, t.path)
    except OSError as e:
        raise _fail(t.path, e.strerror or str(e)) from None
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def _mode(path: str) -> int:
    """The permissions a replaced file keeps, or those a new file gets (by the umask)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_text(t: Target, text: str) -> None:
    """Write the whole text to the target at once."""
    with opened(t) as f:
        f.write(text)


def open_output(path: str, binary: bool = False):
    """Check `path` and open it for writing (see `opened`): `-` is standard output."""
    return opened(target(path), binary)
