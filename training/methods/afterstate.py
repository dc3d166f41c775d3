"""Training of the afterstate agent (`huerta.agents.afterstate`): the heuristic's value, learned
from its games and bettered by what the games showed.

The recipe, one step of approximate policy iteration over the heuristic's one-turn search:

1. **Record** the heuristic playing every seat of `value_games` games; at every turn boundary
   (the acting seat or the turn changes) the position is kept from each seat's point of view:
   its observation, the heuristic's terms and margin logit, and how the game ended for it.
2. **Target** for each position: the heuristic's own win chance (the logistic of its margin)
   `value_horizon` turns later in the same game, or the result where the game ended before
   that. An n-step target, as in TD learning: a game's result alone says little about one
   position (one outcome per game, thousands of positions), while the margin a few turns on
   carries what those turns showed and far less noise.
3. **Fit** the residual network (win logit = margin logit + network; in the solo game the
   prior is first calibrated, `calibrate`) by cross-entropy, one game in ten held out; the epoch
   with the lowest held-out log-loss against the games' results is kept (early stopping: the
   network otherwise learns to recognise games, not positions), or none where none beats the
   prior.
4. **Evaluate** greedy play on the fitted value against the heuristic and random (or Zara).

Greedy play on a better estimate of the heuristic's value is the policy-improvement step: in
Finca it wins 64% of games against the heuristic, in Alpujarras 60%. The measurements that
chose the horizon and the network are in the README's Training section.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from huerta.agents.afterstate import (
    HEURISTIC_TERMS,
    KIND,
    AfterstateAgent,
    ValueNetwork,
    heuristic_terms,
    margin_scale,
)
from huerta.envs.core.errors import InvalidConfigError

from ..chunks import CHUNK_GAMES, chunk_path, chunk_seed, record_chunks, results_until_stopped
from ..config import TrainConfig, eval_opponents
from ..runs import (
    START_AFRESH,
    Stop,
    TrainingInterrupted,
    append_eval,
    best_key,
    ignore_sigint,
    local_run_evidence,
    rates_of,
    read_eval,
    read_eval_rows,
    run_provenance,
    save_atomically,
)
from ..threads import fit_threads, torch_threads
from .report import rates_text

HELD_OUT_EVERY = 10  # every tenth game is held out of the fit: early stopping and the report
BATCH_SIZE = 512
LEARNING_RATE = 1e-3
WEIGHT_DECAY = 1e-3
DROPOUT = 0.2
HIDDEN = (256, 256)


@dataclass
class Afterstates:
    """Positions at turn boundaries, one row per position and seat."""

    observations: np.ndarray  # (n, observation_size) float16: the seat's observation
    terms: np.ndarray  # (n, HEURISTIC_TERMS) float32: the heuristic's terms (heuristic_terms)
    priors: np.ndarray  # (n,) float32: the heuristic's win logit
    outcomes: np.ndarray  # (n,) float32: the seat's share of the win (1, 1/k shared, 0)
    seats: np.ndarray  # (n,) int8
    turns: np.ndarray  # (n,) int32: the boundary's index in its game
    games: np.ndarray  # (n,) int32: the game's index (decides held out or not)

    def __len__(self) -> int:
        return len(self.priors)

    @staticmethod
    def concatenate(parts: list[Afterstates]) -> Afterstates:
        return Afterstates(*(np.concatenate([getattr(p, f.name) for p in parts])
                             for f in fields(Afterstates)))

    def select(self, rows: np.ndarray) -> Afterstates:
        return Afterstates(*(getattr(self, f.name)[rows] for f in fields(Afterstates)))

    def features(self) -> np.ndarray:
        """What the network reads: the observation and the heuristic's terms (float32)."""
        return np.concatenate([self.observations.astype(np.float32), self.terms], axis=1)


