"""The ten goal requirements (ALP-51, ALP-52, ALP-53, ALP-54, ALP-55, ALP-56, ALP-57, ALP-58,
ALP-59, ALP-60) and the zakat-card payments (ZARA-09).

Goals read farmland and town farmers separately (ALP-40) and delivery tokens by their fruit side;
every requirement is "at least" (G-15).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import components as C

if TYPE_CHECKING:
    from .state import AlpujarrasState


def _kind_counts(tokens: list[int]) -> list[int]:
    counts = [0] * C.NUM_FRUITS
    for t in tokens:
        counts[t // 10] += 1
    return counts


def _value_counts(tokens: list[int]) -> list[int]:
    counts = [0] * 10
    for t in tokens:
        counts[t % 10] += 1
    return counts


def five_identical_fruit(s: AlpujarrasState, p: int) -> bool:
    """ALP-51: 5 of one fruit kind."""
    return max(s.fruit[p]) >= C.FRUIT_CAP


def five_different_fruit(s: AlpujarrasState, p: int) -> bool:
    """ALP-52: at least one of every fruit kind."""
    return min(s.fruit[p]) >= 1


def three_identical_tokens(s: AlpujarrasState, p: int) -> bool:
    """ALP-53: 3 delivery tokens of the same fruit."""
    return len(s.tokens[p]) >= 3 and max(_kind_counts(s.tokens[p])) >= 3


def three_different_tokens(s: AlpujarrasState, p: int) -> bool:
    """ALP-54: delivery tokens of at least 3 different fruits."""
    return len({t // 10 for t in s.tokens[p]}) >= 3


def two_farmers_two_farmlands(s: AlpujarrasState, p: int) -> bool:
    """ALP-55 (D8): at least 2 farmers in each of at least 2 farmlands."""
    return sorted(s.farmers[p])[-2] >= 2  # the second most farmers in a farmland


def three_farmers_one_farmland(s: AlpujarrasState, p: int) -> bool:
    """ALP-56: at least 3 farmers in one farmland."""
    return max(s.farmers[p]) >= 3


def token_sequence(s: AlpujarrasState, p: int) -> bool:
    """ALP-57: delivery tokens with the fruit values 2, 3, 4 and 5."""
    return len(s.tokens[p]) >= 4 and {t % 10 for t in s.tokens[p]} >= set(C.TOKEN_VALUE_RANGE)


def all_twos_or_threes(s: AlpujarrasState, p: int) -> bool:
    """ALP-58: three tokens of value 2, or three of value 3."""
    if len(s.tokens[p]) < 3:
        return False
    values = _value_counts(s.tokens[p])
    return values[2] >= 3 or values[3] >= 3


def farmer_in_four_towns(s: AlpujarrasState, p: int) -> bool:
    """ALP-59: a farmer in at least 4 different towns."""
    towns = s.town_farmers[p]
    return len(towns) - towns.count(0) >= 4  # counts are never negative


def two_farmers_two_towns(s: AlpujarrasState, p: int) -> bool:
    """ALP-60: at least 2 farmers in each of at least 2 towns (read like ALP-55)."""
    return sorted(s.town_farmers[p])[-2] >= 2  # the second most farmers in a town


GOAL_CHECKS: tuple[Callable[[AlpujarrasState, int], bool], ...] = (
    five_identical_fruit, five_different_fruit, three_identical_tokens, three_different_tokens,
    two_farmers_two_farmlands, three_farmers_one_farmland, token_sequence, all_twos_or_threes,
    farmer_in_four_towns, two_farmers_two_towns,
)
assert len(GOAL_CHECKS) == C.NUM_GOALS


def goal_met(state: AlpujarrasState, p: int, goal: int) -> bool:
    """Whether player `p` meets goal `goal` (0 … 9) right now."""
    return GOAL_CHECKS[goal](state, p)


def goal_flags(state: AlpujarrasState, p: int) -> list[bool]:
    """All ten requirements for player `p` at once, sharing the token tallies (the fast path of
    the observation; the tests check it against `GOAL_CHECKS`)."""
    fruit = state.fruit[p]
    farmers = state.farmers[p]
    towns = state.town_farmers[p]
    kinds = [0] * C.NUM_FRUITS
    values = [0] * 6
    for t in state.tokens[p]:
        kinds[t // 10] += 1
        values[t % 10] += 1
    return [
        max(fruit) >= C.FRUIT_CAP,
        min(fruit) >= 1,
        max(kinds) >= 3,
        sum(1 for k in kinds if k) >= 3,
        sum(1 for x in farmers if x >= 2) >= 2,
        max(farmers) >= 3,
        all(values[v] for v in C.TOKEN_VALUE_RANGE),
        values[2] >= 3 or values[3] >= 3,
        sum(1 for x in towns if x >= 1) >= 4,
        sum(1 for x in towns if x >= 2) >= 2,
    ]


def zakat_side(state: AlpujarrasState, i: int) -> C.Zakat:
    """The side of zakat card `i` in play (ZARA-02, ZARA-22)."""
    return C.ZAKAT_CARDS[i][1 if state.zakat_star[i] else 0]


# fruit asked per kind, for each (card, star side)
ZAKAT_FRUIT = {
    (i, star): tuple(side.fruits.count(t) for t in range(C.NUM_FRUITS))
    for i, sides in enumerate(C.ZAKAT_CARDS) for star, side in enumerate(sides)
}


def can_pay_zakat(state: AlpujarrasState, i: int) -> bool:
    """ZARA-09: the player holds everything card `i` asks for (a farmland farmer for the
    crossed-out farmer icon; town farmers do not count, ALP-40)."""
    side = zakat_side(state, i)
    fruit = state.fruit[0]
    wanted = ZAKAT_FRUIT[i, 1 if state.zakat_star[i] else 0]
    for t in range(C.NUM_FRUITS):
        if fruit[t] < wanted[t]:
            return False
    if state.norias[0] < side.norias or state.dirhems[0] < side.dirhems:
        return False
    return not side.farmer or sum(state.farmers[0]) > 0
