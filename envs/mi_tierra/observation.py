"""Mi Tierra's observation written fast: the vector that `observation_spec.SPEC` declares (one
float32 vector in [0, 1] from the observer's seat), equal value for value to `SPEC.reference`.

What the vector holds, and what each value means, is declared in observation_spec.py; this module
is the speed layer only. Every index below is `SPEC.offset(block, field, copy)` (or a field's
offset inside one copy of its block) and every factor is the declared field's float32 1/scale:
a raw count v is stored as min(v * factor, 1), one rounding to float32, as the reference does.

Speed: nothing is rebuilt that did not change. The rules report what each action changed as the
groups of groups.py (a seat's holdings, money, goods, workers, hut, farm or knowledge; the
market, the Black Market) in `state.touched`, and the board spaces and market cards it changed,
by index, in `state.touched_spaces` and `state.touched_cards`; this module alone reads that
record, and clears it once the changes are written. One table holds every observer's vector
of everything but its player rows and the per-decision blocks. When the market changed, the
public blocks are compared with what was last written and only what changed is rewritten, in
every observer's row: the game block's field groups (the round, the pile counts, the top
positions' deck letters, the development deck; the whole block when an end flag or an event
changed), a market or display slot whose card changed (one row copied from a table built from
the declaration). A named board space gets its occupant rewritten (and its pair flag, where it
differs from the last one written); a card drawn, its flag; the Black Market and a seat's
knowledge are rewritten when changed. The player rows are kept once, in seat order, with a
snapshot of the values they were written from: only the changed groups' fields that differ from
the snapshot are rewritten, one by one; the money-stamp ranks when `clock` moved. A call makes
one test for "nothing changed", copies the observer's vector and its player rows, rotated, and
writes the few values of the current decision. Scalar writes and row copies go through
memoryviews of the arrays (about half the cost of numpy's item and slice assignment). These
arrays are updated in place: a clone builds its own.
tests/mi_tierra/test_mt_properties.py compares the result with `SPEC.reference` after every step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import components as C
from . import groups as G
from .actions import NUM_STAGES, Decision, Stage
from .observation_spec import (
    CLOSING_SLOTS,
    ESTABLISHED_SLOTS,
    EVENT_INDEX,
    FIRST_FARM_FIELD,
    KNOWN_POSITIONS,
    MAX_SEATS,
    NUM_MARKET_SLOTS,
    SPEC,
)

# The groups of `state.touched` (groups.py), per seat q bits 8q + kind: HOLD (any holdings),
# MONEY, GOODS, PEEK (the peek counts), WORK (workers and turn position), FARM, KNOW (q's
# knowledge of the pile top), HUT (the hut count alone); then the public groups.
HOLD, MONEY, GOODS, PEEK, WORK, FARM, KNOW, HUT = (
    G.HOLDINGS, G.MONEY, G.GOODS, G.PEEKS, G.WORKERS, G.FARM, G.KNOWLEDGE, G.HUT)
ALL_KNOW = sum(KNOW)
_ALL_SEATS = (1 << G.SEAT_BITS * C.MAX_SEATS) - 1
_ALL_HOLD = sum(HOLD)
_ALL_WORK = sum(WORK)
# what _players consumes, per player count (the bits of seats beyond the count are ignored)
_ROW_BITS = {n: (_ALL_SEATS & ~ALL_KNOW & ~sum(HUT)) & ((1 << G.SEAT_BITS * n) - 1)
             for n in C.PLAYER_COUNTS}
_HUT_BITS = {n: sum(HUT[:n]) for n in C.PLAYER_COUNTS}  # what the hut writes consume
_HUT_SEATS = {  # the seats whose HUT bits are set, by those bits
    sum(HUT[q] for q in seats): seats
    for k in range(1, 1 << C.MAX_SEATS)
    for seats in [tuple(q for q in range(C.MAX_SEATS) if k >> q & 1)]}
_SYNC_BITS = G.MARKET | G.BLACK_MARKET | ALL_KNOW  # what _sync consumes

if TYPE_CHECKING:
    from .state import MiTierraState

__all__ = [
    "CARD_FIELDS", "CONTEXT_FIELDS", "GAME_FIELDS", "MAX_SEATS", "OBS_LAYOUT", "OBS_SIZE",
    "PLAYER_BLOCK", "PLAYER_FIELDS", "SLICES", "SPEC", "observe",
]

# --- the declared layout -------------------------------------------------------------------------

OBS_LAYOUT = SPEC.layout
OBS_SIZE = SPEC.size
SLICES = SPEC.slices


def _fields(block: str) -> tuple[tuple[str, int, float], ...]:
    """(name, size, scale) of one copy's fields of `block` (scale 1 for one- and multi-hot)."""
    return tuple((f.name, f.size, f.scale) for f in SPEC.block(block).fields)


_factor = SPEC.scalar_factor  # a single-scaled field's factor, for scalar writes


def _at(block: str) -> dict[str, int]:
    """Where each field of `block` starts inside one copy."""
    b = SPEC.block(block)
    return {f.name: b.field_offset(f.name) for f in b.fields}


GAME_FIELDS = _fields("game")
PLAYER_FIELDS = _fields("players")
CARD_FIELDS = _fields("markets")
CONTEXT_FIELDS = _fields("context")
_FARM_FROM = [name for name, _, _ in PLAYER_FIELDS].index(FIRST_FARM_FIELD)
FAST_FIELDS = PLAYER_FIELDS[:_FARM_FROM]  # what money, goods and workers change
FARM_FIELDS = PLAYER_FIELDS[_FARM_FROM:]  # the farm and development cards (rarer)
PLAYER_BLOCK = SPEC.block("players").width
GAME_BLOCK = SPEC.block("game").width
CONTEXT_BLOCK = SPEC.block("context").width
CARD_FEATURES = SPEC.block("markets").width
SPACE_FEATURES = SPEC.block("board").width
PLAYER_OFFSETS = _at("players")
GAME_OFFSETS = _at("game")
CONTEXT_OFFSETS = _at("context")
CARD_OFFSETS = _at("markets")

