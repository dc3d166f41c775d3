"""Finca as a picture (the `rgb_array` render): the windmill with its blades, fruit and farmers,
the ten communities with their top tiles and finca tiles, and every player's holdings and score.

Drawn with Pillow, imported only when a picture is asked for; no display is needed.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from ..core.pictures import Canvas
from . import components as C
from .actions import DeliveryMode, Phase

if TYPE_CHECKING:
    from .state import FincaState

WIDTH, HEIGHT = 1200, 820
FRUIT_COLOURS = ("#b8578f", "#d9b382", "#6b8e23", "#ff8c1a", "#3d2b8f", "#f2d530")
PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#17becf")
ACTION_TILE_NAMES = ("Double move", "Gust of wind", "Large cart", "1 fruit less")
SHORT_ACTION_TILE_NAMES = ("Double", "Gust", "Large", "1 less")  # four players: narrow panels
INK = "#222222"


def render_rgb(state: FincaState) -> np.ndarray:
    """The whole state as an RGB image of shape (820, 1200, 3), dtype uint8."""
    canvas = Canvas(WIDTH, HEIGHT, background="#f4efe4")
    _title(canvas, state)
    _windmill(canvas, state, cx=290, cy=300, radius=205)
    _legend(canvas, 22, 546)
    _communities(canvas, state, left=585, top=56)
    _players(canvas, state, top=610)
    return canvas.to_array()


def _title(canvas: Canvas, state: FincaState) -> None:
    if state.terminal:
        winners = ", ".join(f"player_{w}" for w in state.winners())
        text = f"Finca, {state.num_players} players: game over after {state.turns} turns. " \
               f"Winner: {winners}"
    else:
        text = (f"Finca, {state.num_players} players, turn {state.turns}: player_"
                f"{state.current_player} to act ({Phase(state.phase).name.lower()})")
    canvas.text((20, 14), text, size=22, fill="#222222")


def _windmill(canvas: Canvas, state: FincaState, cx: int, cy: int, radius: int) -> None:
    inner = 62
    for b in range(C.NUM_BLADES):
        # blade 0 at 12 o'clock, clockwise
        start = -90 + 30 * b - 15
        canvas.pieslice((cx, cy), radius, start, start + 30, fill=FRUIT_COLOURS[state.blades[b]],
                        outline="#3b3b3b")
    canvas.circle((cx, cy), inner, fill="#8b5a2b", outline="#3b3b3b")
    canvas.text((cx, cy - 14), f"carts {state.centre_carts}", size=16, fill="white", anchor="mm")
    canvas.text((cx, cy + 10), f"of {state.carts_in_play}", size=14, fill="white", anchor="mm")
    for line_blade in C.LINE_BLADES:  # a dividing line lies just before blades 0 and 6
        angle = math.radians(-90 + 30 * line_blade - 15)
        x0, y0 = cx + inner * math.cos(angle), cy + inner * math.sin(angle)
        x1, y1 = cx + (radius + 18) * math.cos(angle), cy + (radius + 18) * math.sin(angle)
        canvas.line((x0, y0, x1, y1), fill="#111111", width=6)
        canvas.text((x1 + 28 * math.cos(angle), y1 + 12 * math.sin(angle)), "cart line",
                    size=13, fill="#111111", anchor="mm")
    for b in range(C.NUM_BLADES):
        angle = math.radians(-90 + 30 * b)
        lx, ly = cx + (radius + 14) * math.cos(angle), cy + (radius + 14) * math.sin(angle)
        canvas.text((lx, ly), f"{b}", size=15, fill="#111111", anchor="mm")
        canvas.text((cx + (radius - 30) * math.cos(angle), cy + (radius - 30) * math.sin(angle)),
                    C.FRUITS[state.blades[b]], size=13, fill="#111111", anchor="mm",
                    stroke="white")
        dots = [p for p in range(state.num_players) for _ in range(state.farmers[p][b])]
        for k, p in enumerate(dots):
            ring = radius - 62 - 18 * (k // 3)
            offset = math.radians((k % 3 - 1) * 7)
            x = cx + ring * math.cos(angle + offset)
            y = cy + ring * math.sin(angle + offset)
            canvas.circle((x, y), 8, fill=PLAYER_COLOURS[p], outline="white")


def _fruit_row(canvas: Canvas, x: float, y: float, counts: list[int], wild: int = 0,
               size: int = 9, gap: int = 10) -> float:
    """Coloured discs with counts for each non-zero fruit (and '?' for wild); returns end x."""
    for f, n in enumerate(counts):
        if n:
            canvas.circle((x + size, y), size, fill=FRUIT_COLOURS[f], outline="#333333")
            canvas.text((x + 2 * size + 3, y), str(n), size=14, fill="#111111", anchor="lm")
            x += 2 * size + 3 + canvas.text_width(str(n), 14) + gap
    if wild:
        _wild_disc(canvas, x + size, y, size)
        canvas.text((x + 2 * size + 3, y), str(wild), size=14, fill="#111111", anchor="lm")
        x += 2 * size + 3 + canvas.text_width(str(wild), 14) + gap
    return x


def _wild_disc(canvas: Canvas, x: float, y: float, size: float = 9) -> None:
    """A wild symbol: a white disc with '?'."""
    canvas.circle((x, y), size, fill="white", outline="#333333")
    canvas.text((x, y), "?", size=13, fill="#111111", anchor="mm")


def _finca_disc(canvas: Canvas, x: float, y: float, finca: int, size: float = 9) -> float:
    """A finca tile as it is printed: a disc per pictured fruit, or for the universal tile a disc
    of every fruit colour; returns the x after it."""
    tile = C.FINCA_TILES[finca]
    if tile.universal:
        for f in range(C.NUM_FRUITS):
            start = -90 + 60 * f
            canvas.pieslice((x + size, y), size, start, start + 60, fill=FRUIT_COLOURS[f])
        canvas.circle((x + size, y), size, fill=None, outline="#333333")
        return x + 2 * size + 4
    for f in tile.fruits:
        canvas.circle((x + size, y), size, fill=FRUIT_COLOURS[f], outline="#333333")
        x += 2 * size + 3
    return x + 1


def _communities(canvas: Canvas, state: FincaState, left: int, top: int) -> None:
    canvas.text((left, top - 4), "Communities: top tile [value], tiles beneath, finca tile",
                size=16, fill="#222222")
    box_w, box_h = 295, 88
    selected = {c for c, _, _ in state.selected}
    for c in range(C.NUM_COMMUNITIES):
        col, row = c % 2, c // 2
        x, y = left + col * (box_w + 10), top + 22 + row * (box_h + 6)
        stack = state.stacks[c]
        outline = "#d62728" if c in selected or c == state.pending else "#6b6b6b"
        canvas.rect((x, y, x + box_w, y + box_h), fill="#fffaf0" if stack else "#e0d6c2",
                    outline=outline, width=3 if outline != "#6b6b6b" else 1)
        canvas.text((x + 8, y + 14), f"C{c}", size=16, fill="#222222", anchor="lm")
        if stack:
            tile = state.catalogue[stack[-1]]
            end = _fruit_row(canvas, x + 42, y + 16, list(tile.fixed), tile.wild, size=8, gap=7)
            canvas.text((end + 2, y + 16), f"[{tile.value}]", size=16, fill="#8b0000",
                        anchor="lm")
            if tile.wild:  # G-05: every ? of a tile is paid with one kind
                canvas.text((end + 34, y + 16), f"{tile.wild} of any one kind", size=13,
                            fill="#444444", anchor="lm")
            canvas.text((x + 8, y + 40), f"{len(stack) - 1} beneath", size=13, fill="#444444",
                        anchor="lm")
        else:
            canvas.text((x + 42, y + 16), "emptied", size=14, fill="#444444", anchor="lm")
        finca = state.finca_tile[c]
        fy = y + 66
        if finca >= 0:
            canvas.text((x + 8, fy), "finca (5):", size=13, fill="#222222", anchor="lm")
            end = _finca_disc(canvas, x + 80, fy, finca)
            if C.FINCA_TILES[finca].universal:
                canvas.text((end + 4, fy), "most fruit tile points", size=13, fill="#222222",
                            anchor="lm")
        else:
            canvas.text((x + 8, fy), "finca tile resolved", size=13, fill="#666666",
                        anchor="lm")
        if state.wooden[c]:
            canvas.house((x + box_w - 28, y + 58), 18, fill="#a0522d")
    bonus = " ".join(str(v) for v in reversed(state.bonus_stack)) or "none"
    y = top + 22 + 5 * (box_h + 6) + 2
    canvas.text((left, y), f"Wooden fincas left: {state.wooden_reserve}    Bonus stack (top "
                f"first): {bonus}", size=14, fill="#222222")
    canvas.text((left, y + 30), "Supply", size=14, fill="#222222", anchor="lm")
    _fruit_row(canvas, left + 52, y + 30, list(state.supply), size=8)


def _legend(canvas: Canvas, left: int, y: int) -> None:
    """What the colours and symbols mean: the fruits, the wild symbol, a tile's points, the finca
    tiles, the wooden finca, the farmers and the cart lines."""
    def fruit(f: int):
        return lambda c, x, cy: c.circle((x, cy), 8, fill=FRUIT_COLOURS[f], outline="#333333")

    items = [(fruit(f), name) for f, name in enumerate(C.FRUITS)]
    items.append((lambda c, x, cy: _wild_disc(c, x, cy, 8), "wild: any one kind"))
    canvas.legend(left, y, items, right=575)
    canvas.legend(left, y + 22, [
        (None, "[3] a fruit tile's points;"),
        (lambda c, x, cy: _finca_disc(c, x - 8, cy, 0, 8),
         "finca (5): 5 points for the most of its fruit on won tiles"),
    ], right=575)
    canvas.legend(left, y + 44, [
        (lambda c, x, cy: _finca_disc(c, x - 8, cy, len(C.FINCA_TILES) - 1, 8),
         "the most tile points;"),
        (lambda c, x, cy: c.house((x, cy + 1), 14, fill="#a0522d"), "wooden finca;"),
        (lambda c, x, cy: c.circle((x, cy), 7, fill=PLAYER_COLOURS[0], outline="white"),
         "a farmer"),
    ], right=575)


def _players(canvas: Canvas, state: FincaState, top: int) -> None:
    n = state.num_players
    width = (WIDTH - 40) // n
    scores = state.scores()
    for p in range(n):
        x = 20 + p * width
        acting = p == state.current_player and not state.terminal
        canvas.rect((x, top, x + width - 10, HEIGHT - 12), fill="#ffffff",
                    outline=PLAYER_COLOURS[p], width=5 if acting else 2)
        canvas.circle((x + 18, top + 20), 9, fill=PLAYER_COLOURS[p], outline="white")
        label = f"player_{p}" + ("  (to act)" if acting else "")
        canvas.text((x + 34, top + 20), label, size=17, fill="#111111", anchor="lm")
        canvas.text((x + width - 20, top + 20), f"{scores[p]} pts", size=20, fill="#8b0000",
                    anchor="rm")
        canvas.text((x + 10, top + 48), "fruit", size=13, fill="#444444", anchor="lm")
        _fruit_row(canvas, x + 46, top + 48, list(state.fruits[p]), size=8)
        bonuses = ", ".join(map(str, state.bonuses[p])) or "-"
        canvas.text((x + 10, top + 74), f"carts {state.carts[p]}    bonus tiles {bonuses}",
                    size=14, fill="#111111", anchor="lm")
        tiles = sorted(state.catalogue[t].value for t in state.displays[p])
        canvas.text((x + 10, top + 100), "tiles " + (" ".join(map(str, tiles)) or "-"),
                    size=14, fill="#111111", anchor="lm")
        canvas.text((x + 10, top + 126), "fincas", size=14, fill="#111111", anchor="lm")
        fx = x + 62
        for f in state.fincas_won[p]:  # each tile framed, so a two-fruit tile reads as one
            tile = C.FINCA_TILES[f]
            discs = 1 if tile.universal else len(tile.fruits)
            canvas.rect((fx - 4, top + 115, fx + discs * 19 + 1, top + 137), fill="#f4e9d0",
                        outline="#8b5a2b")
            fx = _finca_disc(canvas, fx, top + 126, f, size=8) + 12
        if not state.fincas_won[p]:
            canvas.text((fx, top + 126), "-", size=14, fill="#111111", anchor="lm")
        names = ACTION_TILE_NAMES if n < 4 else SHORT_ACTION_TILE_NAMES
        unused = [name for name, free in zip(names, state.unused[p], strict=True) if free]
        canvas.text((x + 10, top + 152), "action tiles: " + (", ".join(unused) or "all used"),
                    size=13, fill="#111111", anchor="lm")
        if acting and state.mode != DeliveryMode.NONE:
            canvas.text((x + 10, top + 178),
                        f"delivering ({DeliveryMode(state.mode).name.lower()}), cap left "
                        f"{state.cap_left}", size=13, fill="#d62728", anchor="lm")
