"""Games played in the page: one human seat against agents from the registry.

The human's moves come in as requests; the agents' moves are computed in a worker thread (each
on a copy of the state, so that the page's requests never read a state an agent is searching)
and applied under the session's lock, at most one every `pace` seconds so that a person can
follow them. The page polls the session's view, which is built from the human seat's view only:
other seats' private knowledge and the deal's face-down order are never sent until the game is
over or stopped, and the record (which holds the seed, and so every hidden card) can only be
downloaded then.

Work is bounded: the agents are those `agents.py` allows (no file a request names, budgets
capped), a stopped game's search ends at its next clock reading, and agent work never waits in
a queue: a game's agents take one of the server's agent threads while they play, and a move or
a new game that would need one when all are busy is refused (503) with the game unchanged.
"""

from __future__ import annotations

import math
import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures import Executor
from typing import Any

from huerta.envs.core.errors import HuertaError, IllegalActionError, InvalidConfigError
from huerta.envs.core.policies import policy_action
from huerta.envs.core.records import MAX_SEED, GameRecord
from huerta.envs.core.registry import game_label, resolve_game
from huerta.envs.core.seeding import GAME_SEED_LIMIT

from . import boards
from .agents import SeatPlan, check_web_agent, make_web_agent
from .errors import WebError
from .runs import RunsFolder

MAX_SESSIONS = 16  # games kept; beyond it the least recently used one is closed
MAX_PACE = 5.0  # seconds: the slowest agent pace the page offers