_OFF_GAME = SPEC.offset("game")
_OFF_BOARD = SPEC.offset("board")
_OFF_REVEALED = SPEC.offset("revealed")
_OFF_PLAYERS = SPEC.offset("players")
_OFF_KNOWLEDGE = SPEC.offset("knowledge")
_OFF_STAGE = SPEC.offset("stage")
_OFF_DECISION = SPEC.offset("decision")
_OFF_CONTEXT = SPEC.offset("context")
_KNOWLEDGE_SIZE = SLICES["knowledge"].stop - _OFF_KNOWLEDGE
# The public part is one run from game to revealed, then the players, the knowledge and the
# per-decision blocks (the views table below relies on it).
assert [name for name, _, _ in OBS_LAYOUT] == [
    "game", "board", "black_market", "markets", "display", "revealed", "players", "knowledge",
    "stage", "decision", "context",
]
_STAMP_RANK = PLAYER_OFFSETS["money_stamp_rank"]
_S_RANK = _factor("players", "money_stamp_rank")
_LOWER0 = C.ZONE_FIRST_SPACE[C.Z_LOWER_ROAD]
_IS_ACTING = PLAYER_OFFSETS["is_acting"]


def _encode_copy(block: str, state: Any, subject: Any) -> np.ndarray:
    """One copy of `block` describing `subject`, encoded field by field from the declaration
    (the rows of the tables below: a market card, a display card)."""
    b = SPEC.block(block)
    row = np.zeros(b.width, dtype=np.float32)
    at = 0
    for f in b.fields:
        f.encode(f.read(state, subject), row[at:at + f.size])
        at += f.size
    return row


# --- the public part: game facts, market slots, development display, revealed cards -------------

_IS_DECK_B = C.IS_DECK_B
_B_TABLE = bytes(1 if c < C.NUM_MARKET_CARDS and _IS_DECK_B[c] else 0 for c in range(256))
_CARD_EVENT = tuple(c.event for c in C.MARKET_CARDS)
# a market slot's row by card id (an event card shows as an empty slot), and a blank row last
# (index -1: an empty slot)
_MARKET_TABLE = np.vstack([
    *(_encode_copy("markets", None, c) if not C.IS_EVENT[c] else np.zeros(CARD_FEATURES,
                                                                             dtype=np.float32)
      for c in range(C.NUM_MARKET_CARDS)),
    np.zeros(CARD_FEATURES, dtype=np.float32),
])
_MARKET_VIEWS = tuple(memoryview(row) for row in _MARKET_TABLE)  # rows copied by slice
_SLOT_AT = tuple(SPEC.offset("markets", copy=m) for m in range(NUM_MARKET_SLOTS))
assert NUM_MARKET_SLOTS == ESTABLISHED_SLOTS + CLOSING_SLOTS  # Established, then Closing


# a display slot's row by development card + 1 (row 0: an empty slot)
_DISPLAY_SLOT = SPEC.block("display").width
_DISPLAY_TABLE = np.vstack([np.zeros(_DISPLAY_SLOT, dtype=np.float32),
                            *(_encode_copy("display", None, d) for d in range(C.NUM_DEV_CARDS))])
_DISPLAY_VIEWS = tuple(memoryview(row) for row in _DISPLAY_TABLE)
_DISPLAY_AT = tuple(SPEC.offset("display", copy=slot) for slot in range(len(C.DEV_SLOTS)))


def _hot(size: int, index: int) -> tuple[float, ...]:
    return tuple(1.0 if k == index else 0.0 for k in range(size))


_G = {name: _OFF_GAME + at for name, at in GAME_OFFSETS.items()}
_G_SIZE = {name: size for name, size, _ in GAME_FIELDS}
_PLAYER_COUNT_HOT = {n: _hot(_G_SIZE["player_count"], n - 2) for n in C.PLAYER_COUNTS}
_PERMS_HOT = tuple(_hot(_G_SIZE["permanents_seen"], i) for i in range(_G_SIZE["permanents_seen"]))
_EVENT_HOT = {e: _hot(_G_SIZE["event_in_force"], i) for e, i in EVENT_INDEX.items()}
_S_ROUND = _factor("game", "round")
_S_PILE_A = _factor("game", "pile_a_cards")
_S_PILE_B = _factor("game", "pile_b_cards")
_S_DEV_DECK = _factor("game", "dev_deck_cards")


def _top_rows() -> dict[bytes, tuple[float, ...]]:
    """top_position_exists then top_position_is_b, by the top positions' deck letters (top
    first, 1 for deck B; fewer than four when the pile is that short)."""
    out = {}
    for k in range(KNOWN_POSITIONS + 1):
        for code in range(2 ** k):
            top = bytes((code >> i) & 1 for i in range(k))
            out[top] = ((1.0,) * k + (0.0,) * (KNOWN_POSITIONS - k)
                        + tuple(map(float, top)) + (0.0,) * (KNOWN_POSITIONS - k))
    return out


_TOP_ROWS = _top_rows()
_TOP_VIEWS = {top: memoryview(np.array(row, dtype=np.float32)) for top, row in _TOP_ROWS.items()}
_G_ROUND = _G["round"]
_G_DEVS = _G["dev_deck_cards"]
_G_PILE_A = _G["pile_a_cards"]
_G_PILE_B = _G["pile_b_cards"]
_G_TOP = _G["top_position_exists"]
assert _G["top_position_is_b"] == _G_TOP + KNOWN_POSITIONS
# _write_game rewrites the whole block in one assignment, in this order
assert [name for name, _, _ in GAME_FIELDS] == [
    "player_count", "round", "end_triggered", "pile_ran_out", "permanents_seen",
    "event_in_force", "pile_a_cards", "pile_b_cards", "top_position_exists",
    "top_position_is_b", "dev_deck_cards"]


