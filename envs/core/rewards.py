"""Terminal rewards computed from final scores and tiebreaks, shared by every game.

`win_loss` (default): a sole winner gets +1 and everyone else -1; in a shared victory the sharing
players get 0 and the others -1, so sharing never looks like winning.
`score_margin`: own score minus the best score among the other players.
`rank`: +1 for first place down to -1 for last, linear in rank, tied players averaging their ranks.
"""

from __future__ import annotations

from collections.abc import Sequence

REWARD_MODES = ("win_loss", "score_margin", "rank")


def check_reward_mode(mode: str) -> str:
    """Return `mode` if it is a known reward mode, else raise naming the valid ones."""
    from .errors import InvalidConfigError

    if mode not in REWARD_MODES:
        raise InvalidConfigError(
            f"unknown reward mode {mode!r}; valid modes: {', '.join(REWARD_MODES)}"
        )
    return mode


def winners_from_keys(keys: Sequence[tuple]) -> list[int]:
    """Seats whose comparison key (score first, then tiebreaks) is the maximum."""
    best = max(keys)
    return [p for p, k in enumerate(keys) if k == best]


def terminal_rewards(
    scores: Sequence[float], keys: Sequence[tuple], mode: str = "win_loss"
) -> list[float]:
    """Rewards for every seat at the end of a game.

    `keys` are per-seat comparison tuples (score, tiebreak, ...) that decide the ranking.
    """
    n = len(scores)
    if mode == "win_loss":
        winners = winners_from_keys(keys)
        if len(winners) == 1:
            return [1.0 if p == winners[0] else -1.0 for p in range(n)]
        return [0.0 if p in winners else -1.0 for p in range(n)]
    if mode == "score_margin":
        out = []
        for p in range(n):
            others = [scores[q] for q in range(n) if q != p]
            out.append(float(scores[p] - max(others)) if others else float(scores[p]))
        return out
    if mode == "rank":
        if n == 1:
            return [0.0]
        out = []
        for p in range(n):
            better = sum(1 for q in range(n) if keys[q] > keys[p])
            tied = sum(1 for q in range(n) if keys[q] == keys[p])
            mean_rank = better + (tied - 1) / 2.0  # 0 = first
            out.append(1.0 - 2.0 * mean_rank / (n - 1))
        return out
    check_reward_mode(mode)
    raise AssertionError("unreachable")
