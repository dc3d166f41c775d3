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
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from huerta.agents.heuristics import HEURISTICS
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.validation import short_repr

from ..config import TrainConfig, eval_opponents
from ..evaluation.matches import win_rate
from ..runs import (
    START_AFRESH,
    EvaluationInterrupted,
    Stop,
    TrainingInterrupted,
    append_eval,
    best_key,
    copy_atomic,
    imitated,
    read_best,
    read_eval,
    resume_candidates,
    save_atomically,
    save_checkpoint,
    trim_eval,
)
from ..runs.layout import CHECKPOINTS, CURVE_FILE, MODEL_FILE
from ..selfplay import BatchedPolicy, PoolWeights, SnapshotAgent
from .report import eval_line, summary_line


def evaluate(
    model: Any, game: str, players: int, opponent: str, games: int, seed: int,
    options: dict[str, Any] | None = None,
) -> float:
    """Win rate of `model` (masked, deterministic) against `opponent` over `games` seat-rotated
    games with fixed seeds; a shared victory counts 1/k. In a solo game (`players == 1`) the
    opponent is the game's own (opponent "zara") and a win is the game's verdict."""
    learner = BatchedPolicy(model)  # its policy read once for all the games
    return win_rate(lambda: SnapshotAgent(learner, deterministic=True), game, players, opponent,
                    games, seed, options)


# --- files written whole -------------------------------------------------------------------------
def save_model(model: Any, path: Path) -> None:
    """`model.save(path)`, atomically: a reader sees the previous file or the new one."""
    save_atomically(path, model.save)


# --- checkpoints ---------------------------------------------------------------------------------
def _save_checkpoint(model: Any, run: Path, kind: str) -> Path:
    """Save `model` as checkpoints/<kind>_<steps>.zip and latest.zip (runs.save_checkpoint)."""
    return save_checkpoint(model.save, model.num_timesteps, run, kind)


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
            copy_atomic(path, run / CHECKPOINTS / "latest.zip")
        return model
    found = f": {'; '.join(problems)}" if problems else ""
    raise InvalidConfigError(
        f"nothing to resume: no readable checkpoint in {run / 'checkpoints'}{found}{START_AFRESH}"
    )


class _Callbacks:
    """Builds the SB3 callback list (kept in a factory so sb3 is imported lazily)."""

    @staticmethod
    def make(config: TrainConfig, run: Path, total: int, stop: Stop, start: int):
        from stable_baselines3.common.callbacks import BaseCallback

        class TrainingCallback(BaseCallback):
            """Checkpoints, pool snapshots, evaluation, win-rate logging, progress bar."""

            def __init__(self) -> None:
                super().__init__()
                self.bar = None
                self.wins: list[float] = []
                self.best = read_best(run, "best_model.zip")
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
                except EvaluationInterrupted:
                    return  # abandoned: the resumed run evaluates this step count again
                finally:
                    stop.evaluating = False
                for opponent, rate in rates.items():
                    self.logger.record(f"eval/win_rate_vs_{opponent}", rate)
                append_eval(run, steps, rates, config.eval_games)
                self.evaluated_steps = steps
                key = best_key(rates)
                # the untrained policy (step 0) is the curve's start, never the best model;
                # an imitation of the heuristic may be
                best = (steps > 0 or imitated(run)) and (self.best is None or key > self.best)
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


def _imitation_begun(run: Path, config: TrainConfig) -> bool:
    """Whether a warm start was under way in `run` (games recorded, no checkpoint yet)."""
    return config.imitation_games > 0 and any((run / "imitation").glob("chunk_*.npz"))


