"""Setting up a new Mi Tierra game (MIT-01, MIT-02, MIT-03, MIT-04, MIT-05, MIT-06, MIT-07) and the
game's declared facts (`SPEC`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.engine import GameSpec
from ..core.validation import check_seed
from . import components as C
from .actions import N_ACTIONS, Decision, Stage
from .observation import OBS_LAYOUT, OBS_SIZE
from .observation_spec import SPEC as OBSERVATION_SPEC
from .rules import advance
from .state import MiTierraState

# G-56: agent steps (sub-decisions included) before an episode is truncated. Random games take
# about 300-1,000 steps; a game in which nobody ever sells draws no market card and could run on.
DEFAULT_MAX_STEPS = 5000


def check_players(num_players: Any) -> int:
    """2 to 4 players; anything else is refused naming the valid counts."""
    return SPEC.check_players(num_players)


def new_game(
    num_players: int = 2,
    seed: int | np.random.Generator | None = None,
    explicit_chance: bool = False,
) -> MiTierraState:
    """A new game, run up to the first decision (the start player's first placement).

    Deck A is shuffled and its top 7 cards leave the game unseen (MIT-02); the rest lies on the
    shuffled deck B (MIT-03, G-55); the development deck is shuffled and 4 cards are dealt to the
    display (MIT-04). Dice are rolled from the same generator during play. With
    `explicit_chance=True` (engine only, for search) the game stops before every roll with
    `current_player == -1`: `chance_outcomes()` lists the faces and `apply_chance(face)` rolls.
    """
    n = num_players if type(num_players) is int and num_players in C.PLAYER_COUNTS \
        else check_players(num_players)
    # a Generator passes through default_rng unchanged; a bad seed raises naming it
    rng = np.random.default_rng(check_seed(seed, generators=True))
    s = MiTierraState()
    s.num_players = n
    s.explicit_chance = bool(explicit_chance)
    deck_a = [C.DECK_A_IDS[i] for i in rng.permutation(len(C.DECK_A_IDS))]
    deck_b = [C.DECK_B_IDS[i] for i in rng.permutation(len(C.DECK_B_IDS))]
    s.removed = deck_a[:C.MARKET_A_REMOVED]
    rest_a = deck_a[C.MARKET_A_REMOVED:]
    s.pile = deck_b[::-1] + rest_a[::-1]  # top last: A's remainder on top of B
    dev = [int(i) for i in rng.permutation(C.NUM_DEV_CARDS)]
    s.display = [dev.pop() for _ in C.DEV_SLOTS]
    s.dev_deck = dev
    s.money = list(C.START_MONEY[:n])
    s.stamp = [0] * n
    s.clock = 0
    s.owned = [C.START_WORKERS] * n
    s.hut = [C.START_WORKERS] * n
    s.retired = [False] * n
    s.cake = [0] * n
    s.cloth = [0] * n
    s.studies_used = [False] * n
    s.goods = [[0] * C.NUM_GOODS for _ in range(n)]
    s.tiles = [[C.EMPTY] * C.FARM_CELLS for _ in range(n)]
    for tiles in s.tiles:
        tiles[C.PRINTED_APPLE_CELL] = C.T_APPLE
    s.barn_kind = [[C.NO_KIND] * C.FARM_CELLS for _ in range(n)]
    s.barn_count = [[0] * C.FARM_CELLS for _ in range(n)]
    s.farm_workers = [[False] * C.FARM_CELLS for _ in range(n)]
    s.devs = [[False] * C.NUM_DEV_CARDS for _ in range(n)]
    s.known = [[] for _ in range(n)]
    s.known_set = [[] for _ in range(n)]
    s.known_depth = [0] * n
    s.space_owner = [-1] * C.NUM_SPACES
    s.space_pair = [False] * C.NUM_SPACES
    s.space_seq = [-1] * C.NUM_SPACES
    s.place_counter = 0
    s.est = [-1] * n
    s.closing = [-1] * 4
    s.discard = []
    s.revealed = [False] * C.NUM_MARKET_CARDS
    s.event_card = -1
    s.perms_seen = 0
    s.end_triggered = False
    s.pile_ran_out = False
    s.order = list(range(n))  # MIT-05: round 1 runs from the start player in seat order
    s.queue = []
    s.qpos = 0
    s.sub = 0
    s.farm_step = 0
    s.bm_workers = []
    s.bm_buys = 0
    s.sale_units = [0] * C.NUM_GOODS
    s.sale_slot = -1
    s.reorder_left = []
    s.reorder_done = []
    s.die_face = 0
    s.pending_tile = -1
    s.place_pos = 0
    s.dev_cost = 0
    s.rerolling = False
    s.chance_pending = False
    s.round = 1
    s.stage = int(Stage.TURN_ORDER)
    s.decision = int(Decision.NONE)
    s.current_player = 0
    s.steps = 0
    s.terminal = False
    s.rng = rng
    s.options = advance(s)
    return s


SPEC = GameSpec(
    name="mi_tierra",
    player_counts=C.PLAYER_COUNTS,
    num_actions=N_ACTIONS,
    observation_size=OBS_SIZE,
    new_game=new_game,
    state_from_dict=MiTierraState.from_dict,
    default_max_steps=DEFAULT_MAX_STEPS,
    options={},
    observation_layout=OBS_LAYOUT,
    observation_spec=OBSERVATION_SPEC,
    render_modes=("human", "ansi", "rgb_array"),
    title="Mi Tierra",
    gym_id="huerta/MiTierra-v0",
    env_module="huerta.envs.mi_tierra_v0",
    spec_document="seeds/mi_tierra.md",
    clause_prefixes=("MIT",),
    clause_minimum=106,
    scenario_prefixes=("T",),
)