@dataclass
class ValueReport:
    """What the fit learned, on the held-out games: the log-loss of its win chances against the
    games' results beside that of the heuristic's margin alone (the prior)."""

    games: int
    positions: int
    held_out_positions: int
    epochs: int  # the epoch kept (1-based; 0: none beat the prior, the network is zero)
    log_loss: float
    prior_log_loss: float
    seconds: float

    def line(self) -> str:
        return (f"afterstate value: held-out log-loss {self.log_loss:.4f} against the results "
                f"(the heuristic's margin alone: {self.prior_log_loss:.4f}) on "
                f"{self.held_out_positions:,} positions; {self.positions:,} positions from "
                f"{self.games:,} games, epoch {self.epochs} kept, {self.seconds:.0f} s")


# --- recording -----------------------------------------------------------------------------------
def _boundary(state: Any) -> tuple[int, int]:
    """What changes when a turn ends: the acting seat, and the turn counter where the game
    keeps one (a solo game's seat never changes)."""
    return state.current_player, getattr(state, "turns", 0)


def record_chunk(game: str, players: int, seed: int, options: dict[str, Any], chunk: int,
                 games: int, player: str = "heuristic") -> Afterstates:
    """Games `chunk * CHUNK_GAMES ...` (`games` of them) of `player` (the heuristic, or any
    agent code: a self-play generation records the learned agent it is to improve) at every
    seat, every turn boundary recorded from every seat's point of view."""
    from huerta.agents import make_agent
    from huerta.agents.heuristics import heuristic_module, make_heuristic
    from huerta.envs.core.policies import policy_action
    from huerta.envs.core.registry import get_game

    spec = get_game(game)
    module = heuristic_module(game)
    scale = margin_scale(game)
    rng = np.random.default_rng(chunk_seed(seed, chunk))
    parts: list[Afterstates] = []
    for g in range(games):
        index = chunk * CHUNK_GAMES + g
        state = spec.new_game(players, seed=int(rng.integers(2**63 - 1)), **options)
        agents = [make_heuristic(game, seed=int(rng.integers(2**63 - 1)))
                  if player == "heuristic"
                  else make_agent(player, game=game, seed=int(rng.integers(2**63 - 1)))
                  for _ in range(players)]
        observations, terms, priors, seats, turns = [], [], [], [], []
        last = _boundary(state)
        boundaries = 0
        while not state.is_terminal and state.steps < spec.default_max_steps:
            now = _boundary(state)
            if now != last:
                for seat in range(players):
                    prior, extra = heuristic_terms(module, state, seat, scale)
                    observations.append(state.observe(seat).astype(np.float16))
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
        if not priors:
            continue
        winners = state.winners() if state.is_terminal else []
        share = [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]
        parts.append(Afterstates(
            np.stack(observations), np.asarray(terms, np.float32), np.asarray(priors, np.float32),
            np.asarray([share[s] for s in seats], np.float32), np.asarray(seats, np.int8),
            np.asarray(turns, np.int32), np.full(len(priors), index, np.int32)))
    return Afterstates.concatenate(parts) if parts else _empty(get_game(game).observation_size)


def _empty(size: int) -> Afterstates:
    return Afterstates(np.zeros((0, size), np.float16), np.zeros((0, HEURISTIC_TERMS), np.float32),
                       *(np.zeros(0, t) for t in (np.float32, np.float32, np.int8, np.int32,
                                                   np.int32)))


def record(folder: Path, game: str, players: int, games: int, seed: int,
           options: dict[str, Any] | None = None, workers: int | None = None,
           progress: bool = False,
           should_stop: Callable[[], bool] = lambda: False,
           player: str = "heuristic") -> Afterstates | None:
    """`player`'s `games` games (the heuristic's by default) as afterstates, from the chunks in
    `folder` and those played now; None when `should_stop()` turned true first (what was
    finished stays)."""
    play = partial(record_chunk, game, players, seed, options or {}, player=player)
    return record_chunks(folder, games, play, Afterstates, workers=workers,
                         progress=f"afterstate: {player} games" if progress else "",
                         should_stop=should_stop)


