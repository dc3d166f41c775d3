"""The results under the server's runs folder: tournaments (`huerta tournament --out`, `huerta
main`) with their tables, plots and games, and training runs (`huerta train`) with their
evaluations and learning curves.

A folder is a tournament when it holds `summary.json` or `games.jsonl`, a training run when it
holds `eval.csv`. Runs are named by their path under the runs folder (`main/finca`), and only
the runs found there can be asked for, so no request reaches a file outside it. The folder is
searched a few levels deep, skipping hidden folders and a training run's own subfolders, and
never through a symbolic link.

The names of a run's files and the parsing of its eval.csv are the run-folder layer's
(`huerta.training.runs`), as is `read_regular`, through which every file is read with this
page's size limits: only a regular file (not a symbolic link, a named pipe or a device) whose
size is within its limit is opened, without following a link and without blocking, so a link
planted in a run folder cannot serve a file from elsewhere and a pipe cannot hold a request. A
run's model is offered to the page only as its `best_policy.npz` (numpy arrays and JSON, read
without unpickling); a PPO or RLlib run is never loaded here.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path
from typing import Any

from huerta.envs.core.errors import CorruptRecordError
from huerta.envs.core.records import GameRecord, parse_json
from huerta.envs.core.registry import game_label
from huerta.training.runs import (
    NotRegularFile,
    is_regular,
    open_regular,
    parse_eval_rows,
    read_json_safely,
    read_regular,
    read_text_safely,
)
from huerta.training.runs.layout import (
    CONFIG_FILE,
    CURVE_FILE,
    EVAL_FILE,
    GAMES_FILE,
    MAX_LINE_BYTES,
    MODEL_FILE,
    SETTINGS_FILE,
    SUMMARY_FILE,
    TABLE_FILE,
    TOURNAMENT_PLOT,
)

from .errors import WebError

MAX_DEPTH = 4
MAX_FOLDERS = 5000  # folders looked at per listing, so a huge runs folder cannot stall the page
SKIPPED = {"checkpoints", "pool", "tb", "__pycache__", "node_modules"}
MAX_PAGE = 500
PLOTS = {"tournament": TOURNAMENT_PLOT, "training": CURVE_FILE}
# the most bytes read of each kind of file (a bigger one is treated as absent or refused)
MAX_JSON_BYTES = 1 << 20
MAX_TABLE_CHARS = 20_000  # of a tournament's table.txt shown (read within MAX_JSON_BYTES)
MAX_EVAL_BYTES = 1 << 20
MAX_PLOT_BYTES = 16 << 20
MAX_GAMES_BYTES = 1 << 30  # games.jsonl is scanned once for its line offsets, then cached
MAX_MODEL_BYTES = 32 << 20
MAX_MODEL_UNPACKED = 128 << 20  # the arrays of a model once unzipped (a zip bomb is refused)


def _read_json(path: Path) -> Any:
    return read_json_safely(path, MAX_JSON_BYTES)


def _shown(text: str | None) -> str | None:
    return None if text is None else text[:MAX_TABLE_CHARS]


def check_model_file(path: Path) -> None:
    """Refuse (OSError) a model file that is not a regular file within `MAX_MODEL_BYTES`, or an
    archive whose arrays would unpack past `MAX_MODEL_UNPACKED`. (The arrays themselves are read
    by numpy with `allow_pickle=False`, which refuses pickled objects.)"""
    with os.fdopen(open_regular(path, MAX_MODEL_BYTES), "rb") as f:
        try:
            with zipfile.ZipFile(f) as archive:
                members = archive.infolist()
        except zipfile.BadZipFile as exc:
            raise NotRegularFile(f"{path.name} is not a numpy .npz archive ({exc})") from None
    unpacked = sum(m.file_size for m in members)
    if unpacked > MAX_MODEL_UNPACKED:
        raise NotRegularFile(f"{path.name} unpacks to {unpacked:,} bytes, over the "
                             f"{MAX_MODEL_UNPACKED:,}-byte limit")


class RunsFolder:
    """The runs folder `root` (it need not exist: then nothing is listed)."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self._line_index: dict[str, tuple[tuple[int, float], list[int]]] = {}

    def _folders(self) -> list[tuple[str, Path]]:
        """(run id, folder) of every folder under the root, breadth first, a few levels deep."""
        if not self.root.is_dir():
            return []
        found: list[tuple[str, Path]] = []
        queue = [(self.root, 0)]
        while queue and len(found) < MAX_FOLDERS:
            folder, depth = queue.pop(0)
            try:
                children = [e for e in os.scandir(folder)
                            if e.is_dir(follow_symlinks=False)
                            and not e.name.startswith(".") and e.name not in SKIPPED]
            except OSError:
                continue
            for entry in sorted(children, key=lambda e: e.name):
                path = Path(entry.path)
                found.append((path.relative_to(self.root).as_posix(), path))
                if depth + 1 < MAX_DEPTH:
                    queue.append((path, depth + 1))
        return found

    def listing(self) -> dict[str, Any]:
        """Every tournament and training run found, with what the page shows of each."""
        tournaments, training = [], []
        for run_id, folder in self._folders():
            if is_regular(folder / SUMMARY_FILE) or is_regular(folder / GAMES_FILE):
                tournaments.append(self._tournament(run_id, folder))
            if is_regular(folder / EVAL_FILE):
                training.append(self._training(run_id, folder))
        return {"root": str(self.root), "exists": self.root.is_dir(),
                "tournaments": tournaments, "training": training}

    def _tournament(self, run_id: str, folder: Path) -> dict[str, Any]:
        summary = _read_json(folder / SUMMARY_FILE)
        entry: dict[str, Any] = {
            "id": run_id, "table": _shown(read_text_safely(folder / TABLE_FILE, MAX_JSON_BYTES)),
            "games": self._count_games(run_id, folder),
            "plot": is_regular(folder / PLOTS["tournament"]),
        }
        if isinstance(summary, dict):
            game, players = summary.get("game"), summary.get("players")
            entry["game"] = game_label(game, players) if isinstance(game, str) and isinstance(
                players, int) else game
            entry["players"] = players
            entry["agents"] = summary.get("agents")
        return entry

    def _training(self, run_id: str, folder: Path) -> dict[str, Any]:
        config = _read_json(folder / CONFIG_FILE)
        text = read_text_safely(folder / EVAL_FILE, MAX_EVAL_BYTES) or ""
        rows = parse_eval_rows(text)[1][:1000]
        entry: dict[str, Any] = {"id": run_id, "eval": rows,
                                 "plot": is_regular(folder / PLOTS["training"]),
                                 "model": is_regular(folder / MODEL_FILE)}
        if isinstance(config, dict):
            entry.update({k: config.get(k) for k in ("game", "players", "steps", "seed",
                                                     "method")})
            entry["budget"] = training_budget(config)
        return entry

    # --- one run ----------------------------------------------------------------------------------
    def folder(self, run_id: str) -> Path:
        """The folder of run `run_id`, which must be one this folder lists (404 otherwise)."""
        for found_id, folder in self._folders():
            if found_id == run_id:
                return folder
        raise WebError(404, "run", f"no run {run_id!r} under {self.root}")

    def plot(self, run_id: str, kind: str) -> bytes:
        """A run's plot (the tournament's or the learning curve), as PNG bytes."""
        if kind not in PLOTS:
            raise WebError(422, "kind", f"{kind!r} is not a plot (plots: {', '.join(PLOTS)})")
        path = self.folder(run_id) / PLOTS[kind]
        try:
            return read_regular(path, MAX_PLOT_BYTES)
        except FileNotFoundError:
            raise WebError(404, "plot", f"run {run_id!r} has no {PLOTS[kind]}") from None
        except OSError as exc:
            raise WebError(404, "plot", f"run {run_id!r}: {PLOTS[kind]} is not served "
                           f"({_why(exc)})") from None

    # --- models -----------------------------------------------------------------------------------
    def models(self) -> list[dict[str, Any]]:
        """The runs whose exported model the page may seat (`run:ID`): each training run with a
        regular `best_policy.npz` inside the runs folder, with its game as its config says."""
        found = []
        for run_id, folder in self._folders():
            if is_regular(folder / MODEL_FILE):
                config = _read_json(folder / CONFIG_FILE)
                game = config.get("game") if isinstance(config, dict) else None
                found.append({"code": f"run:{run_id}", "run": run_id,
                              "game": game if isinstance(game, str) else None})
        return found

    def model(self, run_id: str) -> Path:
        """The checked `best_policy.npz` of run `run_id` (a run this folder lists; a regular
        file within the size limits). Refused (404 or 422) naming the run otherwise."""
        path = self.folder(run_id) / MODEL_FILE
        try:
            check_model_file(path)
        except FileNotFoundError:
            raise WebError(404, "run", f"run {run_id!r} has no {MODEL_FILE} (export it with "
                           f"`huerta export`)") from None
        except OSError as exc:
            raise WebError(422, "run", f"run {run_id!r}: {MODEL_FILE} is not loaded "
                           f"({_why(exc)})") from None
        return path

    def _offsets(self, run_id: str, folder: Path) -> list[int]:
        """The byte offset of every line of games.jsonl (cached while the file is unchanged;
        none when it is not a regular file within `MAX_GAMES_BYTES`)."""
        try:
            fd = open_regular(folder / GAMES_FILE, MAX_GAMES_BYTES)
        except OSError:
            return []
        with os.fdopen(fd, "rb") as f:
            info = os.fstat(f.fileno())
            key = (info.st_size, info.st_mtime)
            cached = self._line_index.get(run_id)
            if cached and cached[0] == key:
                return cached[1]
            offsets, position = [], 0
            for line in f:
                if line.strip():
                    offsets.append(position)
                position += len(line)
        self._line_index[run_id] = (key, offsets)
        return offsets

    def _count_games(self, run_id: str, folder: Path) -> int:
        return len(self._offsets(run_id, folder))

    def _line(self, folder: Path, offset: int, number: int) -> dict[str, Any]:
        where = f"{GAMES_FILE} line {number + 1}"
        try:
            with os.fdopen(open_regular(folder / GAMES_FILE, MAX_GAMES_BYTES), "rb") as f:
                f.seek(offset)
                raw = f.readline(MAX_LINE_BYTES + 1)
        except OSError as exc:
            raise WebError(422, "game", f"{where} is not read ({_why(exc)})") from None
        try:
            game = parse_json(raw, where, limit=MAX_LINE_BYTES)
        except CorruptRecordError as exc:
            raise WebError(422, "game", str(exc)) from None
        if not isinstance(game, dict):
            raise WebError(422, "game", f"{where} is not a JSON object")
        return game

    def games(self, run_id: str, offset: int, limit: int) -> dict[str, Any]:
        """A page of a tournament's games: index, agents by seat, scores, winners, steps."""
        if offset < 0 or not 1 <= limit <= MAX_PAGE:
            raise WebError(422, "limit", f"give offset >= 0 and limit from 1 to {MAX_PAGE}")
        folder = self.folder(run_id)
        labels = self._labels(folder)
        offsets = self._offsets(run_id, folder)
        rows = []
        for number in range(offset, min(offset + limit, len(offsets))):
            try:
                game = self._line(folder, offsets[number], number)
            except WebError as exc:
                rows.append({"line": number, "error": exc.reason})
                continue
            seats = game.get("seats") if isinstance(game.get("seats"), list) else []
            rows.append({
                "line": number, "index": game.get("index"),
                "agents": [labels[a] if isinstance(a, int) and 0 <= a < len(labels) else str(a)
                           for a in seats],
                "scores": game.get("scores"), "winners": game.get("winners"),
                "steps": game.get("steps"), "terminated": game.get("terminated"),
            })
        return {"id": run_id, "total": len(offsets), "offset": offset, "games": rows}

    def _labels(self, folder: Path) -> list[str]:
        summary = _read_json(folder / SUMMARY_FILE)
        if isinstance(summary, dict) and isinstance(summary.get("stats"), list):
            return [str(s.get("label")) for s in summary["stats"] if isinstance(s, dict)]
        settings = _read_json(folder / SETTINGS_FILE)
        if isinstance(settings, dict) and isinstance(settings.get("agents"), list):
            return [str(a) for a in settings["agents"]]
        return []

    def game_record(self, run_id: str, line: int) -> tuple[GameRecord, list[str], str]:
        """Line `line` of a tournament's games.jsonl: its record, the agent seated in each seat,
        and where it came from."""
        folder = self.folder(run_id)
        offsets = self._offsets(run_id, folder)
        if not 0 <= line < len(offsets):
            raise WebError(404, "line", f"{run_id}/{GAMES_FILE} has no line {line + 1} "
                           f"({len(offsets)} games)")
        game = self._line(folder, offsets[line], line)
        try:
            record = GameRecord.from_dict(game.get("record"))
        except CorruptRecordError as exc:
            raise WebError(422, "record", f"{GAMES_FILE} line {line + 1}: {exc}") from None
        labels = self._labels(folder)
        seats = game.get("seats") if isinstance(game.get("seats"), list) else []
        names = [f"player_{s} ({labels[a]})" if isinstance(a, int) and 0 <= a < len(labels)
                 else f"player_{s}" for s, a in enumerate(seats)]
        if len(names) != record.num_players:
            names = [f"player_{s}" for s in range(record.num_players)]
        return record, names, f"{run_id}/{GAMES_FILE} line {line + 1}"


def _why(exc: OSError) -> str:
    """An OSError in words, without the full path (the page shows it)."""
    if isinstance(exc, NotRegularFile):
        return str(exc)
    return exc.strerror or type(exc).__name__


def training_budget(config: dict[str, Any]) -> str:
    """What a training run's size is counted in, by its method: PPO steps, an afterstate run's
    heuristic games, a cem run's generations (its `steps` setting is unused there)."""
    method = config.get("method") or "ppo"

    def count(key: str) -> str:
        value = config.get(key)
        return f"{value:,}" if isinstance(value, int) else "?"

    if method == "afterstate":
        return f"afterstate value, {count('value_games')} heuristic games"
    if method == "cem":
        return f"learned value constants, {count('cem_generations')} generations"
    return f"{count('steps')} steps"
