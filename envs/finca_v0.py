"""PettingZoo-style entry module: `from huerta.envs import finca_v0; env = finca_v0.env()`.

Finca is a game for 2 to 4 players in the Spanish countryside. Players move farmers round a
twelve-bladed windmill to harvest the fruit its blades show, earn donkey carts by crossing its
two dividing lines, and deliver exact fruit combinations to ten communities for their fruit
tiles. An emptied community awards its finca tile to the player with the most of its tiles and
takes a wooden finca; the last wooden finca ends the game, and the player with the most points
from tiles, finca tiles and bonus tiles wins.

Each turn is a short sequence of sub-decisions by the same agent (choose a blade, choose
communities for a delivery, play an action tile, confirm), so one agent may act several times in
a row. Everything on the table is public; only the order of the face-down tiles is unknown.
"""

from .finca.env import env, raw_env

__all__ = ["env", "raw_env"]