def player_search(game: str, players: int, player: str) -> dict[str, Any] | None:
    """The learned search settings (`about["search"]`) of the value file `player` plays, where
    `player` is `learned[:PATH]` holding an afterstate value that declares them, else None: a
    self-play generation's value plays as the agent whose games it was fitted on."""
    from huerta.agents.learned import learned_policy_path, load_model
    from huerta.agents.registry import split_code

    name, arg = split_code(player)
    if name != "learned":
        return None
    model = load_model(learned_policy_path(game, arg, players))
    if not isinstance(model, ValueNetwork):
        return None
    search = model.about.get("search")
    return dict(search) if isinstance(search, dict) else None


def targets(data: Afterstates, horizon: int) -> np.ndarray:
    """Each position's target win chance: the heuristic's (the logistic of its prior) `horizon`
    boundaries later for the same seat in the same game, or the result where the game ended
    sooner (horizon 0: always the result)."""
    out = data.outcomes.copy()
    if horizon <= 0 or not len(data):
        return out
    order = np.lexsort((data.turns, data.seats, data.games))
    later = order[horizon:]
    now = order[:-horizon]
    same = (data.games[later] == data.games[now]) & (data.seats[later] == data.seats[now])
    out[now[same]] = _sigmoid(data.priors[later[same]])
    return out


# --- fitting -------------------------------------------------------------------------------------
def _sigmoid(logits: np.ndarray) -> np.ndarray:
    """The logistic function, without overflow at the solo game's logits of -300."""
    return 0.5 * (1.0 + np.tanh(0.5 * np.asarray(logits, dtype=np.float64)))


def _log_loss(logits: np.ndarray, outcomes: np.ndarray) -> float:
    p = np.clip(_sigmoid(logits), 1e-7, 1 - 1e-7)
    return float(-np.mean(outcomes * np.log(p) + (1 - outcomes) * np.log(1 - p)))


def calibrate(priors: np.ndarray, outcomes: np.ndarray) -> tuple[float, float]:
    """(a, b) such that the logistic of `a * prior + b` fits the `outcomes` (win shares) best:
    a logistic regression on one feature, by Newton's method. The solo game's prior, a log
    chance of -300..-10, becomes a win logit this way (the targets of `targets` and the
    network's starting point need one)."""
    x = np.stack([np.asarray(priors, np.float64), np.ones(len(priors))], axis=1)
    y = np.asarray(outcomes, np.float64)
    w = np.zeros(2)
    for _ in range(100):
        p = _sigmoid(x @ w)
        hessian = (x * (p * (1 - p))[:, None]).T @ x + 1e-6 * np.eye(2)
        step = np.linalg.solve(hessian, x.T @ (p - y))
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return float(w[0]), float(w[1])


def split(data: Afterstates) -> tuple[np.ndarray, np.ndarray]:
    """(rows fitted, rows held out): every tenth game is held out; with too few games to hold
    one out (none held, or all), both are every row."""
    held = data.games % HELD_OUT_EVERY == HELD_OUT_EVERY - 1
    if held.all() or not held.any():
        every = np.arange(len(data))
        return every, every
    return np.flatnonzero(~held), np.flatnonzero(held)


