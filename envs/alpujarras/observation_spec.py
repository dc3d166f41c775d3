"""What Alpujarras's observation holds, declared once: every block and field, its scale and meaning,
and how it is read from an `AlpujarrasState` (the mechanism: huerta.envs.core.observation_spec).

The vector (1941 values in [0, 1]) is everything public from the observer's seat: everything on
the table is public (G-28), so positions, farmers, fields, channels, tokens, awards, goals, every
player's holdings and, in the solo game, Zara's state and the zakat cards. The crop bag appears
only as its composition (never its draw order) and future die rolls never appear. Seat slots are
rotated so that slot 0 is the observer and slot 1 the next seat; slots of absent seats are zero,
and so are the blocks a game does not use (the goals in the solo game, Zara's blocks in the
multiplayer game, the die with 3-4 players, the track beyond its end, the turn block outside a
visit). `observation.py` writes the same vector fast; its tests compare it with `SPEC.reference`,
and seeds/alpujarras.md's observation tables are generated from this declaration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from huerta.envs.core.observation_spec import Block, Field, ObservationSpec

from . import components as C
from . import effects, turns
from .actions import NUM_DECISION_PHASES, Chain, Phase
from .goals import ZAKAT_FRUIT, can_pay_zakat, goal_met, zakat_side

if TYPE_CHECKING:
    from .state import AlpujarrasState

MAX_SEATS = C.MAX_SEATS
S = C.MAX_SPACES  # target spaces on the longest track side: the track and occupancy copies
STEP_SCALE = 3000.0  # the default truncation (game.DEFAULT_MAX_STEPS)
DIRHEM_SCALE = 60.0
TOKEN_GRID = C.NUM_FRUITS * len(C.TOKEN_VALUE_RANGE)  # fruit x value 2..5
NUM_CHAINS = len(Chain) - 1  # Chain.NONE has no place in the one-hot


# --- subjects: what each copy of a block describes -------------------------------------------

def seat_slots(state: AlpujarrasState, observer: int) -> list[int | None]:
    """The seat in each slot: the observer first, then the next seats; None past the count."""
    n = state.num_players
    return [(observer + k) % n if k < n else None for k in range(MAX_SEATS)]


def _seats(state: AlpujarrasState, observer: int) -> list[int]:
    """The seats in slot order (the present slots of `seat_slots`)."""
    n = state.num_players
    return [(observer + k) % n for k in range(n)]


def _by_slot(state: AlpujarrasState, observer: int, value) -> list:
    """`value(seat)` for each seat slot, zero for absent slots."""
    values = [value(q) for q in _seats(state, observer)]
    return values + [0] * (MAX_SEATS - len(values))


def _with_observer(count: int):
    """Subjects (index, observer) for a block of `count` copies whose values depend on the
    observer (farmers by seat slot, the observer's own flags)."""
    return lambda s, o: [(i, o) for i in range(count)]


def _solo_only(s: AlpujarrasState, o: int) -> list[int | None]:
    return [o if s.solo else None]


def turn_shown(state: AlpujarrasState) -> bool:
    """The turn block holds something only during a visit (ACTION) or a chain in progress."""
    return state.phase == Phase.ACTION or bool(state.chain)


def _chain(state: AlpujarrasState, index: int) -> int | None:
    """A turn one-hot of the chain in progress: `index` while a chain runs and it is set."""
    return index if state.chain and index >= 0 else None


# --- readers ------------------------------------------------------------------------------------

def token_grid(tokens: list[int]) -> list[int]:
    """Delivery tokens counted per (fruit, value 2-5): index 4 x fruit + value - 2."""
    grid = [0] * TOKEN_GRID
    width = len(C.TOKEN_VALUE_RANGE)
    for t in tokens:
        grid[(t // 10) * width + t % 10 - C.TOKEN_VALUE_RANGE[0]] += 1
    return grid


def _counts(items, size: int = C.NUM_FRUITS) -> list[int]:
    """How many of `items` (non-negative ids; negative ones are skipped) there are of each id."""
    out = [0] * size
    for k in items:
        if k >= 0:
            out[k] += 1
    return out


def _space(state: AlpujarrasState, s: int) -> C.Space:
    return state.track[s]


def _would_harvest(state: AlpujarrasState, subject: tuple[int, int]) -> bool:
    f, observer = subject
    return not state.terminal and effects.harvest_farmlands(state, observer)[f]


def _award_values(state: AlpujarrasState, w: int) -> list[int]:
    award = state.awards[w]
    green, red = C.AWARDS[state.award_ids[w]]
    return [green if award == C.AWARD_GREEN else 0, red if award != C.AWARD_GONE else 0]


def _goal(state: AlpujarrasState, i: int) -> int:
    return C.card_goal(i, state.goal_sides[i])


def _zakat_payable(state: AlpujarrasState, i: int) -> bool:
    return not state.zakat_paid[i] and can_pay_zakat(state, i)


def _zakat_fruit(state: AlpujarrasState, i: int) -> tuple[int, ...]:
    return ZAKAT_FRUIT[i, 1 if state.zakat_star[i] else 0]


def _piece_fields(what: str) -> tuple[Field, ...]:
    """position, spot and on-end of a piece (a seat's mule or the die)."""
    return (
        Field("position", 1, "space index + 1 (0 = start spots)",
              lambda s, q: s.pos[q] + 1, float(S)),
        Field("spot", 1, f"spot in the space{what}", lambda s, q: s.spot[q], 4.0),
        Field("on_end", 1, "on the end track", turns.on_end),
    )


TURN_FIELDS = (
    Field("place_left", 1, "place icons left on the space", lambda s, o: s.pend_place, 2.0),
    Field("place_farmland", C.NUM_FARMLANDS, "farmland a coloured place icon names",
          lambda s, o: s.place_target if s.pend_place and s.place_target >= 0 else None,
          encoding="one_hot"),
    Field("place_two", 1, "the place icon is 'place 2 farmers'",
          lambda s, o: s.place_p2 and s.pend_place > 0),
    Field("move_left", 1, "move icon left", lambda s, o: s.pend_move),
    Field("irrigate_left", 1, "irrigate icon left", lambda s, o: s.pend_irrigate),
    Field("norias_left", 1, "noria icons left", lambda s, o: s.pend_norias, 2.0),
    Field("fruit_left", 1, "fruit icons left", lambda s, o: s.pend_fruit, 2.0),
    Field("market_open", 1, "a delivery is still possible (solo: still due)",
          lambda s, o: s.market_left),
    Field("harvest_open", 1, "the harvest is not done yet", lambda s, o: s.harvest_left),
    Field("card_open", 1, "a goal (solo: a zakat) is still open this visit",
          lambda s, o: s.card_left),
    Field("p2_first_farmland", C.NUM_FARMLANDS, "farmland of the first 'place 2' placement",
          lambda s, o: s.p2_first_farmland if s.p2_first_farmland >= 0 else None,
          encoding="one_hot"),
    Field("p2_first_fruit", C.NUM_FRUITS, "fruit of the first 'place 2' placement",
          lambda s, o: s.p2_first_fruit if s.p2_first_fruit >= 0 else None, encoding="one_hot"),
    Field("p2_second", 1, "the chain in progress is the second 'place 2' placement",
          lambda s, o: bool(s.chain) and s.p2_second),
    Field("chain", NUM_CHAINS, "what started the chain: place icon, move icon, noria place, "
          "noria move, noria swap, goal, zakat", lambda s, o: _chain(s, s.chain - 1),
          encoding="one_hot"),
    Field("noria_spend", 5, "norias spent for the chain (1-5)",
          lambda s, o: _chain(s, s.spend_k - 1), encoding="one_hot"),
    Field("farmland_chosen", C.NUM_FARMLANDS, "farmland the fruit is gained for",
          lambda s, o: _chain(s, s.sel_farmland), encoding="one_hot"),
    Field("move_source", C.NUM_FARMLANDS, "farmland the moving farmer left",
          lambda s, o: _chain(s, s.move_src), encoding="one_hot"),
    Field("forced_farmland", C.NUM_FARMLANDS, "farmland a coloured icon forces",
          lambda s, o: _chain(s, s.forced_dst), encoding="one_hot"),
    Field("swap_returned", C.NUM_FRUITS, "fruit returned for the swap",
          lambda s, o: _chain(s, s.swap_return), encoding="one_hot"),
    Field("card_pending", C.NUM_GOAL_CARDS, "card waiting for its farmer",
          lambda s, o: _chain(s, s.pending_card), encoding="one_hot"),
)

SPACE_FIELDS = (
    Field("exists", 1, "1 for a space of this side of the tracks", lambda s, sp: 1),
    Field("standard", 1, "standard space", lambda s, sp: _space(s, sp).kind == C.STANDARD),
    Field("market", 1, "market space", lambda s, sp: _space(s, sp).kind == C.MARKET),
    Field("harvest", 1, "harvest space", lambda s, sp: _space(s, sp).kind == C.HARVEST),
    Field("end", 1, "end space", lambda s, sp: _space(s, sp).kind == C.END),
    Field("place", 1, "farmers to place (P = 1, P2 = 2)",
          lambda s, sp: _space(s, sp).icons.place, 2.0),
    Field("place_farmland", C.NUM_FARMLANDS, "farmland a coloured place icon names",
          lambda s, sp: f if (f := _space(s, sp).icons.place_farmland) >= 0 else None,
          encoding="one_hot"),
    Field("place_two", 1, "place 2 farmers", lambda s, sp: _space(s, sp).icons.p2),
    Field("move", 1, "move icons", lambda s, sp: _space(s, sp).icons.move),
    Field("irrigate", 1, "irrigate icons", lambda s, sp: _space(s, sp).icons.irrigate),
    Field("norias", 1, "noria icons", lambda s, sp: _space(s, sp).icons.norias, 2.0),
    Field("fruit", 1, "fruit icons", lambda s, sp: _space(s, sp).icons.fruit, 2.0),
    Field("dirhems", 1, "dirhem icons", lambda s, sp: _space(s, sp).icons.dirhems, 2.0),
    Field("end_ratio", 1, "fruit per dirhem of an end space", lambda s, sp: _space(s, sp).ratio,
          6.0),
)

CHANNEL_FACT_FIELDS = (
    Field("t_shape", 1, "T-shaped space", lambda s, c: C.CHANNELS[c].shape == "T"),
    Field("farmlands", C.NUM_FARMLANDS, "the two farmlands it touches",
          lambda s, c: C.CHANNELS[c].farmlands, encoding="multi_hot"),
    Field("field_farmland", C.NUM_FARMLANDS, "farmland of the empty field it leads to",
          lambda s, c: ch.field[0] if (ch := C.CHANNELS[c]).field else None, encoding="one_hot"),
    Field("dirhem", 1, "covers a dirhem", lambda s, c: C.CHANNELS[c].dirhem),
)

FARMLAND_FACT_FIELDS = (
    Field("primary", C.NUM_FRUITS, "primary fruit one-hot", lambda s, f: C.PRIMARY[f],
          encoding="one_hot"),
    Field("printed_fields", C.NUM_FRUITS, "printed fields per fruit",
          lambda s, f: _counts(C.PRINTED_FIELDS[f]), 3.0),
)

OCCUPANCY_FIELDS = (
    Field("seat_slots", MAX_SEATS, "mule of seat slot k on the space",
          lambda s, so: [k for k, q in enumerate(_seats(s, so[1])) if s.pos[q] == so[0]],
          encoding="multi_hot"),
    Field("die", 1, "the die on the space",
          lambda s, so: s.has_die and s.pos[s.num_players] == so[0]),
)

PIECE_FIELDS = (
    Field("present", 1, "1 if the seat exists", lambda s, q: 1),
    *_piece_fields(" (arrival order)"),
    Field("is_acting", 1, "this seat acts now",
          lambda s, q: not s.terminal and q == s.current_player),
)

DIE_FIELDS = (
    Field("present", 1, "the die is in play", lambda s, d: 1),
    *_piece_fields(""),
)

FARMLAND_FIELDS = (
    Field("farmers", MAX_SEATS, "farmers of seat slots 0-3",
          lambda s, fo: _by_slot(s, fo[1], lambda q: s.farmers[q][fo[0]]), 15.0),
    Field("zara_farmers", 1, "Zara's farmers", lambda s, fo: s.zara_farmers[fo[0]], 15.0),
    Field("crops", C.NUM_FRUITS, "crop tokens per fruit on its fields",
          lambda s, fo: _counts(s.fields[fo[0]]), 2.0),
    Field("empty_fields", 1, "fields still empty",
          lambda s, fo: sum(1 for k in s.fields[fo[0]] if k < 0), 2.0),
    Field("observer_would_harvest", 1, "a harvest by the observer now would pay it",
          _would_harvest),
    Field("zara_mule", 1, "Zara's mule is here",
          lambda s, fo: s.solo and s.zara_farmland == fo[0]),
)

TOWN_FIELDS = (
    Field("farmers", MAX_SEATS, "town farmers of seat slots 0-3",
          lambda s, wo: _by_slot(s, wo[1], lambda q: s.town_farmers[q][wo[0]]), 5.0),
    Field("tokens", TOKEN_GRID, "tokens per (fruit, value 2-5), index 4 x fruit + value - 2",
          lambda s, wo: token_grid(s.towns[wo[0]]), 2.0),
    Field("award", 3, "award token green / red / gone one-hot", lambda s, wo: s.awards[wo[0]],
          encoding="one_hot"),
    Field("award_values", 2, "dirhems of the next award (green side, red side)",
          lambda s, wo: _award_values(s, wo[0]), 5.0),
)

CHANNEL_FIELDS = (
    Field("filled", 1, "holds a channel token", lambda s, c: s.channels[c]),
    Field("open", 1, "touches the water and is empty", effects.channel_open),
)

GOAL_FIELDS = (
    Field("goal", C.NUM_GOALS, "goal id shown (0-9) one-hot", lambda s, io: _goal(s, io[0]),
          encoding="one_hot"),
    Field("reward", 1, "dirhems the goal pays", lambda s, io: C.GOAL_REWARDS[_goal(s, io[0])],
          5.0),
    Field("done_by", MAX_SEATS, "completed by seat slot k",
          lambda s, io: [k for k, q in enumerate(_seats(s, io[1])) if s.goals_done[q][io[0]]],
          encoding="multi_hot"),
    Field("observer_meets_it", 1, "the observer meets the requirement now",
          lambda s, io: goal_met(s, io[1], _goal(s, io[0]))),
)

PLAYER_FIELDS = (
    Field("present", 1, "1 if the seat exists", lambda s, q: 1),
    Field("fruit", C.NUM_FRUITS, "fruit per kind", lambda s, q: s.fruit[q], 5.0),
    Field("norias", 1, "norias", lambda s, q: s.norias[q], 5.0),
    Field("dirhems", 1, "dirhems (coins)", lambda s, q: s.dirhems[q], DIRHEM_SCALE),
    Field("supply", 1, "farmers in supply", lambda s, q: s.supply[q], 15.0),
    Field("farmland_farmers", 1, "farmers in farmlands", lambda s, q: sum(s.farmers[q]), 15.0),
    Field("town_farmers", 1, "farmers in towns", lambda s, q: sum(s.town_farmers[q]), 5.0),
    Field("card_farmers", 1, "farmers on goal cards", lambda s, q: s.card_farmers[q], 5.0),
    Field("tokens", TOKEN_GRID, "delivery tokens per (fruit, value 2-5)",
          lambda s, q: token_grid(s.tokens[q]), 2.0),
    Field("market_actions", 1, "deliveries made", lambda s, q: s.markets_used[q], 5.0),
    Field("goals_completed", 1, "goals completed", lambda s, q: sum(s.goals_done[q]), 5.0),
    Field("score", 1, "current score (ALP-66)", effects.score, DIRHEM_SCALE),
)

ZARA_FIELDS = (
    Field("zara_supply", 1, "Zara's farmers in supply", lambda s, o: s.zara_supply, 15.0),
    Field("zara_dirhems", 1, "Zara's dirhems", lambda s, o: s.zara_dirhems, DIRHEM_SCALE),
    Field("zara_score", 1, "Zara's score (ZARA-21)", lambda s, o: effects.zara_score(s),
          DIRHEM_SCALE),
    Field("zara_tokens", TOKEN_GRID, "Zara's tokens per (fruit, value 2-5)",
          lambda s, o: token_grid(s.zara_tokens), 2.0),
)

ZAKAT_FIELDS = (
    Field("star_side", 1, "the star side is up", lambda s, i: s.zakat_star[i]),
    Field("paid", 1, "paid", lambda s, i: s.zakat_paid[i]),
    Field("fruits", C.NUM_FRUITS, "fruit asked per kind", _zakat_fruit),
    Field("norias", 1, "norias asked", lambda s, i: zakat_side(s, i).norias, 2.0),
    Field("dirhems", 1, "dirhems asked", lambda s, i: zakat_side(s, i).dirhems, 2.0),
    Field("farmer", 1, "a farmland farmer back to supply", lambda s, i: zakat_side(s, i).farmer),
    Field("payable_now", 1, "unpaid and the player holds its cost", _zakat_payable),
)

SOLO_FIELDS = (
    Field("double_turns", 1, "double turns left", lambda s, o: s.double_turns, 5.0),
    Field("delivered_kinds", C.NUM_FRUITS, "fruit kinds the player has delivered",
          lambda s, o: sorted({t // 10 for t in s.tokens[0]}), encoding="multi_hot"),
)

# The layout in vector order: the per-call blocks (phase, game_meta, turn), the static blocks
# (fixed for a game), then the material blocks (what pieces, farmers, tokens and holdings change;
# adjacent, so the fast writer gathers them for an observer in one step).
SPEC = ObservationSpec("alpujarras", (
    Block("phase", "one-hot of the decision phase (MOVE ... SWAP_GAIN); all zero once the game "
          "is over", (
              Field("phase", NUM_DECISION_PHASES, "decision phase one-hot",
                    lambda s, o: s.phase if s.phase < NUM_DECISION_PHASES else None,
                    encoding="one_hot"),
          )),
    Block("game_meta", "player count, solo flag, track side, steps so far, progress of the "
          "rearmost mule", (
              Field("player_count", 4, "one-hot of 1 (solo), 2, 3, 4 players",
                    lambda s, o: s.num_players - 1, encoding="one_hot"),
              Field("solo", 1, "1 in the solo game", lambda s, o: s.num_players == 1),
              Field("four_player_side", 1, "1 when the 4-player track sides are used",
                    lambda s, o: C.four_player_side(s.num_players)),
              Field("steps", 1, f"agent steps so far (truncation at {STEP_SCALE:g})",
                    lambda s, o: s.steps, STEP_SCALE),
              Field("progress", 1, "space index + 1 of the rearmost mule",
                    lambda s, o: min(s.pos[:s.num_players]) + 1, float(S)),
          )),
    Block("turn", "the visit and the sub-decision chain in progress (all zero in MOVE)",
          TURN_FIELDS, subjects=lambda s, o: [o if turn_shown(s) else None]),
    Block("track", f"{S} target spaces x the space facts (zero beyond the track's end); static "
          "per game", SPACE_FIELDS, count=S,
          subjects=lambda s, o: [sp if sp < len(s.track) else None for sp in range(S)],
          copy_label="space"),
    Block("channel_facts", f"{C.NUM_CHANNELS} channel spaces x shape, farmlands and reward; "
          "static", CHANNEL_FACT_FIELDS, count=C.NUM_CHANNELS,
          subjects=lambda s, o: range(C.NUM_CHANNELS), copy_label="channel"),
    Block("farmland_facts", f"{C.NUM_FARMLANDS} farmlands x primary fruit and printed fields; "
          "static", FARMLAND_FACT_FIELDS, count=C.NUM_FARMLANDS,
          subjects=lambda s, o: range(C.NUM_FARMLANDS), copy_label="farmland"),
    Block("occupancy", f"{S} spaces x [seat slots 0-3 (observer first), die]", OCCUPANCY_FIELDS,
          count=S, subjects=_with_observer(S), copy_label="space"),
    Block("pieces", f"{MAX_SEATS} seat slots x the mule's position", PIECE_FIELDS,
          count=MAX_SEATS, subjects=seat_slots, copy_label="seat slot"),
    Block("die", "the die (2 players, or Zara's in the solo game)", DIE_FIELDS,
          subjects=lambda s, o: [s.num_players if s.has_die else None]),
    Block("farmlands", f"{C.NUM_FARMLANDS} farmlands x farmers by seat slot, Zara's farmers, "
          "crop fields", FARMLAND_FIELDS, count=C.NUM_FARMLANDS,
          subjects=_with_observer(C.NUM_FARMLANDS), copy_label="farmland"),
    Block("towns", f"{C.NUM_TOWNS} towns x town farmers by seat slot, tokens, award token",
          TOWN_FIELDS, count=C.NUM_TOWNS, subjects=_with_observer(C.NUM_TOWNS),
          copy_label="town"),
    Block("channels", f"{C.NUM_CHANNELS} channel spaces x [filled, open to irrigation now]",
          CHANNEL_FIELDS, count=C.NUM_CHANNELS, subjects=lambda s, o: range(C.NUM_CHANNELS),
          copy_label="channel"),
    Block("crop_bag", "crop tokens left in the bag per fruit (its composition, never its order)",
          (Field("crops_left", C.NUM_FRUITS, "crop tokens of each fruit in the bag",
                 lambda s, o: _counts(s.bag), float(C.CROPS_PER_KIND)),)),
    Block("goals", f"{C.NUM_GOAL_CARDS} goal cards x goal shown, reward, who completed it "
          "(zero in the solo game)", GOAL_FIELDS, count=C.NUM_GOAL_CARDS,
          subjects=lambda s, o: [(i, o) if side >= 0 else None
                                 for i, side in enumerate(s.goal_sides)],
          copy_label="goal card"),
    Block("players", f"{MAX_SEATS} seat slots x holdings (slot 0 = observer; absent seats "
          "zero)", PLAYER_FIELDS, count=MAX_SEATS, subjects=seat_slots, copy_label="seat slot"),
    Block("zara", "Zara's supply, dirhems, score and tokens (zero in multiplayer)", ZARA_FIELDS,
          subjects=_solo_only),
    Block("zakats", f"{C.NUM_ZAKAT_CARDS} zakat cards x side, paid, cost (zero in multiplayer)",
          ZAKAT_FIELDS, count=C.NUM_ZAKAT_CARDS,
          subjects=lambda s, o: [i if s.solo else None for i in range(C.NUM_ZAKAT_CARDS)],
          copy_label="zakat card"),
    Block("solo", "double turns left and the fruit kinds already delivered (zero in "
          "multiplayer)", SOLO_FIELDS, subjects=_solo_only),
))
