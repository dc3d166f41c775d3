"""The mutable Finca game state: plain Python lists and ints, cheap to copy and to serialise.

Derived per-player tallies of the fruit tiles won (counts by value, printed symbols, points) are
kept up to date by the rules so that masks, bonuses, finca awards and observations never rescan
displays; `check_consistency` recomputes them from scratch for the tests.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.state_base import BOOL, INT, LIST, ROWS, TUPLES, VALUE, Kind, SlottedState, StateFields
from . import components as C
from . import rules
from .actions import N_ACTIONS
from .observation import note_changes, observe

CART_SHORTAGE_MODES = ("reset_then_take", "take_then_reset")


def _dump_catalogue(catalogue: tuple[C.FruitTile, ...]) -> list[dict[str, Any]]:
    return [{"fixed": list(t.fixed), "wild": t.wild, "value": t.value} for t in catalogue]


def _load_catalogue(data: list[dict[str, Any]]) -> tuple[C.FruitTile, ...]:
    return tuple(
        C.FruitTile(i, tuple(t["fixed"]), int(t["wild"]), int(t["value"]))
        for i, t in enumerate(data)
    )


# the fruit tiles in play: the printed ones unless a scenario deals others (saved only then)
CATALOGUE = Kind("fruit tiles", copy="{}", dump=_dump_catalogue, load=_load_catalogue,
                 default=C.FRUIT_TILES, omit=lambda catalogue: catalogue is C.FRUIT_TILES)

FIELDS = StateFields(
    "finca",
    LIST(
        "blades", "supply", "carts", "boxed", "revealed", "finca_tile", "wooden",
        "fincas_removed", "bonus_stack", "committed", "tile_points", "wild_symbols",
        "farmer_counts", "blade_total",
    ),
    TUPLES("selected"),  # (community, wild fruit, omitted fruit) per selection
    ROWS(
        "farmers", "fruits", "unused", "stacks", "displays", "fincas_won", "bonuses",
        "value_counts", "printed",
    ),
    INT(
        "num_players", "centre_carts", "carts_in_play", "wooden_reserve", "phase",
        "current_player", "intro_left", "steps", "turns", "gust_source", "mode", "cap_left",
        "pending", "pending_wild",
    ),
    BOOL("reduce_pending", "terminal"),
    VALUE.with_default("reset_then_take")("cart_shortage"),  # older records lack it
    CATALOGUE("catalogue"),
    # caches: the read-only board and observation parts are shared, the rows copied, and each
    # clone gets a mask of its own (_clone_caches)
    shared=("version", "material_version", "board_version", "_board_cache", "_obs_cache"),
    copied=("seat_versions", "_row_cache"),
    own=("_mask", "_mask8", "_mask_version"),
)


class FincaState(SlottedState):
    """A Finca game in progress. Create with `huerta.envs.finca.new_game`.

    Seats are 0..n-1 clockwise; seat 0 starts the introduction and the main phase.
    Each community's stack is a list with its face-up top tile last.
    """

    state_fields = FIELDS
    __slots__ = FIELDS.slots

    def __init__(self) -> None:
        self.catalogue: tuple[C.FruitTile, ...] = C.FRUIT_TILES
        self.cart_shortage = "reset_then_take"
        self.version = 0  # bumped by every action: the mask cache key
        # the observation's cache keys and parts (observation.note_changes keeps them)
        self.material_version = 0
        self.board_version = 0
        self._board_cache = None
        self._obs_cache = None
        self.seat_versions = [0] * 4
        self._row_cache: list = [None] * 4
        self._mask = np.zeros(N_ACTIONS, dtype=bool)
        self._mask8 = self._mask.view(np.int8)  # the same bytes, for action_mask
        self._mask_version = -1

    def invalidate(self) -> None:
        """Drop cached masks and observation parts; call after editing fields by hand."""
        self.version += 1
        self.material_version += 1
        self.board_version += 1
        self._board_cache = None
        self._obs_cache = None
        self._row_cache = [None] * 4

    # --- the engine protocol -------------------------------------------------------------
    @property
    def is_terminal(self) -> bool:
        return self.terminal

    def legal_mask(self) -> np.ndarray:
        if self._mask_version != self.version:
            rules.write_legal_mask(self, self._mask)
            self._mask_version = self.version
        return self._mask

    def action_mask(self) -> np.ndarray:
        """The legal actions as a fresh int8 vector (a copy of the int8 view of the mask)."""
        self.legal_mask()
        return self._mask8.copy()

    def apply(self, action: int) -> None:
        changes = rules.apply(self, action)  # raises, changing nothing, if `action` is illegal
        self.version += 1
        note_changes(self, changes)

    def scores(self) -> list[int]:
        return [rules.score(self, p) for p in range(self.num_players)]

    def ranking_keys(self) -> list[tuple]:
        # FIN-45: ties on score are broken by the fruits a player holds.
        return [(rules.score(self, p), sum(self.fruits[p])) for p in range(self.num_players)]

    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        return observe(self, player, out)

    def describe(self, action: int) -> str:
        from .actions import describe

        return describe(self, action)

    def summary(self, player: int) -> str:
        """One line of what `player` holds: fruit, carts, tiles, score (for transcripts)."""
        fruit = " ".join(f"{C.FRUIT_LETTERS[f]}{n}" for f, n in enumerate(self.fruits[player]))
        return (
            f"P{player} fruit {fruit} carts {self.carts[player]} "
            f"tiles {len(self.displays[player])} score {rules.score(self, player)}"
        )

    def render_text(self) -> str:
        from .render import render_text

        return render_text(self)

    def render_rgb(self) -> np.ndarray:
        """The state as a picture (H, W, 3) uint8; needs Pillow."""
        from .picture import render_rgb

        return render_rgb(self)

    def determinize(self, player: int, rng: np.random.Generator) -> FincaState:
        """Reshuffle every tile nobody has seen (face-down stack tiles and the boxed ones).

        Finca has no private information, so the result is the same for every player.
        """
        state = self.clone()
        hidden_slots = [
            (c, i) for c, stack in enumerate(state.stacks) for i in range(len(stack) - 1)
        ]
        # sorted first, so that the result depends only on what is public and on rng
        pool = sorted([state.stacks[c][i] for c, i in hidden_slots] + list(state.boxed))
        order = rng.permutation(len(pool))
        pool = [pool[i] for i in order]
        for (c, i), tile in zip(hidden_slots, pool[: len(hidden_slots)], strict=True):
            state.stacks[c][i] = tile
        state.boxed = pool[len(hidden_slots):]
        return state

    def _clone_caches(self, new: FincaState) -> None:
        new._mask = np.zeros(N_ACTIONS, dtype=bool)
        new._mask8 = new._mask.view(np.int8)
        new._mask_version = -1

    # --- invariants ---------------------------------------------------------------------------
    def check_consistency(self) -> list[str]:
        """Every broken invariant (FIN-51 conservation and the derived tallies), as messages."""
        problems: list[str] = []
        n = self.num_players
        if n not in C.SETUP:
            return [f"num_players={n} not in {list(C.SETUP)}"]
        setup = C.SETUP[n]
        shapes = {
            "blades": (len(self.blades), C.NUM_BLADES), "supply": (len(self.supply), C.NUM_FRUITS),
            "farmers": (len(self.farmers), n), "fruits": (len(self.fruits), n),
            "carts": (len(self.carts), n), "stacks": (len(self.stacks), C.NUM_COMMUNITIES),
            "displays": (len(self.displays), n),
        }
        for name, (got, want) in shapes.items():
            if got != want:
                problems.append(f"{name} has length {got}, expected {want}")
        if problems:
            return problems
        for f in range(C.NUM_FRUITS):
            total = self.supply[f] + sum(self.fruits[p][f] for p in range(n))
            if total != C.FRUITS_PER_TYPE:
                problems.append(f"{C.FRUITS[f]}: supply + holdings = {total}, expected 18")
            if self.supply[f] < 0 or any(self.fruits[p][f] < 0 for p in range(n)):
                problems.append(f"{C.FRUITS[f]}: negative count")
        if self.centre_carts + sum(self.carts) != self.carts_in_play or min(self.carts) < 0:
            problems.append(
                f"carts: centre {self.centre_carts} + players {sum(self.carts)} "
                f"!= {self.carts_in_play} in play"
            )
        totals = [sum(self.farmers[p][b] for p in range(n)) for b in range(C.NUM_BLADES)]
        if totals != self.blade_total:
            problems.append("blade_total does not match the farmers on each blade")
        done = sum(self.farmer_counts) - self.intro_left
        for p in range(n):
            placed_by_p = done // n + (1 if p < done % n else 0)
            if sum(self.farmers[p]) != placed_by_p:
                problems.append(
                    f"player {p} has {sum(self.farmers[p])} farmers on the windmill, "
                    f"expected {placed_by_p}"
                )
        ids = [t for s in self.stacks for t in s] + self.boxed
        ids += [t for d in self.displays for t in d]
        if sorted(ids) != list(range(len(self.catalogue))):
            problems.append("fruit tiles: stacks + displays + box are not each tile exactly once")
        fincas = [f for f in self.finca_tile if f >= 0] + self.fincas_removed
        fincas += [f for won in self.fincas_won for f in won]
        if sorted(fincas) != list(range(C.NUM_FINCA_TILES)):
            problems.append("finca tiles: board + won + removed are not each tile exactly once")
        if self.wooden_reserve + sum(self.wooden) != setup.wooden_fincas:
            problems.append("wooden fincas: reserve + placed != setup count")
        for p in range(n):
            tallies = rules.tally_display(self.catalogue, self.displays[p])
            if tallies != (
                self.value_counts[p], self.printed[p], self.wild_symbols[p], self.tile_points[p]
            ):
                problems.append(f"player {p}: display tallies out of date")
        return problems

