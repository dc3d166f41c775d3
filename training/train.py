"""Self-play training with sb3-contrib's MaskablePPO, from one command to a trained agent.

A run folder holds everything needed to trust and resume it:

    config.json          the full configuration (seed included)
    checkpoints/         model_<steps>.zip every `checkpoint_every` steps, latest.zip
    pool/                snapshot_<steps>.zip: the learner's past selves, used as opponents
    tb/                  TensorBoard logs (episode reward and length, win rate, entropy,
                         explained variance, evaluation win rates)
    eval.csv             periodic masked evaluation: win rate against random and the heuristic
    best_model.zip       the best evaluated model (by win rate against the heuristic, then
                         against random); final_model.zip at the end
    learning_curve.png   evaluation win rates over training steps

Observations are already scaled to [0, 1] by every game (each value divided by its documented
maximum), so no running normalisation is needed and a saved model needs no statistics beside it.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from huerta.agents.heuristics import HEURISTICS
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import get_game

from .selfplay import PoolWeights, SelfPlayEnv, SnapshotAgent

# `huerta train alpujarras-solo` and friends: name -> (game, player count)
TRAIN_ALIASES: dict[str, tuple[str, int]] = {"alpujarras-solo": ("alpujarras", 1)}


@dataclass
class TrainConfig:
    """Everything a run needs; every field can come from a JSON/TOML file or a flag."""

    game: str = "finca"
    players: int = 2
    steps: int = 600_000
    envs: int = 0  # 0: one per CPU core
    seed: int = 0
    out: str = "runs/finca"
    # MaskablePPO
    learning_rate: float = 3e-4
    n_steps: int = 1024  # per environment and update
    batch_size: int = 256
    n_epochs: int = 6
    gamma: float = 0.995
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    net_arch: list[int] = field(default_factory=lambda: [256, 256])
    game_options: dict[str, Any] = field(default_factory=dict)  # e.g. {"double_turns": 3}
    # rewards
    reward: str = "win_loss"
    shaping: float = 0.02
    # self-play
    snapshot_every: int = 100_000
    pool_weights: dict[str, float] = field(
        default_factory=lambda: asdict(PoolWeights())
    )
    # bookkeeping
    checkpoint_every: int = 100_000
    eval_every: int = 100_000
    eval_games: int = 40
    progress: bool = True

    @classmethod
    def from_file(cls, path: str | Path) -> dict[str, Any]:
        """The fields set in a JSON or TOML file (unknown keys name the valid ones)."""
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
        """Resolve aliases and validate; return self."""
        if self.game in TRAIN_ALIASES:
            self.game, self.players = TRAIN_ALIASES[self.game]
        spec = get_game(self.game)
        self.game = spec.name
        spec.check_players(self.players)
        if self.steps < 1:
            raise InvalidConfigError(f"steps must be positive, got {self.steps}")
        if self.envs <= 0:
            self.envs = max(1, os.cpu_count() or 1)
        PoolWeights(**self.pool_weights)  # names the valid keys on a typo
        return self


def _make_env(config: TrainConfig, rank: int, pool_dir: Path):
    def init():
        import torch
        from stable_baselines3.common.monitor import Monitor

        torch.set_num_threads(1)
        env = SelfPlayEnv(
            config.game, config.players, pool_dir=pool_dir,
            weights=PoolWeights(**config.pool_weights), reward=config.reward,
            shaping=config.shaping, **config.game_options,
        )
        env.reset(seed=config.seed * 1000 + rank)
        return Monitor(env, info_keywords=("is_winner",))

    return init


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
    for g in range(games):
        learner_seat = g % players
        agents = [
            SnapshotAgent(model, deterministic=True) if seat == learner_seat
            else make_agent(opponent, game=game, seed=seed + 31 * g + seat)
            for seat in range(players)
        ]
        _, state = play_game(game, agents, seed + g, options=options)
        if state.is_terminal:
            winners = state.winners()
            if learner_seat in winners:
                wins += 1.0 / len(winners)
    return wins / games


class _Callbacks:
    """Builds the SB3 callback list (kept in a factory so sb3 is imported lazily)."""

    @staticmethod
    def make(config: TrainConfig, run: Path, total: int):
        from stable_baselines3.common.callbacks import BaseCallback

        class TrainingCallback(BaseCallback):
            """Checkpoints, pool snapshots, evaluation, win-rate logging, progress bar."""

            def __init__(self) -> None:
                super().__init__()
                self.bar = None
                self.wins: list[float] = []
                self.best = _read_best(run)
                self.next_checkpoint = self.next_snapshot = self.next_eval = 0

            def _on_training_start(self) -> None:
                now = self.num_timesteps
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
                    self.model.save(run / "pool" / f"snapshot_{now:09d}.zip")
                if now == 0:
                    self._evaluate()  # the untrained policy: where the learning curve starts

            def _on_step(self) -> bool:
                if self.bar is not None:  # update() redraws at most every mininterval
                    # (the last rollout may run past the target; the bar stops at it)
                    self.bar.update(min(self.num_timesteps, self.bar.total) - self.bar.n)
                for info in self.locals.get("infos", []):
                    episode = info.get("episode")
                    if episode is not None and "is_winner" in info:
                        self.wins.append(float(info["is_winner"]))
                if len(self.wins) >= 20:
                    self.logger.record("rollout/win_rate", float(np.mean(self.wins)))
                    self.wins = []
                steps = self.num_timesteps
                if steps >= self.next_checkpoint:
                    self.next_checkpoint += config.checkpoint_every
                    self._checkpoint()
                if steps >= self.next_snapshot:
                    self.next_snapshot += config.snapshot_every
                    self.model.save(run / "pool" / f"snapshot_{steps:09d}.zip")
                if steps >= self.next_eval:
                    self.next_eval += config.eval_every
                    self._evaluate()
                return True

            def _checkpoint(self) -> None:
                steps = self.num_timesteps
                path = run / "checkpoints" / f"model_{steps:09d}.zip"
                self.model.save(path)
                shutil.copyfile(path, run / "checkpoints" / "latest.zip")

            def _evaluate(self) -> None:
                steps = self.num_timesteps
                seed = 10_000 + config.seed
                rates = {
                    opponent: evaluate(self.model, config.game, config.players, opponent,
                                       config.eval_games, seed, config.game_options)
                    for opponent in eval_opponents(config.game, config.players)
                }
                for opponent, rate in rates.items():
                    self.logger.record(f"eval/win_rate_vs_{opponent}", rate)
                _append_eval(run, steps, rates)
                key = _best_key(rates)
                if self.best is None or key > self.best:
                    self.best = key
                    self.model.save(run / "best_model.zip")
                self.logger.dump(steps)

            def _on_training_end(self) -> None:
                if self.bar is not None:
                    self.bar.close()
                self._checkpoint()

        return TrainingCallback()


def _next_multiple(now: int, every: int) -> int:
    return (now // every + 1) * every


def _best_key(rates: dict[str, float]) -> tuple[float, ...]:
    """Which evaluation is best: the strongest opponent first (heuristic, then random), or
    the win rate against Zara."""
    order = ("heuristic", "random", "zara")
    return tuple(rates[o] for o in order if o in rates)


def _append_eval(run: Path, steps: int, rates: dict[str, float]) -> None:
    path = run / "eval.csv"
    new = not path.exists()
    with path.open("a", newline="") as f:
        writer = csv.writer(f)
        if new:
            writer.writerow(["steps", *(f"win_rate_vs_{o}" for o in rates), "time"])
        writer.writerow([steps, *(f"{r:.4f}" for r in rates.values()), f"{time.time():.0f}"])


def read_eval(run: Path) -> list[dict[str, float]]:
    """The evaluation history of a run (eval.csv), oldest first: {"steps": ..., "vs_random":
    ..., "vs_heuristic": ...} (or "vs_zara" for a solo run)."""
    path = Path(run) / "eval.csv"
    if not path.exists():
        return []
    rows = []
    with path.open() as f:
        for row in csv.DictReader(f):
            entry: dict[str, float] = {"steps": int(row["steps"])}
            for key, value in row.items():
                if key.startswith("win_rate_vs_") and value:
                    entry["vs_" + key.removeprefix("win_rate_vs_")] = float(value)
            rows.append(entry)
    return rows


def _read_best(run: Path) -> tuple[float, ...] | None:
    rows = read_eval(run)
    if not rows or not (run / "best_model.zip").exists():
        return None
    return max(_best_key({k[3:]: v for k, v in r.items() if k.startswith("vs_")}) for r in rows)


def train(config: TrainConfig, resume: bool = False) -> Path:
    """Run (or resume) self-play training; return the run folder."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    torch.set_num_threads(1)  # small MLPs: one thread avoids fighting the env processes
    config.check()
    run = Path(config.out)
    latest = run / "checkpoints" / "latest.zip"
    if resume:
        if not latest.exists():
            raise InvalidConfigError(f"nothing to resume: {latest} does not exist")
        saved = json.loads((run / "config.json").read_text())
        saved.update({"steps": config.steps, "progress": config.progress})
        config = TrainConfig(**saved).check()
    elif latest.exists():
        raise InvalidConfigError(
            f"{run} already holds a run; use --resume to continue it or choose another --out"
        )
    for sub in ("checkpoints", "pool", "tb"):
        (run / sub).mkdir(parents=True, exist_ok=True)
    (run / "config.json").write_text(json.dumps(asdict(config), indent=2) + "\n")

    env_fns = [_make_env(config, rank, run / "pool") for rank in range(config.envs)]
    vec_env = SubprocVecEnv(env_fns, start_method="spawn") if config.envs > 1 else DummyVecEnv(
        env_fns
    )
    try:
        if resume:
            model = MaskablePPO.load(str(latest), env=vec_env, device="cpu",
                                     tensorboard_log=str(run / "tb"))
        else:
            model = MaskablePPO(
                "MlpPolicy", vec_env, learning_rate=config.learning_rate,
                n_steps=config.n_steps, batch_size=config.batch_size, n_epochs=config.n_epochs,
                gamma=config.gamma, gae_lambda=config.gae_lambda, clip_range=config.clip_range,
                ent_coef=config.ent_coef, vf_coef=config.vf_coef,
                policy_kwargs={"net_arch": list(config.net_arch)},
                tensorboard_log=str(run / "tb"), seed=config.seed, device="cpu", verbose=0,
            )
        remaining = config.steps - model.num_timesteps
        if remaining > 0:
            callback = _Callbacks.make(config, run, config.steps)
            model.learn(total_timesteps=remaining, callback=callback,
                        reset_num_timesteps=not resume, tb_log_name="ppo")
        model.save(run / "final_model.zip")
        if not (run / "best_model.zip").exists():
            shutil.copyfile(run / "final_model.zip", run / "best_model.zip")
    finally:
        vec_env.close()
    rows = read_eval(run)
    if rows:
        try:
            from .plots import plot_learning_curve

            who = "solo against Zara" if config.players == 1 else f"{config.players} players"
            plot_learning_curve(rows, run / "learning_curve.png",
                                title=f"{config.game}, {who}")
        except ImportError:
            pass
    return run
