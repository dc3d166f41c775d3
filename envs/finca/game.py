"""Setting up a new Finca game (FIN-01, FIN-02, FIN-03, FIN-04, FIN-05, FIN-06, FIN-07, FIN-08,
FIN-09, FIN-10, FIN-11) and the game's declared facts (`SPEC`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.engine import GameSpec
from ..core.errors import InvalidConfigError
from ..core.validation import check_seed
from . import components as C
from .actions import N_ACTIONS, DeliveryMode, Phase
from .observation import OBS_LAYOUT, OBS_SIZE
from .observation_spec import SPEC as OBSERVATION_SPEC
from .state import CART_SHORTAGE_MODES, FincaState

DEFAULT_MAX_STEPS = 2000  # G-30: agent steps (sub-decisions included) before truncation


def check_players(num_players: Any) -> int:
    """FIN-01: 2 to 4 players; anything else is refused naming the valid counts."""
    return SPEC.check_players(num_players)


def new_game(
    num_players: int = 2,
    seed: int | np.random.Generator | None = None,
    cart_shortage: str = "reset_then_take",
) -> FincaState:
    """A new game at the start of the introduction phase, every random draw from `seed`.

    The blades (G-01), the 42 fruit tiles (FIN-04: ten stacks of four, two boxed unseen) and the
    ten finca tiles (FIN-05) are shuffled with the game's own generator.
    """
    n = check_players(num_players)
    if cart_shortage not in CART_SHORTAGE_MODES:
        raise InvalidConfigError(
            f"cart_shortage={cart_shortage!r}; valid values: {', '.join(CART_SHORTAGE_MODES)}"
        )
    # a Generator passes through default_rng unchanged; a bad seed raises naming it
    rng = np.random.default_rng(check_seed(seed, generators=True))
    setup = C.SETUP[n]
    s = FincaState()
    s.num_players = n
    s.cart_shortage = cart_shortage
    s.blades = [C.BLADE_FRUITS[i] for i in rng.permutation(C.NUM_BLADES)]
    tiles = [int(t) for t in rng.permutation(C.NUM_FRUIT_TILES)]
    s.stacks = [
        tiles[c * C.TILES_PER_STACK:(c + 1) * C.TILES_PER_STACK] for c in range(C.NUM_COMMUNITIES)
    ]
    s.boxed = tiles[C.NUM_COMMUNITIES * C.TILES_PER_STACK:]
    s.revealed = [False] * C.NUM_FRUIT_TILES
    for stack in s.stacks:
        s.revealed[stack[-1]] = True
    s.finca_tile = [int(t) for t in rng.permutation(C.NUM_FINCA_TILES)]
    s.wooden = [False] * C.NUM_COMMUNITIES
    s.wooden_reserve = setup.wooden_fincas
    s.fincas_removed = []
    s.supply = [C.FRUITS_PER_TYPE] * C.NUM_FRUITS
    s.carts_in_play = setup.carts
    s.centre_carts = setup.carts
    s.carts = [0] * n
    s.fruits = [[0] * C.NUM_FRUITS for _ in range(n)]
    s.farmers = [[0] * C.NUM_BLADES for _ in range(n)]
    s.blade_total = [0] * C.NUM_BLADES
    s.farmer_counts = [setup.farmers_per_player] * n
    s.unused = [[True] * len(C.ACTION_TILES) for _ in range(n)]
    s.displays = [[] for _ in range(n)]
    s.fincas_won = [[] for _ in range(n)]
    s.bonus_stack = list(reversed(C.BONUS_VALUES_TOP_FIRST))  # top of the stack last
    s.bonuses = [[] for _ in range(n)]
    s.value_counts = [[0] * 6 for _ in range(n)]
    s.printed = [[0] * C.NUM_FRUITS for _ in range(n)]
    s.wild_symbols = [0] * n
    s.tile_points = [0] * n
    s.phase = int(Phase.INTRO)
    s.current_player = 0
    s.intro_left = n * setup.farmers_per_player
    s.steps = 0
    s.turns = 0
    s.gust_source = -1
    s.mode = int(DeliveryMode.NONE)
    s.cap_left = 0
    s.committed = [0] * C.NUM_FRUITS
    s.selected = []
    s.pending = -1
    s.pending_wild = -1
    s.reduce_pending = False
    s.terminal = False
    return s


SPEC = GameSpec(
    name="finca",
    player_counts=C.PLAYER_COUNTS,
    num_actions=N_ACTIONS,
    observation_size=OBS_SIZE,
    new_game=new_game,
    state_from_dict=FincaState.from_dict,
    default_max_steps=DEFAULT_MAX_STEPS,
    options={"cart_shortage": CART_SHORTAGE_MODES},
    observation_layout=OBS_LAYOUT,
    observation_spec=OBSERVATION_SPEC,
    render_modes=("human", "ansi", "rgb_array"),
    title="Finca",
    gym_id="huerta/Finca-v0",
    env_module="huerta.envs.finca_v0",
    spec_document="seeds/finca.md",
    clause_prefixes=("FIN",),
    clause_minimum=52,
    scenario_prefixes=("T",),
)
