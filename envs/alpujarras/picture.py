"""Alpujarras as a picture (the `rgb_array` render): the action track with the mules and the die,
the five farmlands round the water with their fields, farmers and irrigation channels, the towns
with their delivery tokens and award tokens, the goal cards (solo: the zakat cards, the
double-turn card and Zara), and every player's holdings and score, the acting player outlined.

Drawn with Pillow, imported only when a picture is asked for; no display is needed. Only public
information is shown: the crop bag appears as its composition.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from ..core.pictures import Canvas
from . import components as C
from . import effects
from .actions import Phase
from .goals import zakat_side
from .render import turn_text

if TYPE_CHECKING:
    from .state import AlpujarrasState

WIDTH, HEIGHT = 1200, 820
BACKGROUND = "#f4efe4"
INK = "#222222"
SOFT_INK = "#555555"
# farmlands (and their towns) clockwise: green, red, yellow, orange, purple
FARMLAND_COLOURS = ("#8cc26b", "#e0706a", "#f2d95c", "#f5a54a", "#b08ad6")
FARMLAND_DARK = ("#3f7d25", "#a3302a", "#a08a10", "#b9630f", "#6a3f9c")
# fruit: apple, cherry, lemon, orange, grape
FRUIT_COLOURS = ("#7cb342", "#b0123b", "#f7e03c", "#fb8c00", "#5e2a84")
FRUIT_TEXT = ("white", "white", INK, INK, "white")
PLAYER_COLOURS = ("#1f5fbf", "#222222", "#e754a0", "#12a59a")
ZARA_COLOUR = "#8a5a2b"
WATER = "#2e86de"
DRY = "#d9ceb4"
KIND_FILL = {C.STANDARD: "#fffaf0", C.MARKET: "#d6e9f8", C.HARVEST: "#e3f1c9", C.END: "#e4ddd0"}

TRACK_TOP = 46
BOARD_CENTRE = (282, 512)
BOARD_RADIUS = 236
RIGHT = 572  # left edge of the right-hand column


def render_rgb(state: AlpujarrasState) -> np.ndarray:
    """The whole public state as an RGB image of shape (820, 1200, 3), dtype uint8."""
    canvas = Canvas(WIDTH, HEIGHT, background=BACKGROUND)
    _title(canvas, state)
    _track(canvas, state)
    _track_legend(canvas, state, y=208)
    _board(canvas, state)
    _towns(canvas, state, top=258)
    if state.solo:
        _zakats(canvas, state, top=444)
        _solo_players(canvas, state, top=560)
    else:
        _goals(canvas, state, top=444)
        _players(canvas, state, top=560)
    return canvas.to_array()


# --- small pieces ------------------------------------------------------------------------------


def _player_name(state: AlpujarrasState, p: int) -> str:
    return "player" if state.solo else f"player_{p}"


def _fruit_disc(canvas: Canvas, centre: tuple[float, float], t: int, radius: float = 8) -> None:
    canvas.circle(centre, radius, fill=FRUIT_COLOURS[t], outline="#333333")


def _fruit_row(canvas: Canvas, x: float, y: float, counts: list[int], show_zero: bool = False,
               radius: float = 8, gap: int = 24) -> float:
    """Coloured fruit discs with their counts; returns the x after the row."""
    for t, n in enumerate(counts):
        if n or show_zero:
            _fruit_disc(canvas, (x + radius, y), t, radius)
            canvas.text((x + 2 * radius + 3, y), str(n), size=14,
                        fill=INK if n else "#999999", anchor="lm")
            x += 2 * radius + gap
    return x


def _token(canvas: Canvas, x: float, y: float, tok: int, size: int = 22) -> None:
    """A delivery token: a square in the fruit's colour showing the fruit it asks for."""
    t = C.token_fruit(tok)
    canvas.rect((x, y - size / 2, x + size, y + size / 2), fill=FRUIT_COLOURS[t],
                outline="#333333")
    canvas.text((x + size / 2, y), str(C.token_value(tok)), size=14, fill=FRUIT_TEXT[t],
                anchor="mm")


