"""Masked self-play PPO on Ray RLlib (new API stack): `huerta train GAME --backend rllib`.

One trained module, `main`, plays the `learner` seat of the league table (`env.
LeagueSeats`): per episode each other seat is a frozen snapshot of `main` (an RLModule that is
never updated), the game's heuristic or random, drawn with the weights of `PoolWeights`
(snapshot 0.5, heuristic 0.3, random 0.2 by default; a kind the game lacks passes its weight on).
The heuristic and random play inside the environment (the heuristic searches the game state, which
no RLModule sees); snapshot seats are RLlib agents mapped to one of the snapshot modules, chosen
uniformly per seat and episode (`LeagueMapping`). The league starts with a copy of the untrained
module, and a new snapshot joins it every `snapshot_every` learner steps, or earlier when
`snapshot_win_rate` is set and `main` wins at least that share of its recent games against
snapshots (`snapshot_min_episodes` of them since the last snapshot). Snapshots are added with
RLlib's `Algorithm.add_module`, never removed.

The module (`MaskedPPOTorchRLModule`) reads RLlib's masking observation dict
`{"observations", "action_mask"}`: its networks see the observations only, and the logits of
masked actions are pushed to the float minimum, in sampling, in training and in inference.

Steps are *learner steps*, the decisions of `main` (what the SB3 path counts): the target,
evaluations, snapshots and checkpoints are scheduled on them; env steps (every RLlib agent's
decisions, snapshots' included) are logged beside them. The settings keep the SB3 path's
meaning: `envs` games are played at once, spread evenly over the env runners (each steps its
share as one RLlib vector env, the module's forward pass batched over them); each update collects
`n_steps` env steps per game (64 x 64 = 4,096 by default, whatever the number of env runners),
then `n_epochs` passes of minibatches of `batch_size`.

A run folder holds:

    config.json        the settings (`RLlibTrainConfig`, `backend: "rllib"`)
    checkpoints/       step_<steps>/: RLlib algorithm checkpoints (every module, the optimiser,
                       the connectors) with league.json, written last, after the first
                       iteration of every session, every `checkpoint_every` steps or
                       `checkpoint_minutes`, and at the end; the newest `checkpoints_kept`
                       are kept
    eval.csv           the evaluations against random and the heuristic (or Zara), as the SB3
                       path writes them; learning_curve.png drawn from it
    best_policy/       the RLModule of the best evaluation (as the SB3 path chooses it), with
                       huerta_policy.json (game, sizes, steps, and how it was trained: method,
                       command, seed, threads, commit, libraries); final_policy/ at the end:
                       what `rllib:PATH` plays
    metrics.jsonl      one line per training iteration (steps, env steps/s, episode return,
                       win rate in the league, entropy, losses, league size)
    tb/                the same as TensorBoard scalars

The learner runs in the driver process (`num_learners=0`) on one torch thread (`threads` when
set); env runners are Ray actors, one CPU each, spread over the cluster of `ray_address`
(`ray.init(address=...)`; a local Ray when None).
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from huerta.agents.base import Agent
from huerta.agents.rllib_agent import RLlibAgent, quiet_deprecations
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import get_game

from ..config import eval_opponents
from ..evaluation.matches import win_rate
from ..methods.report import eval_line, summary_line
from ..ray_cluster import connect
from ..runs import (
    START_AFRESH,
    Stop,
    TrainingInterrupted,
    append_eval,
    best_key,
    read_best,
    read_eval,
    rllib_checkpoints,
    run_provenance,
    save_folder_checkpoint,
    trim_eval,
)
from ..runs.layout import CURVE_FILE, LEAGUE_FILE
from ..threads import torch_threads, update_threads
from .config import RLlibTrainConfig
from .env import make_env, register
from .league import (
    MAIN,
    add_snapshot,
    build_config,
    main_state,
    set_module_state,
    should_snapshot,
    snapshot_id,
)
from .metrics import Board, dig, finite_number, iteration_metrics, learner_steps
from .module import module_spec, save_policy


def evaluate_agent(
    agent: Agent, game: str, players: int, opponent: str, games: int, seed: int,
    options: dict[str, Any] | None = None,
) -> float:
    """Win rate of `agent` against `opponent` over `games` seat-rotated games: the SB3 path's
    evaluation (`evaluation.matches.win_rate`, as `methods.ppo.evaluate`: the same seeds, seats
    and opponents, a shared victory 1/k, the game's verdict against Zara in a solo game), for
    any agent."""
    return win_rate(lambda: agent, game, players, opponent, games, seed, options)


def save_checkpoint(algo: Any, run: Path, league: dict[str, Any], kept: int) -> Path:
    """Save the algorithm at `league["steps"]` as checkpoints/step_<steps>/ (league.json last,
    so a folder without it is incomplete and ignored); keep the newest `kept`."""
    return save_folder_checkpoint(algo.save_to_path, run, league, kept)


def train_league(config: RLlibTrainConfig, run: Path, stop: Stop, resume: bool,
                 ray_address: str | None = None) -> int:
    """Train (or go on training) the league of the claimed run folder `run` on Ray (the cluster
    of `ray_address`; None: a local Ray for this run); return the learner steps reached.
    SIGINT or SIGTERM (`stop`) saves a checkpoint at the last finished iteration and raises
    `TrainingInterrupted`."""
    # the learner's networks are small: a second thread only fights the env runners for the
    # cores (on a loaded 2-core machine an update took 25 times longer with 2 threads than 1)
    # Ray reads and writes checkpoints by URI, and a relative folder (`--out runs/x`) is a URI
    # with no scheme that it refuses: the run goes by its absolute path
    with torch_threads(update_threads(config.threads)), connect(ray_address), \
            quiet_deprecations():
        register()
        return Trainer(config, run.resolve(), stop, resume).run()


def trained_facts(config: RLlibTrainConfig, run: Path) -> dict[str, Any]:
    """How an RLlib run's policy was trained, for its huerta_policy.json: the method, the
    command line that repeats it, seed, the learner's torch threads and where it came from
    (`run_provenance`: commit and libraries)."""
    name = f"{config.game}-solo" if config.players == 1 else config.game
    flags = f" --steps {config.steps} --envs {config.envs} --env-runners {config.env_runners}"
    if config.threads is not None:
        flags += f" --threads {config.threads}"
    return {"method": "rllib",
            "command": f"huerta train {name} --backend rllib --seed {config.seed}{flags} "
                       f"--out {config.out}",
            "seed": config.seed, "threads": update_threads(config.threads),
            **run_provenance(run)}


def finish(config: RLlibTrainConfig, run: Path, steps: int, seconds: float) -> str:
    """Draw the run's learning curve (when matplotlib is there); the line that ends the run."""
    rows = read_eval(run)
    if rows:
        try:
            from ..evaluation.plots import plot_learning_curve

            who = "solo against Zara" if config.players == 1 else f"{config.players} players"
            plot_learning_curve(rows, run / CURVE_FILE,
                                title=f"{config.game}, {who} (RLlib)")
        except ImportError:
            pass
    return summary_line(run, steps, seconds, config.eval_games)


class Trainer:
    """One run's training loop in the driver: iterations, league, evaluation, checkpoints."""

    def __init__(self, config: RLlibTrainConfig, run: Path, stop: Stop, resume: bool) -> None:
        self.config, self.folder, self.stop, self.resume = config, run, stop, resume
        env = make_env(config.game, config.players, **config.game_options)
        self.obs_space = env.observation_spaces[env.possible_agents[0]]
        self.act_space = env.action_spaces[env.possible_agents[0]]
        self.spec = module_spec(config.net_arch, self.obs_space, self.act_space)
        self.policy = RLlibAgent(module=self.spec.build())
        self.board: Board | None = None
        self.bar: Any = None
        self.best = None
        self.evaluated = -1  # the step count of the last evaluation

    def policy_info(self, steps: int) -> dict[str, Any]:
        config = self.config
        spec = get_game(config.game)
        return {"format": 1, "game": spec.name, "players": config.players,
                "observation_size": spec.observation_size, "num_actions": spec.num_actions,
                "steps": steps, "module": MAIN, "net_arch": list(config.net_arch),
                "trained": trained_facts(config, self.folder)}

    def run(self) -> int:
        config, run = self.config, self.folder
        if self.resume:
            checkpoint, league = self._league_to_resume()
        else:
            checkpoint, league = None, {"steps": 0, "snapshots": [snapshot_id(0)],
                                        "last_snapshot": 0, "episodes_at_snapshot": 0,
                                        "env_steps": 0}
        algo = build_config(config, league["snapshots"]).build_algo()
        try:
            if checkpoint is not None:
                algo.restore_from_path(checkpoint)
                trim_eval(run, league["steps"])
            else:
                set_module_state(algo, league["snapshots"][0], main_state(algo))
            self.best = read_best(run, "best_policy")
            self.board = Board(run / "tb")
            steps = self._loop(algo, league)
        finally:
            if self.bar is not None:
                self.bar.close()
            if self.board is not None:
                self.board.close()
            algo.stop()
        return steps

    def _league_to_resume(self) -> tuple[Path, dict[str, Any]]:
        problems = []
        for path in rllib_checkpoints(self.folder):
            try:
                league = json.loads((path / LEAGUE_FILE).read_text())
                if not (isinstance(league, dict) and league.get("snapshots")
                        and isinstance(league.get("steps"), int)):
                    raise ValueError("not a league record")
            except ValueError as exc:
                problems.append(f"{path.name} ({exc})")
                continue
            if problems:
                print(f"huerta train: cannot read {'; '.join(problems)}; resuming from {path}",
                      file=sys.stderr)
            return path, league
        raise InvalidConfigError(
            f"nothing to resume: no readable checkpoint in {self.folder / 'checkpoints'}: "
            + "; ".join(problems) + START_AFRESH
        )

    def _sync_policy(self, algo: Any) -> RLlibAgent:
        self.policy.module.set_state(main_state(algo))
        return self.policy

    def _loop(self, algo: Any, league: dict[str, Any]) -> int:
        config, run = self.config, self.folder
        steps = league["steps"]
        every = config.eval_every
        next_eval = (steps // every + 1) * every
        next_checkpoint = (steps // config.checkpoint_every + 1) * config.checkpoint_every
        saved_at, last_save = steps, time.monotonic()
        first = True  # the session's first iteration is checkpointed: a run killed before its
        # first timed checkpoint still resumes
        if config.progress:
            with contextlib.suppress(ImportError):
                from tqdm import tqdm

                self.bar = tqdm(total=config.steps, initial=min(steps, config.steps),
                                desc="training (rllib)", unit="step")
        if steps == 0 and not self.resume:
            self._evaluate(algo, 0)
        env_steps_before, clock = league.get("env_steps", 0), time.monotonic()
        while steps < config.steps and self.stop.signum is None:
            result = algo.train()
            steps = learner_steps(result)
            env_steps = int(dig(result, "env_runners", "num_env_steps_sampled_lifetime") or 0)
            now = time.monotonic()
            rate = (env_steps - env_steps_before) / max(now - clock, 1e-9)
            env_steps_before, clock = env_steps, now
            league["steps"], league["env_steps"] = steps, env_steps
            metrics = iteration_metrics(result, steps, rate, len(league["snapshots"]))
            metrics["env_runners"] = float(algo.env_runner_group.num_healthy_remote_workers())
            self._log(metrics, steps)
            episodes = int(dig(result, "env_runners", "learner_episodes_vs_snapshot") or 0)
            why = should_snapshot(config, steps, league["last_snapshot"],
                                  finite_number(dig(result, "env_runners",
                                               "learner_win_rate_vs_snapshot")),
                                  episodes - league.get("episodes_at_snapshot", 0))
            if why is not None and config.players > 1:  # a solo game has no opponent seats
                add_snapshot(algo, self.spec, league, steps)
                league["episodes_at_snapshot"] = episodes
                self._write(f"league: snapshot at {steps:,} steps ({why}); "
                            f"{len(league['snapshots'])} snapshots")
            if steps >= next_eval:
                next_eval = (steps // every + 1) * every
                self._evaluate(algo, steps)
            if (first or steps >= next_checkpoint
                    or now - last_save >= 60 * config.checkpoint_minutes):
                next_checkpoint = (steps // config.checkpoint_every + 1) * config.checkpoint_every
                save_checkpoint(algo, run, league, config.checkpoints_kept)
                saved_at, last_save, first = steps, time.monotonic(), False
        if saved_at != steps or not rllib_checkpoints(run):
            kept = save_checkpoint(algo, run, league, config.checkpoints_kept)
        else:
            kept = rllib_checkpoints(run)[0]
        if self.stop.signum is not None:
            raise TrainingInterrupted(self.stop.signum, steps, config.steps, kept)
        if self.evaluated != steps:
            self._evaluate(algo, steps)  # every run ends evaluated, whatever its length
        save_policy(self._sync_policy(algo).module, run / "final_policy",
                    self.policy_info(steps))
        if not (run / "best_policy").exists():
            shutil.copytree(run / "final_policy", run / "best_policy")
        return steps

    def _log(self, metrics: dict[str, float], steps: int) -> None:
        with (self.folder / "metrics.jsonl").open("a", encoding="utf-8") as f:
            f.write(json.dumps({"time": time.time(), **metrics}) + "\n")
        if self.board is not None:
            self.board.write(metrics, steps)
        if self.bar is not None:
            self.bar.update(min(steps, self.bar.total) - self.bar.n)

    def _write(self, line: str) -> None:
        if self.bar is not None:
            self.bar.write(line)
        else:
            print(line, flush=True)

    def _evaluate(self, algo: Any, steps: int) -> None:
        """Evaluate `main` as the SB3 path does (the same games, seeds and tables)."""
        config, run = self.config, self.folder
        policy = self._sync_policy(algo)
        rates = {
            opponent: evaluate_agent(policy, config.game, config.players, opponent,
                               config.eval_games, 10_000 + config.seed, config.game_options)
            for opponent in eval_opponents(config.game, config.players)
        }
        append_eval(run, steps, rates, config.eval_games)
        self.evaluated = steps
        if self.board is not None:
            self.board.write({f"eval/win_rate_vs_{o}": r for o, r in rates.items()}, steps)
        key = best_key(rates)
        # the untrained policy (step 0) is the curve's start, never the best model
        best = steps > 0 and (self.best is None or key > self.best)
        if best:
            self.best = key
            save_policy(policy.module, run / "best_policy", self.policy_info(steps))
        self._write(eval_line(steps, rates, config.eval_games) + (" (best)" if best else ""))