def _write_game(state: MiTierraState, views: list) -> None:
    """The `game` block of every observer's row. The round, the pile counts, the top positions'
    deck letters and the development deck size are rewritten alone where they moved; when the
    end flags or the events changed (a few times a game) the whole block is rewritten in one
    assignment in GAME_FIELDS order."""
    seen = views[_V_GAME]  # [round, pile size, deck B cards, top letters, dev deck, events]
    pile = state.pile
    letters = bytes(pile).translate(_B_TABLE)  # 1 per deck B card (card ids are below 256)
    b_cards = letters.count(1)
    top = letters[:-KNOWN_POSITIONS - 1:-1]  # the top positions' deck letters, top first
    size = len(pile)
    rnd = state.round
    devs = len(state.dev_deck)
    events = (state.end_triggered, state.pile_ran_out, state.perms_seen, state.event_card)
    x = rnd * _S_ROUND
    x = x if x < 1.0 else 1.0
    a = (size - b_cards) * _S_PILE_A
    a = a if a < 1.0 else 1.0
    b = b_cards * _S_PILE_B
    b = b if b < 1.0 else 1.0
    d = devs * _S_DEV_DECK
    d = d if d < 1.0 else 1.0
    if events != seen[5]:
        seen[:] = rnd, size, b_cards, top, devs, events
        ended, ran_out, perms, card = events
        last = len(_PERMS_HOT) - 1
        views[_V_TABLE][:, _OFF_GAME:_OFF_GAME + GAME_BLOCK] = (
            *_PLAYER_COUNT_HOT[state.num_players], x,
            1.0 if ended else 0.0, 1.0 if ran_out else 0.0,
            *_PERMS_HOT[perms if perms < last else last],
            *_EVENT_HOT[_CARD_EVENT[card] if card >= 0 else -1],
            a, b, *_TOP_ROWS[top], d,
        )
        return
    flat = views[_V_FLAT]
    starts = _AT[state.num_players][0]
    if rnd != seen[0]:
        seen[0] = rnd
        for r in starts:
            flat[r + _G_ROUND] = x
    if size != seen[1] or b_cards != seen[2]:
        seen[1] = size
        seen[2] = b_cards
        for r in starts:
            flat[r + _G_PILE_A] = a
            flat[r + _G_PILE_B] = b
    if top != seen[3]:
        seen[3] = top
        src = _TOP_VIEWS[top]
        for r in starts:
            flat[r + _G_TOP:r + _G_TOP + 2 * KNOWN_POSITIONS] = src
    if devs != seen[4]:
        seen[4] = devs
        for r in starts:
            flat[r + _G_DEVS] = d


def _refresh_public(state: MiTierraState, views: list) -> None:
    """Rewrite the public blocks that changed for every observer at once: the game block, then
    each market slot and display slot whose card changed (a row copied from a table into every
    observer's row; the cards drawn face up are written by _show_drawn)."""
    _write_game(state, views)
    flat = views[_V_FLAT]
    starts = _AT[state.num_players][0]
    # the Established slots' cards as written, then the Closing ones
    for shown, cards, first in ((views[_V_SLOTS][0], state.est, 0),
                                (views[_V_SLOTS][1], state.closing, ESTABLISHED_SLOTS)):
        if shown != cards:
            for m, card in enumerate(cards):
                if shown[m] != card:
                    shown[m] = card
                    src = _MARKET_VIEWS[card]
                    at = _SLOT_AT[first + m]
                    for r in starts:
                        flat[r + at:r + at + CARD_FEATURES] = src
    display = state.display
    shown = views[_V_DISPLAY]
    if shown != display:
        for slot, dev in enumerate(display):
            if shown[slot] != dev:
                shown[slot] = dev
                src = _DISPLAY_VIEWS[dev + 1]
                at = _DISPLAY_AT[slot]
                for r in starts:
                    flat[r + at:r + at + _DISPLAY_SLOT] = src


# --- the board: occupants as observer-relative slots, pairs, blocked spaces, Black Market --------

_SPACE = SPEC.block("board")
_OCCUPANT = _SPACE.field_offset("occupant")
_PAIR = _SPACE.field_offset("pair")
_BLOCKED = _SPACE.field_offset("blocked")
_BOARD_SIZE = _SPACE.size


def _empty_board(n: int) -> np.ndarray:
    out = np.zeros(_BOARD_SIZE, dtype=np.float32)
    if n == 2:
        for i in C.BLOCKED_2P:
            out[i * SPACE_FEATURES + _BLOCKED] = 1.0
    return out


_EMPTY_BOARD = {n: _empty_board(n) for n in C.PLAYER_COUNTS}
_BM_BASE = SPEC.offset("black_market")
_S_BM = _factor("black_market", "workers")
_SPACE_BASE = tuple(SPEC.offset("board", copy=i) for i in range(C.NUM_SPACES))
_OCCUPANT_BASE = tuple(base + _OCCUPANT for base in _SPACE_BASE)
_PAIR_AT = tuple(base + _PAIR for base in _SPACE_BASE)
# _AT[n][q + 1]: where seat q's one-hot slot lies in each observer's row of the views table, as
# indices into the flat table (observer p's row starts at p * OBS_SIZE); _AT[n][0]: the rows.
_AT = {n: [tuple(p * OBS_SIZE for p in range(n))]
       + [tuple(p * OBS_SIZE + (q - p) % n for p in range(n)) for q in range(n)]
       for n in C.PLAYER_COUNTS}
# _OCCUPANT_AT[n][i][q]: the flat indices of seat q's occupant flag of space i in every
# observer's row; [n][i][-1]: none (nobody is there)
_OCCUPANT_AT = {n: tuple((*(tuple(_OCCUPANT_BASE[i] + k for k in _AT[n][q + 1])
                              for q in range(n)), ())
                         for i in range(C.NUM_SPACES))
                for n in C.PLAYER_COUNTS}
