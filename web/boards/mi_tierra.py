"""Mi Tierra's board as JSON for the page: what the Pillow picture draws (the board zones with
their workers, the development display, the events, the Established, Closing and Black markets,
and every player's farm, goods, cards and money), as data the page's SVG board
(static/mi_tierra.js) draws again.

Hidden information: the market pile's order (a player sees its size and the deck letters on the
backs of its top cards), the seven A cards removed unseen, the development deck's order, the dice
to come (the state's generator), and each player's Clock Tower knowledge, which only that player
sees (the others see how many cards it peeked). A Clock Tower reordering in progress is shown to
the player making it only. With `viewer` None (a replay) everything is sent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra import picture
from huerta.envs.mi_tierra.actions import (
    BUY_ACTION_GOOD,
    CELL0,
    CHOICE0,
    CLOSE_SLOT0,
    EST_SLOT0,
    MOVE_TO_BLACK_MARKET,
    PLACE_ACTION_ZONE,
    PLACE_DEV0,
    PLACE_PAIR_CROPS,
    PLACE_PAIR_FOREST,
    SELL0,
    STAGE_ZONE,
    Decision,
    Stage,
)
from huerta.envs.mi_tierra.farm import farm_items
from huerta.envs.mi_tierra.render import decision_text, stage_text

if TYPE_CHECKING:
    from huerta.envs.mi_tierra.state import MiTierraState

PALETTE = {
    "background": picture.BACKGROUND,
    "ink": picture.INK,
    "soft_ink": picture.SOFT,
    "player": list(picture.PLAYER_COLOURS),
    "good": list(picture.GOOD_COLOURS),
    "tile": list(picture.TILE_COLOURS),
}

# the board zones of the left block, as the picture lays them out: (zone, column, row)
ZONE_GRID = picture.ZONE_GRID
EVENT_EFFECTS = {C.INFLATION: "milk, flour, wine +$1 everywhere",
                 C.STRIKE: "the four factories are closed",
                 C.FRUIT_FLY: "no apple or grape harvest"}


def _card(card_id: int) -> str:
    """A market card in words: 'B03 grape $5 x4'."""
    card = C.MARKET_CARDS[card_id]
    return f"{card.code} {card.label()}"


def _title(state: MiTierraState) -> str:
    """The picture's title line."""
    n = state.num_players
    if state.terminal:
        winners = state.winners()
        names = ", ".join(f"player_{w}" for w in winners)
        return (f"Mi Tierra, {n} players: game over after round {state.round}. "
                f"{'Shared victory' if len(winners) > 1 else 'Winner'}: {names}")
    who = ("a die roll is pending" if state.chance_pending else
           f"player_{state.current_player} to act ({decision_text(state)})")
    return f"Mi Tierra, {n} players, round {state.round}, {stage_text(state)}: {who}"


def _active_zone(state: MiTierraState) -> int:
    if state.terminal:
        return -1
    if state.stage == Stage.LOWER_ROAD:
        return C.Z_LOWER_ROAD
    if state.stage == Stage.EST_MARKET:
        return C.Z_EST_MARKET
    return STAGE_ZONE.get(Stage(state.stage), -1)


def _spaces(state: MiTierraState, zone: int) -> list[dict[str, Any]]:
    two = state.num_players == 2
    first = C.ZONE_FIRST_SPACE[zone]
    return [{"owner": state.space_owner[i], "pair": bool(state.space_pair[i]),
             "blocked": two and i in C.BLOCKED_2P}
            for i in range(first, first + C.ZONES[zone].spaces)]


def _zones(state: MiTierraState) -> list[dict[str, Any]]:
    """The twelve zones of the picture's grid, in activation order."""
    strike = state.event_in_force() == C.STRIKE
    active = _active_zone(state)
    return [{"zone": zone, "title": picture.ZONE_TITLES[zone], "col": col, "row": row,
             "spaces": _spaces(state, zone), "active": zone == active,
             "closed": strike and C.ZONES[zone].factory}
            for zone, col, row in ZONE_GRID]


def _developments(state: MiTierraState) -> dict[str, Any]:
    touched: tuple[int, ...] = ()
    if state.decision == Decision.DEVELOPMENT and state.qpos < len(state.queue):
        touched = C.DEV_SPOT_TOUCHES[state.queue[state.qpos] - C.ZONE_FIRST_SPACE[C.Z_DEV]]
    display = []
    for s, card in enumerate(state.display):
        if card < 0:
            display.append(None)
            continue
        dev = C.DEV_CARDS[card]
        display.append({"numeral": dev.numeral, "name": dev.name, "reachable": s in touched})
    two = state.num_players == 2
    first = C.ZONE_FIRST_SPACE[C.Z_DEV]
    spots = [{"name": name, "owner": state.space_owner[first + k],
              "blocked": two and first + k in C.BLOCKED_2P}
             for k, name in enumerate(C.DEV_SPOTS)]
    return {"display": display, "spots": spots, "deck": len(state.dev_deck),
            "active": state.stage == Stage.DEVELOPMENTS and not state.terminal}


