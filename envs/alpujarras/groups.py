"""The parts of an Alpujarras game an action can change, named as the rules name them, one bit each.

`rules.apply` returns the groups an action changed (a superset); the state gathers them in
`state.dirty`, and the observation's cached vector rewrites only those groups, then clears them
(see observation.py).
"""

from __future__ import annotations

from . import components as C

G_POS = 1 << 0  # mule and die positions, who acts: occupancy, pieces, die
G_FARM = 1 << 1  # farmland farmers, crops, Zara's farmers and mule: farmlands
G_TOWN = 1 << 2  # tokens, town farmers, awards: towns
G_CHAN = 1 << 3  # channels and the crop bag
G_ZARA = 1 << 4  # Zara's holdings, zakat cards, double turns
G_SEAT = tuple(1 << (5 + p) for p in range(C.MAX_SEATS))  # G_SEAT[p]: player p's holdings
ALL_GROUPS = (1 << (5 + C.MAX_SEATS)) - 1
