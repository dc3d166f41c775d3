"""Self-play training with sb3-contrib's MaskablePPO, from one command to a trained agent.

A run folder holds everything needed to trust and resume it:

    config.json          the full configuration (seed and target step count included)
    checkpoints/         model_<steps>.zip at the first update after every `checkpoint_every`
                         steps; auto_<steps>.zip after the first update of every session (so
                         a run killed early can still be resumed), when `checkpoint_minutes` of
                         wall time passed without a checkpoint, and on SIGINT/SIGTERM (the
                         newest two are kept); latest.zip, a copy of the newest
    pool/                snapshot_<steps>.zip: the learner's past selves, used as opponents
    tb/                  TensorBoard logs (episode reward and length, win rate, entropy,
                         explained variance, evaluation win rates)
    eval.csv             periodic masked evaluation: win rate against random and the heuristic,
                         one row per evaluated step count, with its local time (ISO 8601)
    best_model.zip       the best evaluated model (by win rate against the heuristic, then
                         against random); final_model.zip at the end
    best_policy.npz      the best model's policy as numpy arrays (`huerta export`), played by
                         the agent code `learned:RUN`
    learning_curve.png   evaluation win rates over training steps

Nothing is lost to a crash or a signal: every file is written under a temporary name in its own
folder and renamed into place, so a reader sees the old version or the new one, never half of
one. Checkpoints are taken between updates, so a checkpoint's step count is the one its weights
stand for, and a resumed run continues the same rollout schedule as an uninterrupted one: it
ends on the same step count and evaluates at the same step counts. On SIGINT or SIGTERM the run
saves a checkpoint at the last update and stops with `TrainingInterrupted`, whose message says
what was kept (a second SIGINT stops at once). `--resume` falls back to the newest readable
checkpoint when latest.zip is damaged, and drops evaluation rows newer than the checkpoint it
resumes from (they are made again).

Observations are already scaled to [0, 1] by every game (each value divided by its documented
maximum), so no running normalisation is needed and a saved model needs no statistics beside it.
"""

from __future__ import annotations

import contextlib
import csv
import datetime
import json
import math
import os
import shutil
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, fields
from numbers import Real
from pathlib import Path
from typing import Any

import numpy as np

from huerta.agents.heuristics import HEURISTICS
from huerta.envs.core.errors import HuertaError, InvalidConfigError
from huerta.envs.core.registry import get_game, resolve_game
from huerta.envs.core.rewards import REWARD_MODES
from huerta.envs.core.validation import check_game_options, short_repr

from .selfplay import BatchedPolicy, PoolWeights, SnapshotAgent

# `huerta train alpujarras-solo` and friends: name -> (game, player count)
TRAIN_ALIASES: dict[str, tuple[str, int]] = {"alpujarras-solo": ("alpujarras", 1)}

DEFAULT_STEPS = 600_000  # the target of a new run that names none
METHODS = ("ppo", "afterstate", "cem")  # TrainConfig.method
AUTO_CHECKPOINTS_KEPT = 2  # auto_<steps>.zip files kept (model_<steps>.zip are all kept)
# the end of every "nothing to resume" message (this path's and RLlib's): what to do instead
START_AFRESH = "; start afresh with --force (in place of --resume)"