def fit(data: Afterstates, horizon: int, epochs: int, seed: int = 0, progress: bool = False,
        should_stop: Callable[[], bool] = lambda: False, threads: int | None = None,
        ) -> tuple[list[tuple[np.ndarray, np.ndarray]], int, float, float] | None:
    """Fit the residual network to `data`'s targets on `fit_threads(threads)` torch threads;
    return (layers as (weight in x out, bias), the epoch kept (1-based), its held-out log-loss
    against the results, the prior's), or None when `should_stop()` turned true first."""
    import torch

    torch.manual_seed(seed)
    train_rows, test_rows = split(data)
    x = torch.as_tensor(data.features())
    priors = torch.as_tensor(data.priors)
    y = torch.as_tensor(targets(data, horizon))
    outcomes = data.outcomes[test_rows]
    width = x.shape[1]
    layers: list[torch.nn.Module] = []
    for index, hidden in enumerate(HIDDEN):
        layers += [torch.nn.Linear(width, hidden), torch.nn.ReLU()]
        if index == 0:  # dropout after the first hidden layer only
            layers.append(torch.nn.Dropout(DROPOUT))
        width = hidden
    # The last layer keeps torch's default initialisation: zeros there (the network starting
    # as the margin exactly) left the gradients of every other layer zero at the start, and a
    # 2,000-game Alpujarras fit never left the prior (held-out log-loss 0.4982 against 0.4593).
    layers.append(torch.nn.Linear(width, 1))
    network = torch.nn.Sequential(*layers)
    optimizer = torch.optim.Adam(network.parameters(), lr=LEARNING_RATE,
                                 weight_decay=WEIGHT_DECAY)
    loss_of = torch.nn.BCEWithLogitsLoss()
    rng = np.random.default_rng(seed)

    def held_out_logits() -> np.ndarray:
        network.eval()
        with torch.no_grad():
            out = [network(x[test_rows[i:i + 8192]])[:, 0] + priors[test_rows[i:i + 8192]]
                   for i in range(0, len(test_rows), 8192)]
        network.train()
        return torch.cat(out).numpy()

    prior_loss = _log_loss(data.priors[test_rows], outcomes)
    linear = [m for m in network if isinstance(m, torch.nn.Linear)]

    def snapshot() -> list[tuple[np.ndarray, np.ndarray]]:
        return [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy())
                for m in linear]

    zero = snapshot()
    zero[-1] = (np.zeros_like(zero[-1][0]), np.zeros_like(zero[-1][1]))
    best = (prior_loss, 0, zero)  # epoch 0: the prior alone, kept unless an epoch beats it
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=epochs, desc="afterstate: fitting", unit="epoch")
    with torch_threads(fit_threads(threads)):
        try:
            for epoch in range(1, epochs + 1):
                order = rng.permutation(train_rows)
                for start in range(0, len(order), BATCH_SIZE):
                    if should_stop():
                        return None
                    rows = torch.as_tensor(order[start:start + BATCH_SIZE])
                    loss = loss_of(network(x[rows])[:, 0] + priors[rows], y[rows])
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
                held_loss = _log_loss(held_out_logits(), outcomes)
                if held_loss < best[0]:
                    best = (held_loss, epoch, snapshot())
                if bar is not None:
                    bar.update(1)
                    bar.set_postfix(held_out_log_loss=f"{held_loss:.4f}")
        finally:
            if bar is not None:
                bar.close()
    return best[2], best[1], best[0], prior_loss


def value_network(layers: list[tuple[np.ndarray, np.ndarray]], game: str, players: int,
                  trained: dict[str, Any]) -> ValueNetwork:
    """The fitted layers as an afterstate value of `game` (its `about` says how it was made)."""
    from huerta.envs.core.registry import get_game

    about = {"kind": KIND, "game": game, "players": players,
             "observation_size": get_game(game).observation_size,
             "margin_scale": margin_scale(game), "activation": "relu", "trained": trained}
    return ValueNetwork(layers, about)


# --- evaluation ----------------------------------------------------------------------------------
EVAL_JOB_GAMES = 10  # games per evaluation job (the workers' unit of work)