def _market(state: MiTierraState, card_id: int, label: str, selling: bool,
            inflation: bool) -> dict[str, Any]:
    if card_id < 0:
        return {"label": label, "empty": True}
    card = C.MARKET_CARDS[card_id]
    first, second = picture.card_lines(card_id, inflation)
    return {"label": label, "empty": False, "code": card.code, "kind": card.kind,
            "lines": [first, second], "selling": selling}


def _markets(state: MiTierraState) -> dict[str, Any]:
    inflation = state.event_in_force() == C.INFLATION
    selling = state.sale_slot if state.decision == Decision.MARKET_SALE else -1
    return {
        "est": [_market(state, card, f"E{m}", selling == m, inflation)
                for m, card in enumerate(state.est)],
        "closing": [_market(state, card, f"C{m}", selling == 4 + m, inflation)
                    for m, card in enumerate(state.closing)],
        "inflation": inflation,
    }


def _black_market(state: MiTierraState) -> dict[str, Any]:
    inflation = state.event_in_force() == C.INFLATION
    chart = []
    for g in range(C.NUM_GOODS):
        sell = C.bm_price(g, False, inflation)
        price = f"{sell}/{C.bm_price(g, True, inflation)}" if C.BM_BUY[g] is not None else f"{sell}"
        chart.append({"good": g, "price": price})
    return {"workers": list(state.bm_workers), "chart": chart,
            "active": state.stage == Stage.BLACK_MARKET and not state.terminal}


def _events(state: MiTierraState) -> dict[str, Any]:
    event = state.event_in_force()
    pile = state.pile
    a = sum(1 for card in pile if not C.IS_DECK_B[card])
    end = None
    if state.end_triggered:
        end = "the game ended" if state.terminal else "this is the last round"
    return {
        "in_force": C.EVENT_NAMES[event] if event >= 0 else None,
        "effect": EVENT_EFFECTS.get(event, ""),
        "permanents_seen": state.perms_seen,
        "permanents_to_end": C.PERMANENTS_TO_END,
        "end": end,
        # the pile: its size and the deck letters on the backs of its top cards, never its order
        "pile": {"size": len(pile), "a": a, "b": len(pile) - a,
                 "backs": "".join("B" if C.IS_DECK_B[c] else "A" for c in pile[::-1][:4])},
    }


def _context(state: MiTierraState, viewer: int | None) -> list[str]:
    """What is being decided now, in public facts (the picture's 'Now' box); a Clock Tower
    reordering only for the player making it."""
    lines = []
    if state.terminal:
        scores = state.scores()
        lines.append("final scores: " + ", ".join(f"player_{p} {scores[p]}"
                                                  for p in range(state.num_players)))
        lines.append("(cake $49, cloth $47, leftover goods 3 for $1)")
    else:
        p = state.current_player
        d = Decision(state.decision)
        lines.append(f"player_{p}: {decision_text(state)}")
        if state.die_face and Stage.FOREST <= state.stage <= Stage.HENHOUSE:
            lines.append(f"die rolled: {state.die_face}")
        if d == Decision.MARKET_SALE and state.sale_slot >= 0:
            slot = state.sale_slot
            lines.append(f"selling to market {f'E{slot}' if slot < 4 else f'C{slot - 4}'}")
        if d == Decision.BLACK_MARKET:
            lines.append(f"bought {state.bm_buys} of {C.BM_BUYS_PER_WORKER} this visit")
        if d == Decision.PLACE:
            lines.append(f"workers still to place: {state.hut[p]}")
        if d == Decision.CLOCK_ORDER and viewer in (None, p):
            done = ", ".join(C.MARKET_CARDS[c].code for c in state.reorder_done) or "none yet"
            left = ", ".join(C.MARKET_CARDS[c].code for c in state.reorder_left)
            lines.append(f"Clock Tower: placed {done}; left {left}")
    lines.append(f"cards sold or discarded so far: {len(state.discard)}")
    return lines


def _farm(state: MiTierraState, p: int) -> list[dict[str, Any]]:
    cells = []
    for c in range(C.FARM_CELLS):
        tile = state.tiles[p][c]
        text = picture.TILE_TEXT[tile]
        sub = ""
        if tile in C.BARN_CAPACITY and state.barn_count[p][c]:
            kind = "cow" if state.barn_kind[p][c] == C.COW else "sheep"
            text = f"{state.barn_count[p][c]} {kind}"
            sub = f"of {C.BARN_CAPACITY[tile]}"
        cells.append({"tile": tile, "text": text, "sub": sub,
                      "worker": bool(state.farm_workers[p][c])})
    return cells


def _knowledge(state: MiTierraState, p: int) -> dict[str, Any]:
    """Player p's Clock Tower knowledge: the cards at the top of the pile in order (top first),
    and those it knows only as a set within the top `depth` cards (private to p)."""
    return {"in_order": [_card(c) for c in state.known[p]],
            "as_set": [_card(c) for c in state.known_set[p]],
            "depth": state.known_depth[p] if state.known_set[p] else 0}