@dataclass
class TrainConfig:
    """Everything a run needs; every field can come from a JSON/TOML file or a flag.
    `check()` validates every field (type and range) and names the one that is wrong."""

    game: str = "finca"
    players: int = 2
    steps: int | None = None  # None: 600,000 for a new run; on resume, the run's own target
    envs: int = 64  # games played at once in the training process (one vector, see vector.py)
    seed: int = 0
    out: str = "runs/finca"
    # MaskablePPO
    learning_rate: float = 3e-4
    n_steps: int = 64  # per game and update: 64 x 64 games = 4,096 steps per update
    batch_size: int = 1024
    n_epochs: int = 4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    net_arch: list[int] = field(default_factory=lambda: [256, 256])
    # the first `shared_layers` layers of net_arch are one trunk for the policy and the value
    # (`networks.SharedTrunk`), the rest two heads; 0: two separate networks (SB3's MlpPolicy)
    shared_layers: int = 1
    game_options: dict[str, Any] = field(default_factory=dict)  # e.g. {"double_turns": 3}
    # rewards
    reward: str = "win_loss"
    shaping: float = 0.02
    # warm start: the heuristic's games recorded and imitated before PPO (training/imitation.py);
    # imitation_games 0: none, PPO from random weights
    imitation_games: int = 2000
    imitation_epochs: int = 10
    imitation_explore: float = 0.1  # share of the recorded moves played at random
    # how to train: "ppo" (MaskablePPO self-play, the settings above and below), "afterstate"
    # (the heuristic's search with a learned value, training/afterstate.py: the value_*
    # settings) or "cem" (the Alpujarras solo value's constants learned by the cross-entropy
    # method, training/cem.py: the cem_* settings); "": the game's (GameSpec.training_methods,
    # else "ppo")
    method: str = ""
    value_games: int = 2000  # heuristic games recorded (the curve's last point)
    value_horizon: int = 6  # turns ahead whose heuristic margin is a position's target
    value_epochs: int = 15
    # generations of candidates (each evaluated: the curve's points); None: 8 for a new run, on
    # resume the run's own (a resumed run given more goes on to them)
    cem_generations: int | None = None
    cem_population: int = 7  # candidates per generation: the mean and mirrored samples
    cem_elite: int = 3  # best candidates the next mean is made of
    cem_deals: int = 64  # fresh deals against Zara every candidate of a generation plays
    # self-play
    snapshot_every: int = 100_000
    # opponent kinds' weights; None or kinds left out: the game's (GameSpec.training_pool),
    # else PoolWeights' defaults
    pool_weights: dict[str, float] | None = None
    # bookkeeping
    checkpoint_every: int = 100_000
    checkpoint_minutes: float = 5.0  # wall time between checkpoints at most (plus one update)
    eval_every: int = 100_000
    eval_games: int = 100  # per opponent and evaluation: intervals of about +-10 points
    progress: bool = True

    @classmethod
    def from_file(cls, path: str | Path) -> dict[str, Any]:
        """The fields set in a JSON or TOML file (unknown keys name the valid ones; values are
        checked by `check()`)."""
        path = Path(path)
        text = path.read_text()
        try:
            if path.suffix == ".toml":
                import tomllib

                data = tomllib.loads(text)
            else:
                data = json.loads(text)
        except ValueError as exc:  # JSONDecodeError and TOMLDecodeError are ValueErrors
            raise InvalidConfigError(f"{path}: not a valid settings file: {exc}") from None
        if not isinstance(data, dict):
            raise InvalidConfigError(f"{path}: settings must be a table/object of name: value")
        valid = {f.name for f in fields(cls)}
        unknown = set(data) - valid
        if unknown:
            raise InvalidConfigError(
                f"{path}: unknown setting(s) {sorted(unknown)}; valid: {', '.join(sorted(valid))}"
            )
        return data

    def check(self) -> TrainConfig:
        """Validate every field, resolve aliases and defaults; return self.

        The one place where settings are checked, whether they came from flags, a file or
        Python: a value of the wrong type (a string for a number, a float for a count) or out of
        range (a negative pool weight, a gamma above 1) is refused with the field's name, the
        value and what is valid.
        """
        if not isinstance(self.game, str):
            _refuse("game", self.game, "a game name")
        if self.game in TRAIN_ALIASES:
            self.game, self.players = TRAIN_ALIASES[self.game]
        spec, _ = resolve_game(self.game)  # an unknown name: every valid one named
        self.game = spec.name
        self.players = _checked_int("players", self.players, 1)
        spec.check_players(self.players)
        if self.steps is None:
            self.steps = DEFAULT_STEPS
        if self.cem_generations is None:
            from .cem import DEFAULT_GENERATIONS

            self.cem_generations = DEFAULT_GENERATIONS
        for name, minimum, maximum in _INT_FIELDS:
            setattr(self, name, _checked_int(name, getattr(self, name), minimum, maximum))
        for name, minimum, maximum, open_low in _FLOAT_FIELDS:
            setattr(self, name, _checked_float(name, getattr(self, name), minimum, maximum,
                                               open_low))
        if isinstance(self.out, os.PathLike):
            self.out = os.fspath(self.out)
        if not isinstance(self.out, str) or not self.out:
            _refuse("out", self.out, "a folder path")
        if not isinstance(self.reward, str) or self.reward not in REWARD_MODES:
            _refuse("reward", self.reward, "one of " + ", ".join(REWARD_MODES))
        if not isinstance(self.progress, bool):
            _refuse("progress", self.progress, "true or false")
        if self.method == "":
            self.method = spec.training_methods.get(self.players, "ppo")
        if self.method not in METHODS:
            _refuse("method", self.method, "one of " + ", ".join(METHODS))
        if self.method == "afterstate":
            from huerta.agents.afterstate import GAMES

            if spec.name not in GAMES:
                raise InvalidConfigError(f"method=afterstate: no afterstate agent for "
                                         f"{spec.name}; games with one: {', '.join(GAMES)}")
        if self.method == "cem":
            if (spec.name, self.players) != ("alpujarras", 1):
                raise InvalidConfigError(
                    f"method=cem learns the constants of the Alpujarras solo value; "
                    f"{spec.name} at {self.players} player(s) trains with another method "
                    "(ppo or afterstate)")
            if self.cem_elite > self.cem_population:
                _refuse("cem_elite", self.cem_elite,
                        f"at most cem_population ({self.cem_population})")
        if (not isinstance(self.net_arch, (list, tuple)) or not self.net_arch
                or not all(_is_int(n) and n >= 1 for n in self.net_arch)):
            _refuse("net_arch", self.net_arch, "a non-empty list of layer sizes (integers >= 1)")
        self.net_arch = [int(n) for n in self.net_arch]
        self.shared_layers = _checked_int("shared_layers", self.shared_layers, 0,
                                          len(self.net_arch))
        weights = {} if self.pool_weights is None else self.pool_weights
        if isinstance(weights, dict):  # (anything else is refused below, named)
            weights = {**asdict(PoolWeights()), **spec.training_pool, **weights}
        self.pool_weights = _checked_weights(weights)
        self._check_game_options(spec)
        return self

    def _check_game_options(self, spec: Any) -> None:
        if not isinstance(self.game_options, dict) or not all(
            isinstance(k, str) for k in self.game_options
        ):
            _refuse("game_options", self.game_options, "a table of option name: value")
        try:
            self.game_options = check_game_options(
                spec.name, self.game_options, spec.options, ()
            )
            spec.new_game(self.players, seed=0, **self.game_options)  # the game checks values
        except InvalidConfigError as exc:
            raise InvalidConfigError(f"game_options: {exc}") from None