# _PAIR_FLAT[n][i]: the flat indices of space i's pair flag in every observer's row
_PAIR_FLAT = {n: tuple(tuple(_PAIR_AT[i] + r for r in _AT[n][0]) for i in range(C.NUM_SPACES))
              for n in C.PLAYER_COUNTS}


def _board_full(state: MiTierraState, views: list) -> None:
    """Write the whole board for every observer."""
    n = state.num_players
    views[_V_TABLE][:, _OFF_BOARD:_OFF_BOARD + _BOARD_SIZE] = _EMPTY_BOARD[n]
    flat = views[_V_FLAT]
    at = _AT[n]
    owner = state.space_owner
    pair = state.space_pair
    bits = state.occupied
    while bits:
        low = bits & -bits
        i = low.bit_length() - 1
        bits ^= low
        base = _OCCUPANT_BASE[i]
        for k in at[owner[i] + 1]:
            flat[base + k] = 1.0
        if pair[i]:
            base = _PAIR_AT[i]
            for k in at[0]:
                flat[base + k] = 1.0
    if state.bm_workers:
        _write_black_market(state, views)


def _write_black_market(state: MiTierraState, views: list) -> None:
    """Every observer's Black Market block: the workers there per seat slot."""
    n = state.num_players
    counts = [0] * n
    for q in state.bm_workers:
        counts[q] += 1
    for p, row in enumerate(views[_V_ROWS]):
        for k in range(n):
            x = counts[(p + k) % n] * _S_BM
            row[_BM_BASE + k] = x if x < 1.0 else 1.0


def _write_revealed(state: MiTierraState, views: list) -> None:
    """Every observer's `revealed` block: the market cards drawn face up so far."""
    views[_V_TABLE][:, _OFF_REVEALED:_OFF_REVEALED + C.NUM_MARKET_CARDS] = np.frombuffer(
        bytes(state.revealed), dtype=bool)


def _show_drawn(state: MiTierraState, views: list, cards: list) -> None:
    """The market `cards` just drawn face up, written into every observer's `revealed` block."""
    flat = views[_V_FLAT]
    starts = _AT[state.num_players][0]
    for card in cards:
        at = _OFF_REVEALED + card
        for r in starts:
            flat[r + at] = 1.0
    cards.clear()


# --- the player rows ---------------------------------------------------------------------------

_LOWER_STOP = _LOWER0 + C.ZONES[C.Z_LOWER_ROAD].spaces
_TILE_KINDS = len(C.TILE_NAMES)  # the one-hot width of a farm cell in `farm_tiles`
assert dict((n, s) for n, s, _ in PLAYER_FIELDS)["farm_tiles"] == C.FARM_CELLS * _TILE_KINDS
_ALL_PLAYERS = MAX_SEATS * PLAYER_BLOCK
_P = PLAYER_OFFSETS
# The fast row's scalar fields as the seat refreshes keep them in a seat's snapshot: those a
# worker move changes (_refresh_work), then the holdings (_refresh_seat and the narrower
# refreshes); turn_position is one-hot, written apart.
_WORK_FIELDS = (
    "workers_owned", "workers_in_hut", "workers_on_farm", "retired", "on_lower_road",
    "studies_used",
)
_HOLDING_FIELDS = ("money", "score", "cake", "cloth", "peeked_in_order", "peeked_as_set")
(_AT_OWNED, _AT_HUT, _AT_ON_FARM, _AT_RETIRED, _AT_LOWER, _AT_STUDIES) = (
    _P[f] for f in _WORK_FIELDS)
(_S_OWNED, _S_HUT, _S_ON_FARM) = (_factor("players", f) for f in _WORK_FIELDS[:3])
assert all(_factor("players", f) == 1.0 for f in _WORK_FIELDS[3:])  # flags
(_AT_MONEY, _AT_SCORE, _AT_CAKE, _AT_CLOTH, _AT_PEEKED, _AT_PEEKED_SET) = (
    _P[f] for f in _HOLDING_FIELDS)
(_S_MONEY, _S_SCORE, _S_CAKE, _S_CLOTH, _S_PEEKED, _S_PEEKED_SET) = (
    _factor("players", f) for f in _HOLDING_FIELDS)
_TURN0 = _P["turn_position"]
_GOODS0 = _P["goods"]
_GOODS_SCALE = _factor("players", "goods")
_WORKERS0 = _P["farm_workers"]
_TILES0 = _P["farm_tiles"]
_ANIMALS0 = _P["farm_animals"]
_ANIMALS_SCALE = _factor("players", "farm_animals")
_COW0 = _P["farm_animal_is_cow"]
_DEVS0 = _P["development_cards"]
assert all(_factor("players", f) == 1.0 for f in (
    "farm_workers", "farm_tiles", "farm_animal_is_cow", "development_cards"))  # flags


def _blank_snapshot() -> list:
    """The snapshot `_BLANK_ROW` stands for: nothing held, turn position 0, empty cells."""
    return [[0, 0, 0, False, False, False], 0, [0] * len(_HOLDING_FIELDS),
            [0] * C.NUM_GOODS, [False] * C.FARM_CELLS, [C.EMPTY] * C.FARM_CELLS,
            [0] * C.FARM_CELLS, [C.NO_KIND] * C.FARM_CELLS, [False] * C.NUM_DEV_CARDS]


def _blank_row() -> np.ndarray:
    row = np.zeros(PLAYER_BLOCK, dtype=np.float32)
    row[_P["present"]] = 1.0
    row[_TURN0] = 1.0
    for c in range(C.FARM_CELLS):
        row[_TILES0 + _TILE_KINDS * c + C.EMPTY] = 1.0
    return row


_BLANK_ROW = _blank_row()


