"""A game record as readable text: one line per decision, then the final board and scores.

Used by `huerta replay` and by the golden playthroughs checked in under tests/.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from .records import GameRecord, apply_recorded, iter_states


def transcript_lines(record: GameRecord, boards: bool = False) -> Iterator[str]:
    """Yield the transcript of `record`; with `boards`, the text board before every decision."""
    yield (
        f"# {record.game}, {record.num_players} players, seed {record.seed}, "
        f"options {record.options}"
    )
    for i, action, state in iter_states(record):
        if action is None:
            yield state.render_text()
            scores = state.scores()
            yield f"final scores: {scores}"
            if state.is_terminal:
                yield f"winners: {state.winners()}"
            else:
                yield "(the record stops before the end of the game)"
            return
        if boards:
            yield state.render_text()
        player = state.current_player
        text = state.describe(action)
        after = _after(state, player, action, i)
        yield f"{i:4d} player_{player} {action:3d} {text}{after}"


def _after(state, player: int, action: int, index: int) -> str:
    """The actor's holdings after the action, shown on the same line (applied on a clone)."""
    clone = state.clone()
    apply_recorded(clone, index, action)
    summary = getattr(clone, "summary", None)
    if summary is None:
        return f"  -> scores {clone.scores()}"
    return f"  -> {summary(player)}"


def transcript(record: GameRecord, boards: bool = False) -> str:
    """The whole transcript as one string."""
    return "\n".join(transcript_lines(record, boards)) + "\n"


def random_record(
    game: str, num_players: int, seed: int, action_seed: int | None = None, **options
) -> GameRecord:
    """A complete game of uniformly random legal moves, the moves drawn from `action_seed`
    (by default `seed + 1`, so one seed fixes the whole game)."""
    from .registry import get_game

    spec = get_game(game)
    state = spec.new_game(num_players, seed=seed, **options)
    rng = np.random.default_rng(seed + 1 if action_seed is None else action_seed)
    record = GameRecord(game=spec.name, num_players=num_players, seed=seed, options=options)
    while not state.is_terminal and state.steps < spec.default_max_steps:
        legal = np.flatnonzero(state.legal_mask())
        action = int(legal[rng.integers(len(legal))])
        state.apply(action)
        record.actions.append(action)
    record.final_scores = state.scores()
    return record
