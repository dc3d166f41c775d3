"""Where a figure came from: the commit of the checkout, the machine's cores and load, the
date; and the page's JSON of records, read and written."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .model import ROOT, Page, Records

FORMAT = 1
# every record holds these (the test checks them); the figures hold the games and intervals
REQUIRED = ("commands", "commit", "cores", "date", "wall_s", "versions", "figures")


def git_commit(root: Path = ROOT, written: tuple[str, ...] = ()) -> str | None:
    """The commit checked out at `root`, with `+dirty` when tracked files differ from it (but
    the files of `written`, which the measuring itself rewrites: the pages and their blocks);
    None outside a git checkout (an sdist)."""
    excluded = [f":(exclude){path}" for path in written]
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--",
                                ".", *excluded], cwd=root, capture_output=True, text=True,
                               check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return head + ("+dirty" if dirty.strip() else "")


def load_average() -> float | None:
    """The machine's 1-minute load average (None where the system has none)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def now() -> str:
    """The time now, UTC, to the second (ISO 8601)."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def load_records(page: Page) -> Records:
    """The page's records by measurement id (none if its JSON does not exist yet)."""
    if not page.json_path.exists():
        return {}
    data = json.loads(page.json_path.read_text(encoding="utf-8"))
    return data["measurements"]


def save_records(page: Page, records: Records) -> None:
    """Write the page's JSON: the records in the page's order of measurements (records of
    measurements the page no longer defines are dropped)."""
    ordered = {m.id: records[m.id] for m in page.measurements if m.id in records}
    data: dict[str, Any] = {
        "format": FORMAT, "page": page.name,
        "about": "written by scripts/results.py; docs/results/index.md says how to read it",
        "measurements": ordered,
    }
    _write(page.json_path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def _write(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file, so a reader never sees half of it."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