def _refresh_work(state: MiTierraState, q: int, out: np.ndarray, snap: list) -> None:
    """Rewrite seat q's worker values, turn position and farm workers (with the count on the
    farm) where they differ from its snapshot (a value v with factor s is stored as
    min(v * s, 1))."""
    base = q * PLAYER_BLOCK
    seen = snap[0]
    v = state.owned[q]
    if v != seen[0]:
        seen[0] = v
        x = v * _S_OWNED
        out[base + _AT_OWNED] = x if x < 1.0 else 1.0
    v = state.hut[q]
    if v != seen[1]:
        seen[1] = v
        x = v * _S_HUT
        out[base + _AT_HUT] = x if x < 1.0 else 1.0
    v = state.retired[q]
    if v != seen[3]:
        seen[3] = v
        out[base + _AT_RETIRED] = 1.0 if v else 0.0
    v = q in state.space_owner[_LOWER0:_LOWER_STOP]
    if v != seen[4]:
        seen[4] = v
        out[base + _AT_LOWER] = 1.0 if v else 0.0
    v = state.studies_used[q]
    if v != seen[5]:
        seen[5] = v
        out[base + _AT_STUDIES] = 1.0 if v else 0.0
    position = state.order.index(q)
    if position != snap[1]:
        out[base + _TURN0 + snap[1]] = 0.0
        out[base + _TURN0 + position] = 1.0
        snap[1] = position
    workers = state.farm_workers[q]
    if workers != snap[4]:
        _write_farm_workers(q, workers, out, snap)


class _FlagRows(dict):
    """float32 rows of 0/1 by a tuple of flags, made when first asked for (memoryviews, copied
    by slice): a farm's worker flags in one write."""

    def __missing__(self, flags: tuple[bool, ...]) -> memoryview:
        row = self[flags] = memoryview(np.array(flags, dtype=np.float32))
        return row


_WORKER_ROWS = _FlagRows()


def _write_farm_workers(q: int, workers: list[bool], out: memoryview, snap: list) -> None:
    """Seat q's farm-worker flags, and the count on the farm where it differs from its
    snapshot."""
    flags = tuple(workers)
    at = q * PLAYER_BLOCK + _WORKERS0
    out[at:at + C.FARM_CELLS] = _WORKER_ROWS[flags]
    snap[4] = list(flags)
    v = sum(flags)
    seen = snap[0]
    if seen[2] != v:
        seen[2] = v
        x = v * _S_ON_FARM
        out[q * PLAYER_BLOCK + _AT_ON_FARM] = x if x < 1.0 else 1.0