# (field, minimum, maximum or None): integer settings, bounds included
_INT_FIELDS: tuple[tuple[str, int, int | None], ...] = (
    ("steps", 1, None), ("envs", 1, 4096), ("seed", 0, 2**32 - 1),
    ("n_steps", 2, None), ("batch_size", 2, None), ("n_epochs", 1, None),
    ("snapshot_every", 1, None), ("checkpoint_every", 1, None), ("eval_every", 1, None),
    ("eval_games", 1, None), ("imitation_games", 0, None), ("imitation_epochs", 1, None),
    ("value_games", 1, None), ("value_horizon", 0, None), ("value_epochs", 1, None),
    ("cem_generations", 1, 10_000), ("cem_population", 2, None), ("cem_elite", 1, None),
    ("cem_deals", 1, 100_000),
)
# (field, minimum, maximum or None, minimum excluded): real-number settings
_FLOAT_FIELDS: tuple[tuple[str, float, float | None, bool], ...] = (
    ("learning_rate", 0.0, None, True), ("gamma", 0.0, 1.0, False),
    ("gae_lambda", 0.0, 1.0, False), ("clip_range", 0.0, None, True),
    ("ent_coef", 0.0, None, False), ("vf_coef", 0.0, None, False),
    ("shaping", 0.0, None, False), ("checkpoint_minutes", 0.0, None, True),
    ("imitation_explore", 0.0, 1.0, False),
)


def _refuse(name: str, value: object, expected: str) -> None:
    raise InvalidConfigError(
        f"{name}={short_repr(value)} ({type(value).__name__}): expected {expected}"
    )


