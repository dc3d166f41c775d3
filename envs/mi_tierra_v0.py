"""PettingZoo-style entry module:
`from huerta.envs import mi_tierra_v0; env = mi_tierra_v0.env(num_players=3)`.

Mi Tierra is a game of Chilean farms for 2 to 4 players. Over up to twenty rounds players send
workers to the forest and the barnyards for barnyards and animals, to the fields for crops, to
factories that turn wool, milk, eggs, wheat and grapes into cloth, cakes, flour and wine, to the
development display for cards, and to the markets, which are a deck of cards with events mixed
in. The game ends after the round in which the third permanent event appears; cakes and cloth
are sold to the bank at the end, and the richest player wins.

A round runs by itself and stops only at the players' decisions, so an acting agent always has a
real choice. The market pile order and the development deck are hidden, a Clock Tower peek is
seen by its player only, and the dice come from the game's own generator.
"""

from .mi_tierra.env import env, raw_env

__all__ = ["env", "raw_env"]