def _evaluate_part(path: str, game: str, players: int, opponent: str, seed: int,
                   options: dict[str, Any], games: range) -> float:
    """Wins (a shared victory counts 1/k) of the afterstate agent in `path` over `games` (game
    indices: seats rotate, seeds fixed by index)."""
    from huerta.agents import make_agent
    from huerta.agents.learned_search import LearnedSearchAgent, SearchConfig

    from ..evaluation.matches import play_game

    network = ValueNetwork.load(path)
    search = SearchConfig.of(game, network.about)  # a file that plays with search plays so

    def agent(s: int) -> Any:
        if search is None:
            return AfterstateAgent(seed=s, network=network, game=game)
        return LearnedSearchAgent(seed=s, network=network, game=game, config=search)

    wins = 0.0
    for g in games:
        seat = g % players
        agents = [agent(seed + 31 * g + s)
                  if s == seat else make_agent(opponent, game=game, seed=seed + 31 * g + s)
                  for s in range(players)]
        _, state = play_game(game, agents, seed + g, options=options)
        if state.is_terminal:
            winners = state.winners()
            if seat in winners:
                wins += 1.0 / len(winners)
    return wins


def evaluate(path: Path, game: str, players: int, opponent: str, games: int, seed: int,
             options: dict[str, Any] | None = None, workers: int | None = None,
             should_stop: Callable[[], bool] = lambda: False) -> float | None:
    """Win rate of the afterstate agent in `path` against `opponent` over `games`
    seat-rotated games with fixed seeds (split over `workers` processes; the result does not
    depend on their number); None when `should_stop()` turned true first (it is asked while
    the workers play, so a signal does not wait for the evaluation to end)."""
    workers = max(1, min(workers or os.cpu_count() or 1, games))
    parts = [range(k, min(k + EVAL_JOB_GAMES, games)) for k in range(0, games, EVAL_JOB_GAMES)]
    job = partial(_evaluate_part, str(path), game, players, opponent, seed, options or {})
    if workers == 1:
        wins = []
        for part in parts:
            if should_stop():
                return None
            wins.append(job(part))
        return math.fsum(wins) / games
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(workers, initializer=ignore_sigint) as pool:
        wins = list(results_until_stopped(pool, job, parts, should_stop))
    # fsum: the rate does not depend on the order in which the parts finished
    return math.fsum(wins) / games if len(wins) == len(parts) else None


def report_to_json(report: ValueReport) -> str:
    return json.dumps(asdict(report), indent=2) + "\n"


def fit_value(run: Path, game: str, players: int, games: int, horizon: int, epochs: int,
              seed: int, options: dict[str, Any], progress: bool = False,
              should_stop: Callable[[], bool] = lambda: False, threads: int | None = None,
              player: str = "heuristic") -> tuple[ValueNetwork, ValueReport] | None:
    """Record (or read back) `player`'s games (the heuristic's by default; else a self-play
    generation's, whose value keeps the learned search settings of the value `player` plays,
    `player_search`) in `run/afterstate`, fit the value (on `fit_threads(threads)` torch
    threads, recorded in its `about`) and write `run/afterstate.json`; None when stopped first
    (what was recorded stays)."""
    started = time.monotonic()
    data = record(run / "afterstate", game, players, games, seed, options, progress=progress,
                  should_stop=should_stop, player=player)
    if data is None:
        return None
    calibration = {}
    if players == 1:  # the solo prior is a log chance, not a win logit (agents/afterstate.py)
        fitted, _ = split(data)
        scale, shift = calibrate(data.priors[fitted], data.outcomes[fitted])
        data = replace(data, priors=(scale * data.priors + shift).astype(np.float32))
        calibration = {"prior_scale": scale, "prior_shift": shift}
    result = fit(data, horizon, epochs, seed=seed, progress=progress, should_stop=should_stop,
                 threads=threads)
    if result is None:
        return None
    layers, epoch, loss, prior_loss = result
    report = ValueReport(games=games, positions=len(data), held_out_positions=len(split(data)[1]),
                         epochs=epoch, log_loss=loss, prior_log_loss=prior_loss,
                         seconds=time.monotonic() - started)
    network = value_network(layers, game, players, {
        "method": "afterstate", "seed": seed, "threads": fit_threads(threads), "games": games,
        "horizon": horizon, "epochs": epoch, "held_out_log_loss": round(loss, 4),
        "prior_log_loss": round(prior_loss, 4), **run_provenance(run)})
    network.about.update(calibration)
    if player != "heuristic":
        network.about["trained"]["value_player"] = player
        search = player_search(game, players, player)
        if search is not None:
            network.about["search"] = search
    (run / "afterstate.json").write_text(report_to_json(report))
    return network, report