class PlaySession:
    """One game: the state, the record so far, the agents, and what the page has been told."""

    def __init__(self, game: str, num_players: int, seat: int, plans: list[SeatPlan | None],
                 seed: int, options: dict[str, Any], pace: float, threads: AgentThreads
                 ) -> None:
        spec, _ = resolve_game(game, num_players)
        self.id = secrets.token_hex(8)
        self.spec = spec
        self.label = game_label(spec.name, num_players)
        variant = spec.variants.get(self.label)
        # who wins when no seat does: the variant's scripted opponent ("Zara"), if it has one
        self.opponent = variant.opponent if variant is not None else ""
        self.seat = seat
        self.codes = [plan.code if plan is not None else "human" for plan in plans]
        self.pace = pace
        self.limit = spec.default_max_steps
        self.state = spec.new_game(num_players, seed=seed, **options)
        self.record = GameRecord(game=spec.name, num_players=num_players, seed=seed,
                                 options=dict(options))
        self.stopped = False
        self._stopping = threading.Event()  # ends a pace wait at once
        self.agents = [None if plan is None else make_web_agent(
            plan, spec.name, seed * 10 + s, lambda: self.stopped)
            for s, plan in enumerate(plans)]
        self.moves: list[dict[str, Any]] = []
        self.error: str | None = None
        self.lock = threading.Lock()
        self._threads = threads
        self._thinking = False
        with self.lock:
            if self._agents_to_play():
                self._threads.reserve()  # 503 when every agent thread is busy
                self._start_agents()

    # --- what the page sees ---------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """The game ended by its rules or reached its step limit (then it is truncated)."""
        return self.state.is_terminal or self.state.steps >= self.limit

    def _status(self) -> tuple[str, str]:
        state = self.state
        if self.error:
            return "failed", self.error
        if self.stopped:
            return "stopped", "Game stopped. Everything is shown; the record can be downloaded."
        if self.over:
            if not state.is_terminal:
                return "over", f"Game over: stopped at the {self.limit}-step limit, no winner."
            winners = state.winners()
            if self.seat in winners:
                shared = " (shared)" if len(winners) > 1 else ""
                return "over", f"Game over: you win{shared}!"
            if not winners:  # the scripted opponent of a variant (Zara) beat every seat
                return "over", f"Game over: {self.opponent or 'nobody'} wins."
            names = ", ".join(f"player_{w} ({self.codes[w]})" for w in winners)
            return "over", f"Game over: {names} {'win' if len(winners) > 1 else 'wins'}."
        seat = state.current_player
        if seat == self.seat:
            return "your_turn", ("Your move: click a highlighted place on the board, or a move "
                                 "in the list.")
        return "thinking", f"player_{seat} ({self.codes[seat]}) is thinking..."

    def view(self, since: int = 0) -> dict[str, Any]:
        """The page's view of the game from the human seat, with the moves from `since` on."""
        with self.lock:
            status, message = self._status()
            state = self.state
            finished = status in ("over", "stopped", "failed")
            viewer = None if finished else self.seat  # a finished game shows everything
            your_turn = status == "your_turn"
            legal = []
            targets: dict[str, list[int]] = {}
            if your_turn:
                module = boards.board_module(self.spec.name)
                legal = [{"id": a, "text": state.describe(a),
                          "target": module.action_target(state, a)}
                         for a in state.legal_actions()]
                targets = boards.action_targets(self.spec.name, state)
            return {
                "id": self.id,
                "game": self.spec.name,
                "label": self.label,
                "num_players": state.num_players,
                "seat": self.seat,
                "seats": [{"name": f"player_{s}", "code": self.codes[s], "you": s == self.seat}
                          for s in range(state.num_players)],
                "status": status,
                "message": message,
                "step": state.steps,
                "board": boards.state_json(self.spec.name, state, viewer),
                "scores": state.scores(),
                "moves": self.moves[max(since, 0):],
                "moves_total": len(self.moves),
                "legal": legal,
                "targets": targets,
                "can_download": finished,
            }

    # --- moves ----------------------------------------------------------------------------------
    def act(self, action: int, step: int | None) -> None:
        """The human's move: refused (state unchanged) unless it is the human's turn, `step` is
        the step the page saw, and the action is legal now."""
        with self.lock:
            status, message = self._status()
            if status != "your_turn":
                reason = {"thinking": f"it is not your turn: {message}"}.get(
                    status, f"the game is no longer being played ({message})")
                raise WebError(409, "action", reason)
            if step is not None and step != self.state.steps:
                raise WebError(409, "step", f"the page showed step {step} but the game is at "
                               f"step {self.state.steps}: reload it")
            self._threads.reserve()  # a thread for the agents' reply, or 503 with no move made
            try:
                self._apply(action)
            except IllegalActionError as exc:
                self._threads.release()
                raise WebError(422, "action", str(exc)) from None
            if self._agents_to_play():
                self._start_agents()
            else:
                self._threads.release()

    def _apply(self, action: int) -> None:
        """Apply `action` for the acting seat and log it as the human seat may read it (the
        lock is held)."""
        state = self.state
        seat = state.current_player
        text = boards.board_module(self.spec.name).public_describe(state, action, self.seat)
        state.apply(action)  # raises IllegalActionError, leaving the state untouched
        self.record.actions.append(action)
        self.moves.append({"step": len(self.moves), "seat": seat, "who": self.codes[seat],
                           "action": action, "text": text})

    def _agents_to_play(self) -> bool:
        """Whether an agent is to move now (lock held)."""
        return not (self._thinking or self.over or self.stopped or self.error
                    or self.state.current_player == self.seat)

    def _start_agents(self) -> None:
        """Let the agents play, in the agent thread reserved for them, until it is the human's
        turn (lock held)."""
        self._thinking = True
        self._threads.submit(self._agents_loop)

    def _agents_loop(self) -> None:
        """The agents' moves, one at a time: each computed on a copy of the state, outside the
        lock, then applied under it (no faster than `pace`)."""
        seat = -1
        try:
            while True:
                with self.lock:
                    if self.over or self.stopped or self.state.current_player == self.seat:
                        return
                    seat = self.state.current_player
                    snapshot = self.state.clone()
                    step = snapshot.steps
                started = time.monotonic()
                obs = {"observation": snapshot.observe(seat),
                       "action_mask": snapshot.legal_mask().astype("int8")}
                action = policy_action(self.agents[seat], snapshot, seat, obs)
                self._stopping.wait(max(0.0, self.pace - (time.monotonic() - started)))
                with self.lock:
                    if self.stopped or self.state.steps != step:
                        return
                    self._apply(action)
        except Exception as exc:  # an agent's failure ends the game with its reason shown
            with self.lock:
                self.error = f"player_{seat} ({self.codes[seat]}) failed: {exc}"
        finally:
            with self.lock:
                self._thinking = False
            self._threads.release()

    def stop(self) -> None:
        """End the game here: everything is shown and the record can be downloaded. A search
        under way ends at its next clock reading (its clock reads infinity from now on)."""
        with self.lock:
            self.stopped = True  # the agents' clocks read it without the lock
        self._stopping.set()

    def record_json(self) -> dict[str, Any]:
        """The game record (format 2, with the scores so far); only once the game is over or
        stopped, since the record's seed fixes every hidden card."""
        with self.lock:
            status, _ = self._status()
            if status not in ("over", "stopped", "failed"):
                raise WebError(409, "record", "the record holds the deal's seed, which would show "
                               "the hidden cards and tiles: download it once the game is over or "
                               "stopped")
            record = GameRecord(game=self.record.game, num_players=self.record.num_players,
                                seed=self.record.seed, options=dict(self.record.options),
                                actions=list(self.record.actions),
                                final_scores=self.state.scores())
            return record.to_dict()


