"""Reading a run folder that someone else may have written: only a regular file (not a symbolic
link, a named pipe or a device) whose size is within its limit is opened, without following a
link and without blocking, checked on the open file itself (no race).

The web page reads every run file through these, so a link planted in a run folder cannot serve
a file from elsewhere and a pipe cannot hold a request.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any


class NotRegularFile(OSError):
    """A run's file that is not read: a link, a pipe, a device, or over its size limit."""


def open_regular(path: Path, limit: int) -> int:
    """A read-only descriptor of `path` once it is known to be a regular file of at most `limit`
    bytes: opened without following a final symbolic link and without blocking (a named pipe
    opens at once and is then refused), checked on the open file itself (no race)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)  # a symbolic link raises ELOOP here
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(f"{path.name} is not a regular file")
        if info.st_size > limit:
            raise NotRegularFile(f"{path.name} is {info.st_size:,} bytes, over the "
                                 f"{limit:,}-byte limit")
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of `path` when it is a regular file of at most `limit` bytes (`open_regular`);
    raises OSError otherwise."""
    with os.fdopen(open_regular(path, limit), "rb") as f:
        return f.read(limit + 1)[:limit]


def is_regular(path: Path) -> bool:
    """Whether `path` is a regular file itself (a symbolic link to one is not)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def read_json_safely(path: Path, limit: int) -> Any:
    """The JSON in `path` (a regular file within `limit` bytes), or None when it is not one or
    does not parse."""
    try:
        return json.loads(read_regular(path, limit).decode("utf-8"))
    except (OSError, ValueError):
        return None


def read_text_safely(path: Path, limit: int) -> str | None:
    """The text of `path` (a regular file within `limit` bytes; undecodable bytes replaced), or
    None when it is not one."""
    try:
        return read_regular(path, limit).decode("utf-8", errors="replace")
    except OSError:
        return None
