"""Warm start by imitation: the heuristic's choices, learned before self-play begins.

PPO from random weights learns to beat random play on these games but stalls far below the
one-turn heuristics (issue 14: 9-29% against them after 600,000 steps); the rewards of a long
euro game say little about which of 30-100 legal actions was the good one. The heuristic is
cheap (about a millisecond a move) and plays a planned game, so a run first records it playing
every seat of `games` games and fits the network to it:

- the policy to the heuristic's action (cross-entropy over the legal actions: behaviour cloning);
- the value to the return each seat's position went on to get, with the same win/loss reward,
  shaping and discount as self-play, so that PPO starts with advantages that mean something.

A share `explore` of the moves actually played is random (the label stays the heuristic's
choice), so the learner also sees positions the heuristic's own play never reaches and learns
how the heuristic would recover from them: the idea of DAgger, at the cost of one random draw.

The games are recorded in resumable chunks in `<run>/imitation/` (`chunks.py`): an interrupted
run keeps every finished chunk, a resumed one plays only the missing ones, and the data are the
same for any number of worker processes. Held-out games (one in ten) measure the agreement reported.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from ..chunks import CHUNK_GAMES, chunk_seed, record_chunks
from ..threads import fit_threads, torch_threads

HELD_OUT_EVERY = 10  # every tenth game is held out of the fit and measures agreement
BATCH_SIZE = 512
LEARNING_RATE = 1e-3
VALUE_WEIGHT = 0.5  # the value loss's weight beside the policy's cross-entropy


@dataclass
class Positions:
    """Recorded decisions: what the acting seat saw, could do and the heuristic chose, the
    discounted return that seat went on to get, and which game each came from."""

    observations: np.ndarray  # (n, observation_size) float16: the values are k/12-type ratios
    masks: np.ndarray  # (n, num_actions) bool
    actions: np.ndarray  # (n,) int16: the heuristic's choice
    returns: np.ndarray  # (n,) float32
    games: np.ndarray  # (n,) int32: the game's index, which decides held-out or not

    def __len__(self) -> int:
        return len(self.actions)

    @staticmethod
    def concatenate(parts: list[Positions]) -> Positions:
        return Positions(*(np.concatenate([getattr(p, f) for p in parts])
                           for f in _POSITION_FIELDS))

    def select(self, rows: np.ndarray) -> Positions:
        return Positions(*(getattr(self, f)[rows] for f in _POSITION_FIELDS))


_POSITION_FIELDS = tuple(f.name for f in fields(Positions))


@dataclass
class ImitationReport:
    """What the warm start learned: agreement with the heuristic on positions of held-out games
    (the share, among positions with two legal actions or more, where the network's likeliest
    legal action is the heuristic's choice)."""

    games: int
    positions: int
    held_out_positions: int  # those with a real choice, where agreement is measured
    epochs: int
    agreement: float  # held out
    train_agreement: float
    seconds: float
    threads: int  # torch's threads in the fit (`threads.fit_threads`)

    def line(self) -> str:
        return (f"imitation of the heuristic: {100 * self.agreement:.1f}% agreement on "
                f"{self.held_out_positions:,} held-out choices ({100 * self.train_agreement:.1f}"
                f"% on the fitted games), {self.positions:,} positions from "
                f"{self.games:,} games, {self.epochs} epochs, {self.seconds:.0f} s")


# --- recording -----------------------------------------------------------------------------------
def record_chunk(
    game: str, players: int, chunk: int, games: int, seed: int, explore: float, gamma: float,
    shaping: float, reward: str, options: dict[str, Any],
) -> Positions:
    """Games `chunk * CHUNK_GAMES ...` (`games` of them) of the heuristic at every seat, every
    decision recorded with its return for the seat that took it."""
    from huerta.agents.heuristics import make_heuristic
    from huerta.envs.core.policies import policy_action
    from huerta.envs.core.registry import get_game

    spec = get_game(game)
    rng = np.random.default_rng(chunk_seed(seed, chunk))
    parts: list[Positions] = []
    for g in range(games):
        index = chunk * CHUNK_GAMES + g
        state = spec.new_game(players, seed=int(rng.integers(2**63 - 1)), **options)
        agents = [make_heuristic(game, seed=int(rng.integers(2**63 - 1)))
                  for _ in range(players)]
        observations, masks, actions, seats, potentials = [], [], [], [], []
        while not state.is_terminal and state.steps < spec.default_max_steps:
            seat = state.current_player
            observation = state.observe(seat)
            mask = state.legal_mask()
            choice = policy_action(agents[seat], state, seat,
                                   {"observation": observation,
                                    "action_mask": mask.astype(np.int8)})
            observations.append(observation.astype(np.float16))
            masks.append(mask.astype(bool))
            actions.append(choice)
            seats.append(seat)
            potentials.append(shaping * state.shaping_potential(seat) if shaping else 0.0)
            if explore and rng.random() < explore:
                legal = np.flatnonzero(mask)
                choice = int(legal[rng.integers(len(legal))])
            state.apply(choice)
        final = (state.rewards(reward) if state.is_terminal else np.zeros(players))
        returns = np.zeros(len(actions), dtype=np.float32)
        for seat in range(players):  # the seat's own rewards, as self-play pays them
            mine = [i for i, s in enumerate(seats) if s == seat]
            end_potential = shaping * state.shaping_potential(seat) if shaping else 0.0
            later = 0.0
            for k in reversed(range(len(mine))):
                nxt = potentials[mine[k + 1]] if k + 1 < len(mine) else end_potential
                step = nxt - potentials[mine[k]]
                if k + 1 == len(mine):
                    step += float(final[seat])
                later = step + gamma * later
                returns[mine[k]] = later
        if actions:
            parts.append(Positions(np.stack(observations), np.stack(masks),
                                   np.asarray(actions, dtype=np.int16), returns,
                                   np.full(len(actions), index, dtype=np.int32)))
    return Positions.concatenate(parts)


def record(
    folder: Path, game: str, players: int, games: int, seed: int, explore: float = 0.1,
    gamma: float = 0.995, shaping: float = 0.0, reward: str = "win_loss",
    options: dict[str, Any] | None = None, workers: int | None = None,
    progress: bool = False, should_stop: Callable[[], bool] = lambda: False,
) -> Positions | None:
    """The heuristic's `games` games, from the chunks in `folder` and those played now (in
    `workers` processes); None when `should_stop()` turned true before all were recorded
    (what was finished stays in `folder`)."""
    play = partial(_play_chunk, game, players, seed, explore, gamma, shaping, reward,
                   options or {})
    return record_chunks(folder, games, play, Positions, workers=workers,
                         progress="imitation: heuristic games" if progress else "",
                         should_stop=should_stop)


def _play_chunk(game: str, players: int, seed: int, explore: float, gamma: float,
                shaping: float, reward: str, options: dict[str, Any], chunk: int,
                games: int) -> Positions:
    return record_chunk(game, players, chunk, games, seed, explore, gamma, shaping, reward,
                        options)


# --- fitting -------------------------------------------------------------------------------------
def choices(positions: Positions) -> Positions:
    """The positions with a real choice (two legal actions or more): a forced move agrees with
    anything, so agreement is measured on these alone."""
    return positions.select(np.flatnonzero(positions.masks.sum(axis=1) > 1))


def agreement(policy: Any, positions: Positions, batch: int = 4096) -> float:
    """The share of `positions` with a real choice where `policy`'s (an SB3 policy's) likeliest
    legal action is the recorded one."""
    import torch

    positions = choices(positions)
    if not len(positions):
        return float("nan")
    hits = 0
    with torch.no_grad():
        for start in range(0, len(positions), batch):
            part = positions.select(np.arange(start, min(start + batch, len(positions))))
            obs = torch.as_tensor(part.observations.astype(np.float32))
            distribution = policy.get_distribution(obs, action_masks=part.masks)
            chosen = distribution.distribution.probs.argmax(dim=1).numpy()
            hits += int((chosen == part.actions).sum())
    return hits / len(positions)


def fit(
    model: Any, positions: Positions, epochs: int, seed: int = 0, progress: bool = False,
    should_stop: Callable[[], bool] = lambda: False, threads: int | None = None,
) -> tuple[float, float, int] | None:
    """Fit `model`'s (a MaskablePPO's) policy and value to `positions`, one game in
    `HELD_OUT_EVERY` held out, on `fit_threads(threads)` torch threads (big batches: threads
    pay here); return (held-out agreement, fitted agreement, held-out positions with a choice),
    or None when `should_stop()` turned true first."""
    import torch

    policy = model.policy
    held = positions.games % HELD_OUT_EVERY == HELD_OUT_EVERY - 1
    if held.all() or not held.any():  # too few games to hold one out: measure on all
        held = np.ones(len(positions), dtype=bool)
        fitted = positions
    else:
        fitted = positions.select(np.flatnonzero(~held))
    test = positions.select(np.flatnonzero(held))
    optimizer = torch.optim.Adam(policy.parameters(), lr=LEARNING_RATE)
    rng = np.random.default_rng(seed)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=epochs, desc="imitation: fitting", unit="epoch")
    with torch_threads(fit_threads(threads)):
        try:
            policy.set_training_mode(True)
            for _ in range(epochs):
                order = rng.permutation(len(fitted))
                for start in range(0, len(order), BATCH_SIZE):
                    if should_stop():
                        return None
                    part = fitted.select(order[start:start + BATCH_SIZE])
                    obs = torch.as_tensor(part.observations.astype(np.float32))
                    actions = torch.as_tensor(part.actions.astype(np.int64))
                    values, log_prob, _ = policy.evaluate_actions(obs, actions,
                                                                  action_masks=part.masks)
                    target = torch.as_tensor(part.returns)
                    value_loss = ((values.flatten() - target) ** 2).mean()
                    loss = -log_prob.mean() + VALUE_WEIGHT * value_loss
                    optimizer.zero_grad()
                    loss.backward()
                    torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                    optimizer.step()
                if bar is not None:
                    bar.update(1)
        finally:
            policy.set_training_mode(False)
            if bar is not None:
                bar.close()
    return agreement(policy, test), agreement(policy, fitted), len(choices(test))


def warm_start(
    model: Any, run: Path, game: str, players: int, games: int, epochs: int, seed: int,
    explore: float, gamma: float, shaping: float, reward: str, options: dict[str, Any],
    progress: bool = False, should_stop: Callable[[], bool] = lambda: False,
    threads: int | None = None,
) -> ImitationReport | None:
    """Record (or read back) the heuristic's games in `run/imitation`, fit `model` to them (on
    `fit_threads(threads)` torch threads) and write `run/imitation.json`; None when stopped
    first (what was recorded stays)."""
    started = time.monotonic()
    positions = record(run / "imitation", game, players, games, seed, explore, gamma, shaping,
                       reward, options, progress=progress, should_stop=should_stop)
    if positions is None:
        return None
    result = fit(model, positions, epochs, seed=seed, progress=progress,
                 should_stop=should_stop, threads=threads)
    if result is None:
        return None
    held_out, fitted, test_count = result
    report = ImitationReport(games=games, positions=len(positions),
                             held_out_positions=test_count, epochs=epochs, agreement=held_out,
                             train_agreement=fitted, seconds=time.monotonic() - started,
                             threads=fit_threads(threads))
    (run / "imitation.json").write_text(json.dumps(asdict(report), indent=2) + "\n")
    return report