KIND_WORDS = {int: "an integer", float: "a number", str: "a string", list: "a list",
              dict: "a JSON object"}


def _field(body: dict[str, Any], name: str, kind: type, default: Any = None) -> Any:
    """body[name] when it is of `kind` (an int is a number too; a bool is neither), `default`
    when it is absent or null; else a 422 naming the field."""
    value = body.get(name)
    if value is None:
        return default
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if isinstance(value, bool) or not isinstance(value, kind):
        raise WebError(422, name, f"must be {KIND_WORDS[kind]}, got {_short(value)}")
    return value


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_new_game(body: Any, runs: RunsFolder) -> dict[str, Any]:
    """The settings of a new game from the page's form, each checked with the reason named:
    game, players, seat, agents (one code per other seat: see `agents.py`), seed, options,
    pace."""
    if not isinstance(body, dict):
        raise WebError(422, "body", f"must be a JSON object, got {type(body).__name__}")
    unknown = set(body) - {"game", "players", "seat", "agents", "seed", "options", "pace"}
    if unknown:
        raise WebError(422, sorted(unknown)[0], "is not a setting of a new game (settings: "
                       "game, players, seat, agents, seed, options, pace)")
    game = _field(body, "game", str)
    if game is None:
        raise WebError(422, "game", "is missing: give a game name")
    players = _field(body, "players", int)
    try:
        spec, fixed = resolve_game(game, players)
    except InvalidConfigError as exc:
        raise WebError(422, "players" if players is not None and "players" in str(exc)
                       else "game", str(exc)) from None
    num_players = fixed if fixed is not None else players if players is not None else 2
    try:
        spec.check_players(num_players)
    except InvalidConfigError as exc:
        raise WebError(422, "players", str(exc)) from None
    seat = _field(body, "seat", int, 0)
    if not 0 <= seat < num_players:
        raise WebError(422, "seat", f"{seat} is not a seat of a {num_players}-player game "
                       f"(0 to {num_players - 1})")
    agents = _field(body, "agents", list, [])
    if len(agents) != num_players - 1:
        raise WebError(422, "agents", f"lists {len(agents)} agent codes; a {num_players}-player "
                       f"game needs {num_players - 1} (one per seat other than yours)")
    plans: list[SeatPlan | None] = [None] * num_players
    other_seats = [s for s in range(num_players) if s != seat]
    for k, (s, code) in enumerate(zip(other_seats, agents, strict=True)):
        if not isinstance(code, str) or not code.strip() or len(code) > 300:
            raise WebError(422, f"agents[{k}]", f"must be an agent code, got {_short(code)}")
        try:
            plans[s] = check_web_agent(code, spec.name, num_players, runs)
        except (HuertaError, ValueError) as exc:
            raise WebError(422, f"agents[{k}]", str(exc)) from None
    seed = _field(body, "seed", int)
    if seed is None:
        seed = secrets.randbelow(GAME_SEED_LIMIT)  # as env resets draw them
    elif not 0 <= seed <= MAX_SEED:
        raise WebError(422, "seed", f"{seed} is out of range (0 to 2**63 - 1)")
    options = _field(body, "options", dict, {})
    for key, value in options.items():
        if key not in spec.options:
            valid = ", ".join(spec.options) or "none"
            raise WebError(422, f"options.{key}", f"is not an option of {spec.name} "
                           f"(options: {valid})")
        if value not in spec.options[key] or isinstance(value, bool):
            choices = ", ".join(map(str, spec.options[key]))
            raise WebError(422, f"options.{key}", f"{value!r} is not one of {choices}")
    pace = _field(body, "pace", float, 0.5)
    if not (math.isfinite(pace) and 0 <= pace <= MAX_PACE):
        raise WebError(422, "pace", f"{pace} is out of range (0 to {MAX_PACE:g} seconds)")
    return {"game": game, "num_players": num_players, "seat": seat, "plans": plans,
            "seed": seed, "options": options, "pace": pace}


