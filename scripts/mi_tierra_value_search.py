"""A trial of a learned value for Mi Tierra's search agent: its cut-off simulations scored by a
network fitted to heuristic games, instead of the logistic of the heuristic's margin.

Written when Mi Tierra's heuristic declared no `afterstate_turn`, so the package had no
afterstate agent for it: this script tried the part that needs none, the value at the leaves
(Finca's `{"base": "heuristic", "leaves": "value"}`). Mi Tierra now has the afterstate agent and
the learned search (`huerta train mi_tierra --method afterstate` records and fits the same way);
the script keeps the trial reproducible, and `play --agent greedy|default|both` plays the
package's agents over the trial's value:

    python scripts/mi_tierra_value_search.py record --games 2000 --seed 0   # mt-data.npz
    python scripts/mi_tierra_value_search.py fit                            # mt-value.npz
    python scripts/mi_tierra_value_search.py play --games 100 --seed 2000   # against search

`record` keeps every turn boundary of heuristic games from each seat's view, as the afterstate
training records Finca and Alpujarras (`huerta.training.methods.afterstate`); `fit` is that
training's fit (the residual over the heuristic's margin, n-step targets, one game in ten held
out); `play` sets the value as the position value of one `search` seat (a 2-player margin of
half the two seats' logits) and plays it against `search`, seats rotated, printing the win rate
with its 95% Wilson interval as the games finish (each game's result is kept in `--results`, so
an interrupted run resumes).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from huerta.agents.afterstate import KIND, AfterstateAgent, ValueNetwork, heuristic_terms
from huerta.agents.heuristics import heuristic_module, make_heuristic
from huerta.agents.learned_search import LearnedSearchAgent, SearchConfig
from huerta.agents.search import SearchAgent
from huerta.envs.core.policies import policy_action
from huerta.envs.core.registry import get_game
from huerta.training.methods.afterstate import Afterstates, fit

GAME = "mi_tierra"


def record_part(seed: int, games: range, players: int = 2) -> Afterstates:
    """The turn boundaries of heuristic games `games` (indices: one deal each) as afterstates."""
    spec = get_game(GAME)
    module = heuristic_module(GAME)
    scale = module.SEARCH.margin_scale
    parts = []
    for index in games:
        rng = np.random.default_rng([seed, index])
        state = spec.new_game(players, seed=int(rng.integers(2**62)))
        agents = [make_heuristic(GAME, seed=int(rng.integers(2**62))) for _ in range(players)]
        obs, terms, priors, seats, turns = [], [], [], [], []
        last = (state.current_player, getattr(state, "turns", 0))
        boundaries = 0
        while not state.is_terminal and state.steps < spec.default_max_steps:
            now = (state.current_player, getattr(state, "turns", 0))
            if now != last:
                for seat in range(players):
                    prior, extra = heuristic_terms(module, state, seat, scale)
                    obs.append(state.observe(seat).astype(np.float16))
                    terms.append(extra)
                    priors.append(prior)
                    seats.append(seat)
                    turns.append(boundaries)
                boundaries += 1
                last = now
            seat = state.current_player
            choice = policy_action(agents[seat], state, seat,
                                   {"observation": state.observe(seat),
                                    "action_mask": state.legal_mask().astype(np.int8)})
            state.apply(choice)
        winners = state.winners() if state.is_terminal else []
        share = [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]
        parts.append(Afterstates(
            np.stack(obs), np.asarray(terms, np.float32), np.asarray(priors, np.float32),
            np.asarray([share[s] for s in seats], np.float32), np.asarray(seats, np.int8),
            np.asarray(turns, np.int32), np.full(len(priors), index, np.int32)))
    return Afterstates.concatenate(parts)


def value_position(network: ValueNetwork, scale: float) -> Callable[[Any, int], float]:
    """A `position_value` (points) read from the network: its logit times half the scale."""
    module = heuristic_module(GAME)

    def value(state, seat: int) -> float:
        prior, terms = heuristic_terms(module, state, seat, scale)
        row = np.concatenate([state.observe(seat), np.asarray(terms, np.float32)])[None]
        # half the logit in margin points: for two seats the search's margin over the other
        # seat becomes the mean of the two seats' logits, (l_me - l_other) / 2
        return 0.5 * scale * float(network.logits(row, np.asarray([prior]))[0])

    return value


def make(code: str, seed: int, path: str):
    """An agent of the trial: `search`; `heuristic`; `leaves` (the search agent scoring its
    cut-off simulations by the value in `path`, half the two seats' logit difference); the
    package's agents over the same value, now that Mi Tierra's heuristic declares
    `afterstate_turn`: `greedy` (the afterstate agent, no search), `default` (the learned
    search with the afterstate agent's default and the margin at its leaves) and `both` (its
    default and the value's win chance at its leaves, what `learned:PATH` plays)."""
    if code == "heuristic":
        return make_heuristic(GAME, seed=seed)
    if code == "search":
        return SearchAgent(seed=seed, game=GAME)
    network = ValueNetwork.load(path)
    if code == "greedy":
        return AfterstateAgent(seed=seed, network=network, game=GAME)
    if code in ("default", "both"):
        config = SearchConfig.of(GAME, {"search": {"leaves": "value" if code == "both"
                                                   else "margin"}})
        return LearnedSearchAgent(seed=seed, network=network, game=GAME, config=config)
    agent = SearchAgent(seed=seed, game=GAME)
    agent.value = value_position(network, agent.scale)
    return agent


def play_part(path: str, seed: int, code: str, against: str,
              games: list[int]) -> list[tuple[int, float]]:
    """(game index, the win share of `code`'s seat) of `games` against `against`, the seats
    rotating."""
    from huerta.training.evaluation.matches import play_game

    out = []
    for g in games:
        seat = g % 2
        agents = [make(code if s == seat else against, seed + 31 * g + s, path)
                  for s in range(2)]
        _, state = play_game(GAME, agents, seed + g)
        win = 0.0
        if state.is_terminal and seat in state.winners():
            win = 1.0 / len(state.winners())
        out.append((g, win))
    return out


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of `k` wins in `n` games."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=["record", "fit", "play"], help="see the docstring")
    parser.add_argument("--games", type=int, default=2000,
                        help="games to record (record) or play (play)")
    parser.add_argument("--seed", type=int, default=0,
                        help="the deals (record, play) and the fit's initialisation")
    parser.add_argument("--workers", type=int, default=2, help="processes (fit: threads)")
    parser.add_argument("--data", default="mt-data.npz", help="the recorded positions")
    parser.add_argument("--model", default="mt-value.npz", help="the fitted value")
    parser.add_argument("--horizon", type=int, default=6,
                        help="turn boundaries ahead whose margin is the target")
    parser.add_argument("--epochs", type=int, default=15, help="epochs of the fit")
    parser.add_argument("--agent", default="leaves",
                        choices=["leaves", "default", "both", "greedy"],
                        help="play: the trial's agent (see `make`)")
    parser.add_argument("--against", default="search", choices=["search", "heuristic"],
                        help="play: its opponent")
    parser.add_argument("--results", default="mt-games.jsonl",
                        help="play: one line a game; a second run plays only the games it lacks")
    args = parser.parse_args()
    began = time.time()
    jobs = [range(k, min(k + 10, args.games)) for k in range(0, args.games, 10)]
    if args.step == "record":
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            data = Afterstates.concatenate(pool.map(partial(record_part, args.seed), jobs))
        np.savez(args.data, **{k: getattr(data, k) for k in data.__dataclass_fields__})
        print(f"{len(data)} positions from {args.games} games in {time.time() - began:.0f} s")
    elif args.step == "fit":
        with np.load(args.data) as f:
            data = Afterstates(**{k: f[k] for k in f.files})
        layers, epoch, loss, prior_loss = fit(data, args.horizon, args.epochs, seed=args.seed,
                                              progress=True, threads=args.workers)
        scale = heuristic_module(GAME).SEARCH.margin_scale
        about = {"kind": KIND, "game": GAME, "players": 2,
                 "observation_size": get_game(GAME).observation_size, "margin_scale": scale,
                 "activation": "relu",
                 "trained": {"games": len(np.unique(data.games)), "horizon": args.horizon,
                             "epoch": epoch, "log_loss": loss, "prior_log_loss": prior_loss}}
        ValueNetwork(layers, about).save(args.model)
        print(json.dumps(about["trained"]), f"{time.time() - began:.0f} s")
    else:
        done = {}  # game index -> win share, from an earlier run of the same --results file
        if os.path.exists(args.results):
            with open(args.results) as f:
                done = {row["game"]: row["win"] for row in map(json.loads, f)}
        todo = [part for part in ([g for g in job if g not in done] for job in jobs) if part]
        with (multiprocessing.get_context("spawn").Pool(args.workers) as pool,
              open(args.results, "a") as out):
            for part in pool.imap_unordered(partial(play_part, args.model, args.seed,
                                                    args.agent, args.against), todo):
                for g, win in part:
                    done[g] = win
                    out.write(json.dumps({"game": g, "win": win}) + "\n")
                out.flush()
                wins = sum(done.values())
                low, high = wilson(wins, len(done))
                print(f"{len(done)} games: {args.agent} {wins / len(done):.1%} "
                      f"[{low:.1%}, {high:.1%}] ({time.time() - began:.0f} s)", flush=True)

if __name__ == "__main__":
    main()
