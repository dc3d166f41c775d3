"""Run one measurement: its commands as subprocesses in a fresh folder, their output streamed
as progress, the figures parsed from what they wrote, and the record that keeps them with
their provenance (commands, commit, cores, load, date, wall seconds in all and per command,
versions)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from .model import ROOT, Measurement, Record
from .provenance import git_commit, load_average, now

# the repository's folders whose files a command may name by a relative path
REPO_FOLDERS = ("scripts/", "examples/")


class MeasurementFailed(RuntimeError):
    """A command of a measurement exited with an error."""


def argv_of(command: str) -> list[str]:
    """The argument list a command runs as: `huerta` and `python` this environment's, the
    repository's scripts and examples by their absolute paths."""
    argv = shlex.split(command)
    bin_dir = Path(sys.executable).parent
    if argv[0] == "python":
        argv[0] = sys.executable
    elif argv[0] == "huerta":
        argv[0] = str(bin_dir / "huerta")
    return [str(ROOT / a) if a.startswith(REPO_FOLDERS) and (ROOT / a).exists() else a
            for a in argv]


def run_command(command: str, folder: Path, echo: Callable[[str], None]) -> str:
    """Run `command` in `folder`, echoing each line it prints; its output (stdout and stderr
    together)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    lines: list[str] = []
    with subprocess.Popen(argv_of(command), cwd=folder, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, env=env) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            echo(line.rstrip("\n"))
    output = "".join(lines)
    if proc.returncode != 0:
        raise MeasurementFailed(f"`{command}` exited with {proc.returncode}:\n"
                                + "".join(lines[-20:]))
    return output


def measure(measurement: Measurement, echo: Callable[[str], None] = print,
            written: tuple[str, ...] = ()) -> Record:
    """Run `measurement` and return its record (raises MeasurementFailed when a command
    fails; nothing is recorded then). `written`: the files the results script rewrites, which
    do not make the checkout's commit dirty."""
    load_before = load_average()
    started = now()
    commit = git_commit(written=written)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix=f"results-{measurement.id}-") as tmp:
        folder = Path(tmp)
        for name, text in measurement.files:
            (folder / name).write_text(text, encoding="utf-8")
        outputs, command_seconds = [], []
        for command in measurement.commands:
            echo(f"  $ {command}")
            began = time.perf_counter()
            outputs.append(run_command(command, folder, lambda line: echo(f"    {line}")))
            command_seconds.append(round(time.perf_counter() - began, 1))
        wall = time.perf_counter() - start
        figures = measurement.parse(folder, outputs)
    versions = figures.pop("versions", None) or measurement.versions()
    commands = figures.pop("commands", None) or list(measurement.commands)
    record: Record = {
        "what": measurement.what,
        "commands": commands,
        "commit": commit,
        "cores": os.cpu_count(),
        "load": [load_before, load_average()],
        "date": started,
        "wall_s": round(wall, 1),
        "command_s": command_seconds,  # each command's own seconds, in order
        "versions": versions,
        "figures": figures,
    }
    if measurement.keep_output:
        record["outputs"] = [output.strip("\n") for output in outputs]
    return record
