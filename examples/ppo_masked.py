"""Masked PPO in one file, in the style of CleanRL's ppo.py: plain torch, no stable-baselines3.

It trains on huerta's native batched env, `gymnasium.make_vec(id, num_envs=N,
vectorization_mode="vector_entry_point", opponents=...)`, where every step plays N games at once
and the opponents move inside the env; the policy's illegal actions are masked out of its logits
with the env's `action_masks()`. At the end the greedy policy plays fresh games against `random`
and `heuristic` and prints each win rate with its 95% Wilson interval.

    python examples/ppo_masked.py --game finca --total-timesteps 200000

Autoreset is Gymnasium's next-step mode: the step after a game ends starts the next game and
ignores its action, so that step is left out of the loss (`valid` below).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from dataclasses import dataclass

import gymnasium
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical

import huerta.envs  # noqa: F401  (registers the ids and their vector entry points)
from huerta.envs.core.registry import get_game


@dataclass
class Args:
    game: str = "finca"
    players: int = 2
    opponents: str = "random"  # who the learner trains against
    seed: int = 1
    total_timesteps: int = 200_000
    num_envs: int = 64
    num_steps: int = 64  # steps per game per rollout
    learning_rate: float = 2.5e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    eval_games: int = 200  # greedy games against random and against heuristic


def parse_args() -> Args:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name, value in vars(Args()).items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=type(value), default=value)
    return Args(**vars(parser.parse_args()))


def layer(n_in: int, n_out: int, std: float = math.sqrt(2)) -> nn.Linear:
    linear = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(linear.weight, std)
    nn.init.constant_(linear.bias, 0.0)
    return linear


class Agent(nn.Module):
    """An actor and a critic, each a two-layer MLP over the observation vector."""

    def __init__(self, observation_size: int, num_actions: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(layer(observation_size, 256), nn.Tanh(), layer(256, 256),
                                    nn.Tanh(), layer(256, 1, std=1.0))
        self.actor = nn.Sequential(layer(observation_size, 256), nn.Tanh(), layer(256, 256),
                                   nn.Tanh(), layer(256, num_actions, std=0.01))

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x).squeeze(-1)

    def act(self, x: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None):
        """An action drawn from the masked policy (or `action` scored), its log-probability, the
        policy's entropy and the state's value."""
        logits = self.actor(x).masked_fill(~mask, -1e9)
        dist = Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.value(x)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def evaluate(agent: Agent, env_id: str, args: Args, opponents: str, seed: int) -> tuple[int, int]:
    """`args.eval_games` greedy games against `opponents`, each game of the batch playing its
    share to the end (no game cut short, no bias to short games): (wins, games)."""
    count = min(args.num_envs, args.eval_games)
    quota = np.full(count, args.eval_games // count)
    quota[: args.eval_games % count] += 1
    envs = gymnasium.make_vec(env_id, num_envs=count, vectorization_mode="vector_entry_point",
                              num_players=args.players, opponents=opponents)
    obs, _ = envs.reset(seed=seed)
    played = np.zeros(count, dtype=int)
    wins = 0
    while (played < quota).any():
        with torch.no_grad():
            logits = agent.actor(torch.as_tensor(obs))
            mask = torch.as_tensor(envs.unwrapped.action_masks())
            actions = logits.masked_fill(~mask, -1e9).argmax(dim=1).numpy()
        obs, _, terminated, truncated, info = envs.step(actions)
        for i in np.flatnonzero(terminated | truncated):
            if played[i] < quota[i]:
                played[i] += 1
                wins += bool(info["is_winner"][i])
    envs.close()
    return wins, int(played.sum())


def main() -> None:
    args = parse_args()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    spec = get_game(args.game)
    env_id = spec.gym_id
    envs = gymnasium.make_vec(env_id, num_envs=args.num_envs,
                              vectorization_mode="vector_entry_point",
                              num_players=args.players, opponents=args.opponents)
    size, n_actions = spec.observation_size, spec.num_actions
    agent = Agent(size, n_actions)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    shape = (args.num_steps, args.num_envs)
    obs_buf = torch.zeros((*shape, size))
    mask_buf = torch.zeros((*shape, n_actions), dtype=torch.bool)
    actions = torch.zeros(shape, dtype=torch.long)
    logprobs, rewards, values = torch.zeros(shape), torch.zeros(shape), torch.zeros(shape)
    dones, valid = torch.zeros(shape), torch.zeros(shape)

    batch_size = args.num_envs * args.num_steps
    minibatch_size = batch_size // args.num_minibatches
    updates = max(1, args.total_timesteps // batch_size)
    next_obs = torch.as_tensor(envs.reset(seed=args.seed)[0])
    waiting = torch.zeros(args.num_envs)  # 1: the game ended last step, this step resets it
    step_count, ended, won, start = 0, 0, 0, time.time()

    for update in range(1, updates + 1):
        for t in range(args.num_steps):
            step_count += args.num_envs
            obs_buf[t] = next_obs
            mask_buf[t] = torch.as_tensor(envs.unwrapped.action_masks())
            valid[t] = 1.0 - waiting
            with torch.no_grad():
                action, logprob, _, value = agent.act(next_obs, mask_buf[t])
            actions[t], logprobs[t], values[t] = action, logprob, value
            obs, reward, terminated, truncated, info = envs.step(action.numpy())
            done = np.logical_or(terminated, truncated)
            rewards[t] = torch.as_tensor(reward, dtype=torch.float32)
            dones[t] = torch.as_tensor(done, dtype=torch.float32)
            waiting = dones[t].clone()
            next_obs = torch.as_tensor(obs)
            ended += int(done.sum())
            won += int(sum(bool(info["is_winner"][i]) for i in np.flatnonzero(done)))

        with torch.no_grad():  # generalized advantage estimation, cut at every game's end
            next_value = agent.value(next_obs)
            advantages = torch.zeros(shape)
            last = torch.zeros(args.num_envs)
            for t in reversed(range(args.num_steps)):
                following = next_value if t == args.num_steps - 1 else values[t + 1]
                carry = 1.0 - dones[t]
                delta = rewards[t] + args.gamma * following * carry - values[t]
                last = delta + args.gamma * args.gae_lambda * carry * last
                advantages[t] = last
            returns = advantages + values

        b_obs, b_masks = obs_buf.reshape(-1, size), mask_buf.reshape(-1, n_actions)
        b_actions, b_logprobs = actions.reshape(-1), logprobs.reshape(-1)
        b_adv, b_returns = advantages.reshape(-1), returns.reshape(-1)
        b_valid = valid.reshape(-1).bool()
        order = np.arange(batch_size)
        for _ in range(args.update_epochs):
            np.random.shuffle(order)
            for begin in range(0, batch_size, minibatch_size):
                idx = order[begin:begin + minibatch_size]
                idx = idx[b_valid[idx].numpy()]  # the steps that reset a game taught nothing
                if len(idx) < 2:
                    continue
                _, newlogprob, entropy, newvalue = agent.act(b_obs[idx], b_masks[idx],
                                                             b_actions[idx])
                ratio = (newlogprob - b_logprobs[idx]).exp()
                adv = b_adv[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                policy_loss = torch.max(-adv * ratio, -adv * ratio.clamp(
                    1 - args.clip_coef, 1 + args.clip_coef)).mean()
                value_loss = 0.5 * ((newvalue - b_returns[idx]) ** 2).mean()
                loss = policy_loss - args.ent_coef * entropy.mean() + args.vf_coef * value_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()

        rate = won / ended if ended else float("nan")
        print(f"update {update}/{updates}  steps {step_count}  "
              f"steps/s {step_count / (time.time() - start):.0f}  "
              f"games {ended}  win rate {rate:.3f} (against {args.opponents}, sampling)",
              flush=True)
    envs.close()
    seconds = time.time() - start
    print(f"trained {step_count} steps in {seconds:.0f} s ({step_count / seconds:.0f} steps/s)")
    for k, opponents in enumerate(("random", "heuristic")):
        wins, games = evaluate(agent, env_id, args, opponents, seed=10_000 + k)
        low, high = wilson(wins, games)
        print(f"greedy against {opponents}: {wins}/{games} won = {wins / games:.1%} "
              f"[{low:.1%}, {high:.1%}]", flush=True)


if __name__ == "__main__":
    main()
