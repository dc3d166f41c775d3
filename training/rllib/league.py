"""The league of an RLlib run: `main` in the learner seat against frozen snapshots of itself
(RLModules added as it learns), the heuristic and random; the mapping of agents to modules, the
per-episode metrics, when a snapshot joins, and the `PPOConfig` that plays it all."""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any

from ray.rllib.callbacks.callbacks import RLlibCallback

from huerta.envs.core.errors import InvalidConfigError

from .config import RLlibTrainConfig
from .env import ENV_NAMES, LEARNER
from .module import module_spec

MAIN = "main"
SNAPSHOT_PREFIX = "snapshot_"


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


def main_state(algo: Any) -> Any:
    """The weights of `main` as the learner holds them."""
    state = algo.learner_group.get_state(components=f"learner/rl_module/{MAIN}")
    return state["learner"]["rl_module"][MAIN]


def set_module_state(algo: Any, module_id: str, state: Any) -> None:
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
    set_module_state(algo, new, main_state(algo))
    league["snapshots"] = snapshots
    league["last_snapshot"] = steps
    return new


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
