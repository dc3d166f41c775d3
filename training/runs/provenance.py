"""Where a run's models came from: the commit of the huerta source that trained them and the
versions of the libraries it ran on, recorded in the run folder (provenance.json, one entry per
session: a resumed run may run on other code) and copied into every model the run writes
(`about["trained"]`), so that anyone can rebuild a model from what its file says.

Nothing here fails a run: without git, or outside a git checkout of huerta (an installed
wheel), the commit is None; a library that is not installed is left out.
"""

from __future__ import annotations

import datetime
import json
import platform
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

from .files import write_json
from .layout import PROVENANCE_FILE

# the distributions whose versions a model records (the ones installed)
LIBRARIES = ("numpy", "torch", "stable-baselines3", "sb3-contrib", "gymnasium", "pettingzoo")
# the folder setup.py maps huerta's packages from: envs/, agents/, training/ and web/ are in it
SOURCE_ROOT = Path(__file__).resolve().parents[2]
GIT_TIMEOUT = 10.0  # seconds for one git command: a hung git must not hold a run


def _git(root: Path, *args: str) -> str | None:
    """The output of `git -C root ARGS` (stripped), or None when git is missing, fails or
    hangs."""
    try:
        done = subprocess.run(["git", "--no-optional-locks", "-C", str(root), *args],
                              capture_output=True, text=True, timeout=GIT_TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def source_commit(root: Path = SOURCE_ROOT) -> dict[str, Any]:
    """`{"commit": HEAD's hash, "dirty": whether tracked files differ from it}` of the git
    checkout whose top folder is `root`; `{"commit": None, "dirty": None}` where `root` is no
    such checkout (no git, or huerta installed from a wheel inside some other repository)."""
    top = _git(root, "rev-parse", "--show-toplevel")
    if top is None or Path(top).resolve() != root.resolve():
        return {"commit": None, "dirty": None}
    commit = _git(root, "rev-parse", "HEAD")
    changes = _git(root, "status", "--porcelain", "--untracked-files=no")
    if commit is None:
        return {"commit": None, "dirty": None}
    return {"commit": commit, "dirty": None if changes is None else bool(changes)}


def library_versions() -> dict[str, str]:
    """The versions of Python and of the `LIBRARIES` installed (those missing are left out)."""
    versions = {"python": platform.python_version()}
    for name in LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return versions


def session_provenance() -> dict[str, Any]:
    """This process's provenance: the source commit, the libraries, the platform and the time."""
    return {**source_commit(), "libraries": library_versions(),
            "platform": f"{platform.system()}-{platform.machine()}",
            "started": datetime.datetime.now().astimezone().isoformat(timespec="seconds")}


def read_sessions(run: Path) -> list[dict[str, Any]]:
    """The sessions recorded in `run`'s provenance.json, oldest first ([] for a run from
    before the file, or a damaged one)."""
    try:
        sessions = json.loads((run / PROVENANCE_FILE).read_text())
    except (OSError, ValueError):
        return []
    if not isinstance(sessions, list):
        return []
    return [s for s in sessions if isinstance(s, dict)]


def record_session(run: Path, resumed: bool) -> dict[str, Any]:
    """Append this session's provenance to `run`'s provenance.json (a new run starts the list
    afresh) and return it."""
    session = {**session_provenance(), "resumed": resumed}
    sessions = read_sessions(run) if resumed else []
    write_json(run / PROVENANCE_FILE, [*sessions, session])
    return session


def run_provenance(run: Path) -> dict[str, Any]:
    """What a model of `run` records of where it came from: the commit (`dirty` where tracked
    files had changes) and libraries of the run's last session, and, for a run of several
    sessions, every session's commit. A run that recorded none says so: commit None, libraries
    and platform "unknown"."""
    sessions = read_sessions(run)
    if not sessions:
        return {"commit": None, "dirty": None, "libraries": "unknown", "platform": "unknown"}
    last = sessions[-1]
    facts: dict[str, Any] = {"commit": last.get("commit"), "dirty": last.get("dirty"),
                             "libraries": last.get("libraries", "unknown"),
                             "platform": last.get("platform", "unknown")}
    if len(sessions) > 1:
        facts["sessions"] = [{k: s.get(k) for k in ("started", "commit", "dirty")}
                             for s in sessions]
    return facts
