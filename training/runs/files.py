"""Files written whole: every file of a run is written under a temporary name in its own folder
and renamed into place, so a reader sees the old version or the new one, never half of one.

The one atomic writer of `huerta.training`: training of every method, RLlib, tournaments and
the benchmark write through it.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, BinaryIO


def temporary_path(path: Path) -> Path:
    """A temporary name beside `path` (same folder, so the rename is atomic); it starts with a
    dot so no glob of checkpoints or snapshots sees it."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def save_atomically(path: Path, write: Callable[[BinaryIO], Any]) -> None:
    """Write `path` through `write(binary file)` under a temporary name, synced and renamed into
    place, so a reader sees the previous file or the whole new one (never a temporary left)."""
    tmp = temporary_path(path)
    try:
        with open(tmp, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_atomic(path: Path, text: str) -> None:
    """Write `text` (UTF-8) to `path` atomically: the file is either the old one or the whole
    new one."""
    save_atomically(path, lambda f: f.write(text.encode()))


def write_json(path: Path, data: Any) -> None:
    """Write `data` as indented JSON (a final newline), atomically."""
    write_atomic(path, json.dumps(data, indent=2) + "\n")


def copy_atomic(src: Path, dst: Path) -> None:
    """Copy `src` to `dst` atomically (a reader of `dst` never sees half a copy)."""
    with open(src, "rb") as source:
        save_atomically(dst, lambda f: shutil.copyfileobj(source, f))


def replace_folder(path: Path, write: Callable[[Path], Any]) -> None:
    """Write the folder `path` whole: `write(temporary folder)` fills a folder beside it, which
    then takes its place (the old one removed after), so a reader never sees half of one."""
    tmp = temporary_path(path)
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        write(tmp)
        old = path.with_name(f".{path.name}.{os.getpid()}.old")
        if path.exists():
            os.replace(path, old)
        os.replace(tmp, path)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def clear_run(run: Path, files: Iterable[str], folders: Iterable[str]) -> None:
    """Remove a run's own `files` and `folders` from `run` (nothing else in it), for --force."""
    for name in files:
        (run / name).unlink(missing_ok=True)
    for folder in folders:
        shutil.rmtree(run / folder, ignore_errors=True)