def _is_int(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _range_text(minimum: float, maximum: float | None, open_low: bool = False) -> str:
    def show(x: float) -> str:
        return str(x) if isinstance(x, int) else f"{x:g}"

    low = f"> {show(minimum)}" if open_low else f">= {show(minimum)}"
    return low if maximum is None else f"{low} and <= {show(maximum)}"


def _checked_int(name: str, value: object, minimum: int, maximum: int | None = None) -> int:
    """`value` as an int in range; a float with an integral value (1e5 in JSON) is accepted."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not _is_int(value) or value < minimum or (maximum is not None and value > maximum):
        _refuse(name, value, "an integer " + _range_text(minimum, maximum))
    return int(value)


def _checked_float(
    name: str, value: object, minimum: float, maximum: float | None, open_low: bool
) -> float:
    ok = isinstance(value, Real) and not isinstance(value, (bool, np.bool_))
    number = float(value) if ok else math.nan
    if (not math.isfinite(number) or number < minimum or (open_low and number == minimum)
            or (maximum is not None and number > maximum)):
        _refuse(name, value, "a number " + _range_text(minimum, maximum, open_low))
    return number


def _checked_weights(weights: object) -> dict[str, float]:
    """Pool weights as {kind: weight}: known kinds, finite numbers >= 0, not all zero."""
    valid = [f.name for f in fields(PoolWeights)]
    if not isinstance(weights, dict):
        _refuse("pool_weights", weights, "a table of " + ", ".join(valid) + " to weights")
    unknown = sorted(map(str, set(weights) - set(valid)))
    if unknown:
        raise InvalidConfigError(f"pool_weights: unknown kind(s) {unknown}; valid: "
                                 + ", ".join(valid))
    checked = {k: _checked_float(f"pool_weights.{k}", v, 0.0, None, False)
               for k, v in weights.items()}
    if not any(checked.get(k, getattr(PoolWeights(), k)) > 0 for k in valid):
        raise InvalidConfigError("pool_weights: every weight is 0; at least one must be > 0")
    return checked


class TrainingInterrupted(HuertaError):
    """Training stopped by SIGINT or SIGTERM after saving a checkpoint. The message says what
    was kept, in one line; `signum`, `steps` and `checkpoint` say it to programs."""

    def __init__(self, signum: int, steps: int, target: int, checkpoint: Path,
                 unit: str = "steps") -> None:
        self.signum = signum
        self.steps = steps
        self.checkpoint = checkpoint
        name = signal.Signals(signum).name
        super().__init__(
            f"interrupted by {name}: kept {checkpoint}, {steps:,} of {target:,} {unit}; "
            "continue with --resume"
        )


class _EvaluationInterrupted(BaseException):
    """Raised by the signal handler inside an evaluation, which is abandoned (its row is made
    again on resume). A BaseException so that no `except Exception` on the way swallows it."""


class _Stop:
    """The signal asked for, shared between the handlers and the training loop."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self.evaluating = False

    def handler(self, signum: int, frame: Any) -> None:
        if self.signum is not None and signum == signal.SIGINT:
            raise KeyboardInterrupt  # a second Ctrl-C: stop now, nothing more saved
        if self.signum is None:
            self.signum = signum
        if self.evaluating:
            raise _EvaluationInterrupted


@contextlib.contextmanager
def _signals_caught(stop: _Stop) -> Iterator[None]:
    """SIGINT and SIGTERM go to `stop` while training (only the main thread can install
    handlers; elsewhere the signals keep their handlers)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, stop.handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler if handler is not None else signal.SIG_DFL)


def eval_opponents(game: str, players: int) -> list[str]:
    """Who a run is evaluated against: random and the heuristic, or Zara in a solo game (the
    opponent scripted inside the game)."""
    if players == 1:
        return ["zara"]
    return ["random", "heuristic"] if game in HEURISTICS else ["random"]


def evaluate(
    model: Any, game: str, players: int, opponent: str, games: int, seed: int,
    options: dict[str, Any] | None = None,
) -> float:
    """Win rate of `model` (masked, deterministic) against `opponent` over `games` seat-rotated
    games with fixed seeds; a shared victory counts 1/k. In a solo game (`players == 1`) the
    opponent is the game's own (opponent "zara") and a win is the game's verdict."""
    from huerta.agents import make_agent

    from .matches import play_game

    wins = 0.0
    learner = BatchedPolicy(model)  # its policy read once for all the games
    for g in range(games):
        learner_seat = g % players
        agents = [
            SnapshotAgent(learner, deterministic=True) if seat == learner_seat
            else make_agent(opponent, game=game, seed=seed + 31 * g + seat)
            for seat in range(players)
        ]
        _, state = play_game(game, agents, seed + g, options=options)
        if state.is_terminal:
            winners = state.winners()
            if learner_seat in winners:
                wins += 1.0 / len(winners)
    return wins / games


# --- files written whole -------------------------------------------------------------------------
def _temporary(path: Path) -> Path:
    """A temporary name beside `path` (same folder, so the rename is atomic); it starts with a
    dot so no glob of checkpoints or snapshots sees it."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def _replace_from(tmp: Path, path: Path, write: Callable[[Any], None]) -> None:
    try:
        with open(tmp, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def save_model(model: Any, path: Path) -> None:
    """`model.save(path)`, atomically: a reader sees the previous file or the new one."""
    _replace_from(_temporary(path), path, model.save)


def _copy_file(src: Path, dst: Path) -> None:
    with open(src, "rb") as source:
        _replace_from(_temporary(dst), dst, lambda f: shutil.copyfileobj(source, f))


def _write_text(path: Path, text: str) -> None:
    _replace_from(_temporary(path), path, lambda f: f.write(text.encode()))


# --- checkpoints ---------------------------------------------------------------------------------
def _checkpoint_steps(path: Path) -> int | None:
    """The step count in a checkpoint's name (model_<steps>.zip, auto_<steps>.zip), else None."""
    kind, _, digits = path.stem.partition("_")
    return int(digits) if kind in ("model", "auto") and digits.isdigit() else None


def _save_checkpoint(model: Any, run: Path, kind: str) -> Path:
    """Save `model` as checkpoints/<kind>_<steps>.zip and latest.zip; keep the newest
    `AUTO_CHECKPOINTS_KEPT` auto ones."""
    folder = run / "checkpoints"
    path = folder / f"{kind}_{model.num_timesteps:09d}.zip"
    save_model(model, path)
    _copy_file(path, folder / "latest.zip")
    if kind == "auto":
        autos = sorted(folder.glob("auto_*.zip"), key=lambda p: _checkpoint_steps(p) or -1)
        for old in autos[:-AUTO_CHECKPOINTS_KEPT]:
            old.unlink(missing_ok=True)
    return path


def resume_candidates(run: Path) -> list[Path]:
    """The checkpoints a resume tries, in order: latest.zip, then the others newest first."""
    folder = Path(run) / "checkpoints"
    latest = folder / "latest.zip"
    others = [p for p in folder.glob("*.zip") if _checkpoint_steps(p) is not None]
    others.sort(key=lambda p: (_checkpoint_steps(p), p.name.startswith("model")), reverse=True)
    return ([latest] if latest.exists() else []) + others


def _load_checkpoint(run: Path, vec_env: Any) -> Any:
    """The newest checkpoint that loads (latest.zip first), with a warning naming every one
    that did not; latest.zip is then replaced by the one used."""
    from sb3_contrib import MaskablePPO

    problems = []
    for path in resume_candidates(run):
        try:
            model = MaskablePPO.load(str(path), env=vec_env, device="cpu",
                                     tensorboard_log=str(run / "tb"))
        except Exception as exc:  # any damage: a bad zip, a bad member, a bad pickle
            problems.append(f"{path.name} ({type(exc).__name__}: {short_repr(str(exc))})")
            continue
        if problems:
            print(f"huerta train: cannot read {'; '.join(problems)}; resuming from {path} "
                  f"({model.num_timesteps:,} steps)", file=sys.stderr)
            _copy_file(path, run / "checkpoints" / "latest.zip")
        return model
    found = f": {'; '.join(problems)}" if problems else ""
    raise InvalidConfigError(
        f"nothing to resume: no readable checkpoint in {run / 'checkpoints'}{found}{START_AFRESH}"
    )


class _Callbacks:
    """Builds the SB3 callback list (kept in a factory so sb3 is imported lazily)."""

    @staticmethod
    def make(config: TrainConfig, run: Path, total: int, stop: _Stop, start: int):
        from stable_baselines3.common.callbacks import BaseCallback

        class TrainingCallback(BaseCallback):
            """Checkpoints, pool snapshots, evaluation, win-rate logging, progress bar."""

            def __init__(self) -> None:
                super().__init__()
                self.bar = None
                self.wins: list[float] = []
                self.best = _read_best(run)
                self.next_checkpoint = self.next_snapshot = self.next_eval = 0
                # the step count the policy's weights stand for: that of the last update
                self.weights_steps = self.start_steps = start
                self.saved_steps = -1  # the step count of the last checkpoint saved
                self.finished = False  # the run reached its target (and saved its checkpoint)
                self.evaluated_steps = -1  # the step count of the last evaluation
                self.last_save = time.monotonic()

            def _on_training_start(self) -> None:
                now = self.num_timesteps
                self.weights_steps = self.start_steps = now
                self.last_save = time.monotonic()
                self.next_checkpoint = _next_multiple(now, config.checkpoint_every)
                self.next_snapshot = _next_multiple(now, config.snapshot_every)
                self.next_eval = _next_multiple(now, config.eval_every)
                if config.progress:
                    try:
                        from tqdm import tqdm

                        self.bar = tqdm(total=total, initial=now, desc="training", unit="step")
                    except ImportError:
                        self.bar = None
                if not any((run / "pool").glob("snapshot_*.zip")):
                    save_model(self.model, run / "pool" / f"snapshot_{now:09d}.zip")
                if now == 0:
                    self._evaluate()  # the untrained policy: where the learning curve starts

            def _on_rollout_start(self) -> None:
                # between updates: the weights are those of exactly `num_timesteps` steps
                now = self.weights_steps = self.num_timesteps
                if now >= self.next_checkpoint:
                    self.next_checkpoint = _next_multiple(now, config.checkpoint_every)
                    self.checkpoint("model")
                elif now > self.start_steps and (  # (else the weights are those loaded or new)
                        # the first update: a run killed before its first timed checkpoint
                        # still resumes
                        self.saved_steps < 0
                        or time.monotonic() - self.last_save >= 60 * config.checkpoint_minutes):
                    self.checkpoint("auto")

            def _on_step(self) -> bool:
                if stop.signum is not None:
                    return False
                if self.bar is not None:  # update() redraws at most every mininterval
                    self.bar.update(min(self.num_timesteps, self.bar.total) - self.bar.n)
                for info in self.locals.get("infos", []):
                    episode = info.get("episode")
                    if episode is not None and "is_winner" in info:
                        self.wins.append(float(info["is_winner"]))
                if len(self.wins) >= 20:
                    self.logger.record("rollout/win_rate", float(np.mean(self.wins)))
                    self.wins = []
                steps = self.num_timesteps
                if steps >= self.next_snapshot:
                    self.next_snapshot += config.snapshot_every
                    save_model(self.model, run / "pool" / f"snapshot_{steps:09d}.zip")
                if steps >= self.next_eval:
                    self.next_eval += config.eval_every
                    self._evaluate()
                # the run stops at its target, not at the end of the rollout under way (whose
                # steps short of an update are not learned from); the games step together, so
                # the count moves `envs` at a time and may pass the target by less than that
                return stop.signum is None and steps < total

            def checkpoint(self, kind: str) -> Path:
                """Save a checkpoint of the weights as they are (call between updates)."""
                path = _save_checkpoint(self.model, run, kind)
                self.saved_steps = self.model.num_timesteps
                self.last_save = time.monotonic()
                return path

            def _evaluate(self) -> None:
                steps = self.num_timesteps
                seed = 10_000 + config.seed
                try:
                    stop.evaluating = True
                    if stop.signum is not None:
                        return
                    rates = {
                        opponent: evaluate(self.model, config.game, config.players, opponent,
                                           config.eval_games, seed, config.game_options)
                        for opponent in eval_opponents(config.game, config.players)
                    }
                except _EvaluationInterrupted:
                    return  # abandoned: the resumed run evaluates this step count again
                finally:
                    stop.evaluating = False
                for opponent, rate in rates.items():
                    self.logger.record(f"eval/win_rate_vs_{opponent}", rate)
                _append_eval(run, steps, rates, config.eval_games)
                self.evaluated_steps = steps
                key = _best_key(rates)
                # the untrained policy (step 0) is the curve's start, never the best model;
                # an imitation of the heuristic may be
                best = (steps > 0 or _imitated(run)) and (self.best is None or key > self.best)
                if best:
                    self.best = key
                    save_model(self.model, run / "best_model.zip")
                self.logger.dump(steps)
                line = eval_line(steps, rates, config.eval_games) + (" (best)" if best else "")
                if self.bar is not None:
                    self.bar.write(line)  # above the bar, which is redrawn beneath
                else:
                    print(line, flush=True)

            def close_bar(self) -> None:
                if self.bar is not None:
                    self.bar.close()
                    self.bar = None

            def _on_training_end(self) -> None:
                if stop.signum is None and self.evaluated_steps != self.num_timesteps:
                    self._evaluate()  # every run ends evaluated, whatever its length
                self.close_bar()
                if stop.signum is None:
                    self.finished = True  # a signal from now on changes nothing
                    self.checkpoint("model")

        return TrainingCallback()


def _next_multiple(now: int, every: int) -> int:
    return (now // every + 1) * every


def _best_key(rates: dict[str, float]) -> tuple[float, ...]:
    """Which evaluation is best: the strongest opponent first (heuristic, then random), or
    the win rate against Zara."""
    order = ("heuristic", "random", "zara")
    return tuple(rates[o] for o in order if o in rates)


# --- what a run prints ---------------------------------------------------------------------------
def _rates_text(rates: dict[str, float], games: int) -> str:
    from .ratings import wilson_interval

    parts = []
    for opponent, rate in rates.items():
        low, high = wilson_interval(rate * games, games)
        parts.append(f"{100 * rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}] vs {opponent}")
    return ", ".join(parts)


def eval_line(steps: int, rates: dict[str, float], games: int) -> str:
    """One evaluation as a line: each win rate with its 95% Wilson interval, e.g.
    `eval at 100,000 steps: 92.5% [80.1, 97.4] vs random, 10.0% [4.0, 23.1] vs heuristic
    (40 games each)`."""
    each = " each" if len(rates) > 1 else ""
    return f"eval at {steps:,} steps: {_rates_text(rates, games)} ({games} games{each})"


def summary_line(run: Path, steps: int, seconds: float, games: int) -> str:
    """The line that ends a run: steps, wall time, and the best evaluation (the one
    best_model.zip holds)."""
    minutes, secs = divmod(round(seconds), 60)
    text = f"training done: {steps:,} steps, {minutes} min {secs:02d} s"
    rows = best_candidates(run) or read_eval(run)
    if rows:
        best = max(rows, key=lambda r: _best_key(_rates_of(r)))  # the first of the best
        text += (f"; best model at {int(best['steps']):,} steps: "
                 f"{_rates_text(_rates_of(best), games)}")
    return text


def _rates_of(row: dict[str, float]) -> dict[str, float]:
    return {k[3:]: v for k, v in row.items() if k.startswith("vs_")}


# --- eval.csv ------------------------------------------------------------------------------------
def _read_eval_rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    if not path.exists():
        return [], []
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        return list(reader.fieldnames or []), list(reader)


def _write_eval_rows(path: Path, header: list[str], rows: list[dict[str, str]]) -> None:
    """eval.csv rewritten whole: one row per step count (the last written wins), by steps."""
    by_steps = {int(row["steps"]): row for row in rows}
    lines = [",".join(header)]
    for steps in sorted(by_steps):
        lines.append(",".join(by_steps[steps].get(column) or "" for column in header))
    _write_text(path, "\n".join(lines) + "\n")


def _append_eval(
    run: Path, steps: int, rates: dict[str, float], games: int | None = None
) -> None:
    """Record an evaluation (of `games` per opponent, a column when given); one made again for
    a step count replaces the earlier row."""
    path = run / "eval.csv"
    header, rows = _read_eval_rows(path)
    columns = [f"win_rate_vs_{o}" for o in rates] + (["games"] if games is not None else [])
    if not header:
        header = ["steps", *columns, "time"]
    for column in columns:
        if column not in header:
            header.insert(len(header) - 1 if header[-1] == "time" else len(header), column)
    now = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    row = {"steps": str(steps), "time": now}  # local time with its UTC offset
    row.update({f"win_rate_vs_{o}": f"{r:.4f}" for o, r in rates.items()})
    if games is not None:
        row["games"] = str(games)
    _write_eval_rows(path, header, [*rows, row])


def _trim_eval(run: Path, steps: int) -> None:
    """Drop the evaluation rows made after `steps` (a resume from a checkpoint of `steps` makes
    them again) and any duplicate rows an older version wrote."""
    path = run / "eval.csv"
    header, rows = _read_eval_rows(path)
    if header:
        _write_eval_rows(path, header, [r for r in rows if int(r["steps"]) <= steps])


def read_eval(run: Path) -> list[dict[str, float]]:
    """The evaluation history of a run (eval.csv), oldest first: {"steps": ..., "vs_random":
    ..., "vs_heuristic": ...} (or "vs_zara" for a solo run), and "games" per opponent when the
    row says (runs before that column have none)."""
    _, raw = _read_eval_rows(Path(run) / "eval.csv")
    rows = []
    for row in raw:
        entry: dict[str, float] = {"steps": int(row["steps"])}
        if row.get("games"):
            entry["games"] = int(row["games"])
        for key, value in row.items():
            if key.startswith("win_rate_vs_") and value:
                entry["vs_" + key.removeprefix("win_rate_vs_")] = float(value)
        rows.append(entry)
    return rows


def _imitated(run: Path) -> bool:
    """Whether the run's step 0 is an imitation of the heuristic (its report is written)."""
    return (run / "imitation.json").exists()


def best_candidates(run: Path) -> list[dict[str, float]]:
    """The evaluations that may be the best model: every one after step 0, and step 0 too when
    it is an imitation of the heuristic (the untrained policy is never handed back)."""
    imitated = _imitated(run)
    return [r for r in read_eval(run) if r["steps"] > 0 or imitated]


def _read_best(run: Path) -> tuple[float, ...] | None:
    rows = best_candidates(run)
    if not rows or not (run / "best_model.zip").exists():
        return None
    return max(_best_key(_rates_of(r)) for r in rows)


# --- the run folder ------------------------------------------------------------------------------
_RUN_FILES = ("config.json", "eval.csv", "best_model.zip", "final_model.zip", "best_policy.npz",
              "learning_curve.png", "imitation.json", "afterstate.json", "cem.jsonl")
_RUN_FOLDERS = ("checkpoints", "pool", "tb", "imitation", "afterstate", "values")


def _run_evidence(run: Path) -> list[str]:
    """What in `run` belongs to a training run (empty when there is none)."""
    found = [name for name in _RUN_FILES if (run / name).exists()]
    for folder, pattern in (("checkpoints", "*.zip"), ("pool", "*.zip"),
                            ("imitation", "chunk_*.npz"), ("afterstate", "chunk_*.npz"),
                            ("values", "*.npz")):
        if any((run / folder).glob(pattern)):
            found.append(f"{folder}/")
    return found


def _imitation_begun(run: Path, config: TrainConfig) -> bool:
    """Whether a warm start was under way in `run` (games recorded, no checkpoint yet)."""
    return config.imitation_games > 0 and any((run / "imitation").glob("chunk_*.npz"))


def _clear_run(run: Path) -> None:
    """Remove a run's own files and folders from `run` (nothing else in it)."""
    for name in _RUN_FILES:
        (run / name).unlink(missing_ok=True)
    for folder in _RUN_FOLDERS:
        shutil.rmtree(run / folder, ignore_errors=True)


def _resumed_config(config: TrainConfig, run: Path) -> TrainConfig:
    """The run's saved configuration; `steps` (when given) and `progress` from `config`."""
    path = run / "config.json"
    if not path.exists():
        raise InvalidConfigError(f"nothing to resume: {path} does not exist{START_AFRESH}")
    try:
        saved = json.loads(path.read_text())
    except ValueError as exc:
        raise InvalidConfigError(f"{path}: not a valid run configuration: {exc}") from None
    valid = {f.name for f in fields(TrainConfig)}
    if not isinstance(saved, dict) or set(saved) - valid:
        raise InvalidConfigError(f"{path}: not a run configuration of this version (unknown "
                                 f"settings {sorted(set(saved) - valid) if saved else saved})")
    given = config.game
    if isinstance(given, str):
        given = TRAIN_ALIASES[given][0] if given in TRAIN_ALIASES else get_game(given).name
    if given != saved.get("game"):
        raise InvalidConfigError(
            f"{run} holds a {saved.get('game')} run, not {config.game}; "
            "resume it under its own game or choose another --out"
        )
    saved.setdefault("shared_layers", 0)  # runs from before the shared trunk: two networks
    saved.setdefault("imitation_games", 0)  # runs from before the warm start: none
    saved.setdefault("method", "ppo")  # runs from before the afterstate method
    saved["progress"] = config.progress
    saved["out"] = config.out  # where the run is now, should it have been moved
    if config.steps is not None:
        saved["steps"] = config.steps
    if config.cem_generations is not None:
        saved["cem_generations"] = config.cem_generations
    return TrainConfig(**saved).check()


def train(config: TrainConfig, resume: bool = False, force: bool = False) -> Path:
    """Run (or resume) self-play training; return the run folder.

    A folder that already holds a run is refused unless `resume` (continue it: its saved
    settings, its target step count unless `config.steps` is set) or `force` (remove that run's
    files and start afresh). SIGINT or SIGTERM saves a checkpoint and raises
    `TrainingInterrupted`.
    """
    import torch

    started = time.monotonic()
    torch.set_num_threads(1)  # small MLPs: a second thread costs more in contention than it gains
    if resume and force:
        raise InvalidConfigError("resume and force contradict each other: --resume continues "
                                 "the run in --out, --force replaces it")
    run = Path(config.out)
    if resume:
        config = _resumed_config(config, run)
        if config.method == "afterstate":
            if not _run_evidence(run):
                raise InvalidConfigError(f"nothing to resume: no recorded games in "
                                         f"{run / 'afterstate'}{START_AFRESH}")
        elif config.method == "cem":
            pass  # a cem run goes on from its last finished generation, or from the start
        elif not resume_candidates(run) and not _imitation_begun(run, config):
            raise InvalidConfigError(
                f"nothing to resume: no checkpoint in {run / 'checkpoints'}{START_AFRESH}"
            )
    else:
        config.check()
        evidence = _run_evidence(run)
        if evidence and not force:
            raise InvalidConfigError(
                f"{run} already holds a run ({', '.join(evidence)}); use --resume to continue "
                "it, --force to replace it, or choose another --out"
            )
        if evidence:
            _clear_run(run)
    folders = {"afterstate": ("afterstate", "values"), "cem": ("values",)}.get(
        config.method, ("checkpoints", "pool", "tb", "imitation"))
    for sub in folders:
        (run / sub).mkdir(parents=True, exist_ok=True)
    _write_text(run / "config.json", json.dumps(asdict(config), indent=2) + "\n")

    stop = _Stop()
    if config.method in ("afterstate", "cem"):  # a loop of their own, counted in games
        if config.method == "afterstate":
            from .afterstate import summary_text
            from .afterstate import train_afterstate as train_method
        else:
            from .cem import summary_text
            from .cem import train_cem as train_method

        with _signals_caught(stop):
            games, _ = train_method(config, run, stop)
        print(summary_text(run, games, time.monotonic() - started, config.eval_games),
              flush=True)
        return run
    from .threads import one_blas_thread

    with _signals_caught(stop), one_blas_thread():
        vec_env = make_vec_env(config, run / "pool")
        callback = None
        try:
            if resume and resume_candidates(run):
                model = _load_checkpoint(run, vec_env)
                _trim_eval(run, model.num_timesteps)
            else:  # a new run, or one stopped during its warm start
                model = new_model(config, vec_env, run / "tb")
                if config.imitation_games > 0:
                    _warm_start(model, config, run, stop)
            remaining = config.steps - model.num_timesteps
            if remaining > 0 and stop.signum is None:
                callback = _Callbacks.make(config, run, config.steps, stop, model.num_timesteps)
                with contextlib.suppress(_EvaluationInterrupted):  # a signal at the very edge
                    model.learn(total_timesteps=remaining, callback=callback,
                                reset_num_timesteps=not resume, tb_log_name="ppo")
            if stop.signum is not None and not (callback is not None and callback.finished):
                _stop_with_checkpoint(model, run, callback, stop.signum, config.steps)
            save_model(model, run / "final_model.zip")
            if not (run / "best_model.zip").exists():
                _copy_file(run / "final_model.zip", run / "best_model.zip")
            from .export import export_policy

            export_policy(run, run / "best_policy.npz")
        finally:
            if callback is not None:
                callback.close_bar()
            vec_env.close()
    rows = read_eval(run)
    if rows:
        try:
            from .plots import plot_learning_curve

            who = "solo against Zara" if config.players == 1 else f"{config.players} players"
            start = ", step 0: the imitation of the heuristic" if _imitated(run) else ""
            plot_learning_curve(rows, run / "learning_curve.png",
                                title=f"{config.game}, {who}{start}")
        except ImportError:
            pass
    print(summary_line(run, model.num_timesteps, time.monotonic() - started, config.eval_games),
          flush=True)
    return run


def _warm_start(model: Any, config: TrainConfig, run: Path, stop: _Stop) -> None:
    """Imitate the heuristic before self-play (training/imitation.py), then save the result as
    the run's step-0 checkpoint; a signal on the way raises `TrainingInterrupted` keeping the
    games recorded so far."""
    from .imitation import warm_start

    if config.game not in HEURISTICS:
        print(f"huerta train: {config.game} has no heuristic to imitate; PPO starts from random "
              "weights", file=sys.stderr)
        return
    report = warm_start(
        model, run, config.game, config.players, config.imitation_games,
        config.imitation_epochs, config.seed, config.imitation_explore, config.gamma,
        config.shaping, config.reward, config.game_options, progress=config.progress,
        should_stop=lambda: stop.signum is not None,
    )
    if report is None:
        assert stop.signum is not None
        raise TrainingInterrupted(stop.signum, 0, config.steps, run / "imitation")
    print(report.line(), flush=True)
    _save_checkpoint(model, run, "model")


def make_vec_env(config: TrainConfig, pool_dir: Path) -> Any:
    """The games a run steps together (`SelfPlayVecEnv`), its opponents drawn from `pool_dir`."""
    from .vector import SelfPlayVecEnv

    return SelfPlayVecEnv(
        config.game, config.players, n_envs=config.envs, pool_dir=pool_dir,
        weights=PoolWeights(**config.pool_weights), seed=config.seed, reward=config.reward,
        shaping=config.shaping, **config.game_options,
    )


def new_model(config: TrainConfig, vec_env: Any, tensorboard: Path | None) -> Any:
    """A fresh MaskablePPO learner with the run's settings, on `vec_env`."""
    from sb3_contrib import MaskablePPO

    from .networks import policy_kwargs

    return MaskablePPO(
        "MlpPolicy", vec_env, learning_rate=config.learning_rate,
        n_steps=config.n_steps, batch_size=config.batch_size,
        n_epochs=config.n_epochs, gamma=config.gamma, gae_lambda=config.gae_lambda,
        clip_range=config.clip_range, ent_coef=config.ent_coef,
        vf_coef=config.vf_coef, policy_kwargs=policy_kwargs(config.net_arch,
                                                            config.shared_layers),
        tensorboard_log=None if tensorboard is None else str(tensorboard),
        seed=config.seed, device="cpu", verbose=0,
    )


def _stop_with_checkpoint(
    model: Any, run: Path, callback: Any, signum: int, target: int
) -> None:
    """Save the weights under the step count they stand for (that of the last update, so the
    resumed run repeats the unfinished rollout) and raise `TrainingInterrupted`."""
    latest = run / "checkpoints" / "latest.zip"
    if callback is not None:
        model.num_timesteps = callback.weights_steps
    if callback is not None and callback.saved_steps == model.num_timesteps:
        kept = latest  # saved at this very update already
    else:
        kept = _save_checkpoint(model, run, "auto")
    raise TrainingInterrupted(signum, model.num_timesteps, target, kept)
