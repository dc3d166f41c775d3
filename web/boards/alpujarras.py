"""Alpujarras's board as JSON for the page: what the Pillow picture draws (the track, the
farmlands round the water, the channels, the towns, the goal or zakat cards, the players and, in
the solo game, Zara), as data the page's SVG board (static/alpujarras.js) draws again.

Everything on the table is public. What nobody knows is the crop bag's draw order and the die
rolls still to come: a player sees the bag's composition only. The order and the rolls are sent
only when `viewer` is None (a replay).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from huerta.envs.alpujarras import components as C
from huerta.envs.alpujarras import effects, picture
from huerta.envs.alpujarras.actions import (
    CARD0,
    CHANNEL0,
    DELIVER0,
    DO_PLACE,
    FARMLAND0,
    FRUIT0,
    N_ACTIONS,
    Phase,
)
from huerta.envs.alpujarras.goals import zakat_side

if TYPE_CHECKING:
    from huerta.envs.alpujarras.state import AlpujarrasState

PALETTE = {
    "background": picture.BACKGROUND,
    "ink": picture.INK,
    "soft_ink": picture.SOFT_INK,
    "farmland": list(picture.FARMLAND_COLOURS),
    "farmland_dark": list(picture.FARMLAND_DARK),
    "fruit": list(picture.FRUIT_COLOURS),
    "fruit_text": list(picture.FRUIT_TEXT),
    "player": list(picture.PLAYER_COLOURS),
    "zara": picture.ZARA_COLOUR,
    "water": picture.WATER,
    "dry": picture.DRY,
    "space": dict(picture.KIND_FILL),
}


def _token(tok: int) -> dict[str, int]:
    return {"fruit": C.token_fruit(tok), "value": C.token_value(tok)}


def _title(state: AlpujarrasState) -> str:
    """The picture's title line."""
    who = "solo game against Zara" if state.solo else f"{state.num_players} players"
    if state.terminal:
        if state.solo:
            result = "the player beats Zara" if not state.lost else f"Zara wins ({state.lost})"
        else:
            result = "winner: " + ", ".join(f"player_{w}" for w in state.winners())
        return f"Alpujarras, {who}: game over after {state.turns} turns, {result}"
    phase = Phase(state.phase).name.lower().replace("_", " ")
    name = "player" if state.solo else f"player_{state.current_player}"
    return f"Alpujarras, {who}, turn {state.turns}: {name} to act ({phase})"


def _turn_text(state: AlpujarrasState) -> str:
    """What is left of the turn in progress (as the picture writes it)."""
    if state.terminal or state.phase == Phase.MOVE:
        return ""
    return "this turn: " + picture.turn_text(state)


def _track(state: AlpujarrasState) -> list[dict[str, Any]]:
    spaces = []
    previous = -1
    for space in state.track:
        farmland = space.icons.place_farmland if space.kind == C.STANDARD else -1
        spaces.append({
            "kind": space.kind,
            "label": picture.space_label(space),
            "farmland": farmland,
            # the segment's name where a new segment starts (the picture's divider)
            "segment": C.SEGMENT_NAMES[space.segment] if space.segment != previous else None,
        })
        previous = space.segment
    return spaces


def _channels(state: AlpujarrasState) -> list[dict[str, Any]]:
    channels = []
    for ch in C.CHANNELS:
        filled = bool(state.channels[ch.cid])
        field = None
        if ch.field is not None:
            f, slot = ch.field
            field = {"farmland": f, "slot": slot, "kind": state.fields[f][slot],
                     "side": -1 if f == ch.farmlands[0] else 1}
        channels.append({
            "border": ch.farmlands[0],  # the border after this farmland, clockwise
            "depth": ch.cid % 3,
            "filled": filled,
            "open": not filled and effects.channel_open(state, ch.cid),
            "dirhem": ch.dirhem,
            "field": field,
        })
    return channels


def _towns(state: AlpujarrasState) -> list[dict[str, Any]]:
    towns = []
    for w in range(C.NUM_TOWNS):
        award: dict[str, Any] | None = None
        if not state.solo:
            if state.awards[w] == C.AWARD_GONE:
                award = {"gone": True}
            else:
                green, red = C.AWARDS[state.award_ids[w]]
                first = state.awards[w] == C.AWARD_GREEN
                award = {"gone": False, "first": first, "value": green if first else red}
        towns.append({
            "tokens": [_token(t) for t in state.towns[w]],
            "award": award,
            "farmers": [state.town_farmers[p][w] for p in range(state.num_players)],
        })
    return towns


def _cards(state: AlpujarrasState) -> list[dict[str, Any]]:
    """The five goal cards (multiplayer) or zakat cards (solo)."""
    cards = []
    if state.solo:
        for i in range(C.NUM_ZAKAT_CARDS):
            side = zakat_side(state, i)
            extras = []
            if side.norias:
                extras.append(f"{side.norias} noria" + ("s" if side.norias > 1 else ""))
            if side.dirhems:
                extras.append(f"{side.dirhems} dirhem" + ("s" if side.dirhems > 1 else ""))
            if side.farmer:
                extras.append("a farmer back")
            cards.append({"star": bool(state.zakat_star[i]), "paid": bool(state.zakat_paid[i]),
                          "fruits": list(side.fruits), "extras": extras,
                          "label": side.label()})
        return cards
    for i in range(C.NUM_GOAL_CARDS):
        goal = C.card_goal(i, state.goal_sides[i])
        cards.append({"text": C.GOALS[goal], "reward": C.GOAL_REWARDS[goal],
                      "done": [p for p in range(state.num_players) if state.goals_done[p][i]]})
    return cards


