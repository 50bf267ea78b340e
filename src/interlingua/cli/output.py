"""Output files written whole or not at all: a temporary file beside the target, renamed over it
only when the command finished, so an interrupt or a failure never leaves a half-written file in
place of a complete one written earlier."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO

from .exits import USAGE, CliError


@contextmanager
def atomic_output(name: str | None) -> Iterator[IO[bytes]]:
    """A binary file to write ``name`` through: stdout for None or ``-``; a new or regular file
    through a temporary file in its folder, renamed over ``name`` when the block ends without an
    exception and removed when it does not. Anything else that exists (``/dev/null``, a FIFO,
    ``/dev/stdout``) is written in place: renaming over it would replace the device itself. An
    unwritable target is a one-line :class:`CliError`."""
    if name is None or name == "-":
        try:
            with os.fdopen(os.dup(sys.stdout.fileno()), "wb") as stdout:
                yield stdout
        except BrokenPipeError:  # the reader left: the caller's to handle (nothing to report)
            raise
        except OSError as err:  # stdout is a full disk, /dev/full, ...
            raise CliError(f"cannot write stdout: {err.strerror or err}", USAGE) from None
        return
    target = Path(name)
    if target.is_dir():
        raise CliError(f"cannot write {name}: it is a directory", USAGE)
    if target.exists() and (target.is_symlink() or not target.is_file()):
        try:
            special = open(target, "wb")  # noqa: SIM115  # closed by the with below
        except OSError as err:
            raise CliError(f"cannot write {name}: {err.strerror or err}", USAGE) from None
        try:
            with special:
                yield special
        except OSError as err:  # a device that refuses the bytes (/dev/full: no space left)
            raise CliError(f"cannot write {name}: {err.strerror or err}", USAGE) from None
        return
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    except OSError as err:
        raise CliError(f"cannot write {name}: {err.strerror or err}", USAGE) from None
    try:
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp's 0600 -> what a plain open() would give
        with os.fdopen(handle, "wb") as out:
            yield out
        os.replace(temporary, target)
    except OSError as err:
        _remove(temporary)
        raise CliError(f"cannot write {name}: {err.strerror or err}", USAGE) from None
    except BaseException:
        _remove(temporary)
        raise


def write_whole(data: bytes, name: str | None) -> None:
    """``data`` to ``name`` (stdout for None or ``-``) through :func:`atomic_output`."""
    with atomic_output(name) as out:
        out.write(data)
        out.flush()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _remove(path: str) -> None:
    with suppress(OSError):
        os.unlink(path)
