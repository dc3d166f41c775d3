"""The output folder of a tournament while it runs: its lock (a second run into it is refused),
`tournament.json` (the settings a resume must repeat), the games already played (checked line by
line on resume) and the append-only games.jsonl, each finished game written at once so that an
interrupted tournament keeps every finished game."""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path
from typing import Any

from huerta.envs.core.errors import CorruptRecordError, InvalidConfigError
from huerta.envs.core.records import GameRecord, parse_json, verify_checksum

from ..runs import write_atomic
from ..runs.layout import GAMES_FILE, LOCK_FILE, MAX_LINE_BYTES, SETTINGS_FILE
from .jobs import iter_jobs


class TournamentFolder:
    """The output folder of a tournament while it runs: its lock, its settings, the games
    already played (on resume) and the append-only games.jsonl."""

    def __init__(self, path: Path, settings: dict[str, Any], resume: bool) -> None:
        self.path = path
        self.settings = settings
        self.resume = resume
        self.games_path = path / GAMES_FILE
        self._lock: Any = None
        self._games: Any = None

    def __enter__(self) -> TournamentFolder:
        if self.path.exists() and not self.path.is_dir():
            raise InvalidConfigError(f"--out {self.path} is a file, not a folder")
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            self._lock = (self.path / LOCK_FILE).open("a+")
        except OSError as exc:
            raise InvalidConfigError(
                f"--out {self.path}: cannot write there ({exc.strerror or exc})"
            ) from None
        try:
            _lock_file(self._lock)
        except BlockingIOError:
            self._lock.close()
            raise InvalidConfigError(
                f"--out {self.path}: another tournament is writing to this folder now; wait for "
                f"it to end or choose another --out"
            ) from None
        try:
            self._lock.truncate(0)
            self._lock.write(f"{os.getpid()}\n")
            self._lock.flush()
            self._check_folder()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self._games is not None:
            self._games.close()
            self._games = None
        if self._lock is not None:
            self._lock.close()  # closing the file releases the lock
            self._lock = None

    def _check_folder(self) -> None:
        """Refuse a folder in use without --resume; on resume, the settings must match."""
        settings_path = self.path / SETTINGS_FILE
        contents = [p.name for p in self.path.iterdir() if p.name != LOCK_FILE]
        if not self.resume:
            if contents:
                raise InvalidConfigError(
                    f"--out {self.path} is not empty ({', '.join(sorted(contents)[:4])}"
                    f"{', ...' if len(contents) > 4 else ''}): continue the tournament in it "
                    f"with --resume, or choose another --out"
                )
        elif contents:
            if not settings_path.exists():
                raise InvalidConfigError(
                    f"--resume: {self.path} holds no tournament to continue (no {SETTINGS_FILE})"
                )
            try:
                saved = parse_json(settings_path.read_bytes(), str(settings_path))
            except (CorruptRecordError, OSError) as exc:
                raise InvalidConfigError(f"--resume: {exc}") from None
            if not isinstance(saved, dict):
                raise InvalidConfigError(f"--resume: {settings_path} is not a settings object")
            for key, value in self.settings.items():
                if saved.get(key) != value:
                    raise InvalidConfigError(
                        f"--resume: {key} {value!r} differs from the {saved.get(key)!r} of the "
                        f"tournament in {self.path}; resume it with its own settings"
                    )
        write_atomic(settings_path, json.dumps(self.settings, indent=2) + "\n")

    def load(self) -> dict[int, dict[str, Any]]:
        """The games already in games.jsonl, checked line by line (an unfinished last line, left
        by a kill mid-write, is dropped); then games.jsonl is opened for appending."""
        done: dict[int, dict[str, Any]] = {}
        if self.games_path.exists():
            done = self._read_games()
            if done:
                self._check_against_jobs(done)
        self._games = self.games_path.open("a", encoding="utf-8")
        return done

    def _read_games(self) -> dict[int, dict[str, Any]]:
        done: dict[int, dict[str, Any]] = {}
        good_end = 0
        with self.games_path.open("rb") as f:
            for number in itertools.count(1):
                line = f.readline(MAX_LINE_BYTES + 1)
                if not line:
                    break
                if not line.endswith(b"\n"):
                    if len(line) > MAX_LINE_BYTES:
                        raise CorruptRecordError(
                            f"{self.games_path} line {number} is over {MAX_LINE_BYTES:,} bytes"
                        )
                    break  # the game being written when the run was killed: played again
                game = self._check_line(line, number)
                if game["index"] in done:
                    raise CorruptRecordError(
                        f"{self.games_path} line {number}: game {game['index']} appears twice"
                    )
                done[game["index"]] = game
                good_end = f.tell()
        if good_end < self.games_path.stat().st_size:
            with self.games_path.open("r+b") as f:
                f.truncate(good_end)
        return done

    def _check_line(self, line: bytes, number: int) -> dict[str, Any]:
        where = f"{self.games_path} line {number}"
        game = parse_json(line, where, limit=MAX_LINE_BYTES)
        players = self.settings["players"]
        fields = {"index": int, "lineup": int, "deal": int, "seed": int, "seats": list,
                  "scores": list, "ranks": list, "winners": list, "terminated": bool,
                  "steps": int, "record": dict}
        if not isinstance(game, dict):
            raise CorruptRecordError(f"{where}: not a JSON object")
        for name, kind in fields.items():
            value = game.get(name)
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise CorruptRecordError(f"{where}: field {name!r} must be {kind.__name__}")
        for name in ("seats", "scores", "ranks"):
            values = game[name]
            if len(values) != players or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in values
            ):
                raise CorruptRecordError(f"{where}: field {name!r} must list {players} integers")
        if not all(isinstance(w, int) and 0 <= w < players for w in game["winners"]):
            raise CorruptRecordError(f"{where}: field 'winners' must list seats")
        if not 0 <= game["index"] < self.settings["total"]:
            raise CorruptRecordError(f"{where}: game index {game['index']} is out of range")
        try:
            record = GameRecord.from_dict(game["record"])
            verify_checksum(record)
        except CorruptRecordError as exc:
            raise CorruptRecordError(f"{where}: {exc}") from None
        if (record.game, record.num_players, record.seed, record.final_scores) != (
            self.settings["game"], players, game["seed"], game["scores"]
        ):
            raise CorruptRecordError(f"{where}: its record does not match the game's fields")
        return game

    def _check_against_jobs(self, done: dict[int, dict[str, Any]]) -> None:
        """Each stored game must be the job of its index (same line-up, deal, seed, seats)."""
        s = self.settings
        for job in iter_jobs(len(s["agents"]), s["players"], s["games"], s["seed"]):
            game = done.get(job.index)
            if game is not None and (game["lineup"], game["deal"], game["seed"],
                                     tuple(game["seats"])) != (job.lineup, job.deal, job.seed,
                                                               job.seats):
                raise CorruptRecordError(
                    f"{self.games_path}: game {job.index} is not the game this tournament "
                    f"schedules at that index (line-up, deal, seed or seats differ)"
                )

    def append(self, game: dict[str, Any]) -> None:
        """Append one finished game as one line, flushed at once (it survives a kill)."""
        self._games.write(json.dumps(game, separators=(",", ":")) + "\n")
        self._games.flush()

    def count_games(self) -> int:
        """How many complete lines games.jsonl holds."""
        if not self.games_path.exists():
            return 0
        with self.games_path.open("rb") as f:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))

    def close_games(self) -> None:
        """Close games.jsonl (before it is rewritten in game order)."""
        if self._games is not None:
            self._games.close()
            self._games = None


def _lock_file(handle: Any) -> None:
    """An exclusive, non-blocking lock on an open file; BlockingIOError when another process
    holds it. The OS drops it when the process ends, however it ends."""
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        handle.seek(0)
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            raise BlockingIOError from None
        return
    fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
