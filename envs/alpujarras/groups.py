"""The groups of state the observation caches separately, each with a version in `state.gv`.

`rules.apply` bumps the versions of the groups an action can change; an observer's cached vector
rewrites only the groups whose versions moved on (see observation.py).
"""

from __future__ import annotations

from . import components as C

G_POS = 0  # mule and die positions, who acts: occupancy, pieces, die
G_FARM = 1  # farmland farmers, crops, Zara's farmers and mule: farmlands
G_TOWN = 2  # tokens, town farmers, awards: towns
G_CHAN = 3  # channels and the crop bag
G_ZARA = 4  # Zara's holdings, zakat cards, double turns
G_SEAT = 5  # G_SEAT + p: player p's holdings (players row p)
NUM_GROUPS = G_SEAT + C.MAX_SEATS