def state_json(state: MiTierraState, viewer: int | None) -> dict[str, Any]:
    """The board as JSON from `viewer`'s seat (None: everything: the pile's order, the removed
    cards, the development deck and every player's Clock Tower knowledge)."""
    n = state.num_players
    scores = state.scores()
    position = {p: k + 1 for k, p in enumerate(state.order)}
    winners = state.winners() if state.terminal else []
    acting = -1 if state.terminal or state.chance_pending else state.current_player
    players = []
    for p in range(n):
        owned = [C.DEV_CARDS[d] for d in range(C.NUM_DEV_CARDS) if state.devs[p][d]]
        player: dict[str, Any] = {
            "money": state.money[p], "turn": position[p], "owned": state.owned[p],
            "hut": state.hut[p],
            "passed": bool(state.retired[p] and state.stage == Stage.PLACEMENT),
            "cake": state.cake[p], "cloth": state.cloth[p], "goods_total": farm_items(state, p),
            "goods": [[g, k] for g, k in enumerate(state.goods[p]) if k],
            "cards": [f"{d.numeral} {d.name}" for d in owned],
            "card_numerals": [d.numeral for d in owned],
            "farm": _farm(state, p), "hens": state.goods[p][C.HEN], "score": scores[p],
            "acting": p == acting, "winner": p in winners,
            # how many cards p peeked is public; which ones, only p knows
            "peeked": len(state.known[p]) + len(state.known_set[p]),
        }
        if viewer is None or viewer == p:
            player["knowledge"] = _knowledge(state, p)
        players.append(player)
    data: dict[str, Any] = {
        "game": "mi_tierra",
        "title": _title(state),
        "order": [f"player_{p}" for p in state.order],
        "num_players": n,
        "current_player": acting,
        "terminal": bool(state.terminal),
        "round": state.round,
        "zones": _zones(state),
        "est_market": {"zone": C.Z_EST_MARKET, "spaces": _spaces(state, C.Z_EST_MARKET),
                       "active": _active_zone(state) == C.Z_EST_MARKET},
        "black_market": _black_market(state),
        "developments": _developments(state),
        "events": _events(state),
        "markets": _markets(state),
        "context": _context(state, viewer),
        "players": players,
        "goods": {"names": list(C.GOODS), "codes": list(C.GOOD_ABBREV)},
        "tile_names": list(picture.TILE_TEXT),
        "henhouse_capacity": C.HENHOUSE_CAPACITY,
        "cake_value": C.CAKE_VALUE,
        "cloth_value": C.CLOTH_VALUE,
        "scores": scores,
    }
    if viewer is None:  # hidden from every player during play
        pile = [_card(c) for c in state.pile[::-1]]
        more = f" and {len(pile) - 6} more" if len(pile) > 6 else ""
        removed = ", ".join(_card(c) for c in state.removed) or "none"
        deck = ", ".join(f"{C.DEV_CARDS[d].numeral} {C.DEV_CARDS[d].name}"
                         for d in state.dev_deck[::-1]) or "empty"
        data["hidden"] = [["Market pile, top first", ", ".join(pile[:6]) + more or "empty"],
                          ["Removed unseen at the set-up", removed],
                          ["Development deck, top first", deck]]
    return data


def action_target(state: MiTierraState, action: int) -> str | None:
    """Where on the board `action` is clicked: a zone, a development spot or display card, a
    cell of the acting player's farm, a market card, a good of the Black Market chart; None for
    the list only (PASS, the other choices)."""
    if action in PLACE_ACTION_ZONE:
        return f"zone:{PLACE_ACTION_ZONE[action]}"
    if action == PLACE_PAIR_FOREST:
        return f"zone:{C.Z_FOREST}"
    if action == PLACE_PAIR_CROPS:
        return f"zone:{C.Z_CROPS}"
    if PLACE_DEV0 <= action < PLACE_PAIR_FOREST:
        return f"devspot:{action - PLACE_DEV0}"
    if CELL0 <= action < CHOICE0:
        return f"cell:{action - CELL0}"
    if CHOICE0 <= action < EST_SLOT0 and state.decision == Decision.DEVELOPMENT:
        return f"display:{action - CHOICE0}"
    if EST_SLOT0 <= action < CLOSE_SLOT0:
        return f"market:E{action - EST_SLOT0}"
    if CLOSE_SLOT0 <= action < MOVE_TO_BLACK_MARKET:
        return f"market:C{action - CLOSE_SLOT0}"
    if action == MOVE_TO_BLACK_MARKET:
        return "zone:black_market"
    if SELL0 <= action < SELL0 + C.NUM_GOODS:
        return f"good:{action - SELL0}"
    if action in BUY_ACTION_GOOD:
        return f"good:{BUY_ACTION_GOOD[action]}"
    return None


def public_describe(state: MiTierraState, action: int, viewer: int | None) -> str:
    """The move as `viewer` may read it: a Clock Tower reordering names the card it puts next,
    which only the player making it knows, so other seats read that a peeked card was placed."""
    if (viewer is not None and state.decision == Decision.CLOCK_ORDER
            and state.current_player != viewer and CHOICE0 <= action < EST_SLOT0):
        return "put one of the peeked cards next on the market deck (which one is hidden)"
    return state.describe(action)