class AgentThreads:
    """The server's agent threads, each reserved by one game while its agents play, so no agent
    work ever waits in a queue: `reserve` refuses (503) when every thread is taken."""

    def __init__(self, executor: Executor, count: int) -> None:
        self.executor = executor
        self.count = count
        self._free = threading.BoundedSemaphore(count)

    def reserve(self) -> None:
        """Take a thread for a game's agents, or refuse with 503 when all are busy."""
        if not self._free.acquire(blocking=False):
            raise WebError(503, "agents", f"all {self.count} agent threads of the server are "
                           "busy with other games: stop one, or try again in a moment")

    def release(self) -> None:
        """Give a reserved thread back."""
        self._free.release()

    def submit(self, work: Any) -> None:
        """Run `work` on the thread reserved for it."""
        self.executor.submit(work)


class SessionStore:
    """The games being played, the least recently used one closed beyond `limit`."""

    def __init__(self, threads: AgentThreads, runs: RunsFolder,
                 limit: int = MAX_SESSIONS) -> None:
        self.threads = threads
        self.runs = runs
        self.limit = limit
        self._sessions: OrderedDict[str, PlaySession] = OrderedDict()
        self._lock = threading.Lock()

    def create(self, body: Any) -> PlaySession:
        """A new game from the page's settings (checked first; 422 naming a bad one)."""
        settings = check_new_game(body, self.runs)
        try:
            session = PlaySession(
                settings["game"], settings["num_players"], settings["seat"], settings["plans"],
                settings["seed"], settings["options"], settings["pace"], self.threads)
        except (HuertaError, ValueError, OSError, ImportError) as exc:
            what = "options" if settings["options"] else "game"
            raise WebError(422, what, f"cannot start the game: {exc}") from None
        with self._lock:
            self._sessions[session.id] = session
            while len(self._sessions) > self.limit:
                _, dropped = self._sessions.popitem(last=False)
                dropped.stop()
        return session

    def get(self, session_id: str) -> PlaySession:
        """The game `session_id`; 404 when there is none (or it was closed)."""
        with self._lock:
            session = self._sessions.get(session_id)
            if session is not None:
                self._sessions.move_to_end(session_id)
        if session is None:
            raise WebError(404, "game", f"no game {session_id!r} (start a new one)")
        return session

    def __len__(self) -> int:
        """The number of games kept."""
        with self._lock:
            return len(self._sessions)

    def close_all(self) -> None:
        """Stop every game (the server is shutting down)."""
        with self._lock:
            for session in self._sessions.values():
                session.stop()