def state_json(state: AlpujarrasState, viewer: int | None) -> dict[str, Any]:
    """The board as JSON from `viewer`'s seat (None: everything, the bag's order and the die
    rolls to come included)."""
    n = state.num_players
    scores = state.scores()
    acting = -1 if state.terminal else state.current_player
    bag = [0] * C.NUM_FRUITS
    for k in state.bag:
        bag[k] += 1
    farmlands = []
    for f in range(C.NUM_FARMLANDS):
        farmlands.append({
            "name": C.FARMLANDS[f],
            "primary": C.PRIMARY[f],
            "fields": list(C.PRINTED_FIELDS[f]),
            "farmers": [state.farmers[p][f] for p in range(n)],
            "zara_farmers": state.zara_farmers[f] if state.solo else 0,
            "zara_mule": bool(state.solo and state.zara_farmland == f),
        })
    players = []
    for p in range(n):
        players.append({
            "name": "player" if state.solo else f"player_{p}",
            "fruit": list(state.fruit[p]),
            "norias": state.norias[p],
            "dirhems": state.dirhems[p],
            "supply": state.supply[p],
            "in_towns": sum(state.town_farmers[p]),
            "on_cards": state.card_farmers[p],
            "markets_used": state.markets_used[p],
            "tokens": [_token(t) for t in state.tokens[p]],
            "score": scores[p],
            "acting": p == acting,
        })
    pieces = [{"pos": state.pos[i], "spot": state.spot[i],
               "seat": i if i < n else None} for i in range(state.num_pieces)]
    data: dict[str, Any] = {
        "game": "alpujarras",
        "title": _title(state),
        "turn_text": _turn_text(state),
        "solo": bool(state.solo),
        "num_players": n,
        "current_player": acting,
        "terminal": bool(state.terminal),
        "phase": Phase(state.phase).name.lower(),
        "track": _track(state),
        "pieces": pieces,
        "farmlands": farmlands,
        "channels": _channels(state),
        "towns": _towns(state),
        "cards": _cards(state),
        "players": players,
        "bag": bag,
        "fruit_names": list(C.FRUITS),
        "scores": scores,
    }
    if state.solo:
        kinds = sorted({C.token_fruit(t) for t in state.tokens[0]})
        data["zara"] = {
            "farmland": C.FARMLANDS[state.zara_farmland],
            "dirhems": state.zara_dirhems,
            "supply": state.zara_supply,
            "farmers": sum(state.zara_farmers),
            "tokens": [_token(t) for t in state.zara_tokens],
            "score": state.zara_score(),
            "lost": state.lost,
        }
        data["extra_scores"] = [["Zara", state.zara_score()]]  # the page's scores table
        data["double_turns"] = state.double_turns
        data["double_turns_max"] = max(C.DOUBLE_TURNS_RANGE)
        data["kinds_delivered"] = kinds
        data["zakats_paid"] = sum(state.zakat_paid)
    if viewer is None:  # hidden from every player: the draw order, next first, and the rolls
        bag = ", ".join(C.FRUITS[k] for k in reversed(state.bag)) or "empty"
        hidden = [["Crop bag, next draw first", bag]]
        if state.has_die:
            hidden.append(["Die rolls to come", _first(list(reversed(state.rolls)), 15)])
        data["hidden"] = hidden
    return data


def _first(values: list[Any], count: int) -> str:
    """The first `count` values, and how many more."""
    text = ", ".join(map(str, values[:count])) or "none"
    return text + (f" and {len(values) - count} more" if len(values) > count else "")


def action_target(state: AlpujarrasState, action: int) -> str | None:
    """Where on the board `action` is clicked: a track space, a farmland, a fruit of the acting
    player's, a channel, a town's token or a card; None for the list only (the space's icons,
    noria spends, end of turn)."""
    if 0 <= action < DO_PLACE:
        return f"space:{action}"
    if FARMLAND0 <= action < FRUIT0:
        return f"farmland:{action - FARMLAND0}"
    if FRUIT0 <= action < CHANNEL0:
        return f"fruit:{action - FRUIT0}"
    if CHANNEL0 <= action < DELIVER0:
        return f"channel:{action - CHANNEL0}"
    if DELIVER0 <= action < CARD0:
        town, slot = divmod(action - DELIVER0, C.MAX_TOKENS_PER_TOWN)
        return f"token:{town}:{slot}"
    if CARD0 <= action < N_ACTIONS:
        return f"card:{action - CARD0}"
    return None


def public_describe(state: AlpujarrasState, action: int, viewer: int | None) -> str:
    """Every Alpujarras move is public: its description."""
    return state.describe(action)
