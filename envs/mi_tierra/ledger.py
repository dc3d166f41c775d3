"""Money on the public track (MIT-07, MIT-15, G-08, G-09).

Every change of a player's money puts that player's marker on top of any marker at its new value,
which decides turn-order ties (MIT-11): the change stamps the player with the next tick of a global
clock. Money never goes below zero; the rules only offer payments a player can afford.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .groups import MONEY

if TYPE_CHECKING:
    from .state import MiTierraState


def gain(state: MiTierraState, player: int, amount: int) -> None:
    """Add `amount` (>= 0) dollars to `player`; a non-zero change stamps the marker."""
    if amount:
        state.money[player] += amount
        state.clock += 1
        state.stamp[player] = state.clock
        state.touched |= MONEY[player]


def pay(state: MiTierraState, player: int, amount: int) -> None:
    """Take `amount` (>= 0) dollars from `player`, who must have them."""
    if amount > state.money[player]:
        raise ValueError(f"player {player} cannot pay ${amount} with ${state.money[player]}")
    if amount:
        state.money[player] -= amount
        state.clock += 1
        state.stamp[player] = state.clock
        state.touched |= MONEY[player]