def _farmer(canvas: Canvas, x: float, y: float, colour: str, count: int, radius: float = 7,
            label: str | None = None) -> float:
    """A farmer disc in a player's colour with a count beside it; returns the x after it."""
    canvas.circle((x + radius, y), radius, fill=colour, outline="white")
    if label:
        canvas.text((x + radius, y), label, size=11, fill="white", anchor="mm")
    canvas.text((x + 2 * radius + 2, y), f"{count}", size=13, fill=INK, anchor="lm")
    return x + 2 * radius + 8 + 8 * len(str(count))


def _die(canvas: Canvas, x: float, y: float, solo: bool, size: float = 15) -> None:
    """The 2-player die (white) or Zara's die (her colour)."""
    fill = ZARA_COLOUR if solo else "white"
    canvas.rect((x - size / 2, y - size / 2, x + size / 2, y + size / 2), fill=fill,
                outline="#111111", width=2)
    if solo:
        canvas.text((x, y), "Z", size=11, fill="white", anchor="mm")
    else:  # the three-pip face
        for k in (-1, 0, 1):
            canvas.circle((x + 3.5 * k, y + 3.5 * k), 1.6, fill="#111111")


def _mule(canvas: Canvas, x: float, y: float, p: int, acting: bool) -> None:
    canvas.circle((x, y), 8, fill=PLAYER_COLOURS[p], outline="#ffcc00" if acting else "white")
    if acting:
        canvas.circle((x, y), 10, fill=None, outline="#ff9900")
    canvas.text((x, y), str(p), size=11, fill="white", anchor="mm")


# --- title ------------------------------------------------------------------------------------


def _title(canvas: Canvas, state: AlpujarrasState) -> None:
    who = "solo game against Zara" if state.solo else f"{state.num_players} players"
    if state.terminal:
        if state.solo:
            result = "the player beats Zara" if not state.lost else f"Zara wins ({state.lost})"
        else:
            result = "winner: " + ", ".join(f"player_{w}" for w in state.winners())
        text = f"Alpujarras, {who}: game over after {state.turns} turns, {result}"
    else:
        phase = Phase(state.phase).name.lower().replace("_", " ")
        text = (f"Alpujarras, {who}, turn {state.turns}: "
                f"{_player_name(state, state.current_player)} to act ({phase})")
    canvas.text((14, 10), text, size=22, fill=INK)
    if not state.terminal and state.phase != Phase.MOVE:
        canvas.text((WIDTH - 14, 16), "this turn: " + turn_text(state), size=14,
                    fill="#8b0000", anchor="ra")


# --- the track --------------------------------------------------------------------------------


def space_label(space: C.Space) -> str:
    """The short label a track space shows (market, harvest, an end space's ratio, or a standard
    space's action icons), shared with the web board."""
    if space.kind == C.MARKET:
        return "market"
    if space.kind == C.HARVEST:
        return "harvest"
    if space.kind == C.END:
        return f"end {space.ratio}:1"
    icons = space.icons
    parts = []
    if icons.place:
        parts.append("P2" if icons.p2 else "P")
    for letter, count in (("M", icons.move), ("I", icons.irrigate), ("N", icons.norias),
                          ("F", icons.fruit), ("D", icons.dirhems)):
        if count:
            parts.append(letter if count == 1 else f"{letter}{count}")
    return "+".join(parts)


