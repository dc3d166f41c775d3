"""What Finca's observation holds, declared once: every block and field, its scale and meaning, and
how it is read from a `FincaState` (the mechanism: huerta.envs.core.observation_spec).

The vector is everything public from the observer's seat (Finca has no private information).
Seat slots are rotated so that slot 0 is the observer, slot 1 the next player clockwise, and so
on; slots of absent players are zero. Face-down tiles are never encoded, only the public set of
tiles not yet seen, counted per kind of printed tile (copies of one tile are interchangeable).
`observation.py` writes the same vector fast; its tests compare it with `SPEC.reference`, and
seeds/finca.md's observation tables are generated from this declaration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from huerta.envs.core.observation_spec import Block, Field, ObservationSpec

from . import components as C
from .actions import NUM_DECISION_PHASES, DeliveryMode, Phase
from .rules import score

if TYPE_CHECKING:
    from .state import FincaState

MAX_SEATS = 4
STEP_SCALE = 2000.0


def seat_slots(state: FincaState, observer: int) -> list[int | None]:
    """The seat in each slot: the observer first, then clockwise; None past the player count."""
    n = state.num_players
    return [(observer + k) % n if k < n else None for k in range(MAX_SEATS)]


def _top(state: FincaState, c: int) -> C.FruitTile | None:
    stack = state.stacks[c]
    return state.catalogue[stack[-1]] if stack else None


def _finca(state: FincaState, c: int) -> C.FincaTile | None:
    tile = state.finca_tile[c]
    return C.FINCA_TILES[tile] if tile >= 0 else None


def _delivering(state: FincaState) -> bool:
    return state.mode != DeliveryMode.NONE


def _slot_farmers(k: int):
    def read(state: FincaState, observer: int) -> list[int]:
        seat = seat_slots(state, observer)[k]
        return state.farmers[seat] if seat is not None else [0] * C.NUM_BLADES
    return read


def _unseen(state: FincaState, observer: int) -> list[int]:
    unseen = [0] * len(C.FRUIT_TILE_KINDS)
    for t in range(C.NUM_FRUIT_TILES):
        if not state.revealed[t]:
            unseen[C.TILE_KIND[t]] += 1
    return unseen


def _acting(state: FincaState, seat: int) -> int:
    return int(not state.terminal and seat == state.current_player)


PLAYER_BLOCK_FIELDS = (
    Field("present", 1, "1 if the seat exists at this player count", lambda s, q: 1),
    Field("fruits", C.NUM_FRUITS, "fruits held per type", lambda s, q: s.fruits[q], 18.0),
    Field("carts", 1, "donkey carts held", lambda s, q: s.carts[q], 8.0),
    Field("unused_action_tiles", 4, "Double move, Gust of wind, Large donkey cart, One fruit "
          "less: 1 = unused", lambda s, q: s.unused[q]),
    Field("fruit_tiles_by_value", 6, "fruit tiles won with face value 1 ... 6",
          lambda s, q: s.value_counts[q], float(C.MAX_TILES_OF_ONE_VALUE)),
    Field("printed_symbols", C.NUM_FRUITS, "printed fruit symbols per type on the fruit tiles "
          "won (finca majorities)", lambda s, q: s.printed[q], float(C.MAX_PRINTED_OF_ONE_FRUIT)),
    Field("wild_symbols", 1, "wild symbols on the fruit tiles won",
          lambda s, q: s.wild_symbols[q], float(C.TOTAL_WILD_SYMBOLS)),
    Field("fruit_tile_points", 1, "face values of the fruit tiles won",
          lambda s, q: s.tile_points[q], 60.0),
    Field("finca_tiles", 1, "finca tiles won", lambda s, q: len(s.fincas_won[q]), 10.0),
    Field("bonus_points", 1, "sum of bonus tiles held", lambda s, q: sum(s.bonuses[q]), 22.0),
    Field("score", 1, "current score (FIN-43), clipped at 1", lambda s, q: score(s, q), 100.0),
    Field("is_acting", 1, "1 if this seat acts now", _acting),
)

COMMUNITY_BLOCK_FIELDS = (
    Field("has_top", 1, "1 while the stack holds a tile", lambda s, c: int(bool(s.stacks[c]))),
    Field("top_fixed", C.NUM_FRUITS, "face-up tile: printed symbols per fruit",
          lambda s, c: t.fixed if (t := _top(s, c)) else [0] * C.NUM_FRUITS, 6.0),
    Field("top_wild", 1, "face-up tile: wild symbols",
          lambda s, c: t.wild if (t := _top(s, c)) else 0, 6.0),
    Field("top_value", 6, "face-up tile: value one-hot 1 ... 6",
          lambda s, c: t.value - 1 if (t := _top(s, c)) else None, encoding="one_hot"),
    Field("hidden_beneath", 1, "face-down tiles under the top",
          lambda s, c: max(len(s.stacks[c]) - 1, 0), 3.0),
    Field("finca_fruits", C.NUM_FRUITS, "finca tile still on the community: fruit mask",
          lambda s, c: f.fruits if (f := _finca(s, c)) else (), encoding="multi_hot"),
    Field("finca_universal", 1, "finca tile still on the community: universal flag",
          lambda s, c: int(f.universal) if (f := _finca(s, c)) else 0),
    Field("resolved", 1, "1 once the community is emptied and its finca tile resolved",
          lambda s, c: int(s.finca_tile[c] < 0)),
)

SPEC = ObservationSpec("finca", (
    Block("phase", "one-hot of the decision phase (INTRO ... DELIVER_OMIT); all zero once the "
          "game is over", (
              Field("phase", NUM_DECISION_PHASES, "the decision phase",
                    lambda s, o: s.phase if s.phase < NUM_DECISION_PHASES else None,
                    encoding="one_hot"),
          )),
    Block("game_meta", "player count one-hot 2/3/4 [3]; agent steps so far /2000 [1]; wooden "
          "fincas in reserve /6 [1]; intro placements left /12 [1]", (
              Field("players", 3, "player count one-hot 2/3/4", lambda s, o: s.num_players - 2,
                    encoding="one_hot"),
              Field("steps", 1, "agent steps so far, clipped at 1", lambda s, o: s.steps,
                    STEP_SCALE),
              Field("wooden_reserve", 1, "wooden fincas in reserve",
                    lambda s, o: s.wooden_reserve, 6.0),
              Field("intro_left", 1, "intro placements left", lambda s, o: s.intro_left, 12.0),
          )),
    Block("bonus_stack", "the bonus tiles 7, 6, 5, 4 still in the stack", (
        Field("bonus_left", len(C.BONUS_VALUES_TOP_FIRST), "1 for each of the bonus tiles 7, "
              "6, 5, 4 still in the stack", lambda s, o: [7 - v for v in s.bonus_stack],
              encoding="multi_hot"),
    )),
    Block("blade_fruit", "12 blades x fruit one-hot [6], blade order fixed (lines before blades "
          "0 and 6)", (
              Field("fruit", C.NUM_FRUITS, "the blade's fruit", lambda s, b: s.blades[b],
                    encoding="one_hot"),
          ), count=C.NUM_BLADES, subjects=lambda s, o: range(C.NUM_BLADES), copy_label="blade"),
    Block("communities", f"{C.NUM_COMMUNITIES} communities x 23 values, see the community "
          "field table", COMMUNITY_BLOCK_FIELDS, count=C.NUM_COMMUNITIES,
          subjects=lambda s, o: range(C.NUM_COMMUNITIES), copy_label="community"),
    Block("unseen_tiles", "per kind of printed tile (the `kind` column of the fruit-tile "
          "table): the share of its copies never face-up (face-down or boxed), 0, 1/3, 2/3 or 1 "
          "for the three copies of `4?`, `5?`, `6?` and the 1-of-each tile; public, the same "
          "for every observer", (
              Field("unseen", len(C.FRUIT_TILE_KINDS), "copies never face-up, per kind",
                    _unseen, tuple(float(n) for n in C.KIND_COPIES)),
          )),
    Block("blade_farmers", "12 blades x [farmers of seat slots 0-3 (observer first) /12, "
          "total /12]", (
              *(Field(f"slot_{k}", C.NUM_BLADES, f"farmers of seat slot {k} per blade",
                      _slot_farmers(k), 12.0) for k in range(MAX_SEATS)),
              Field("total", C.NUM_BLADES, "farmers of all seats per blade",
                    lambda s, o: s.blade_total, 12.0),
          )),
    Block("supply", "fruit supply per type /18 [6]; carts in the centre /8 [1]", (
        Field("fruits", C.NUM_FRUITS, "fruit supply per type", lambda s, o: s.supply, 18.0),
        Field("centre_carts", 1, "donkey carts in the centre", lambda s, o: s.centre_carts, 8.0),
    )),
    Block("players", f"{MAX_SEATS} seat slots x 30 values (slot 0 = observer, then clockwise; "
          "absent seats zero), see the player field table", PLAYER_BLOCK_FIELDS,
          count=MAX_SEATS, subjects=seat_slots, copy_label="seat slot"),
    Block("delivery", "mode one-hot normal/large/one-less [3]; cap left /10 [1]; committed fruit "
          "per type /10 [6]; communities selected [10]; reduction applied [1]; pending community "
          "one-hot [10]; pending wild fruit one-hot [6]; all zero outside a delivery", (
        Field("mode", 3, "mode one-hot normal/large/one-less",
              lambda s, o: int(s.mode) if _delivering(s) else None, encoding="one_hot"),
        Field("cap_left", 1, "fruits that may still be delivered",
              lambda s, o: s.cap_left if _delivering(s) else 0, 10.0),
        Field("committed", C.NUM_FRUITS, "fruit committed per type",
              lambda s, o: s.committed if _delivering(s) else [0] * C.NUM_FRUITS, 10.0),
        Field("selected", C.NUM_COMMUNITIES, "communities selected",
              lambda s, o: [c for c, _, _ in s.selected] if _delivering(s) else (),
              encoding="multi_hot"),
        Field("reduced", 1, "One fruit less applied to a selected tile",
              lambda s, o: int(_delivering(s) and any(omit >= 0 for _, _, omit in s.selected))),
        Field("pending", C.NUM_COMMUNITIES, "community whose wild symbols are being paid",
              lambda s, o: s.pending if _delivering(s) and s.pending >= 0 else None,
              encoding="one_hot"),
        Field("pending_wild", C.NUM_FRUITS, "fruit chosen for the pending wild symbols",
              lambda s, o: s.pending_wild if _delivering(s) and s.pending_wild >= 0 else None,
              encoding="one_hot"),
    )),
    Block("move_ctx", "Gust of wind source blade one-hot (set in GUST_TARGET only)", (
        Field("gust_source", C.NUM_BLADES, "the blade a Gust of wind moves a farmer from",
              lambda s, o: s.gust_source if not _delivering(s) and s.phase == Phase.GUST_TARGET
              else None, encoding="one_hot"),
    )),
))
