"""Masked self-play PPO on Ray RLlib (new API stack): `huerta train GAME --backend rllib`.

One trained module, `main`, plays the `learner` seat of the league table (`rllib_env.
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
                       huerta_policy.json (game, sizes, steps); final_policy/ at the end: what
                       `rllib:PATH` plays
    metrics.jsonl      one line per training iteration (steps, env steps/s, episode return,
                       win rate in the league, entropy, losses, league size)
    tb/                the same as TensorBoard scalars

The learner runs in the driver process (`num_learners=0`) on one torch thread; env runners are
Ray actors, one CPU each, spread over the cluster of `ray_address` (`ray.init(address=...)`; a
local Ray when None).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import shutil
import signal
import sys
import time
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import get_game

from .config import TRAIN_ALIASES, TrainConfig, eval_opponents
from .runs import (
    START_AFRESH,
    TrainingInterrupted,
    append_eval,
    best_key,
    checked_float,
    checked_int,
    clear_run,
    rates_of,
    read_eval,
    refuse,
    signals_caught,
    trim_eval,
    write_atomic,
)
from .train import eval_line, summary_line

try:
    import torch
    from gymnasium import spaces
    from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import (
        DefaultPPOTorchRLModule,
    )
    from ray.rllib.callbacks.callbacks import RLlibCallback
    from ray.rllib.core.columns import Columns
    from ray.rllib.utils.torch_utils import FLOAT_MIN
except ImportError as exc:  # the `ray` extra
    raise ImportError(
        "the rllib backend needs Ray RLlib: pip install 'huerta[ray]'"
    ) from exc

from huerta.agents.base import Agent
from huerta.agents.rllib_agent import RLlibAgent, quiet_deprecations

from .ray_cluster import connect
from .rllib_env import ENV_NAMES, LEARNER, make_env, register

MAIN = "main"
SNAPSHOT_PREFIX = "snapshot_"
POLICY_FILE = "huerta_policy.json"
LEAGUE_FILE = "league.json"
CHECKPOINT_PREFIX = "step_"

__all__ = [
    "ENV_NAMES", "MAIN", "LeagueMapping", "MaskedPPOTorchRLModule",
    "RLlibTrainConfig", "connect", "evaluate_agent", "make_env", "module_spec", "register",
    "save_policy", "train_rllib",
]


# --- the module --------------------------------------------------------------------------------
class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO torch module over the masking observation dict.

    The observation space is a Dict of `observations` (what the encoder, the policy and the
    value networks see) and `action_mask` (1 legal, 0 illegal), the contract of RLlib's
    `ActionMaskingTorchRLModule` example; this module is that example on the non-deprecated
    `DefaultPPOTorchRLModule`, splitting the dict without mutating the batch. Masked logits
    become the float minimum (`log(mask)` clamped), so a masked action is never sampled nor
    chosen, and the PPO loss sees the same masked distribution as the sampler.
    """

    def __init__(self, *, observation_space: Any = None, action_space: Any = None,
                 **kwargs: Any) -> None:
        if not (isinstance(observation_space, spaces.Dict)
                and {"observations", "action_mask"} <= set(observation_space.spaces)):
            raise ValueError(
                "MaskedPPOTorchRLModule needs a Dict observation space with 'observations' and "
                f"'action_mask'; got {observation_space}"
            )
        self.observation_space_with_mask = observation_space
        super().__init__(observation_space=observation_space["observations"],
                         action_space=action_space, **kwargs)

    def setup(self) -> None:
        super().setup()  # networks built for the observations alone
        self.observation_space = self.observation_space_with_mask

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        obs = batch[Columns.OBS]
        if isinstance(obs, Mapping):
            return obs["action_mask"], {**batch, Columns.OBS: obs["observations"]}
        return batch.get("action_mask"), batch

    @staticmethod
    def _masked(out: dict[str, Any], mask: Any) -> dict[str, Any]:
        if mask is not None:
            out[Columns.ACTION_DIST_INPUTS] = out[Columns.ACTION_DIST_INPUTS] + torch.clamp(
                torch.log(mask.float()), min=FLOAT_MIN)
        return out

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, batch = self._split(batch)
        return self._masked(super()._forward(batch, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, batch = self._split(batch)
        return self._masked(super()._forward_train(batch, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        _, batch = self._split(batch)
        return super().compute_values(batch, embeddings)


def module_spec(net_arch: Sequence[int], observation_space: Any = None,
                action_space: Any = None) -> Any:
    """The `RLModuleSpec` of `main` and of every snapshot: `MaskedPPOTorchRLModule` with separate
    policy and value networks of `net_arch` (tanh), as SB3's `MlpPolicy`."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    return RLModuleSpec(
        module_class=MaskedPPOTorchRLModule,
        observation_space=observation_space,
        action_space=action_space,
        model_config={"fcnet_hiddens": list(net_arch), "fcnet_activation": "tanh",
                      "vf_share_layers": False},
    )


def evaluate_agent(
    agent: Agent, game: str, players: int, opponent: str, games: int, seed: int,
    options: dict[str, Any] | None = None,
) -> float:
    """Win rate of `agent` against `opponent` over `games` seat-rotated games: the SB3 path's
    evaluation (`train.evaluate`: the same seeds, seats and opponents, a shared victory 1/k, the
    game's verdict against Zara in a solo game), for any agent."""
    from huerta.agents import make_agent

    from .matches import play_game

    wins = 0.0
    for g in range(games):
        learner_seat = g % players
        agents = [
            agent if seat == learner_seat
            else make_agent(opponent, game=game, seed=seed + 31 * g + seat)
            for seat in range(players)
        ]
        _, state = play_game(game, agents, seed + g, options=options)
        if state.is_terminal:
            winners = state.winners()
            if learner_seat in winners:
                wins += 1.0 / len(winners)
    return wins / games


def save_policy(module: Any, path: Path, info: Mapping[str, Any]) -> None:
    """Save `module` as an RLModule checkpoint at `path` with huerta_policy.json (the game, the
    sizes, the steps: what `rllib:PATH` checks before loading), replacing `path` whole."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        module.save_to_path(tmp)
        (tmp / POLICY_FILE).write_text(json.dumps(dict(info), indent=2) + "\n")
        old = path.with_name(f".{path.name}.{os.getpid()}.old")
        if path.exists():
            os.replace(path, old)
        os.replace(tmp, path)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# --- the league --------------------------------------------------------------------------------
class LeagueMapping:
    """RLlib's agent-to-module mapping of the league: `learner` plays `main`; every opponent
    seat of an episode plays a snapshot, chosen uniformly (by a hash of the episode id and the
    seat, so it stays fixed through the episode)."""

    def __init__(self, snapshots: Sequence[str]) -> None:
        if not snapshots:
            raise InvalidConfigError("the league needs at least one snapshot module")
        self.snapshots = tuple(snapshots)

    def __call__(self, agent_id: str, episode: Any = None, **kwargs: Any) -> str:
        if agent_id == LEARNER:
            return MAIN
        key = f"{getattr(episode, 'id_', '')}/{agent_id}".encode()
        return self.snapshots[zlib.crc32(key) % len(self.snapshots)]


def snapshot_id(steps: int) -> str:
    """The module id of the snapshot taken at `steps` learner steps."""
    return f"{SNAPSHOT_PREFIX}{steps:09d}"


class LeagueMetrics(RLlibCallback):
    """Logs the learner's results per episode: `learner_win_rate` (a shared victory counts 1/k,
    over the last 100 episodes of each env runner), `learner_win_rate_vs_<kind>` when every
    opponent is of one kind, and the lifetime count of episodes against snapshots."""

    def on_episode_end(self, *, episode: Any, metrics_logger: Any = None, **kwargs: Any) -> None:
        learner = episode.agent_episodes.get(LEARNER) if hasattr(episode, "agent_episodes") \
            else None
        if learner is None or metrics_logger is None:
            return
        info = learner.get_infos(-1) or {}
        winners = info.get("winners") or []
        won = 1.0 / len(winners) if info.get("is_winner") and winners else 0.0
        metrics_logger.log_value("learner_win_rate", won, window=100)
        kinds = set(info.get("opponents") or [])
        if len(kinds) == 1:
            kind = kinds.pop()
            metrics_logger.log_value(f"learner_win_rate_vs_{kind}", won, window=100)
            metrics_logger.log_value(f"learner_episodes_vs_{kind}", 1, reduce="lifetime_sum")


# --- settings ----------------------------------------------------------------------------------
@dataclass
class RLlibTrainConfig(TrainConfig):
    """`TrainConfig` for the RLlib backend: the same fields with the same meaning (`envs` games
    at once, here spread evenly over the env runners; `n_steps` env steps per game and update;
    `batch_size` the minibatch; `n_epochs`), plus:

    env_runners: Ray env-runner actors, one CPU each (0: one per CPU core of this machine).
    snapshot_win_rate: also snapshot `main` once it wins this share of its recent games against
        snapshots (None: on the `snapshot_every` schedule only).
    snapshot_min_episodes: games against snapshots since the last snapshot before the win-rate
        rule may add one.
    checkpoints_kept: newest algorithm checkpoints kept in checkpoints/.
    """

    backend: str = "rllib"
    method: str = "ppo"  # the RLlib trainer trains PPO only
    shared_layers: int = 0  # RLlib's default modules: separate policy and value networks
    env_runners: int = 0
    snapshot_win_rate: float | None = None
    snapshot_min_episodes: int = 50
    checkpoints_kept: int = 3

    def check(self) -> RLlibTrainConfig:
        super().check()
        if self.backend != "rllib":
            refuse("backend", self.backend, '"rllib" (this is the RLlib trainer\'s settings)')
        if self.method != "ppo":
            refuse("method", self.method, '"ppo" with the RLlib backend')
        if self.shared_layers != 0:
            refuse("shared_layers", self.shared_layers,
                    "0 with the RLlib backend (its modules keep separate networks)")
        self.env_runners = checked_int("env_runners", self.env_runners, 0, 4096)
        if self.env_runners == 0:
            self.env_runners = max(1, os.cpu_count() or 1)
        if self.snapshot_win_rate is not None:
            self.snapshot_win_rate = checked_float("snapshot_win_rate", self.snapshot_win_rate,
                                                    0.0, 1.0, False)
        self.snapshot_min_episodes = checked_int("snapshot_min_episodes",
                                                  self.snapshot_min_episodes, 1)
        self.checkpoints_kept = checked_int("checkpoints_kept", self.checkpoints_kept, 1)
        return self

    @property
    def envs_per_runner(self) -> int:
        """Games each env runner steps: `envs` shared out, rounded up."""
        return math.ceil(self.envs / self.env_runners)

    @property
    def train_batch_size(self) -> int:
        """Env steps per update: `n_steps` per game of every env runner."""
        return self.n_steps * self.env_runners * self.envs_per_runner


def should_snapshot(config: RLlibTrainConfig, steps: int, last_snapshot: int,
                    win_rate: float | None, episodes_since: int) -> str | None:
    """Why a snapshot joins the league now ("schedule" or "win rate"), or None."""
    if steps - last_snapshot >= config.snapshot_every:
        return "schedule"
    if (config.snapshot_win_rate is not None and win_rate is not None
            and episodes_since >= config.snapshot_min_episodes
            and win_rate >= config.snapshot_win_rate):
        return "win rate"
    return None


# --- Ray ---------------------------------------------------------------------------------------
def build_config(config: RLlibTrainConfig, snapshots: Sequence[str]) -> Any:
    """The `PPOConfig` of a run: the league env, the masked modules (`main` trained, the
    snapshots frozen), the mapping, the hyperparameters of `config`."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec

    env_config = {
        "num_players": config.players,
        "reward": config.reward,
        "options": dict(config.game_options),
        "league": {"weights": dict(config.pool_weights), "shaping": config.shaping},
    }
    specs = {mid: module_spec(config.net_arch) for mid in (MAIN, *snapshots)}
    return (
        PPOConfig()
        # the env checker steps with unmasked random actions, which our games refuse as illegal
        .environment(ENV_NAMES[config.game], env_config=env_config, disable_env_checking=True)
        .env_runners(num_env_runners=config.env_runners,
                     num_envs_per_env_runner=config.envs_per_runner,
                     num_cpus_per_env_runner=1, rollout_fragment_length="auto")
        .learners(num_learners=0)
        .training(
            lr=config.learning_rate, gamma=config.gamma, lambda_=config.gae_lambda,
            clip_param=config.clip_range, entropy_coeff=config.ent_coef,
            vf_loss_coeff=config.vf_coef, train_batch_size_per_learner=config.train_batch_size,
            minibatch_size=min(config.batch_size, config.train_batch_size),
            num_epochs=config.n_epochs,
        )
        .multi_agent(policies={MAIN, *snapshots}, policy_mapping_fn=LeagueMapping(snapshots),
                     policies_to_train=[MAIN])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .callbacks(LeagueMetrics)
        .debugging(seed=config.seed, log_level="ERROR")
    )


def _main_state(algo: Any) -> Any:
    """The weights of `main` as the learner holds them."""
    state = algo.learner_group.get_state(components=f"learner/rl_module/{MAIN}")
    return state["learner"]["rl_module"][MAIN]


def _set_module_state(algo: Any, module_id: str, state: Any) -> None:
    """Give module `module_id` these weights in the learner, then on every env runner."""
    algo.set_state({"learner_group": {"learner": {"rl_module": {module_id: state}}}})


def add_snapshot(algo: Any, spec: Any, league: dict[str, Any], steps: int) -> str:
    """Freeze a copy of `main` as a new league module (`Algorithm.add_module` with `spec`,
    the module spec of `main`, spaces included)."""
    new = snapshot_id(steps)
    if new in league["snapshots"]:
        return new
    snapshots = [*league["snapshots"], new]
    algo.add_module(module_id=new, module_spec=spec,
                    new_agent_to_module_mapping_fn=LeagueMapping(snapshots),
                    new_should_module_be_updated=[MAIN])
    _set_module_state(algo, new, _main_state(algo))
    league["snapshots"] = snapshots
    league["last_snapshot"] = steps
    return new


# --- the run folder ----------------------------------------------------------------------------
_RUN_FILES = ("config.json", "eval.csv", "metrics.jsonl", "learning_curve.png")
_RUN_FOLDERS = ("checkpoints", "tb", "best_policy", "final_policy")


def _run_evidence(run: Path) -> list[str]:
    found = [name for name in _RUN_FILES if (run / name).exists()]
    found += [f"{name}/" for name in _RUN_FOLDERS[2:] if (run / name).exists()]
    if _checkpoints(run):
        found.append("checkpoints/")
    return found


def _checkpoints(run: Path) -> list[Path]:
    """Complete checkpoints (league.json written last), newest first."""
    folder = run / "checkpoints"
    if not folder.is_dir():
        return []
    found = [p for p in folder.glob(f"{CHECKPOINT_PREFIX}*")
             if p.is_dir() and (p / LEAGUE_FILE).is_file()
             and p.name[len(CHECKPOINT_PREFIX):].isdigit()]
    return sorted(found, key=lambda p: int(p.name[len(CHECKPOINT_PREFIX):]), reverse=True)


def _write_json(path: Path, data: Any) -> None:
    write_atomic(path, json.dumps(data, indent=2) + "\n")


def save_checkpoint(algo: Any, run: Path, league: dict[str, Any], kept: int) -> Path:
    """Save the algorithm at `league["steps"]` as checkpoints/step_<steps>/ (league.json last,
    so a folder without it is incomplete and ignored); keep the newest `kept`."""
    folder = run / "checkpoints"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{CHECKPOINT_PREFIX}{league['steps']:09d}"
    tmp = folder / f".{path.name}.{os.getpid()}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    algo.save_to_path(tmp)
    _write_json(tmp / LEAGUE_FILE, league)
    shutil.rmtree(path, ignore_errors=True)
    os.replace(tmp, path)
    for old in _checkpoints(run)[kept:]:
        shutil.rmtree(old, ignore_errors=True)
    return path


def _resumed_config(config: RLlibTrainConfig, run: Path,
                    overrides: Mapping[str, Any]) -> RLlibTrainConfig:
    """The run's saved settings; `steps`, `env_runners`, `progress` from the command."""
    path = run / "config.json"
    if not path.exists():
        raise InvalidConfigError(f"nothing to resume: {path} does not exist{START_AFRESH}")
    try:
        saved = json.loads(path.read_text())
    except ValueError as exc:
        raise InvalidConfigError(f"{path}: not a valid run configuration: {exc}") from None
    if not isinstance(saved, dict) or saved.get("backend") != "rllib":
        raise InvalidConfigError(
            f"{run} holds an SB3 run, not an RLlib one; resume it without --backend rllib"
        )
    valid = {f.name for f in fields(RLlibTrainConfig)}
    if set(saved) - valid:
        raise InvalidConfigError(f"{path}: unknown settings {sorted(set(saved) - valid)}")
    given = TRAIN_ALIASES[config.game][0] if config.game in TRAIN_ALIASES else \
        get_game(config.game).name
    if given != saved.get("game"):
        raise InvalidConfigError(
            f"{run} holds a {saved.get('game')} run, not {config.game}; resume it under its "
            "own game or choose another --out"
        )
    saved.update({k: v for k, v in overrides.items() if v is not None})
    saved["out"] = config.out
    saved["progress"] = config.progress
    return RLlibTrainConfig(**saved).check()


# --- signals -----------------------------------------------------------------------------------
class _Stop:
    def __init__(self) -> None:
        self.signum: int | None = None

    def handler(self, signum: int, frame: Any) -> None:
        if self.signum is not None and signum == signal.SIGINT:
            raise KeyboardInterrupt  # a second Ctrl-C: stop now
        self.signum = signum


# --- metrics -----------------------------------------------------------------------------------
def _dig(result: Mapping[str, Any], *keys: str) -> Any:
    value: Any = result
    for key in keys:
        if not isinstance(value, Mapping) or key not in value:
            return None
        value = value[key]
    return value


def _number(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def learner_steps(result: Mapping[str, Any]) -> int:
    """The decisions of `main` sampled so far (over the run's whole life)."""
    value = _dig(result, "env_runners", "num_module_steps_sampled_lifetime", MAIN)
    return int(value or 0)


def iteration_metrics(result: Mapping[str, Any], steps: int, env_steps_per_s: float | None,
                      league_size: int) -> dict[str, float]:
    """The scalars of one training iteration (metrics.jsonl and TensorBoard)."""
    runners = result.get("env_runners", {})
    learner = _dig(result, "learners", MAIN) or {}
    wanted = {
        "rollout/ep_rew_mean": _dig(runners, "module_episode_returns_mean", MAIN),
        "rollout/ep_len_mean": runners.get("episode_len_mean"),
        "rollout/win_rate": runners.get("learner_win_rate"),
        "rollout/win_rate_vs_snapshot": runners.get("learner_win_rate_vs_snapshot"),
        "rollout/win_rate_vs_heuristic": runners.get("learner_win_rate_vs_heuristic"),
        "rollout/win_rate_vs_random": runners.get("learner_win_rate_vs_random"),
        "train/entropy": learner.get("entropy"),
        "train/policy_loss": learner.get("policy_loss"),
        "train/value_loss": learner.get("vf_loss"),
        "train/explained_variance": learner.get("vf_explained_var"),
        "train/approx_kl": learner.get("mean_kl_loss"),
        "time/env_steps": runners.get("num_env_steps_sampled_lifetime"),
        "time/env_steps_per_s": env_steps_per_s,
        "time/sample_s": _dig(result, "timers", "env_runner_sampling_timer"),
        "time/learn_s": _dig(result, "timers", "learner_update_timer"),
        "league/size": league_size,
    }
    metrics = {"steps": float(steps)}
    metrics.update({k: n for k, v in wanted.items() if (n := _number(v)) is not None})
    return metrics


class _Board:
    """TensorBoard scalars through tensorboardX (installed with Ray RLlib), if importable."""

    def __init__(self, folder: Path) -> None:
        self.writer: Any = None
        try:
            from tensorboardX import SummaryWriter
        except ImportError:
            return
        self.writer = SummaryWriter(str(folder))

    def write(self, metrics: Mapping[str, float], steps: int) -> None:
        if self.writer is not None:
            for key, value in metrics.items():
                if key != "steps":
                    self.writer.add_scalar(key, value, steps)
            self.writer.flush()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


# --- training ----------------------------------------------------------------------------------
def train_rllib(config: RLlibTrainConfig, resume: bool = False, force: bool = False,
                ray_address: str | None = None,
                overrides: Mapping[str, Any] | None = None) -> Path:
    """Run (or resume) masked self-play PPO on RLlib; return the run folder.

    `ray_address` names the cluster (None: a local Ray for this run). A folder holding a run
    needs `resume` (its settings; `overrides` may change `steps` and `env_runners`) or `force`
    (its run files removed first). SIGINT or SIGTERM saves a checkpoint at the last finished
    iteration and raises `TrainingInterrupted`.
    """
    started = time.monotonic()
    if resume and force:
        raise InvalidConfigError("resume and force contradict each other: --resume continues "
                                 "the run in --out, --force replaces it")
    run = Path(config.out)
    if resume:
        config = _resumed_config(config, run, overrides or {})
        if not _checkpoints(run):
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
            clear_run(run, _RUN_FILES, _RUN_FOLDERS)
    for sub in ("checkpoints", "tb"):
        (run / sub).mkdir(parents=True, exist_ok=True)
    _write_json(run / "config.json", asdict(config))
    stop = _Stop()
    threads = torch.get_num_threads()
    # the learner's networks are small: a second thread only fights the env runners for the
    # cores (on a loaded 2-core machine an update took 25 times longer with 2 threads than 1)
    torch.set_num_threads(1)
    try:
        with signals_caught(stop), connect(ray_address), quiet_deprecations():
            register()
            steps = _Trainer(config, run, stop, resume).run()
    finally:
        torch.set_num_threads(threads)
    _finish(config, run, steps, time.monotonic() - started)
    return run


def _finish(config: RLlibTrainConfig, run: Path, steps: int, seconds: float) -> None:
    rows = read_eval(run)
    if rows:
        try:
            from .plots import plot_learning_curve

            who = "solo against Zara" if config.players == 1 else f"{config.players} players"
            plot_learning_curve(rows, run / "learning_curve.png",
                                title=f"{config.game}, {who} (RLlib)")
        except ImportError:
            pass
    print(summary_line(run, steps, seconds, config.eval_games), flush=True)


class _Trainer:
    """One run's training loop in the driver: iterations, league, evaluation, checkpoints."""

    def __init__(self, config: RLlibTrainConfig, run: Path, stop: _Stop, resume: bool) -> None:
        self.config, self.folder, self.stop, self.resume = config, run, stop, resume
        env = make_env(config.game, config.players, **config.game_options)
        self.obs_space = env.observation_spaces[env.possible_agents[0]]
        self.act_space = env.action_spaces[env.possible_agents[0]]
        self.spec = module_spec(config.net_arch, self.obs_space, self.act_space)
        self.policy = RLlibAgent(module=self.spec.build())
        self.board: _Board | None = None
        self.bar: Any = None
        self.best = None
        self.evaluated = -1  # the step count of the last evaluation

    def policy_info(self, steps: int) -> dict[str, Any]:
        spec = get_game(self.config.game)
        return {"format": 1, "game": spec.name, "players": self.config.players,
                "observation_size": spec.observation_size, "num_actions": spec.num_actions,
                "steps": steps, "module": MAIN, "net_arch": list(self.config.net_arch)}

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
                _set_module_state(algo, league["snapshots"][0], _main_state(algo))
            self.best = _read_best(run)
            self.board = _Board(run / "tb")
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
        for path in _checkpoints(self.folder):
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
        self.policy.module.set_state(_main_state(algo))
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
            env_steps = int(_dig(result, "env_runners", "num_env_steps_sampled_lifetime") or 0)
            now = time.monotonic()
            rate = (env_steps - env_steps_before) / max(now - clock, 1e-9)
            env_steps_before, clock = env_steps, now
            league["steps"], league["env_steps"] = steps, env_steps
            metrics = iteration_metrics(result, steps, rate, len(league["snapshots"]))
            metrics["env_runners"] = float(algo.env_runner_group.num_healthy_remote_workers())
            self._log(metrics, steps)
            episodes = int(_dig(result, "env_runners", "learner_episodes_vs_snapshot") or 0)
            why = should_snapshot(config, steps, league["last_snapshot"],
                                  _number(_dig(result, "env_runners",
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
        if saved_at != steps or not _checkpoints(run):
            kept = save_checkpoint(algo, run, league, config.checkpoints_kept)
        else:
            kept = _checkpoints(run)[0]
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


def _read_best(run: Path) -> tuple[float, ...] | None:
    rows = [r for r in read_eval(run) if r["steps"] > 0]
    if not rows or not (run / "best_policy").exists():
        return None
    return max(best_key(rates_of(r)) for r in rows)