class PPO:
    """The `ppo` method: MaskablePPO self-play, after imitating the heuristic (see the module
    docstring for what it leaves in the run folder)."""

    name = "ppo"
    folders = (CHECKPOINTS, "pool", "tb", "imitation")

    def check_resumable(self, config: TrainConfig, run: Path) -> None:
        """Refuse a resume with no checkpoint and no warm start under way."""
        if not resume_candidates(run) and not _imitation_begun(run, config):
            raise InvalidConfigError(
                f"nothing to resume: no checkpoint in {run / CHECKPOINTS}{START_AFRESH}"
            )

    def train(self, config: TrainConfig, run: Path, stop: Stop, resume: bool) -> int:
        """Train (or go on training) in `run`; return the steps the final model stands for."""
        return train_ppo(config, run, stop, resume)

    def finish(self, config: TrainConfig, run: Path, steps: int, seconds: float) -> str:
        """Draw the learning curve; the line that ends the run."""
        rows = read_eval(run)
        if rows:
            try:
                from ..evaluation.plots import plot_learning_curve

                who = "solo against Zara" if config.players == 1 else f"{config.players} players"
                start = ", step 0: the imitation of the heuristic" if imitated(run) else ""
                plot_learning_curve(rows, run / CURVE_FILE,
                                    title=f"{config.game}, {who}{start}")
            except ImportError:
                pass
        return summary_line(run, steps, seconds, config.eval_games)


def train_ppo(config: TrainConfig, run: Path, stop: Stop, resume: bool) -> int:
    """Self-play PPO in the claimed run folder `run` (a new run, or one resumed from its newest
    readable checkpoint, or from its warm start); return the step count of the final model.
    A signal (`stop`) saves a checkpoint and raises `TrainingInterrupted`."""
    from ..threads import one_blas_thread

    with one_blas_thread():
        vec_env = make_vec_env(config, run / "pool")
        callback = None
        try:
            if resume and resume_candidates(run):
                model = _load_checkpoint(run, vec_env)
                trim_eval(run, model.num_timesteps)
            else:  # a new run, or one stopped during its warm start
                model = new_model(config, vec_env, run / "tb")
                if config.imitation_games > 0:
                    _warm_start(model, config, run, stop)
            remaining = config.steps - model.num_timesteps
            if remaining > 0 and stop.signum is None:
                callback = _Callbacks.make(config, run, config.steps, stop, model.num_timesteps)
                with contextlib.suppress(EvaluationInterrupted):  # a signal at the very edge
                    model.learn(total_timesteps=remaining, callback=callback,
                                reset_num_timesteps=not resume, tb_log_name="ppo")
            if stop.signum is not None and not (callback is not None and callback.finished):
                _stop_with_checkpoint(model, run, callback, stop.signum, config.steps)
            save_model(model, run / "final_model.zip")
            if not (run / "best_model.zip").exists():
                copy_atomic(run / "final_model.zip", run / "best_model.zip")
            from .export import export_policy

            export_policy(run, run / MODEL_FILE)
        finally:
            if callback is not None:
                callback.close_bar()
            vec_env.close()
    return model.num_timesteps


def _warm_start(model: Any, config: TrainConfig, run: Path, stop: Stop) -> None:
    """Imitate the heuristic before self-play (training/methods/imitation.py), then save the
    result as the run's step-0 checkpoint; a signal on the way raises `TrainingInterrupted`
    keeping the games recorded so far."""
    from .imitation import warm_start

    if config.game not in HEURISTICS:
        print(f"huerta train: {config.game} has no heuristic to imitate; PPO starts from random "
              "weights", file=sys.stderr)
        return
    report = warm_start(
        model, run, config.game, config.players, config.imitation_games,
        config.imitation_epochs, config.seed, config.imitation_explore, config.gamma,
        config.shaping, config.reward, config.game_options, progress=config.progress,
        should_stop=lambda: stop.signum is not None, threads=config.threads,
    )
    if report is None:
        assert stop.signum is not None
        raise TrainingInterrupted(stop.signum, 0, config.steps, run / "imitation")
    print(report.line(), flush=True)
    _save_checkpoint(model, run, "model")


def make_vec_env(config: TrainConfig, pool_dir: Path) -> Any:
    """The games a run steps together (`SelfPlayVecEnv`), its opponents drawn from `pool_dir`."""
    from ..vector import SelfPlayVecEnv

    return SelfPlayVecEnv(
        config.game, config.players, n_envs=config.envs, pool_dir=pool_dir,
        weights=PoolWeights(**config.pool_weights), seed=config.seed, reward=config.reward,
        shaping=config.shaping, **config.game_options,
    )


def new_model(config: TrainConfig, vec_env: Any, tensorboard: Path | None) -> Any:
    """A fresh MaskablePPO learner with the run's settings, on `vec_env`."""
    from sb3_contrib import MaskablePPO

    from ..networks import policy_kwargs

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