def _refresh_money(state: MiTierraState, q: int, out: np.ndarray, snap: list) -> None:
    """Rewrite seat q's money and score where they differ from its snapshot."""
    base = q * PLAYER_BLOCK
    seen = snap[2]
    money = state.money[q]
    if money != seen[0]:
        seen[0] = money
        x = money * _S_MONEY
        out[base + _AT_MONEY] = x if x < 1.0 else 1.0
    v = (money + C.CAKE_VALUE * state.cake[q] + C.CLOTH_VALUE * state.cloth[q]
         + sum(state.goods[q]) // C.EXCHANGE_RATE)
    if v != seen[1]:
        seen[1] = v
        x = v * _S_SCORE
        out[base + _AT_SCORE] = x if x < 1.0 else 1.0


def _refresh_goods(state: MiTierraState, q: int, out: np.ndarray, snap: list) -> None:
    """Rewrite seat q's goods and score where they differ from its snapshot."""
    base = q * PLAYER_BLOCK
    goods = state.goods[q]
    seen = snap[3]
    if goods != seen:
        at = base + _GOODS0
        for g in range(C.NUM_GOODS):
            v = goods[g]
            if v != seen[g]:
                seen[g] = v
                x = v * _GOODS_SCALE
                out[at + g] = x if x < 1.0 else 1.0
    seen = snap[2]
    v = (state.money[q] + C.CAKE_VALUE * state.cake[q] + C.CLOTH_VALUE * state.cloth[q]
         + sum(goods) // C.EXCHANGE_RATE)
    if v != seen[1]:
        seen[1] = v
        x = v * _S_SCORE
        out[base + _AT_SCORE] = x if x < 1.0 else 1.0


def _refresh_peeks(state: MiTierraState, q: int, out: np.ndarray, snap: list) -> None:
    """Rewrite seat q's peek counts where they differ from its snapshot."""
    base = q * PLAYER_BLOCK
    seen = snap[2]
    v = len(state.known[q])
    if v != seen[4]:
        seen[4] = v
        x = v * _S_PEEKED
        out[base + _AT_PEEKED] = x if x < 1.0 else 1.0
    v = len(state.known_set[q])
    if v != seen[5]:
        seen[5] = v
        x = v * _S_PEEKED_SET
        out[base + _AT_PEEKED_SET] = x if x < 1.0 else 1.0


def _refresh_seat(state: MiTierraState, q: int, out: np.ndarray, snap: list) -> None:
    """Rewrite seat q's holdings (money, score, cake, cloth, peeks, goods) where they differ
    from its snapshot (its workers: `_refresh_work`)."""
    base = q * PLAYER_BLOCK
    seen = snap[2]
    goods = state.goods[q]
    money = state.money[q]
    cake = state.cake[q]
    cloth = state.cloth[q]
    if money != seen[0]:
        seen[0] = money
        x = money * _S_MONEY
        out[base + _AT_MONEY] = x if x < 1.0 else 1.0
    v = money + C.CAKE_VALUE * cake + C.CLOTH_VALUE * cloth + sum(goods) // C.EXCHANGE_RATE
    if v != seen[1]:
        seen[1] = v
        x = v * _S_SCORE
        out[base + _AT_SCORE] = x if x < 1.0 else 1.0
    if cake != seen[2]:
        seen[2] = cake
        x = cake * _S_CAKE
        out[base + _AT_CAKE] = x if x < 1.0 else 1.0
    if cloth != seen[3]:
        seen[3] = cloth
        x = cloth * _S_CLOTH
        out[base + _AT_CLOTH] = x if x < 1.0 else 1.0
    v = len(state.known[q])
    if v != seen[4]:
        seen[4] = v
        x = v * _S_PEEKED
        out[base + _AT_PEEKED] = x if x < 1.0 else 1.0
    v = len(state.known_set[q])
    if v != seen[5]:
        seen[5] = v
        x = v * _S_PEEKED_SET
        out[base + _AT_PEEKED_SET] = x if x < 1.0 else 1.0
    seen = snap[3]
    if goods != seen:
        at = base + _GOODS0
        for g in range(C.NUM_GOODS):
            v = goods[g]
            if v != seen[g]:
                seen[g] = v
                x = v * _GOODS_SCALE
                out[at + g] = x if x < 1.0 else 1.0


def _refresh_farm(state: MiTierraState, q: int, out: np.ndarray, snap: list) -> None:
    """Rewrite the farm fields of seat q that differ from its snapshot."""
    base = q * PLAYER_BLOCK
    tiles = state.tiles[q]
    seen = snap[5]
    if tiles != seen:
        at = base + _TILES0
        for c in range(C.FARM_CELLS):
            if tiles[c] != seen[c]:
                out[at + _TILE_KINDS * c + seen[c]] = 0.0
                out[at + _TILE_KINDS * c + tiles[c]] = 1.0
        snap[5] = list(tiles)
    counts = state.barn_count[q]
    kinds = state.barn_kind[q]
    if counts != snap[6] or kinds != snap[7]:
        seen_counts, seen_kinds = snap[6], snap[7]
        for c in range(C.FARM_CELLS):
            if counts[c] != seen_counts[c]:
                out[base + _ANIMALS0 + c] = counts[c] * _ANIMALS_SCALE
            if kinds[c] != seen_kinds[c]:
                out[base + _COW0 + c] = 1.0 if kinds[c] == C.COW else 0.0
        snap[6] = list(counts)
        snap[7] = list(kinds)
    devs = state.devs[q]
    if devs != snap[8]:
        for d in range(C.NUM_DEV_CARDS):
            out[base + _DEVS0 + d] = 1.0 if devs[d] else 0.0
        snap[8] = list(devs)


def _write_ranks(state: MiTierraState, out: np.ndarray) -> None:
    """Per seat, the markers above its money marker's stamp (G-08) / 3."""
    stamps = state.stamp
    for q, sq in enumerate(stamps):
        x = sum(map(sq.__lt__, stamps)) * _S_RANK  # r > sq
        out[q * PLAYER_BLOCK + _STAMP_RANK] = x if x < 1.0 else 1.0


# per `dirty` bit index (8q + kind): the seat and the refresh of that kind (HOLD … FARM; the
# knowledge is part of each observer's material, _sync, and the hut is written inline,
# _bring_up_to_date)
_REFRESHES = (_refresh_seat, _refresh_money, _refresh_goods, _refresh_peeks, _refresh_work,
              _refresh_farm)
_DISPATCH = {G.SEAT_BITS * q + kind: (q, fn) for q in range(MAX_SEATS)
             for kind, fn in enumerate(_REFRESHES) if fn is not None}
assert [HOLD[0], MONEY[0], GOODS[0], PEEK[0], WORK[0], FARM[0], KNOW[0], HUT[0]] == [
    1 << k for k in range(8)]


def _build_players(state: MiTierraState) -> None:
    """Every seat's row in seat order (the observer's view is a rotation of it), from a blank
    row through the same refreshes as the updates."""
    rows = np.zeros(_ALL_PLAYERS, dtype=np.float32)
    out = memoryview(rows)
    snaps = []
    for q in range(state.num_players):
        rows[q * PLAYER_BLOCK:(q + 1) * PLAYER_BLOCK] = _BLANK_ROW
        snap = _blank_snapshot()
        _refresh_work(state, q, out, snap)
        _refresh_seat(state, q, out, snap)
        _refresh_farm(state, q, out, snap)
        snaps.append(snap)
    _write_ranks(state, out)
    # [the rows, the clock the ranks reflect, the seats' snapshots, a memoryview of the rows,
    #  per observer the two runs of rows its rotation copies]
    rotated = tuple((out[r[1]], out[r[3]]) for r in _ROTATION[state.num_players])
    state._players = [rows, state.clock, snaps, out, rotated]


def _players(state: MiTierraState, entry: list, dirty: int) -> None:
    """Bring the seats' rows up to date in place from the `dirty` groups: a seat's changed
    holdings (HOLD), its money (MONEY), its goods (GOODS), its peek counts (PEEK), its changed
    workers and turn position (WORK), its changed farm fields (FARM); the ranks are rewritten
    when `clock` moved."""
    out = entry[3]
    if dirty:
        hold = dirty & _ALL_HOLD
        if hold:  # a seat's holdings refresh covers its money, goods and peek counts
            dirty &= ~(hold << 1 | hold << 2 | hold << 3)
        snaps = entry[2]
        while dirty:  # each flagged (seat, kind), in bit order
            low = dirty & -dirty
            dirty ^= low
            q, refresh = _DISPATCH[low.bit_length() - 1]
            refresh(state, q, out, snaps[q])
    if entry[1] != state.clock:
        _write_ranks(state, out)
        entry[1] = state.clock


_K_IN_ORDER = SPEC.offset("knowledge", "in_order")
_K_AS_SET = SPEC.offset("knowledge", "as_set")
_K_DEPTH = SPEC.offset("knowledge", "set_depth")
_S_DEPTH = _factor("knowledge", "set_depth")
assert _K_AS_SET - _K_IN_ORDER == KNOWN_POSITIONS * C.NUM_MARKET_CARDS  # one-hot per position


def _knowledge(state: MiTierraState, player: int, out: np.ndarray) -> None:
    """The observer's own Clock Tower knowledge: the cards it knows at pile positions 0-3 (top
    first), the cards it knows only as a set, and how deep that set lies."""
    out[_OFF_KNOWLEDGE:_OFF_KNOWLEDGE + _KNOWLEDGE_SIZE] = 0.0
    for k, card in enumerate(state.known[player]):
        out[_K_IN_ORDER + k * C.NUM_MARKET_CARDS + card] = 1.0
    for card in state.known_set[player]:
        out[_K_AS_SET + card] = 1.0
    x = state.known_depth[player] * _S_DEPTH
    out[_K_DEPTH] = x if x < 1.0 else 1.0


# --- every observer's material -------------------------------------------------------------------

# The views record: one row per observer holding all but its player rows and the per-decision
# blocks (its "material"), then what the rows reflect.
def _rotation(n: int, player: int) -> tuple[slice, ...]:
    """Slices copying the seat-ordered player rows into `player`'s view: (destination, source)
    for the seats from `player` on, then for the seats before it."""
    split = player * PLAYER_BLOCK
    used = n * PLAYER_BLOCK
    return (slice(_OFF_PLAYERS, _OFF_PLAYERS + used - split), slice(split, used),
            slice(_OFF_PLAYERS + used - split, _OFF_PLAYERS + used), slice(0, split))


_ROTATION = {n: [_rotation(n, p) for p in range(n)] for n in C.PLAYER_COUNTS}


# The views record's entries: the table (observers x OBS_SIZE), its rows, a flat memoryview of
# it; the board as written (the flat view, each space's occupant and pair flag, and the index
# tables for this player count); each observer's knowledge as written; the market and display
# slots' cards as written; the game block's field groups as written.
(_V_TABLE, _V_ROWS, _V_FLAT, _V_BOARD, _V_KNOWN, _V_SLOTS, _V_DISPLAY, _V_GAME) = range(8)


def _build_views(state: MiTierraState) -> list:
    """Every observer's material from scratch."""
    n = state.num_players
    table = np.zeros((n, OBS_SIZE), dtype=np.float32)
    # (what the zero table shows: empty market and display slots, no game facts yet)
    flat = memoryview(table.reshape(-1))
    views = [table, list(table), flat,
             [flat, list(state.space_owner), list(state.space_pair), _OCCUPANT_AT[n],
              _PAIR_FLAT[n]],
             [None] * n, [[-1] * len(state.est), [-1] * len(state.closing)],
             [-1] * len(C.DEV_SLOTS), [-1, -1, -1, b"", -1, None]]
    _refresh_public(state, views)
    _write_revealed(state, views)
    _board_full(state, views)
    for p, row in enumerate(views[_V_ROWS]):
        _knowledge(state, p, row)
        views[_V_KNOWN][p] = (list(state.known[p]), list(state.known_set[p]),
                              state.known_depth[p])
    state._views = views
    return views


def _sync(state: MiTierraState, views: list, dirty: int) -> None:
    """Bring every observer's material but the board up to date in place from the `dirty`
    groups: the market, the Black Market, each seat's knowledge."""
    if dirty & G.MARKET:
        _refresh_public(state, views)
    if dirty & G.BLACK_MARKET:
        _write_black_market(state, views)
    if dirty & ALL_KNOW:
        known = views[_V_KNOWN]
        for p, row in enumerate(views[_V_ROWS]):
            if dirty & KNOW[p]:
                now = (state.known[p], state.known_set[p], state.known_depth[p])
                if known[p] != now:
                    _knowledge(state, p, row)
                    known[p] = (list(now[0]), list(now[1]), now[2])


def _bring_up_to_date(state: MiTierraState) -> tuple[list, list]:
    """Build, or update from the rules' record (the groups in `state.touched`, the board spaces
    in `state.touched_spaces`, the cards drawn in `state.touched_cards`), every observer's
    material and the player rows, and clear the record (groups of seats beyond the player count,
    which the rules may name in bulk, are dropped). The commonest changes, a worker placed on or
    taken off a board space and a hut count, are written here; the rest by _show_drawn, _sync
    and _players. Returns the material and the player rows."""
    dirty = state.touched
    state.touched = 0
    spaces = state.touched_spaces
    views = state._views
    entry = state._players
    if views is None or entry is None:
        spaces.clear()
        state.touched_cards.clear()
        _build_views(state)
        _build_players(state)
        return state._views, state._players
    n = state.num_players
    if spaces:  # each changed space: its occupant, and its pair flag if changed
        flat, seen_owner, seen_pair, occupant_at, pair_at = views[_V_BOARD]
        owner = state.space_owner
        pair = state.space_pair
        for i in spaces:
            at = occupant_at[i]
            for k in at[seen_owner[i]]:  # (at[-1]: nobody, no index)
                flat[k] = 0.0
            new = seen_owner[i] = owner[i]
            for k in at[new]:
                flat[k] = 1.0
            v = pair[i]
            if v != seen_pair[i]:
                seen_pair[i] = v
                value = 1.0 if v else 0.0
                for k in pair_at[i]:
                    flat[k] = value
        spaces.clear()
    if state.touched_cards:
        _show_drawn(state, views, state.touched_cards)
    if dirty & _SYNC_BITS:
        _sync(state, views, dirty)
    huts = dirty & _HUT_BITS[n]
    if huts:  # each seat's hut count named
        out = entry[3]
        snaps = entry[2]
        hut = state.hut
        for q in _HUT_SEATS[huts]:
            v = snaps[q][0][1] = hut[q]
            x = v * _S_HUT
            out[q * PLAYER_BLOCK + _AT_HUT] = x if x < 1.0 else 1.0
    rows = dirty & _ROW_BITS[n]
    if rows:  # (the clock, which the ranks follow, only moves with MONEY)
        _players(state, entry, rows)
    return views, entry


def observe(state: MiTierraState, player: int, out: np.ndarray | None = None) -> np.ndarray:
    """`player`'s view of `state`, written into `out` (float32, OBS_SIZE) when given, else into
    a new vector; returns it (this is the state's `observe` method)."""
    views = state._views
    entry = state._players
    # one test for "nothing changed" (the clock only moves with MONEY: see ledger.py)
    if (state.touched or state.touched_spaces or state.touched_cards or views is None
            or entry is None):
        views, entry = _bring_up_to_date(state)
    if out is None:
        out = views[_V_ROWS][player].copy()
    else:
        if out.dtype != np.float32 or out.shape != (OBS_SIZE,):
            raise ValueError(f"out must be a float32 vector of {OBS_SIZE} values, got "
                             f"{out.dtype} {out.shape}")
        out[:] = views[_V_ROWS][player]
    o = memoryview(out)  # (its scalar and slice writes are cheaper than numpy's)
    # the player rows, rotated so that the observer comes first
    n = state.num_players
    rotation = _ROTATION[n][player]
    source = entry[4][player]
    o[rotation[0]] = source[0]
    if player:
        o[rotation[2]] = source[1]
    if state.terminal:
        return out
    current = state.current_player
    if current >= 0:
        o[_OFF_PLAYERS + (current - player) % n * PLAYER_BLOCK + _IS_ACTING] = 1.0
    o[_OFF_STAGE + state.stage] = 1.0
    d = state.decision
    o[_OFF_DECISION + d] = 1.0
    if state.die_face:
        o[_C_DIE + state.die_face - 1] = 1.0
    if state.pending_tile > 0:
        o[_C_TILE + state.pending_tile - 1] = 1.0
    if d in _CONTEXT_DECISIONS:
        _context(state, player, o, d)
    return out


def write_observation(state: MiTierraState, player: int, out: np.ndarray) -> None:
    """Fill `out` (float32, OBS_SIZE) with `player`'s view of `state`."""
    observe(state, player, out)


_C = {name: _OFF_CONTEXT + off for name, off in CONTEXT_OFFSETS.items()}
_C_DIE = _C["die_face"]
_C_TILE = _C["pending_tile"]
_D_MARKET_TURN = int(Decision.MARKET_TURN)
_D_MARKET_SALE = int(Decision.MARKET_SALE)
_D_BLACK_MARKET = int(Decision.BLACK_MARKET)
_D_CLOCK_ORDER = int(Decision.CLOCK_ORDER)
_D_DEVELOPMENT = int(Decision.DEVELOPMENT)
_D_UPKEEP = int(Decision.UPKEEP)
_CONTEXT_DECISIONS = frozenset((_D_MARKET_TURN, _D_MARKET_SALE, _D_BLACK_MARKET,
                                _D_CLOCK_ORDER, _D_DEVELOPMENT, _D_UPKEEP))


_C_MARKET_SPACE = _C["market_space"]
_C_SALE_SLOT = _C["sale_slot"]
_C_SALE_UNITS = _C["sale_units"]
_C_BM_BUYS = _C["black_market_buys"]
_C_REORDER_PLACED = _C["reorder_placed"]
_C_REORDER_LEFT = _C["reorder_left"]
_C_PLACED_PRIVATE = _C["reorder_placed_private"]
_C_LEFT_PRIVATE = _C["reorder_left_private"]
_C_DEV_TOUCHED = _C["dev_touched_slots"]
_C_DEV_COST = _C["dev_cost"]
_C_UPKEEP_DUE = _C["upkeep_due"]
_DEV_SPOT0 = C.ZONE_FIRST_SPACE[C.Z_DEV]
_S_SALE_UNITS = _factor("context", "sale_units")
_S_BM_BUYS = _factor("context", "black_market_buys")
_S_REORDER_PLACED = _factor("context", "reorder_placed")
_S_REORDER_LEFT = _factor("context", "reorder_left")
_S_DEV_COST = _factor("context", "dev_cost")
_S_UPKEEP = _factor("context", "upkeep_due")


def _context(state: MiTierraState, player: int, out: memoryview, d: int) -> None:
    """The context values of the decisions that have some (beyond the die and the tile)."""
    if d == _D_MARKET_TURN:
        out[_C_MARKET_SPACE + state.qpos] = 1.0
    elif d == _D_MARKET_SALE:
        out[_C_MARKET_SPACE + state.qpos] = 1.0
        out[_C_SALE_SLOT + state.sale_slot] = 1.0
        for g, units in enumerate(state.sale_units):
            if units:
                x = units * _S_SALE_UNITS
                out[_C_SALE_UNITS + g] = x if x < 1.0 else 1.0
    elif d == _D_BLACK_MARKET:
        x = state.bm_buys * _S_BM_BUYS
        out[_C_BM_BUYS] = x if x < 1.0 else 1.0
    elif d == _D_CLOCK_ORDER:
        x = len(state.reorder_done) * _S_REORDER_PLACED
        out[_C_REORDER_PLACED] = x if x < 1.0 else 1.0
        x = len(state.reorder_left) * _S_REORDER_LEFT
        out[_C_REORDER_LEFT] = x if x < 1.0 else 1.0
        if player == state.current_player:  # private: only the reordering player sees it
            known = state.known[player]
            for k, card in enumerate(state.reorder_done):
                out[_C_PLACED_PRIVATE + KNOWN_POSITIONS * k + known.index(card)] = 1.0
            for k, card in enumerate(state.reorder_left):
                out[_C_LEFT_PRIVATE + KNOWN_POSITIONS * k + known.index(card)] = 1.0
    elif d == _D_DEVELOPMENT:
        for slot in C.DEV_SPOT_TOUCHES[state.queue[state.qpos] - _DEV_SPOT0]:
            out[_C_DEV_TOUCHED + slot] = 1.0
        x = state.dev_cost * _S_DEV_COST
        out[_C_DEV_COST] = x if x < 1.0 else 1.0
    elif d == _D_UPKEEP:
        due = max(0, state.owned[state.current_player] - C.FREE_WORKERS) * C.UPKEEP_PER_EXTRA
        x = due * _S_UPKEEP
        out[_C_UPKEEP_DUE] = x if x < 1.0 else 1.0


assert Stage.GAME_OVER == NUM_STAGES - 1
