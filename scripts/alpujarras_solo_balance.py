"""Balance check of the Alpujarras solo game: how often the baselines beat Zara, per variant.

    .venv/bin/python scripts/alpujarras_solo_balance.py                  # 150 games per variant
    .venv/bin/python scripts/alpujarras_solo_balance.py --games 400 --workers 2
    .venv/bin/python scripts/alpujarras_solo_balance.py --games 200 --workers 2 \
        --agents learned heuristic --default-only           # the shipped learned agent beside

It plays seeded solo games (seed 0, 1, 2, ...: the same deals for every variant) with the
heuristic agent and with random play, and prints the figures quoted in seeds/alpujarras.md (ZG-09,
ZG-11): the win rate with its 95% Wilson interval, the duties met (five zakats plus five kinds
delivered; ten are needed), the share of games that met all ten, the mean score margin over Zara
in those, and why the games were lost.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from huerta.agents import make_agent
from huerta.envs.alpujarras.effects import solo_duties_met
from huerta.training.evaluation.matches import play_game
from huerta.training.evaluation.ratings import wilson_interval

# (label, game options): the default first, then the rulebook's easier and harder settings
VARIANTS = (
    ("default (3 double turns, plain)", {}),
    ("4 double turns (easier)", {"double_turns": 4}),
    ("5 double turns (easiest)", {"double_turns": 5}),
    ("no double turns", {"double_turns": 0}),
    ("5 double turns, 5 star sides", {"double_turns": 5, "star_sides": 5}),
)
AGENTS = ("heuristic", "random")  # the default line-up (--agents)


@dataclass
class Tally:
    """What a batch of solo games came to."""

    games: int = 0
    wins: int = 0
    duties: int = 0
    complete: int = 0  # games with all ten duties met
    margin: int = 0  # summed over the complete games
    losses: Counter = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.duties += other.duties
        self.complete += other.complete
        self.margin += other.margin
        self.losses.update(other.losses)


def play(agent_code: str, options: dict, seeds: range) -> Tally:
    """Play the solo game once per seed with a fresh agent; tally the outcomes."""
    tally = Tally()
    for seed in seeds:
        agent = make_agent(agent_code, "alpujarras", seed=seed)
        _, state = play_game("alpujarras", [agent], seed=seed, options=options)
        met = solo_duties_met(state)
        tally.games += 1
        tally.wins += state.won()
        tally.duties += met
        if met == 10:
            tally.complete += 1
            tally.margin += state.scores()[0] - state.zara_score()
        if not state.won():
            tally.losses[state.lost or "unfinished"] += 1
    return tally


def run(agent_code: str, options: dict, games: int, workers: int) -> Tally:
    """`games` seeded games split over `workers` processes (the result does not depend on it)."""
    chunks = [range(k, games, workers) for k in range(workers)]
    total = Tally()
    if workers == 1:
        total.add(play(agent_code, options, chunks[0]))
        return total
    with ProcessPoolExecutor(workers) as pool:
        for part in pool.map(play, [agent_code] * workers, [options] * workers, chunks):
            total.add(part)
    return total


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=150, help="games per agent and variant")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--agents", nargs="+", default=list(AGENTS), metavar="CODE",
                        help="agent codes to play (default: heuristic random); random plays "
                        "the default variant only")
    parser.add_argument("--default-only", action="store_true",
                        help="only the default variant (3 double turns, plain sides)")
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    args = parser.parse_args(argv)
    from huerta.agents.registry import check_agent_code

    for code in args.agents:
        check_agent_code(code, "alpujarras")  # a bad code is refused before any game
    print(f"Alpujarras solo game, {args.games} games per row (seeds 0..{args.games - 1})")
    header = (f"{'variant':34} {'agent':10} {'win %':>6} {'95% CI':>15} {'duties':>6} "
              f"{'all 10':>7} {'margin':>6}  losses")
    print(header)
    print("-" * len(header))
    rows = []
    for label, options in VARIANTS[:1] if args.default_only else VARIANTS:
        for agent_code in args.agents:
            if agent_code == "random" and options:
                continue  # random play never meets the duties; one row says so
            t = run(agent_code, options, args.games, args.workers)
            low, high = wilson_interval(t.wins, t.games)
            margin = f"{t.margin / t.complete:+.1f}" if t.complete else "-"
            losses = ", ".join(f"{k} {v}" for k, v in t.losses.most_common())
            print(f"{label:34} {agent_code:10} {100 * t.wins / t.games:6.1f} "
                  f"[{100 * low:5.1f}, {100 * high:5.1f}] {t.duties / t.games:6.2f} "
                  f"{100 * t.complete / t.games:6.1f}% {margin:>6}  {losses}", flush=True)
            rows.append({"variant": label, "options": options, "agent": agent_code,
                         "games": t.games, "wins": t.wins, "low": low, "high": high,
                         "duties": t.duties / t.games, "complete": t.complete,
                         "margin": t.margin / t.complete if t.complete else None,
                         "losses": dict(t.losses.most_common())})
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"games": args.games, "seeds": [0, args.games - 1], "rows": rows}, f,
                      indent=2)
        print(f"written: {args.json}")


if __name__ == "__main__":
    main()