def _track(canvas: Canvas, state: AlpujarrasState) -> None:
    """The target spaces in two rows (track order left to right), segment names above, pieces
    (mules by seat number, the die as a square) in their spots, the start spots at the left."""
    track = state.track
    per_row = math.ceil(len(track) / 2)
    start_w = 58
    left = 14 + start_w
    width = (WIDTH - 14 - left) / per_row
    height = 58
    rows_y = (TRACK_TOP + 14, TRACK_TOP + 14 + height + 20)
    at: dict[int, list[int]] = {}
    for i in range(state.num_pieces):
        at.setdefault(state.pos[i], []).append(i)
    acting = -1 if state.terminal else state.current_player
    # start spots
    y0 = rows_y[0]
    canvas.rect((14, y0, 14 + start_w - 6, y0 + height), fill="#ece4d3", outline="#8a8a8a")
    canvas.text((14 + (start_w - 6) / 2, y0 + 10), "start", size=12, fill=SOFT_INK,
                anchor="mm")
    _pieces(canvas, state, sorted(at.get(-1, []), key=lambda i: state.spot[i]),
            14 + (start_w - 6) / 2, y0 + 38, start_w - 10, acting)
    prev_segment = -1
    for s, space in enumerate(track):
        row, col = divmod(s, per_row)
        x = left + col * width
        y = rows_y[row]
        fill = KIND_FILL[space.kind]
        if space.kind == C.STANDARD and space.icons.place_farmland >= 0:
            fill = FARMLAND_COLOURS[space.icons.place_farmland]
        canvas.rect((x + 1, y, x + width - 2, y + height), fill=fill, outline="#8a8a8a")
        canvas.text((x + 4, y + 2), str(s), size=11, fill=SOFT_INK)
        label = space_label(space)
        canvas.text((x + width / 2, y + 19), label, size=13 if len(label) < 6 else 11,
                    fill=INK, anchor="mm")
        if space.segment != prev_segment:
            prev_segment = space.segment
            canvas.line((x, y - 13, x, y + height + 2), fill="#333333", width=2)
            canvas.text((x + 3, y - 7), C.SEGMENT_NAMES[space.segment], size=11,
                        fill="#333333", anchor="lm")
        here = sorted(at.get(s, []), key=lambda i: state.spot[i])
        _pieces(canvas, state, here, x + width / 2, y + 41, width - 6, acting)