# --- a run ---------------------------------------------------------------------------------------
def eval_points(games: int) -> list[int]:
    """The recorded-game counts a run fits and evaluates at: a quarter, a half and all of
    `games` (the learning curve; the recording is shared, so later points only add games),
    the first two in whole chunks where there are enough games."""
    def whole(n: int) -> int:
        return n - n % CHUNK_GAMES if n >= CHUNK_GAMES else max(1, n)

    return sorted({whole(games // 4), whole(games // 2), games})


def done_games(run: Path, games: int) -> int:
    """How many of the first `games` heuristic games are recorded in `run/afterstate`."""
    folder = run / "afterstate"
    chunks = (games + CHUNK_GAMES - 1) // CHUNK_GAMES
    return sum(size for c in range(chunks)
               if chunk_path(folder, c, size := min(CHUNK_GAMES, games - c * CHUNK_GAMES))
               .exists())


def _value_path(run: Path, games: int) -> Path:
    return run / "values" / f"value_{games:07d}.npz"


def eval_text(games: int, rates: dict[str, float], eval_games: int) -> str:
    """One evaluation as a line, e.g. `eval after 2,000 heuristic games: 97.0% [91.5, 99.0] vs
    random, 64.0% [54.2, 72.7] vs heuristic (100 games each)`."""
    each = " each" if len(rates) > 1 else ""
    return (f"eval after {games:,} heuristic games: {rates_text(rates, eval_games)} "
            f"({eval_games} games{each})")


def train_afterstate(config: Any, run: Path, stop: Any) -> tuple[int, float]:
    """The afterstate run of `config` (a checked `TrainConfig`) in `run`, whose folder is
    ready: at each of `eval_points(config.value_games)`, record the games still missing, fit,
    save `values/value_<games>.npz`, evaluate, and append the row to eval.csv (a point with its
    value file and its row is kept on resume); then the best value becomes best_policy.npz and
    the curve learning_curve.png. Returns (games recorded, seconds). A signal raises
    `TrainingInterrupted` keeping what was finished."""
    started = time.monotonic()
    (run / "values").mkdir(parents=True, exist_ok=True)
    done = {int(r["steps"]) for r in read_eval(run)}
    should_stop = lambda: stop.signum is not None  # noqa: E731
    for games in eval_points(config.value_games):
        path = _value_path(run, games)
        if games in done and path.exists():
            continue
        fitted = fit_value(run, config.game, config.players, games, config.value_horizon,
                           config.value_epochs, config.seed, config.game_options,
                           progress=config.progress, should_stop=should_stop,
                           threads=config.threads, player=config.value_player)
        if fitted is None:  # the games recorded so far are kept, chunk by chunk
            raise TrainingInterrupted(stop.signum, done_games(run, games), config.value_games,
                                      run / "afterstate", unit="heuristic games")
        network, report = fitted
        print(report.line(), flush=True)
        save_atomically(path, network.save)
        rates = {}
        for opponent in eval_opponents(config.game, config.players):
            rate = evaluate(path, config.game, config.players, opponent, config.eval_games,
                            config.seed + 10_000_000, config.game_options,
                            should_stop=should_stop)
            if rate is None or should_stop():  # the value file is kept; its row is not
                raise TrainingInterrupted(stop.signum, games, config.value_games, path,
                                          unit="heuristic games")
            rates[opponent] = rate
        append_eval(run, games, rates, config.eval_games)
        print(eval_text(games, rates, config.eval_games), flush=True)
    rows = [r for r in read_eval(run) if _value_path(run, int(r["steps"])).exists()]
    best = max(rows, key=lambda r: best_key(rates_of(r)))
    network = ValueNetwork.load(_value_path(run, int(best["steps"])))
    network.about["trained"].update(run_facts(run, config))
    save_atomically(run / "best_policy.npz", network.save)
    try:
        from ..evaluation.plots import plot_learning_curve

        who = "solo against Zara" if config.players == 1 else f"{config.players} players"
        plot_learning_curve(read_eval(run), run / "learning_curve.png",
                            title=f"{config.game}, {who}: afterstate value",
                            x_label="heuristic games recorded")
    except ImportError:
        pass
    return config.value_games, time.monotonic() - started


def run_facts(run: Path, config: Any) -> dict[str, Any]:
    """How an afterstate run was trained, for the exported file: its command line, seed, the
    games and horizon, the best evaluation, the wall time (the recorded games' chunks and
    the evaluations' times: from the first chunk written to the last evaluation), and where it
    came from (`run_provenance`: commit and libraries)."""
    name = f"{config.game}-solo" if config.players == 1 else config.game
    flags = ""
    if config.value_games != TrainConfig.value_games:
        flags += f" --value-games {config.value_games}"
    if config.threads is not None:
        flags += f" --threads {config.threads}"
    if config.value_player != "heuristic":
        flags += f" --value-player {config.value_player}"
    from ..games import default_method

    if default_method(config.game, config.players) != "afterstate":
        flags += " --method afterstate"
    facts: dict[str, Any] = {
        "method": "afterstate", "command": f"huerta train {name} --seed {config.seed}{flags} "
                                           f"--out {config.out}",
        "seed": config.seed, "players": config.players, "value_games": config.value_games,
        "value_horizon": config.value_horizon, "hidden": list(HIDDEN),
        **run_provenance(run),
    }
    _, raw = read_eval_rows(run / "eval.csv")
    chunks = sorted((run / "afterstate").glob("chunk_*.npz"), key=lambda p: p.stat().st_mtime)
    times = [datetime.datetime.fromisoformat(r["time"]) for r in raw if r.get("time")]
    if chunks and times:
        first = datetime.datetime.fromtimestamp(chunks[0].stat().st_mtime).astimezone()
        facts["wall_seconds"] = round((max(times) - first).total_seconds())
        facts["finished"] = max(times).date().isoformat()
    rows = read_eval(run)
    if rows:
        best = max(rows, key=lambda r: best_key(rates_of(r)))
        facts["best_games"] = int(best["steps"])
        facts["best_eval"] = {k: round(v, 4) for k, v in rates_of(best).items()}
    return facts


def summary_text(run: Path, games: int, seconds: float, eval_games: int) -> str:
    """The line that ends an afterstate run: games, wall time and the best evaluation (the one
    best_policy.npz holds)."""
    minutes, secs = divmod(round(seconds), 60)
    text = f"training done: {games:,} heuristic games, {minutes} min {secs:02d} s"
    rows = read_eval(run)
    if rows:
        best = max(rows, key=lambda r: best_key(rates_of(r)))
        text += (f"; best value after {int(best['steps']):,} games: "
                 f"{rates_text(rates_of(best), eval_games)}")
    return text


class Afterstate:
    """The `afterstate` method: a value learned from the heuristic's games, played by its one-turn
    search (see the module docstring for what it leaves in the run folder)."""

    name = "afterstate"
    folders = ("afterstate", "values")

    def check_resumable(self, config: TrainConfig, run: Path) -> None:
        """Refuse a resume with no recorded games."""
        if not local_run_evidence(run):
            raise InvalidConfigError(f"nothing to resume: no recorded games in "
                                     f"{run / 'afterstate'}{START_AFRESH}")

    def train(self, config: TrainConfig, run: Path, stop: Stop, resume: bool) -> int:
        """Train (or go on training) in `run`; return the games it counts."""
        games, _ = train_afterstate(config, run, stop)
        return games

    def finish(self, config: TrainConfig, run: Path, games: int, seconds: float) -> str:
        """The line that ends the run."""
        return summary_text(run, games, seconds, config.eval_games)
