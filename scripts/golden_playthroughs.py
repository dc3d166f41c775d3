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
# (game, players, seed) of every golden playthrough: each game's `GameSpec.golden_seeds`
GOLDEN_GAMES = [
    (spec.name, players, seed)
    for spec in game_specs()
    for players, seed in spec.golden_seeds.items()
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