def _pieces(canvas: Canvas, state: AlpujarrasState, pieces: list[int], cx: float, cy: float,
            room: float, acting: int) -> None:
    """Pieces in spot order left to right, in two rows when they do not fit in one."""
    if not pieces:
        return
    step = 19
    per_row = max(1, int(room // step))
    rows = [pieces[k:k + per_row] for k in range(0, len(pieces), per_row)]
    for r, row in enumerate(rows):
        y = cy + (r - (len(rows) - 1) / 2) * 17
        x0 = cx - (len(row) - 1) * step / 2
        for k, i in enumerate(row):
            x = x0 + k * step
            if i < state.num_players:
                _mule(canvas, x, y, i, i == acting)
            else:
                _die(canvas, x, y, state.solo)


def _track_legend(canvas: Canvas, state: AlpujarrasState, y: float) -> None:
    """What the track's icons and names mean, in one or two lines beneath it."""
    items = [
        (None, "Track: P place a farmer (P2: two; on a coloured space: in that farmland),"),
        (None, "M move a farmer,"), (None, "I irrigate,"), (None, "N take a noria,"),
        (None, "F take a fruit,"), (None, "D take a dirhem;"), (None, "a digit repeats, + joins;"),
        (None, "end 5:1 sells 5 fruit per dirhem;"),
        (None, "GO, MA-MD markets, HA-HD harvests, END: segments;"),
        (lambda c, x, cy: _mule(c, x, cy, 0, False), "a mule by seat"),
    ]
    if state.num_pieces > state.num_players:  # the 2-player die or Zara's
        items[-1] = (items[-1][0], "a mule by seat;")
        items.append((lambda c, x, cy: _die(c, x, cy, state.solo),
                      "Zara's die" if state.solo else "the die"))
    canvas.legend(14, y, items, right=WIDTH - 14, size=12, line_height=17, ink=SOFT_INK, gap=6)


# --- the board: farmlands, fields, farmers, channels --------------------------------------------


def _angle(f: float) -> float:
    """Degrees (Pillow's: 0 = 3 o'clock, clockwise) of farmland `f`'s middle; green on top."""
    return -90.0 + 72.0 * f


def _polar(r: float, degrees: float) -> tuple[float, float]:
    cx, cy = BOARD_CENTRE
    a = math.radians(degrees)
    return cx + r * math.cos(a), cy + r * math.sin(a)


def _board(canvas: Canvas, state: AlpujarrasState) -> None:
    cx, cy = BOARD_CENTRE
    canvas.text((14, 238), "Farmlands round the water: printed fields (* primary), farmers; "
                "irrigable fields by the channels", size=13, fill=INK)
    for f in range(C.NUM_FARMLANDS):
        a = _angle(f)
        canvas.pieslice((cx, cy), BOARD_RADIUS, a - 36, a + 36, fill=FARMLAND_COLOURS[f],
                        outline="#5a5a5a")
    for ch in C.CHANNELS:
        _channel(canvas, state, ch)
    canvas.circle((cx, cy), 34, fill=WATER, outline="#1b4f8a")
    canvas.text((cx, cy), "water", size=12, fill="white", anchor="mm")
    for f in range(C.NUM_FARMLANDS):
        _farmland(canvas, state, f)
    _legend(canvas, state)


def _channel(canvas: Canvas, state: AlpujarrasState, ch: C.Channel) -> None:
    """One channel space on the border between its two farmlands: blue when irrigated, dry when
    not (outlined in light blue when it is open to irrigation now); a coin marks a dirhem space,
    and a field-leading space feeds an irrigable field drawn beside it (a crop token once
    irrigated, an empty square before)."""
    border = _angle(ch.farmlands[0]) + 36.0
    d = ch.cid % 3
    r0, r1 = 36 + 66 * d, 36 + 66 * (d + 1) - 4
    p0, p1 = _polar(r0, border), _polar(r1, border)
    filled = state.channels[ch.cid]
    is_open = not filled and effects.channel_open(state, ch.cid)
    canvas.line((*p0, *p1), fill="#7fb6ea" if is_open else "#5a5a5a", width=12)
    canvas.line((*p0, *p1), fill=WATER if filled else DRY, width=8)
    mid_r = (r0 + r1) / 2
    if ch.dirhem and not filled:
        coin = _polar(mid_r, border)
        canvas.circle(coin, 8, fill="#e8c547", outline="#8a6d00")
        canvas.text(coin, "1", size=11, fill=INK, anchor="mm")
    if ch.field is not None:
        f, slot = ch.field
        side = -1.0 if f == ch.farmlands[0] else 1.0  # towards the field's farmland
        spur = math.degrees(26.0 / mid_r)
        canvas.line((*_polar(mid_r, border), *_polar(mid_r, border + side * spur)),
                    fill=WATER if filled else DRY, width=5)
        fx, fy = _polar(mid_r, border + side * spur)
        kind = state.fields[f][slot]
        size = 8
        box = (fx - size, fy - size, fx + size, fy + size)
        if kind >= 0:
            canvas.rect(box, fill=FRUIT_COLOURS[kind], outline="#333333")
        else:
            canvas.rect(box, fill="#f7f2e6", outline="#7d7d7d")


def _farmland(canvas: Canvas, state: AlpujarrasState, f: int) -> None:
    """Name and primary fruit, the printed fields (the primary one starred: the harvest pays
    it), the farmers by colour and, solo, Zara's farmers and mule; the town on the rim."""
    a = _angle(f)
    x, y = _polar(146, a)
    primary = C.PRIMARY[f]
    canvas.text((x, y - 34), f"{C.FARMLANDS[f]} ({C.FRUITS[primary]})", size=14,
                fill=FARMLAND_DARK[f] if f != C.YELLOW else "#6f5e00", anchor="mm",
                stroke="white")
    fields = C.PRINTED_FIELDS[f]
    size = 16
    x0 = x - (len(fields) * (size + 4) - 4) / 2
    for k, kind in enumerate(fields):
        fx = x0 + k * (size + 4)
        canvas.rect((fx, y - 20, fx + size, y - 20 + size), fill=FRUIT_COLOURS[kind],
                    outline="#333333", width=2 if k == 0 else 1)
        if k == 0:  # the primary field carries the sickle
            canvas.text((fx + size / 2, y - 12), "*", size=13, fill=FRUIT_TEXT[kind],
                        anchor="mm")
    # farmers by colour (counts), then Zara's
    entries = [(PLAYER_COLOURS[p], state.farmers[p][f], str(p))
               for p in range(state.num_players) if state.farmers[p][f]]
    if state.solo and state.zara_farmers[f]:
        entries.append((ZARA_COLOUR, state.zara_farmers[f], "Z"))
    row_y = y + 10
    width = sum(24 + 8 * len(str(n)) for _, n, _ in entries)
    fx = x - width / 2
    for colour, n, label in entries:
        fx = _farmer(canvas, fx, row_y, colour, n, label=label)
    if not entries:
        canvas.text((x, row_y), "no farmers", size=12, fill=SOFT_INK, anchor="mm")
    if state.solo and state.zara_farmland == f:
        canvas.text((x, y + 32), "Zara's mule", size=12, fill="white", anchor="mm",
                    stroke=ZARA_COLOUR)
    canvas.house(_polar(BOARD_RADIUS - 18, a), 16, fill=FARMLAND_COLOURS[f])


def _legend(canvas: Canvas, state: AlpujarrasState) -> None:
    """Fruit colours, the field and channel symbols and the crop bag's composition (its order is
    hidden)."""
    y = HEIGHT - 56
    x = 14
    for t, name in enumerate(C.FRUITS):
        _fruit_disc(canvas, (x + 8, y), t)
        canvas.text((x + 20, y), name, size=13, fill=INK, anchor="lm")
        x += 30 + 8 * len(name)
    counts = [0] * C.NUM_FRUITS
    for k in state.bag:
        counts[k] += 1
    y = HEIGHT - 34
    canvas.text((14, y), "crop bag", size=13, fill=INK, anchor="lm")
    x = _fruit_row(canvas, 80, y, counts, show_zero=True, radius=7, gap=20)
    canvas.text((x + 10, y), "channel: blue irrigated, pale edge open", size=12, fill=SOFT_INK,
                anchor="lm")

    def coin(c: Canvas, cx: float, cy: float) -> None:
        c.circle((cx, cy), 8, fill="#e8c547", outline="#8a6d00")
        c.text((cx, cy), "1", size=11, fill=INK, anchor="mm")

    def field(c: Canvas, cx: float, cy: float) -> None:
        c.rect((cx - 7, cy - 7, cx + 7, cy + 7), fill="#f7f2e6", outline="#7d7d7d")

    items = [(coin, "a dirhem for irrigating there;"), (field, "an irrigable field;"),
             (lambda c, cx, cy: _farmer(c, cx - 7, cy, PLAYER_COLOURS[0], 2, label="0"),
              "  = 2 farmers of seat 0")]
    canvas.legend(14, HEIGHT - 12, items, right=RIGHT - 8, size=12, ink=SOFT_INK)


# --- right-hand column: towns, cards, players ----------------------------------------------------


def _towns(canvas: Canvas, state: AlpujarrasState, top: int) -> None:
    heading = "Towns: delivery tokens (number: fruit asked)" + (
        "" if state.solo else ", award token (dirhems)") + ", farmers in town"
    canvas.text((RIGHT, top - 20), heading, size=14, fill=INK)
    row_h = 33
    for w in range(C.NUM_TOWNS):
        y = top + w * row_h + row_h / 2
        canvas.rect((RIGHT, y - row_h / 2 + 2, WIDTH - 14, y + row_h / 2 - 2), fill="#fffaf0",
                    outline="#b5ab96")
        canvas.house((RIGHT + 16, y + 2), 15, fill=FARMLAND_COLOURS[w])
        canvas.text((RIGHT + 32, y), C.FARMLANDS[w], size=14, fill=INK, anchor="lm")
        x = RIGHT + 100
        for tok in state.towns[w]:
            _token(canvas, x, y, tok)
            x += 27
        if not state.towns[w]:
            canvas.text((x, y), "no tokens left", size=12, fill=SOFT_INK, anchor="lm")
        # award token
        ax = RIGHT + 250
        award = state.awards[w]
        if state.solo:
            pass
        elif award == C.AWARD_GONE:
            canvas.text((ax, y), "award gone", size=12, fill=SOFT_INK, anchor="lm")
        else:
            green, red = C.AWARDS[state.award_ids[w]]
            first = award == C.AWARD_GREEN
            colour, value = ("#2e9e3e", green) if first else ("#c62828", red)
            canvas.circle((ax + 10, y), 10, fill=colour, outline="#333333")
            canvas.text((ax + 10, y), str(value), size=12, fill="white", anchor="mm")
            canvas.text((ax + 25, y), "to the first delivery" if first else
                        "to the second delivery", size=12, fill=SOFT_INK, anchor="lm")
        x = RIGHT + 420
        for p in range(state.num_players):
            if state.town_farmers[p][w]:
                x = _farmer(canvas, x, y, PLAYER_COLOURS[p], state.town_farmers[p][w],
                            label=str(p))


def _wrap(text: str, limit: int) -> list[str]:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > limit:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line] if line else lines


def _goals(canvas: Canvas, state: AlpujarrasState, top: int) -> None:
    canvas.text((RIGHT, top - 20), "Goal cards (dirhems; players who completed them)", size=14,
                fill=INK)
    card_w = (WIDTH - 14 - RIGHT - 4 * 6) / 5
    for i in range(C.NUM_GOAL_CARDS):
        x = RIGHT + i * (card_w + 6)
        goal = C.card_goal(i, state.goal_sides[i])
        canvas.rect((x, top, x + card_w, top + 100), fill="#fffaf0", outline="#7d6f55", width=2)
        for k, line in enumerate(_wrap(C.GOALS[goal], 16)[:3]):
            canvas.text((x + 6, top + 8 + 16 * k), line, size=12, fill=INK)
        canvas.text((x + card_w - 6, top + 62), f"+{C.GOAL_REWARDS[goal]}", size=18,
                    fill="#8b0000", anchor="rm")
        done = [p for p in range(state.num_players) if state.goals_done[p][i]]
        for k, p in enumerate(done):
            canvas.circle((x + 14 + 20 * k, top + 84), 8, fill=PLAYER_COLOURS[p],
                          outline="white")
            canvas.text((x + 14 + 20 * k, top + 84), str(p), size=11, fill="white",
                        anchor="mm")


def _zakats(canvas: Canvas, state: AlpujarrasState, top: int) -> None:
    canvas.text((RIGHT, top - 20), "Zakat cards (pay one at each harvest and at the end)",
                size=14, fill=INK)
    card_w = (WIDTH - 14 - RIGHT - 4 * 6) / 5
    for i in range(C.NUM_ZAKAT_CARDS):
        x = RIGHT + i * (card_w + 6)
        side = zakat_side(state, i)
        paid = state.zakat_paid[i]
        canvas.rect((x, top, x + card_w, top + 100), fill="#e6e0d4" if paid else "#fffaf0",
                    outline="#7d6f55", width=2)
        canvas.text((x + 6, top + 6), f"card {i}" + (" (star)" if state.zakat_star[i] else ""),
                    size=12, fill=INK)
        fx = x + 8
        for t in side.fruits:
            _fruit_disc(canvas, (fx + 8, top + 38), t)
            fx += 20
        extras = []
        if side.norias:
            extras.append(f"{side.norias} noria" + ("s" if side.norias > 1 else ""))
        if side.dirhems:
            extras.append(f"{side.dirhems} dirhem" + ("s" if side.dirhems > 1 else ""))
        if side.farmer:
            extras.append("a farmer back")
        for k, line in enumerate(extras):
            canvas.text((x + 8, top + 56 + 15 * k), line, size=12, fill=INK)
        if paid:
            canvas.text((x + card_w - 8, top + 14), "PAID", size=16, fill="#2e7d32",
                        anchor="rm")


def _holdings(canvas: Canvas, state: AlpujarrasState, p: int, box: tuple[float, ...],
              score: int) -> None:
    x0, y0, x1, _ = box
    acting = p == state.current_player and not state.terminal
    canvas.rect(box, fill="#ffffff", outline=PLAYER_COLOURS[p], width=5 if acting else 2)
    canvas.circle((x0 + 16, y0 + 17), 9, fill=PLAYER_COLOURS[p], outline="white")
    canvas.text((x0 + 16, y0 + 17), str(p), size=11, fill="white", anchor="mm")
    canvas.text((x0 + 32, y0 + 17), _player_name(state, p) + ("  (to act)" if acting else ""),
                size=16, fill=INK, anchor="lm")
    canvas.text((x1 - 10, y0 + 17), f"score {score}", size=18, fill="#8b0000", anchor="rm")
    canvas.text((x0 + 10, y0 + 40), "fruit", size=12, fill=SOFT_INK, anchor="lm")
    _fruit_row(canvas, x0 + 44, y0 + 40, list(state.fruit[p]), show_zero=True, gap=20)
    canvas.text((x0 + 10, y0 + 61), f"norias {state.norias[p]}   dirhems {state.dirhems[p]}",
                size=13, fill=INK, anchor="lm")
    canvas.text((x0 + 10, y0 + 80),
                f"farmers: {state.supply[p]} in supply, {sum(state.town_farmers[p])} in towns, "
                f"{state.card_farmers[p]} on cards", size=13, fill=INK, anchor="lm")
    canvas.text((x0 + 10, y0 + 101), f"tokens ({state.markets_used[p]}/5)", size=12,
                fill=SOFT_INK, anchor="lm")
    x = x0 + 96
    for tok in state.tokens[p]:
        _token(canvas, x, y0 + 101, tok, size=18)
        x += 22


def _players(canvas: Canvas, state: AlpujarrasState, top: int) -> None:
    n = state.num_players
    scores = state.scores()
    cols = 2
    width = (WIDTH - 14 - RIGHT - 8) / cols
    rows = math.ceil(n / cols)
    height = (HEIGHT - 10 - top - 8 * (rows - 1)) / rows
    height = min(height, 118)
    for p in range(n):
        r, c = divmod(p, cols)
        x = RIGHT + c * (width + 8)
        y = top + r * (height + 8)
        _holdings(canvas, state, p, (x, y, x + width, y + height), scores[p])


def _solo_players(canvas: Canvas, state: AlpujarrasState, top: int) -> None:
    width = (WIDTH - 14 - RIGHT - 8) / 2
    _holdings(canvas, state, 0, (RIGHT, top, RIGHT + width, top + 118), state.scores()[0])
    # Zara
    x0 = RIGHT + width + 8
    canvas.rect((x0, top, WIDTH - 14, top + 118), fill="#ffffff", outline=ZARA_COLOUR, width=2)
    canvas.circle((x0 + 16, top + 17), 9, fill=ZARA_COLOUR, outline="white")
    canvas.text((x0 + 16, top + 17), "Z", size=11, fill="white", anchor="mm")
    canvas.text((x0 + 32, top + 17), "Zara", size=16, fill=INK, anchor="lm")
    canvas.text((WIDTH - 24, top + 17), f"score {state.zara_score()}", size=18,
                fill="#8b0000", anchor="rm")
    canvas.text((x0 + 10, top + 40),
                f"mule in {C.FARMLANDS[state.zara_farmland]}   dirhems {state.zara_dirhems}",
                size=13, fill=INK, anchor="lm")
    canvas.text((x0 + 10, top + 61),
                f"farmers: supply {state.zara_supply}, farmlands {sum(state.zara_farmers)}",
                size=13, fill=INK, anchor="lm")
    canvas.text((x0 + 10, top + 101), "tokens", size=12, fill=SOFT_INK, anchor="lm")
    x = x0 + 56
    for tok in state.zara_tokens:
        _token(canvas, x, top + 101, tok, size=18)
        x += 22
    # the double-turn card
    y = top + 134
    canvas.text((RIGHT, y), "Double-turn card (stops behind Zara's die left):", size=14,
                fill=INK, anchor="lm")
    for k in range(max(C.DOUBLE_TURNS_RANGE) + 1):
        bx = RIGHT + 330 + k * 34
        canvas.rect((bx, y - 13, bx + 28, y + 13), fill="#fffaf0", outline="#7d6f55")
        canvas.text((bx + 14, y), str(k), size=13, fill=SOFT_INK, anchor="mm")
        if k == state.double_turns:
            canvas.circle((bx + 14, y), 10, fill=PLAYER_COLOURS[0], outline="white")
            canvas.text((bx + 14, y), str(k), size=12, fill="white", anchor="mm")
    kinds = sorted({C.token_fruit(t) for t in state.tokens[0]})
    y += 34
    canvas.text((RIGHT, y), "Kinds delivered:", size=14, fill=INK, anchor="lm")
    x = RIGHT + 130
    for t in kinds:
        _fruit_disc(canvas, (x, y), t)
        x += 22
    canvas.text((x + 8, y), f"{len(kinds)}/5 kinds, {sum(state.zakat_paid)}/5 zakats paid",
                size=14, fill=INK, anchor="lm")
