"""Regenerate the golden playthroughs checked in under tests/golden/.

    python scripts/golden_playthroughs.py

Each file is the transcript of a seeded random game; tests/core/test_records_contract.py replays
the same record and fails if a single line differs, so any change of rules, setup or descriptions
shows up as a diff to review. Regenerate only when such a change is intended.
"""

from __future__ import annotations

from pathlib import Path

from huerta.envs.core.registry import game_specs
from huerta.envs.core.transcript import random_record, transcript

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"
# the seed of the golden playthrough at each player count, the same for every game (a count not
# listed here plays seed 5 + players)
GOLDEN_SEEDS = {1: 10, 2: 7, 3: 8, 4: 9}


def golden_seed(num_players: int) -> int:
    """The seed of every game's golden playthrough at `num_players`."""
    return GOLDEN_SEEDS.get(num_players, 5 + num_players)


# (game, players, seed) of every golden playthrough: every registered game at each of its counts
GOLDEN_GAMES = [
    (spec.name, players, golden_seed(players))
    for spec in game_specs()
    for players in spec.player_counts
]


def golden_name(game: str, num_players: int, seed: int) -> str:
    return f"{game}_{num_players}p_seed{seed}.txt"


def main() -> None:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for game, n, seed in GOLDEN_GAMES:
        path = GOLDEN_DIR / golden_name(game, n, seed)
        path.write_text(transcript(random_record(game, n, seed), boards=False))
        print("wrote", path)


if __name__ == "__main__":
    main()
