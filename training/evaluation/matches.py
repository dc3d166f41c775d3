"""Playing batches of seeded games between agents, and summarising them as a table.

Seats rotate from game to game so that no agent keeps the first-player seat; every game's record
can be saved for `huerta replay`. (Round-robin tournaments with ratings build on this.)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from huerta.agents import make_agent
from huerta.envs.core.policies import policy_action
from huerta.envs.core.records import GameRecord
from huerta.envs.core.registry import get_game


@dataclass
class BatchSummary:
    """Per-agent results of a batch of games at one player count."""

    game: str
    num_players: int
    agents: list[str]
    games: int = 0
    wins: list[float] = field(default_factory=list)  # a shared victory counts 1/k
    scores: list[list[int]] = field(default_factory=list)  # per agent, one entry per game
    lengths: list[int] = field(default_factory=list)
    truncated: int = 0
    shared: int = 0
    seat_wins: list[float] = field(default_factory=list)


def play_game(
    game: str,
    agents: list,
    seed: int,
    max_steps: int | None = None,
    agent_seeds: list[int] | None = None,
    on_action: Callable[[int, int, object], None] | None = None,
    options: dict | None = None,
) -> tuple[GameRecord, object]:
    """One game; `agents[i]` plays seat i, reseeded with `agent_seeds[i]` (by default derived
    from the game seed and the seat). Returns the record and the final state."""
    spec = get_game(game)
    limit = spec.default_max_steps if max_steps is None else max_steps
    state = spec.new_game(len(agents), seed=seed, **(options or {}))
    record = GameRecord(
        game=spec.name, num_players=len(agents), seed=seed, options=dict(options or {})
    )
    if agent_seeds is None:
        agent_seeds = [seed * 10 + i for i in range(len(agents))]
    for agent, agent_seed in zip(agents, agent_seeds, strict=True):
        if hasattr(agent, "reset"):
            agent.reset(seed=agent_seed)
    chance_rng = np.random.default_rng(seed + 7)
    while not state.is_terminal and state.steps < limit:
        outcomes = state.chance_outcomes()  # only games in an explicit-chance mode list any
        if outcomes:
            weights = np.array([p for _, p in outcomes], dtype=float)
            state.apply_chance(outcomes[int(chance_rng.choice(len(outcomes),
                                                              p=weights / weights.sum()))][0])
            continue
        seat = state.current_player
        obs = {
            "observation": state.observe(seat),
            "action_mask": state.legal_mask().astype(np.int8),
        }
        action = policy_action(agents[seat], state, seat, obs)
        if on_action is not None:
            on_action(seat, action, state)
        state.apply(action)
        record.actions.append(action)
    record.final_scores = state.scores()
    return record, state



def win_rate(
    learner: Callable[[], object], game: str, players: int, opponent: str, games: int,
    seed: int, options: dict | None = None,
) -> float:
    """Win rate of the agent `learner()` builds for each game against agent code `opponent`
    over `games` games with fixed seeds: game g is dealt `seed + g`, the learner sits in seat
    g mod `players` and each opponent seat is seeded `seed + 31 g + seat`; a shared victory
    counts 1/k. In a solo game (`players == 1`) the opponent is the game's own (opponent
    "zara") and a win is the game's verdict. The evaluation of every training method."""
    wins = 0.0
    for g in range(games):
        learner_seat = g % players
        agents = [
            learner() if seat == learner_seat
            else make_agent(opponent, game=game, seed=seed + 31 * g + seat)
            for seat in range(players)
        ]
        _, state = play_game(game, agents, seed + g, options=options)
        if state.is_terminal:
            winners = state.winners()
            if learner_seat in winners:
                wins += 1.0 / len(winners)
    return wins / games


def play_batch(
    game: str,
    num_players: int,
    agent_codes: list[str],
    games: int,
    seed: int = 0,
    record_dir: Path | None = None,
    progress: bool = False,
) -> BatchSummary:
    """`games` seeded games; in game g the agent list is rotated by g seats."""
    spec = get_game(game)
    spec.check_players(num_players)
    agents = [make_agent(code, game=spec.name, seed=seed + i) for i, code in enumerate(agent_codes)]
    summary = BatchSummary(
        spec.name, num_players, list(agent_codes), wins=[0.0] * num_players,
        scores=[[] for _ in range(num_players)], seat_wins=[0.0] * num_players,
    )
    iterator = range(games)
    if progress:
        iterator = _progress(iterator, f"{spec.name} {num_players}p")
    if record_dir is not None:
        record_dir.mkdir(parents=True, exist_ok=True)
    for g in iterator:
        shift = g % num_players
        order = [(i + shift) % num_players for i in range(num_players)]  # seat -> agent index
        record, state = play_game(
            spec.name, [agents[i] for i in order], seed + g,
            agent_seeds=[(seed + g) * 1009 + seat * 101 + i for seat, i in enumerate(order)],
        )
        summary.games += 1
        summary.lengths.append(state.steps)
        scores = state.scores()
        for seat, agent_index in enumerate(order):
            summary.scores[agent_index].append(scores[seat])
        if not state.is_terminal:
            summary.truncated += 1
        else:
            winners = state.winners()
            if len(winners) > 1:
                summary.shared += 1
            for seat in winners:
                summary.wins[order[seat]] += 1.0 / len(winners)
                summary.seat_wins[seat] += 1.0 / len(winners)
        if record_dir is not None:
            record.save(record_dir / f"{spec.name}_{num_players}p_game{seed + g}.json")
    return summary


def _progress(iterable, desc: str):
    try:
        from tqdm import tqdm
    except ImportError:  # tqdm comes with the `train` extra
        return iterable
    return tqdm(iterable, desc=desc, leave=False)


def results_table(summaries: list[BatchSummary]) -> str:
    """A text table: per player count and agent, win rate, mean score; per batch, game length.
    The game and agent columns are as wide as their longest entry; the solo Alpujarras game is
    labelled `alpujarras-solo`. A line under the table says what the columns mean."""
    from huerta.envs.core.registry import game_label

    rows = []
    for s in summaries:
        for i, code in enumerate(s.agents):
            name = f"{code}#{i + 1}" if s.agents.count(code) > 1 else code
            rows.append((s, i, name))
    game_w = max([4, *(len(game_label(s.game, s.num_players)) for s in summaries)])
    agent_w = max([5, *(len(name) for _, _, name in rows)])
    header = (
        f"{'game':<{game_w}} {'players':>7} {'agent':<{agent_w}} {'games':>6} {'win %':>7} "
        f"{'mean score':>11} {'seat 1 win %':>13} {'mean steps':>11} {'shared':>7}"
    )
    lines = [header, "-" * len(header)]
    for s, i, name in rows:
        win = 100.0 * s.wins[i] / max(s.games, 1)
        mean = float(np.mean(s.scores[i])) if s.scores[i] else 0.0
        first = i == 0
        label = game_label(s.game, s.num_players) if first else ""
        seat1 = f"{100.0 * s.seat_wins[0] / max(s.games, 1):13.1f}" if first else " " * 13
        steps = f"{float(np.mean(s.lengths)):11.0f}" if first else " " * 11
        shared = f"{s.shared:7d}" if first else " " * 7
        lines.append(
            f"{label:<{game_w}} {s.num_players if first else '':>7} {name:<{agent_w}} "
            f"{s.games:6d} {win:7.1f} {mean:11.1f} {seat1} {steps} {shared}"
        )
    lines.append(
        "win %: games won (a shared victory counts 1/k); seat 1 win %: games won by whoever sat "
        "first; mean steps: agent steps per game; shared: games with a shared victory"
    )
    return "\n".join(lines)
