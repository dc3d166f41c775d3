"""The mutable Alpujarras game state: plain Python lists and ints, cheap to copy and to serialise.

Chance during play comes only from two sequences fixed at reset from the game's generator: the
crop bag in draw order (`bag`, drawn from the end) and the die rolls still to come (`rolls`, used
from the end). Both are part of `to_dict`, so clone/to_dict/from_dict reproduce a game exactly;
neither reaches an observation (only the bag's composition does), and `determinize` reshuffles
the bag and redraws the rolls.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from ..core.errors import CorruptRecordError
from ..core.state_base import BOOL, INT, LIST, ROWS, STR, SlottedState, StateFields
from ..core.validation import check_action
from . import components as C
from . import effects, observation, rules
from .actions import N_ACTIONS
from .groups import ALL_GROUPS

FIELDS = StateFields(
    "alpujarras",
    INT(
        "num_players", "current_player", "phase", "steps", "turns", "pend_place", "place_target",
        "pend_move", "pend_irrigate", "pend_norias", "pend_fruit", "chain", "sel_farmland",
        "move_src", "forced_dst", "swap_return", "pending_card", "spend_k", "p2_first_farmland",
        "p2_first_fruit", "zara_farmland", "zara_supply", "zara_dirhems", "double_turns",
    ),
    BOOL("solo", "terminal", "place_p2", "p2_second", "market_left", "card_left",
         "harvest_left"),
    STR("lost"),
    LIST(
        "layout", "goal_sides", "zakat_star", "zakat_paid", "channels", "bag", "rolls",
        "awards", "award_ids", "removed_tokens", "fruit_supply", "supply", "card_farmers",
        "norias", "dirhems", "markets_used", "pos", "spot", "zara_farmers", "zara_tokens",
    ),
    ROWS("fields", "towns", "farmers", "town_farmers", "fruit", "tokens", "goals_done"),
    # derived from the layout (_after_load) and caches: the mask is a function of the fields, so
    # a clone keeps a fresh one (a search that clones a state and applies an action to it need
    # not work the mask out again); the cached observation is updated in place, so each state
    # needs its own copy (_clone_caches)
    shared=("track", "version", "dirty", "_mask_version", "_fresh"),
    own=("_mask", "_mask_view", "_obs_cache"),
)

LOSS_REASONS = ("zakat", "delivery", "final_zakat", "final_delivery", "conditions", "score")


class AlpujarrasState(SlottedState):
    """An Alpujarras game in progress (2-4 players, or the solo game against Zara with
    `num_players == 1`). Create with `huerta.envs.alpujarras.new_game`.

    Pieces: 0 … n-1 are the players' mules; with 2 players and in the solo game piece n is the die
    (the imaginary third mule, or Zara's track piece). `pos[i]` is a track-space index (-1 for
    the start spots) and `spot[i]` the piece's spot there (0 = leftmost = rearmost).
    """

    state_fields = FIELDS
    __slots__ = FIELDS.slots

    def __init__(self) -> None:
        self.track: tuple[C.Space, ...] = ()
        self.version = 0  # bumped by every action: the mask cache key
        # the groups (groups.G_*) changed since the observation cache last looked: what
        # rules.carry_out reports, gathered by `apply`, cleared by observation.observe
        self.dirty = ALL_GROUPS
        self._mask = np.zeros(N_ACTIONS, dtype=bool)
        self._mask_view = rules.mask_view(self._mask)  # what rules.write_legal_mask writes
        self._mask_version = -1
        self._obs_cache = None  # observation.py's cache: the canonical vector and what it shows
        # set by new_game: until the first action the observation starts from a shared template
        self._fresh = False

    def invalidate(self) -> None:
        """Drop cached masks and observation parts; call after editing fields by hand (before the
        next mask or observation: a new game's first observation, too, trusts the state to be
        the one new_game made)."""
        self.track = C.build_track(tuple(self.layout), C.four_player_side(self.num_players))
        self.version += 1
        self.dirty = ALL_GROUPS
        self._mask_version = -1
        self._obs_cache = None
        self._fresh = False

    # --- derived facts ---------------------------------------------------------------------------
    @property
    def has_die(self) -> bool:
        """ALP-13: the die is in play with 2 players and in the solo game."""
        return self.num_players <= 2

    @property
    def num_pieces(self) -> int:
        """Mules plus the die where it is in play."""
        return self.num_players + (1 if self.num_players <= 2 else 0)

    @property
    def die(self) -> int:
        """The die's piece index (only meaningful when `has_die`)."""
        return self.num_players

    def won(self) -> bool:
        """Solo: ZARA-20 holds at the end (never true before the game is over)."""
        return rules.solo_won(self)

    # --- the engine protocol -------------------------------------------------------------------
    @property
    def is_terminal(self) -> bool:
        return self.terminal

    def legal_mask(self) -> np.ndarray:
        if self._mask_version != self.version:
            rules.write_legal_mask(self, self._mask_view)
            self._mask_version = self.version
        return self._mask

    def apply(self, action: int) -> None:
        """Carry out `action` or raise `IllegalActionError`, changing nothing. The state owns its
        caches: it checks the action against its own mask (refreshed inline, as `legal_mask`
        does, to keep the hot path one call shorter), lets the rules carry it out, then bumps
        the mask key and marks the groups the rules report for the observation."""
        if type(action) is not int:  # numpy integers pass; bools, floats, strings... are refused
            action = check_action(action, N_ACTIONS)
        if self._mask_version != self.version:  # self.legal_mask(), inlined
            rules.write_legal_mask(self, self._mask_view)
            self._mask_version = self.version
        if not 0 <= action < N_ACTIONS or not self._mask_view[action]:
            rules.refuse(self, action)
        touched = rules.carry_out(self, action)
        self.version += 1
        self.dirty |= touched  # observation.py rewrites these groups when next asked

    def scores(self) -> list[int]:
        """ALP-66 per seat; in the solo game the one player's score (Zara's is `zara_score`)."""
        return [rules.score(self, p) for p in range(self.num_players)]

    def zara_score(self) -> int:
        """ZARA-21: Zara's dirhems plus her tokens' dirhem sides."""
        return rules.zara_score(self)

    def ranking_keys(self) -> list[tuple]:
        """ALP-67: score, then the position on the end track (further wins). Solo: (won, score)."""
        if self.solo:
            return [(int(self.won()), rules.score(self, 0))]
        return [(rules.score(self, p), self.pos[p]) for p in range(self.num_players)]

    def winners(self) -> list[int]:
        """Multiplayer: the best ranking key (end spaces are distinct, so one seat once the game
        is over). Solo: [0] if the player beat Zara (ZARA-20), else [] (Zara won)."""
        if self.solo:
            return [0] if self.won() else []
        return super().winners()

    def rewards(self, mode: str = "win_loss") -> list[float]:
        """Multiplayer: the shared terminal rewards. Solo (see seeds/alpujarras.md): win_loss and
        rank give +1 for beating Zara and -1 otherwise; score_margin gives the player's score
        minus Zara's when all five zakats are paid and five different tokens held, else
        min(that margin, 0) - SOLO_CONDITION_PENALTY."""
        if not self.solo:
            return super().rewards(mode)
        from ..core.rewards import check_reward_mode

        check_reward_mode(mode)
        if mode == "score_margin":
            return [float(rules.solo_margin(self))]
        return [1.0 if self.won() else -1.0]

    def shaping_potential(self, seat: int) -> float:
        """Multiplayer: the score margin. Solo: the margin over Zara plus SOLO_DUTY_POTENTIAL
        points per duty met (zakats paid, fruit kinds delivered), since a win needs all ten
        duties before points count; a learner is then paid for each duty as it meets it."""
        if not self.solo:
            return super().shaping_potential(seat)
        return float(rules.score(self, 0) - rules.zara_score(self)
                     + C.SOLO_DUTY_POTENTIAL * effects.solo_duties_met(self))

    # observation.observe(state, player, out=None): the vector of OBS_SIZE values from
    # `player`'s seat, written into `out` when given (bound directly: the hot path)
    observe = observation.observe

    def describe(self, action: int) -> str:
        from .actions import describe

        return describe(self, action)

    def summary(self, player: int) -> str:
        """One line of what `player` holds (for transcripts), fruit by the shared fruit codes."""
        from .render import fruit_counts

        fruit = fruit_counts(self.fruit[player])
        text = (
            f"P{player} fruit {fruit} norias {self.norias[player]} dirhems "
            f"{self.dirhems[player]} tokens {len(self.tokens[player])} "
            f"score {rules.score(self, player)}"
        )
        if self.solo:
            text += f" | Zara {rules.zara_score(self)}"
        return text

    def render_text(self) -> str:
        from .render import render_text

        return render_text(self)

    def render_rgb(self) -> np.ndarray:
        """The whole public state as a picture (the `rgb_array` render), (820, 1200, 3) uint8."""
        from .picture import render_rgb

        return render_rgb(self)

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """Empty: chance (crop draws, die rolls) resolves inside `apply` from sequences fixed at
        reset, so no state waits on a chance event. `crop_outcomes` gives the distribution of the
        next crop draw and `determinize` resamples both sequences for search."""
        return []

    def crop_outcomes(self) -> list[tuple[int, float]]:
        """(fruit kind, probability) of the next crop-token draw, from the bag's composition."""
        counts = Counter(self.bag)
        total = len(self.bag)
        return [(k, counts[k] / total) for k in sorted(counts)] if total else []

    def determinize(self, player: int, rng: np.random.Generator) -> AlpujarrasState:
        """Everything on the table is public (G-28); what nobody knows is the bag's draw order and
        the die rolls to come. Both are resampled from public facts only (the bag's composition,
        the number of rolls left) and `rng`, so states that differ only in hidden order give the
        same result; it does not depend on `player`."""
        state = self.clone()
        bag = sorted(state.bag)
        state.bag = [bag[i] for i in rng.permutation(len(bag)).tolist()]
        state.rolls = rng.integers(1, C.DIE_SIDES + 1, size=len(state.rolls)).tolist()
        return state

    def _clone_caches(self, new: AlpujarrasState) -> None:
        new._mask = self._mask.copy()
        new._mask_view = rules.mask_view(new._mask)
        cache = self._obs_cache
        new._obs_cache = None if cache is None else cache.copy()

    def _after_load(self) -> None:
        if self.num_players not in C.PLAYER_COUNTS:
            raise CorruptRecordError(
                f"alpujarras state: num_players={self.num_players} not in {C.PLAYER_COUNTS}"
            )
        try:
            self.track = C.build_track(tuple(self.layout), C.four_player_side(self.num_players))
        except (IndexError, TypeError) as exc:
            raise CorruptRecordError(f"alpujarras state: field 'layout': {exc}") from None

    # --- invariants ------------------------------------------------------------------------------
    def check_consistency(self) -> list[str]:
        """Every broken invariant (components conserved, caps, track occupancy), as messages."""
        problems: list[str] = []
        n = self.num_players
        shapes = {
            "farmers": (len(self.farmers), n), "town_farmers": (len(self.town_farmers), n),
            "fruit": (len(self.fruit), n), "tokens": (len(self.tokens), n),
            "supply": (len(self.supply), n), "norias": (len(self.norias), n),
            "dirhems": (len(self.dirhems), n), "pos": (len(self.pos), self.num_pieces),
            "spot": (len(self.spot), self.num_pieces), "towns": (len(self.towns), C.NUM_TOWNS),
            "fields": (len(self.fields), C.NUM_FARMLANDS),
            "channels": (len(self.channels), C.NUM_CHANNELS), "layout": (len(self.layout), 10),
            "goals_done": (len(self.goals_done), n),
        }
        for name, (got, want) in shapes.items():
            if got != want:
                problems.append(f"{name} has length {got}, expected {want}")
        if problems:
            return problems
        # ALP-04, G-11: go first, end last, market and harvest segments alternating
        layout = self.layout
        if sorted(layout) != list(range(len(C.SEGMENTS))) or layout[0] != C.GO_SEGMENT or (
            layout[-1] != C.END_SEGMENT
        ):
            problems.append("layout is not go, the eight middle segments, end")
        else:
            kinds = [C.SEGMENTS[s].kind for s in layout[1:-1]]
            if any(kinds[i] == kinds[i + 1] for i in range(len(kinds) - 1)):
                problems.append("market and harvest segments do not alternate")
        # ALP-02, ALP-70: farmers conserved
        for p in range(n):
            total = (self.supply[p] + sum(self.farmers[p]) + sum(self.town_farmers[p])
                     + self.card_farmers[p])
            if total != C.FARMERS_PER_PLAYER or self.supply[p] < 0 or min(self.farmers[p]) < 0:
                problems.append(f"player {p}: farmers add up to {total}, expected 15")
            if any(not 0 <= x <= C.FRUIT_CAP for x in self.fruit[p]):
                problems.append(f"player {p}: fruit {self.fruit[p]} outside 0..{C.FRUIT_CAP}")
            if not 0 <= self.norias[p] <= C.NORIA_CAP:
                problems.append(f"player {p}: {self.norias[p]} norias outside 0..5")
            if self.dirhems[p] < 0:
                problems.append(f"player {p}: negative dirhems")
            if not 0 <= self.markets_used[p] <= C.MAX_MARKET_ACTIONS:
                problems.append(f"player {p}: {self.markets_used[p]} market actions")
            if len(self.tokens[p]) != self.markets_used[p]:
                problems.append(f"player {p}: tokens do not match market actions")
            if sum(self.goals_done[p]) != self.card_farmers[p]:
                problems.append(f"player {p}: goal-card farmers do not match goals completed")
        if self.zara_supply + sum(self.zara_farmers) != (C.FARMERS_PER_PLAYER if self.solo else 0):
            problems.append("Zara's farmers do not add up")
        # ALP-71: fruit conserved
        for t in range(C.NUM_FRUITS):
            total = self.fruit_supply[t] + sum(self.fruit[p][t] for p in range(n))
            if total != C.FRUIT_PER_KIND:
                problems.append(f"{C.FRUITS[t]}: supply + holdings = {total}, expected 25")
        # ALP-09, G-06: crop tokens conserved
        crops = Counter(self.bag)
        for f in range(C.NUM_FARMLANDS):
            crops.update(k for k in self.fields[f] if k >= 0)
        if any(crops[k] != C.CROPS_PER_KIND for k in range(C.NUM_FRUITS)):
            problems.append("crop tokens: bag + fields are not 3 of each kind")
        filled = [c for c in range(C.NUM_CHANNELS) if self.channels[c]]
        for c in filled:
            req = C.CHANNELS[c].requires
            if req >= 0 and not self.channels[req]:
                problems.append(f"channel {c} is filled but not connected to the water")
        for ch in C.CHANNELS:
            if ch.field is not None:
                f, slot = ch.field
                if (self.fields[f][slot] >= 0) != bool(self.channels[ch.cid]) and self.bag:
                    problems.append(f"field {C.FARMLANDS[f]}.{slot} does not match channel "
                                    f"{ch.cid}")
        # ALP-05, ALP-06: delivery tokens conserved
        everything = [t for town in self.towns for t in town] + self.removed_tokens
        everything += [t for toks in self.tokens for t in toks] + self.zara_tokens
        if sorted(everything) != sorted(C.ALL_TOKENS):
            problems.append("delivery tokens: towns + players + removed are not the 25 tokens")
        for w, town in enumerate(self.towns):
            if town != sorted(town) or len(town) > C.MAX_TOKENS_PER_TOWN:
                problems.append(f"town {w}: tokens not in canonical order")
        # pieces: one per standard or end space, spots distinct in special spaces
        track = self.track
        seen: dict[tuple[int, int], int] = {}
        for i in range(self.num_pieces):
            s = self.pos[i]
            if not -1 <= s < len(track):
                problems.append(f"piece {i} at space {s} outside the track")
                continue
            key = (s, self.spot[i])
            if key in seen:
                problems.append(f"pieces {seen[key]} and {i} share space {s} spot {key[1]}")
            seen[key] = i
            if s >= 0 and track[s].kind in (C.STANDARD, C.END) and self.spot[i] != 0:
                problems.append(f"piece {i} on a single space with spot {self.spot[i]}")
        if self.lost and self.lost not in LOSS_REASONS:
            problems.append(f"unknown loss reason {self.lost!r}")
        if not 0 <= self.double_turns <= max(C.DOUBLE_TURNS_RANGE):
            problems.append(f"double_turns={self.double_turns} outside 0..5")
        return problems

