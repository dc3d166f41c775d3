"""What Mi Tierra's observation holds, declared once: every block and field, its scale and meaning,
and how it is read from a `MiTierraState` (the mechanism: huerta.envs.core.observation_spec).

The vector is everything public from the observer's seat (money, goods, farms, workers,
development cards, market cards in view, the event in force, which cards have left the pile)
plus the observer's own Clock Tower knowledge: the `knowledge` block and the private reordering
fields of `context` carry only what the observer itself peeked. Seat slots are rotated so that
slot 0 is the observer, then the following seats in seat order; slots of absent seats are zero,
and board occupants and Black Market workers are named by the same relative slots.
`observation.py` writes the same vector fast; its tests compare it with `SPEC.reference`, and
seeds/mi_tierra.md's observation tables are generated from this declaration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from huerta.envs.core.observation_spec import Block, Field, ObservationSpec

from . import components as C
from .actions import NUM_DECISIONS, NUM_STAGES, Decision

if TYPE_CHECKING:
    from .state import MiTierraState

MAX_SEATS = C.MAX_SEATS
ESTABLISHED_SLOTS = C.MAX_SEATS  # one Established market per player at most (MIT-06)
CLOSING_SLOTS = 4
NUM_MARKET_SLOTS = ESTABLISHED_SLOTS + CLOSING_SLOTS
KNOWN_POSITIONS = C.CLOCK_PEEK  # pile positions a Clock Tower peek shows
MONEY_SCALE = 250.0
SCORE_SCALE = 500.0
GOODS_SCALE = 10.0
PILE_A_SCALE = float(len(C.DECK_A_IDS) - C.MARKET_A_REMOVED)  # deck A cards in play (23)
PILE_B_SCALE = float(len(C.DECK_B_IDS))  # 26
KIND_INDEX = {"simple": 0, "pack": 1, "generic": 2}  # a market card's `kind` one-hot
EVENT_INDEX = {-1: 0, C.INFLATION: 1, C.STRIKE: 2, C.FRUIT_FLY: 3}  # `event_in_force` one-hot
_LOWER_ROAD = range(C.ZONE_FIRST_SPACE[C.Z_LOWER_ROAD],
                    C.ZONE_FIRST_SPACE[C.Z_LOWER_ROAD] + C.ZONES[C.Z_LOWER_ROAD].spaces)
_DEV_SPOT0 = C.ZONE_FIRST_SPACE[C.Z_DEV]


def seat_slots(state: MiTierraState, observer: int) -> list[int | None]:
    """The seat in each slot: the observer first, then the following seats; None past the
    player count."""
    n = state.num_players
    return [(observer + k) % n if k < n else None for k in range(MAX_SEATS)]


def score(state: MiTierraState, q: int) -> int:
    """Seat q's money plus its cakes, cloth and goods as valued at the end (MIT-95, MIT-96)."""
    return (state.money[q] + C.CAKE_VALUE * state.cake[q] + C.CLOTH_VALUE * state.cloth[q]
            + sum(state.goods[q]) // C.EXCHANGE_RATE)


def money_stamp_rank(state: MiTierraState, q: int) -> int:
    """How many money markers lie above seat q's stamp: changed money more recently (G-08)."""
    stamp = state.stamp[q]
    return sum(1 for r in state.stamp if r > stamp)


# --- the game block ------------------------------------------------------------------------------

def _deck_letters(state: MiTierraState) -> list[int]:
    """The deck letters of the pile's top positions, top first: 1 for deck B (at most four)."""
    return [int(C.IS_DECK_B[card]) for card in reversed(state.pile[-KNOWN_POSITIONS:])]


def _b_cards(state: MiTierraState) -> int:
    return sum(1 for card in state.pile if C.IS_DECK_B[card])


def _event_in_force(state: MiTierraState, o: int) -> int:
    card = state.event_card
    return EVENT_INDEX[C.MARKET_CARDS[card].event if card >= 0 else -1]


def _top_exists(state: MiTierraState, o: int) -> list[int]:
    k = len(_deck_letters(state))
    return [1] * k + [0] * (KNOWN_POSITIONS - k)


def _top_is_b(state: MiTierraState, o: int) -> list[int]:
    letters = _deck_letters(state)
    return letters + [0] * (KNOWN_POSITIONS - len(letters))


GAME_BLOCK_FIELDS = (
    Field("player_count", 3, "one-hot 2 / 3 / 4", lambda s, o: s.num_players - 2,
          encoding="one_hot"),
    Field("round", 1, "round number", lambda s, o: s.round, float(C.MAX_ROUNDS)),
    Field("end_triggered", 1, "1 once the third permanent event appeared",
          lambda s, o: int(s.end_triggered)),
    Field("pile_ran_out", 1, "1 once a draw found the pile empty",
          lambda s, o: int(s.pile_ran_out)),
    Field("permanents_seen", 4, "one-hot 0-3", lambda s, o: min(s.perms_seen, 3),
          encoding="one_hot"),
    Field("event_in_force", 4, "one-hot none / Inflation / Strike / Fruit Fly", _event_in_force,
          encoding="one_hot"),
    Field("pile_a_cards", 1, "deck A cards left in the pile",
          lambda s, o: len(s.pile) - _b_cards(s), PILE_A_SCALE),
    Field("pile_b_cards", 1, "deck B cards left in the pile", lambda s, o: _b_cards(s),
          PILE_B_SCALE),
    Field("top_position_exists", KNOWN_POSITIONS, "pile positions 0-3 hold a card", _top_exists),
    Field("top_position_is_b", KNOWN_POSITIONS, "the card back at pile positions 0-3 is B",
          _top_is_b),
    Field("dev_deck_cards", 1, "development cards left in the deck",
          lambda s, o: len(s.dev_deck), float(C.NUM_DEV_CARDS)),
)


# --- the board -----------------------------------------------------------------------------------

def _spaces(state: MiTierraState, observer: int) -> list[tuple[int, int]]:
    """What each copy of `board` describes: (space, observer)."""
    return [(i, observer) for i in range(C.NUM_SPACES)]


def _occupant(state: MiTierraState, space: tuple[int, int]) -> int | None:
    i, observer = space
    owner = state.space_owner[i]
    return (owner - observer) % state.num_players if owner >= 0 else None


def _black_market(state: MiTierraState, observer: int) -> list[int]:
    return [state.bm_workers.count(q) if q is not None else 0
            for q in seat_slots(state, observer)]


SPACE_FIELDS = (
    Field("occupant", MAX_SEATS, "seat slot of the worker(s) on the space (slot 0 = observer)",
          _occupant, encoding="one_hot"),
    Field("pair", 1, "1 if two workers stand there together",
          lambda s, space: int(s.space_pair[space[0]])),
    Field("blocked", 1, "1 if the space is blocked at this player count (2 players, MIT-22)",
          lambda s, space: int(s.num_players == 2 and space[0] in C.BLOCKED_2P)),
)


# --- market cards and the development display ----------------------------------------------------

def _market_slots(state: MiTierraState, observer: int) -> list[int | None]:
    """The market card in each slot (Established 0-3, Closing 0-3); None for an empty slot."""
    est = [*state.est, *[-1] * (ESTABLISHED_SLOTS - len(state.est))]
    return [c if c >= 0 and not C.IS_EVENT[c] else None for c in (*est, *state.closing)]


def _card(c: int) -> C.MarketCard:
    return C.MARKET_CARDS[c]


def _limit(s: MiTierraState, c: int) -> int:
    card = _card(c)
    return 4 if card.kind == "generic" else card.limit  # generic: no limit, stored as 1


def _pack_contents(s: MiTierraState, c: int) -> tuple[int, ...]:
    card = _card(c)
    return card.contents if card.kind == "pack" else (0,) * C.NUM_GOODS


CARD_BLOCK_FIELDS = (
    Field("present", 1, "1 if the slot holds a market", lambda s, c: 1),
    Field("kind", 3, "one-hot simple / pack / generic", lambda s, c: KIND_INDEX[_card(c).kind],
          encoding="one_hot"),
    Field("outgoing", 1, "carries the Outgoing symbol", lambda s, c: int(_card(c).outgoing)),
    Field("unit_price", C.NUM_GOODS, "price per unit of each good it buys (simple and generic; "
          "Inflation not added)",
          lambda s, c: [C.card_unit_price(_card(c), g, False) for g in range(C.NUM_GOODS)],
          20.0),
    Field("limit", 1, "most units (generic: 1 = no limit)", _limit, 4.0),
    Field("pack_contents", C.NUM_GOODS, "a pack's units per good", _pack_contents, 3.0),
    Field("pack_payout", 1, "a pack's price",
          lambda s, c: _card(c).price if _card(c).kind == "pack" else 0, 40.0),
)

DISPLAY_FIELDS = (
    Field("present", 1, "1 if the slot holds a card", lambda s, d: 1),
    Field("card", C.NUM_DEV_CARDS, "the development card I-XV", lambda s, d: d,
          encoding="one_hot"),
)


# --- the players ---------------------------------------------------------------------------------

PLAYER_BLOCK_FIELDS = (
    # the fields that change with money, goods and workers come first; the farm and development
    # cards, which change more rarely, form the tail (from `farm_tiles` on)
    Field("present", 1, "1 if the seat exists at this player count", lambda s, q: 1),
    Field("is_acting", 1, "1 if this seat decides now",
          lambda s, q: int(not s.terminal and q == s.current_player)),
    Field("money", 1, "money (clipped at 1)", lambda s, q: s.money[q], MONEY_SCALE),
    Field("score", 1, "money + cakes, cloth and goods as at the end (clipped at 1)", score,
          SCORE_SCALE),
    Field("turn_position", MAX_SEATS, "one-hot position in the turn order",
          lambda s, q: s.order.index(q), encoding="one_hot"),
    Field("money_stamp_rank", 1, "how many players changed money more recently (ties, MIT-11)",
          money_stamp_rank, 3.0),
    Field("workers_owned", 1, "workers owned", lambda s, q: s.owned[q], 5.0),
    Field("workers_in_hut", 1, "workers at home", lambda s, q: s.hut[q], 5.0),
    Field("workers_on_farm", 1, "workers on own fields", lambda s, q: sum(s.farm_workers[q]),
          5.0),
    Field("retired", 1, "passed in this round's placement", lambda s, q: int(s.retired[q])),
    Field("on_lower_road", 1, "has a worker on the lower road",
          lambda s, q: int(any(s.space_owner[i] == q for i in _LOWER_ROAD))),
    Field("studies_used", 1, "the Studies re-roll of this round is used",
          lambda s, q: int(s.studies_used[q])),
    Field("goods", C.NUM_GOODS, "units held per good (goods table order)",
          lambda s, q: s.goods[q], GOODS_SCALE),
    Field("cake", 1, "cakes", lambda s, q: s.cake[q], 5.0),
    Field("cloth", 1, "cloth", lambda s, q: s.cloth[q], 5.0),
    Field("peeked_in_order", 1, "pile positions this player knows in order (public count)",
          lambda s, q: len(s.known[q]), 4.0),
    Field("peeked_as_set", 1, "cards this player knows only as a set (public count)",
          lambda s, q: len(s.known_set[q]), 4.0),
    Field("farm_workers", C.FARM_CELLS, "1 if a worker stands on the cell",
          lambda s, q: [int(w) for w in s.farm_workers[q]]),
    Field("farm_tiles", C.FARM_CELLS * len(C.TILE_NAMES), "12 cells × tile one-hot (empty, "
          "apple, wheat, grape, barnyard 2, barnyard 3)",
          lambda s, q: [len(C.TILE_NAMES) * c + t for c, t in enumerate(s.tiles[q])],
          encoding="multi_hot"),
    Field("farm_animals", C.FARM_CELLS, "animals per cell", lambda s, q: s.barn_count[q], 3.0),
    Field("farm_animal_is_cow", C.FARM_CELLS, "1 if the cell's animals are cows",
          lambda s, q: [int(k == C.COW) for k in s.barn_kind[q]]),
    Field("development_cards", C.NUM_DEV_CARDS, "owned development cards I-XV",
          lambda s, q: [int(d) for d in s.devs[q]]),
)
FIRST_FARM_FIELD = "farm_tiles"  # the player rows' rarely changing tail starts here


# --- the observer's knowledge and the decision ---------------------------------------------------

def _in_order(state: MiTierraState, o: int) -> list[int]:
    return [k * C.NUM_MARKET_CARDS + card for k, card in enumerate(state.known[o])]


KNOWLEDGE_FIELDS = (
    Field("in_order", KNOWN_POSITIONS * C.NUM_MARKET_CARDS, "the cards the observer knows at "
          "pile positions 0-3 (top first): 4 × one-hot by card id", _in_order,
          encoding="multi_hot"),
    Field("as_set", C.NUM_MARKET_CARDS, "the cards it knows only as a set (after another player "
          "reordered them)", lambda s, o: s.known_set[o], encoding="multi_hot"),
    Field("set_depth", 1, "how deep in the pile that set lies", lambda s, o: s.known_depth[o],
          4.0),
)


def _deciding(state: MiTierraState, *decisions: Decision) -> bool:
    return not state.terminal and state.decision in decisions


def _reorder(which: str):
    """The reordering player's k-th card put back (or still to put back), as its position in
    the peek; only the reordering player sees it."""
    def read(state: MiTierraState, o: int) -> list[int]:
        if not _deciding(state, Decision.CLOCK_ORDER) or o != state.current_player:
            return []
        known = state.known[o]
        return [KNOWN_POSITIONS * k + known.index(card)
                for k, card in enumerate(getattr(state, which))]
    return read


def _upkeep_due(state: MiTierraState, o: int) -> int:
    if not _deciding(state, Decision.UPKEEP):
        return 0
    return max(0, state.owned[state.current_player] - C.FREE_WORKERS) * C.UPKEEP_PER_EXTRA


CONTEXT_BLOCK_FIELDS = (
    Field("die_face", 6, "the face just rolled (rolling steps)",
          lambda s, o: s.die_face - 1 if not s.terminal and s.die_face else None,
          encoding="one_hot"),
    Field("pending_tile", 5, "the tile waiting for a cell: apple, wheat, grape, barnyard 2, "
          "barnyard 3",
          lambda s, o: s.pending_tile - 1 if not s.terminal and s.pending_tile > 0 else None,
          encoding="one_hot"),
    Field("market_space", ESTABLISHED_SLOTS, "the Established-market space whose turn it is",
          lambda s, o: s.qpos if _deciding(s, Decision.MARKET_TURN, Decision.MARKET_SALE)
          else None, encoding="one_hot"),
    Field("sale_slot", NUM_MARKET_SLOTS, "the market slot of the sale in progress",
          lambda s, o: s.sale_slot if _deciding(s, Decision.MARKET_SALE) else None,
          encoding="one_hot"),
    Field("sale_units", C.NUM_GOODS, "units chosen so far per good",
          lambda s, o: s.sale_units if _deciding(s, Decision.MARKET_SALE)
          else [0] * C.NUM_GOODS, 5.0),
    Field("black_market_buys", 1, "purchases of the acting Black Market worker",
          lambda s, o: s.bm_buys if _deciding(s, Decision.BLACK_MARKET) else 0, 3.0),
    Field("reorder_placed", 1, "Clock Tower cards already put back (public count)",
          lambda s, o: len(s.reorder_done) if _deciding(s, Decision.CLOCK_ORDER) else 0, 4.0),
    Field("reorder_left", 1, "Clock Tower cards still to put back (public count)",
          lambda s, o: len(s.reorder_left) if _deciding(s, Decision.CLOCK_ORDER) else 0, 4.0),
    Field("reorder_placed_private", KNOWN_POSITIONS * KNOWN_POSITIONS, "private to the "
          "reordering player: the k-th card put back, as its position in the peek (4 × 4)",
          _reorder("reorder_done"), encoding="multi_hot"),
    Field("reorder_left_private", KNOWN_POSITIONS * KNOWN_POSITIONS, "private to the "
          "reordering player: the k-th card still to put back, as its position in the peek "
          "(4 × 4)", _reorder("reorder_left"), encoding="multi_hot"),
    Field("dev_touched_slots", len(C.DEV_SLOTS), "display slots the acting development spot "
          "touches",
          lambda s, o: C.DEV_SPOT_TOUCHES[s.queue[s.qpos] - _DEV_SPOT0]
          if _deciding(s, Decision.DEVELOPMENT) else (), encoding="multi_hot"),
    Field("dev_cost", 1, "its current price",
          lambda s, o: s.dev_cost if _deciding(s, Decision.DEVELOPMENT) else 0, 4.0),
    Field("upkeep_due", 1, "the acting player's upkeep", _upkeep_due, 4.0),
)


SPEC = ObservationSpec("mi_tierra", (
    # Order matters for speed (observation.py): the public part (game ... revealed) is one
    # cached run per observer; the player rows and the knowledge follow; the per-decision
    # blocks close the vector.
    Block("game", "game facts (see the game field table); public", GAME_BLOCK_FIELDS),
    Block("board", f"{C.NUM_SPACES} board spaces × [occupant slot one-hot (slot 0 = observer) "
          f"{MAX_SEATS}, pair 1, blocked 1]", SPACE_FIELDS, count=C.NUM_SPACES,
          subjects=_spaces, copy_label="board space"),
    Block("black_market", "Black Market workers per seat slot (slot 0 = observer) / 5", (
        Field("workers", MAX_SEATS, "Black Market workers of the seat in each slot",
              _black_market, 5.0),
    )),
    Block("markets", f"{NUM_MARKET_SLOTS} market slots (Established 0-3, Closing 0-3) × "
          f"{sum(f.size for f in CARD_BLOCK_FIELDS)} card features (card field table); zero "
          "when empty", CARD_BLOCK_FIELDS, count=NUM_MARKET_SLOTS, subjects=_market_slots,
          copy_label="market slot"),
    Block("display", f"{len(C.DEV_SLOTS)} display slots (TL, TR, BL, BR) × [present, card id "
          f"one-hot {C.NUM_DEV_CARDS}]", DISPLAY_FIELDS, count=len(C.DEV_SLOTS),
          subjects=lambda s, o: [d if d >= 0 else None for d in s.display],
          copy_label="display slot"),
    Block("revealed", "per market card id: 1 once it has left the pile (public); the removed 7 "
          "never", (
              Field("revealed", C.NUM_MARKET_CARDS, "market cards that have left the pile",
                    lambda s, o: [c for c, r in enumerate(s.revealed) if r],
                    encoding="multi_hot"),
          )),
    Block("players", f"{MAX_SEATS} seat slots × {sum(f.size for f in PLAYER_BLOCK_FIELDS)} "
          "values (slot 0 = observer, then the next seats; absent seats zero), see the player "
          "field table", PLAYER_BLOCK_FIELDS, count=MAX_SEATS, subjects=seat_slots,
          copy_label="seat slot"),
    Block("knowledge", f"private: the observer's peeked cards at pile positions 0-3 "
          f"({KNOWN_POSITIONS} × {C.NUM_MARKET_CARDS} one-hot by card id), cards known only as "
          f"a set ({C.NUM_MARKET_CARDS}), the depth of that set / 4", KNOWLEDGE_FIELDS),
    Block("stage", "one-hot of the stage (all zero once the game is over)", (
        Field("stage", NUM_STAGES, "the stage of the round",
              lambda s, o: None if s.terminal else s.stage, encoding="one_hot"),
    )),
    Block("decision", "one-hot of the pending decision (all zero once the game is over)", (
        Field("decision", NUM_DECISIONS, "the pending decision",
              lambda s, o: None if s.terminal else s.decision, encoding="one_hot"),
    )),
    Block("context", "the pending decision's details (see the context field table)",
          CONTEXT_BLOCK_FIELDS),
))
