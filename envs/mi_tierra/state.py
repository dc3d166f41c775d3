"""The mutable Mi Tierra game state: plain Python lists and ints, cheap to copy and to serialise.

Chance during play (dice) comes from the state's own `np.random.Generator`, whose bit-generator
state is part of `to_dict`, so a clone or a round trip through JSON rolls the same dice. The
market pile and the development deck are shuffled once at setup and stored face down in order
(the top is the last element). `check_consistency` recomputes every derived tally and checks
that no piece is lost or duplicated; the tests call it after every step of random games.

Memory: the legal-action masks are shared between states through one table per process
(`_MaskTable`), bounded to two generations of `_MASK_GENERATION` (16,384) masks of about 660
bytes each, so at most about 21 MB however long a process plays (the unbounded table it replaces
grew to about 120 MB before it was cleared). Everything else a state holds is its own.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.state_base import (
    BOOL,
    BOOL_ROWS,
    BOOLS,
    INT,
    INT_ROWS,
    INTS,
    Kind,
    SlottedState,
    StateFields,
)
from . import components as C
from . import rules
from .actions import N_ACTIONS, Decision, Stage
from .decisions import legal_actions
from .groups import EVERYTHING
from .observation import observe


def _new_rng_like(rng: np.random.Generator) -> np.random.Generator:
    bit_gen = np.random.PCG64(0)
    bit_gen.state = rng.bit_generator.state
    return np.random.Generator(bit_gen)


def _rng_from_state(state: dict[str, Any]) -> np.random.Generator:
    bit_gen = np.random.PCG64(0)
    bit_gen.state = state
    return np.random.Generator(bit_gen)


# the dice: a generator whose bit-generator state is saved, so a clone or a round trip through
# JSON rolls the same dice
DICE = Kind("a PCG64 generator", copy=_new_rng_like, dump=lambda rng: rng.bit_generator.state,
            load=_rng_from_state)

FIELDS = StateFields(
    "mi_tierra",
    INT(
        "num_players", "round", "stage", "decision", "current_player", "steps", "qpos", "sub",
        "clock", "place_counter", "perms_seen", "event_card", "die_face", "pending_tile",
        "sale_slot", "bm_buys", "place_pos", "dev_cost", "farm_step",
    ),
    BOOL("end_triggered", "pile_ran_out", "terminal", "explicit_chance", "chance_pending",
         "rerolling"),
    INTS("money", "stamp", "owned", "hut"),
    BOOLS("retired"),
    INTS("cake", "cloth"),
    BOOLS("studies_used"),
    INTS("space_owner"),
    BOOLS("space_pair"),
    INTS("space_seq", "pile", "removed", "est", "closing", "discard"),
    BOOLS("revealed"),
    INTS("dev_deck", "display", "order", "queue", "bm_workers", "known_depth", "sale_units",
         "reorder_left", "reorder_done"),
    INT_ROWS("goods", "tiles", "barn_kind", "barn_count"),
    BOOL_ROWS("farm_workers", "devs"),
    INT_ROWS("known", "known_set"),
    DICE("rng"),
    # derived from the fields (_after_load) and caches: the masks are read-only and shared, the
    # observation parts are updated in place, so a clone builds its own (_clone_caches)
    shared=("options", "occupied", "_mask", "_mask8", "_mask_options"),  # never modified in place
    copied=("_cells_cache",),  # entries are never modified: safe to share
    own=("is_terminal", "touched", "touched_spaces", "touched_cards", "_views", "_players"),
)


class MiTierraState(SlottedState):
    """A Mi Tierra game in progress. Create with `huerta.envs.mi_tierra.new_game`.

    Seats are 0..n-1; seat 0 is the start player. `order` is the current turn order (seats).
    Money, goods, farms, workers and development cards are public (G-68); the market pile order,
    the 7 removed A cards and the development deck order are hidden, and each player's Clock
    Tower knowledge is private to that player: `known[p]` lists the cards at the top of the pile in
    order (top first); after another player rearranged them, `known_set[p]` lists them without
    order, all lying within the top `known_depth[p]` cards.
    """

    state_fields = FIELDS
    __slots__ = FIELDS.slots

    def __init__(self) -> None:
        # the legal actions of the pending decision, listed by the rules when they reach it
        # (G-71 needs them: one option is taken at once); empty at the end or before a roll
        self.options: list[int] = []
        self._mask, self._mask8 = _NO_MASKS
        self._mask_options = None  # the options list the masks were made from
        self.occupied = 0  # bit i set when board space i holds a worker (from space_owner)
        self._cells_cache: list = [None] * C.MAX_SEATS
        # what the rules changed since the observation last looked (groups.py; observation.py
        # reads and clears it): the groups, the board spaces and the cards drawn by index; the
        # observation's parts (not serialised): `_views` (every observer's vector but the
        # player rows) and `_players` (the player rows), updated in place
        self.touched = EVERYTHING
        self.touched_spaces: list[int] = []
        self.touched_cards: list[int] = []
        self._views = None
        self._players = None
        self.rng: np.random.Generator = None  # set by new_game, from_dict and clone
        # the engine protocol's flag, a plain attribute (read twice an agent step): always
        # equal to `terminal`, which the rules set (see flow.py) and records store
        self.is_terminal = False

    def invalidate(self) -> None:
        """Recompute what derives from the fields and drop the masks and observation parts;
        call after editing fields by hand."""
        self.occupied = _occupied_bits(self.space_owner)
        self._cells_cache = [None] * C.MAX_SEATS
        self.options = legal_actions(self)
        self._mask_options = None
        self.touched = EVERYTHING
        self.touched_spaces = []
        self.touched_cards = []
        self._views = None
        self._players = None

    # --- the engine protocol ------------------------------------------------------------------
    def legal_list(self) -> list[int]:
        """The legal action ids (the state's own list: do not modify it)."""
        return self.options

    def legal_mask(self) -> np.ndarray:
        """The legal actions as a read-only bool vector (shared between states: do not modify)."""
        if self._mask_options is not self.options:
            self._mask, self._mask8 = _MASKS[tuple(self.options)]
            self._mask_options = self.options
        return self._mask

    def action_mask(self) -> np.ndarray:
        """The legal actions as a fresh int8 vector (a copy of the shared int8 twin of
        `legal_mask()`, cheaper than converting it)."""
        if self._mask_options is not self.options:
            self.legal_mask()
        return self._mask8.copy()

    def legal_actions(self) -> list[int]:
        return list(self.legal_list())

    apply = rules.apply

    def scores(self) -> list[int]:
        from .rules import score

        return [score(self, p) for p in range(self.num_players)]

    def ranking_keys(self) -> list[tuple]:
        # MIT-97/98, G-67: money after the final sale, then the goods left over after the exchange.
        from .rules import leftover, score

        return [(score(self, p), leftover(self, p)) for p in range(self.num_players)]

    observe = observe

    def describe(self, action: int) -> str:
        from .actions import describe

        return describe(self, action)

    def summary(self, player: int) -> str:
        """One line of what `player` holds (for transcripts)."""
        from .render import player_summary

        return player_summary(self, player)

    def render_text(self) -> str:
        from .render import render_text

        return render_text(self)

    def render_rgb(self) -> np.ndarray:
        """The public state as a picture, (900, 1400, 3) uint8 (`picture.render_rgb`)."""
        from .picture import render_rgb

        return render_rgb(self)

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """With `explicit_chance=True`, the die faces 1-6 (probability 1/6 each) while a roll is
        pending (`current_player == -1`); otherwise empty, because dice are rolled inside
        `apply` from the state's generator."""
        if self.chance_pending:
            return [(face, 1.0 / C.DIE_FACES) for face in range(1, C.DIE_FACES + 1)]
        return []

    def apply_chance(self, face: int) -> None:
        """Resolve the pending roll with `face` (explicit-chance mode only)."""
        rules.apply_chance(self, face)

    def determinize(self, player: int, rng: np.random.Generator) -> MiTierraState:
        """A copy consistent with everything `player` has seen: the market cards it does not
        know (pile positions it has not peeked, and the 7 removed A cards) are dealt again among
        the positions of the same deck letter, the development deck is reshuffled, and future
        dice are drawn from a fresh generator. What `player` peeked stays where it is."""
        from .market import determinize_pile

        state = self.clone()
        determinize_pile(state, player, rng)
        deck = sorted(state.dev_deck)  # sorted first: the result depends on public facts only
        state.dev_deck = [deck[i] for i in rng.permutation(len(deck))]
        state.rng = np.random.default_rng(int(rng.integers(0, 2**63 - 1)))
        state.invalidate()
        return state

    def _clone_caches(self, new: MiTierraState) -> None:
        new.is_terminal = self.terminal
        new.touched = EVERYTHING
        new.touched_spaces = []
        new.touched_cards = []
        new._views = None
        new._players = None

    def _after_load(self) -> None:
        self.occupied = _occupied_bits(self.space_owner)
        self.is_terminal = self.terminal
        self.options = legal_actions(self)

    # --- invariants ------------------------------------------------------------------------------
    def check_consistency(self) -> list[str]:
        """Every broken invariant, as messages (empty when the state is sound)."""
        from .invariants import consistency_problems

        return consistency_problems(self)

    # --- small queries used everywhere ------------------------------------------------------------
    def event_in_force(self) -> int:
        """The permanent event in force (components.EVENTS index), or -1."""
        card = self.event_card
        return C.MARKET_CARDS[card].event if card >= 0 else -1

    def workers_placed(self, player: int) -> int:
        """Workers of `player` on the board (pairs count two), on the farm and at the Black
        Market; with the hut they make up the workers owned (MIT-01, MIT-28)."""
        on_board = 0
        owner = self.space_owner
        pair = self.space_pair
        for i in range(C.NUM_SPACES):
            if owner[i] == player:
                on_board += 2 if pair[i] else 1
        return on_board + sum(self.farm_workers[player]) + self.bm_workers.count(player)


def _occupied_bits(owner: list[int]) -> int:
    """The `occupied` bitmask of a board (bit i set when space i holds a worker)."""
    bits = 0
    for i, q in enumerate(owner):
        if q >= 0:
            bits |= 1 << i
    return bits


# Masks kept per generation of the table below: a process holds at most two generations, 2 x
# 16,384 entries of about 660 bytes (the key tuple about 190, the two arrays and their buffer
# about 470), about 21 MB. Random play keeps meeting new legal sets (70,000 distinct ones in
# 515,000 steps of 2-4 player games), so no size makes every lookup a hit: over those steps an
# unbounded table built 13.6% of the masks and this one builds 16.5%, about 35 ns (0.2%) a step.
_MASK_GENERATION = 16_384


class _MaskTable(dict):
    """Read-only legal-action masks, bool and int8, by the tuple of legal ids, bounded in memory.

    A hit is one plain dict lookup, with no bookkeeping. The table is the young generation;
    when it is full it becomes the old one (the previous old one is dropped) and a fresh young
    one starts, and a miss finds a mask in the old generation before building it, so masks in
    use survive a turnover (a least-recently-used cache in effect, at no cost per hit). Random
    play meets tens of thousands of distinct sets and most recur: a bounded table that dropped
    everything when full made the env slower, one that keeps the recent sets does not.
    """

    __slots__ = ("old",)

    def __init__(self) -> None:
        super().__init__()
        self.old: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}

    def __missing__(self, legal: tuple) -> tuple[np.ndarray, np.ndarray]:
        masks = self.old.get(legal)
        if masks is None:
            flags = bytearray(N_ACTIONS)
            for action in legal:
                flags[action] = 1
            # both masks view these immutable bytes, so they are read-only; the int8 one as a
            # view of the bool one (cheaper than a second frombuffer)
            mask = np.frombuffer(bytes(flags), dtype=bool)
            masks = (mask, mask.view(np.int8))
        if len(self) >= _MASK_GENERATION:  # bounded memory: this generation becomes the old one
            self.old = dict(self)
            self.clear()
        self[legal] = masks
        return masks


_MASKS = _MaskTable()
_NO_MASKS = _MASKS[()]


__all__ = ["Decision", "MiTierraState", "Stage"]
