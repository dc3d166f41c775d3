"""The parts of a Mi Tierra game an action can change, named as the rules name them.

The rules add to `state.touched` every part of the game they change (a seat's money, the
market...: one bit each), to `state.touched_spaces` every board space they change and to
`state.touched_cards` every market card they draw face up, in these terms and nothing else; the
observation (observation.py) alone reads the record, rewrites what it names and clears it. A
record may name more than changed (the observation compares with what it last wrote); naming
less is a bug that the property tests catch, because they compare the fast observation with the
declared reference after every step.
"""

from __future__ import annotations

from . import components as C

# Per seat q, bits 8q + k: what one seat holds and does.
SEAT_BITS = 8
HOLDINGS, MONEY, GOODS, PEEKS, WORKERS, FARM, KNOWLEDGE, HUT = (
    tuple(1 << (SEAT_BITS * q + k) for q in range(C.MAX_SEATS)) for k in range(SEAT_BITS))
# HOLDINGS[q]: anything q holds (money, goods, cake, cloth, peek counts); MONEY[q], GOODS[q],
#   PEEKS[q] (how many pile cards q knows): one of them alone.
# WORKERS[q]: q's workers (owned, in the hut, on the farm and which cells, passed, on the lower
#   road, the Studies re-roll used) and q's turn position; HUT[q]: the hut count alone.
# FARM[q]: q's farm tiles, barnyards and development cards.
# KNOWLEDGE[q]: what q knows of the pile top (Clock Tower), private to q.
SEEN = tuple(p | k for p, k in zip(PEEKS, KNOWLEDGE, strict=True))  # knowledge and its counts
EVERY_SEAT_WORKERS = sum(WORKERS)
EVERY_SEAT_HOLDINGS = sum(HOLDINGS)

# The public parts, above the seats' bits.
_PUBLIC0 = SEAT_BITS * C.MAX_SEATS
MARKET = 1 << _PUBLIC0  # the pile, the market and display slots, the round, events, end flags
BLACK_MARKET = 1 << (_PUBLIC0 + 1)  # the workers at the Black Market
EVERYTHING = (1 << (_PUBLIC0 + 2)) - 1

# Named apart, by index: the board spaces changed, in `state.touched_spaces` (a worker placed on
# one or leaving it, its pair flag), and the market cards drawn face up, in `state.touched_cards`.
# With a bit each the record would be a number of over 100 bits, on which every `|`, `&` and
# shift costs Python more than an append.

__all__ = [
    "BLACK_MARKET",
    "EVERYTHING",
    "EVERY_SEAT_HOLDINGS",
    "EVERY_SEAT_WORKERS",
    "FARM",
    "GOODS",
    "HOLDINGS",
    "HUT",
    "KNOWLEDGE",
    "MARKET",
    "MONEY",
    "PEEKS",
    "SEAT_BITS",
    "SEEN",
    "WORKERS",
]
