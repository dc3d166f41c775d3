"""Setting up a new Alpujarras game (ALP-01, ALP-02, ALP-03, ALP-04, ALP-05, ALP-06, ALP-07, ALP-08,
ALP-09, ALP-10, ALP-11, ALP-12, ALP-13, ZARA-01, ZARA-02, ZARA-03, ZARA-04, ZARA-05, ZARA-22) and
the game's declared facts (`SPEC`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.engine import GameSpec, GameVariant
from ..core.errors import InvalidConfigError
from ..core.validation import check_seed
from . import components as C
from . import turns
from .actions import N_ACTIONS, Phase
from .observation import OBS_LAYOUT, OBS_SIZE
from .observation_spec import SPEC as OBSERVATION_SPEC
from .state import AlpujarrasState

DEFAULT_MAX_STEPS = 3000  # G-30: agent steps (sub-decisions included) before truncation
MAX_DEALS = 10_000


def check_players(num_players: Any) -> int:
    """ALP-01: 2-4 players, or 1 for the solo game; anything else names the valid counts."""
    if type(num_players) is int and num_players in C.PLAYER_COUNTS:
        return num_players  # the common case, without SPEC's checks
    return SPEC.check_players(num_players)


def _check_option(name: str, value: Any, valid: tuple[int, ...]) -> int:
    if type(value) is int and value in valid:
        return value
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value not in valid:
        raise InvalidConfigError(
            f"{name}={value!r}; valid values: {', '.join(map(str, valid))}"
        )
    return int(value)


_SPANS = {k: [(w * k, (w + 1) * k) for w in range(C.NUM_TOWNS)]
          for k in set(C.TOKENS_PER_TOWN.values())}  # per town size: each town's deal slice


def deal_towns(rng: np.random.Generator, tokens: list[int], per_town: int) -> list[list[int]]:
    """ALP-06, G-13: deal `per_town` tokens to each town, redealing until every town shows at
    least three fruit kinds; each town's tokens are kept sorted (canonical slots).

    Each deal shuffles the tokens in place of `rng.permutation(len(tokens))`: Generator.shuffle
    on a list makes the same Fisher-Yates swaps from the same draws, so the deals (and the rest of
    the stream) are those of the permutation."""
    spans = _SPANS.get(per_town) or [(w * per_town, (w + 1) * per_town)
                                      for w in range(C.NUM_TOWNS)]
    least = C.MIN_KINDS_PER_TOWN
    bit = _KIND_BIT
    kinds = _KINDS
    for _ in range(MAX_DEALS):
        dealt = list(tokens)
        rng.shuffle(dealt)
        # how many fruit kinds a town shows: the bits of its tokens' kinds, counted (unrolled
        # for the dealt sizes 4 and 5)
        if per_town == 4:
            ok = all([kinds[bit[dealt[lo]] | bit[dealt[lo + 1]] | bit[dealt[lo + 2]]
                            | bit[dealt[lo + 3]]] >= least for lo, _hi in spans])
        elif per_town == 5:
            ok = all([kinds[bit[dealt[lo]] | bit[dealt[lo + 1]] | bit[dealt[lo + 2]]
                            | bit[dealt[lo + 3]] | bit[dealt[lo + 4]]] >= least
                      for lo, _hi in spans])
        else:
            ok = all(len({t // 10 for t in dealt[lo:hi]}) >= least for lo, hi in spans)
        if ok:
            return [sorted(dealt[lo:hi]) for lo, hi in spans]
    raise AssertionError("no valid deal found; the token data cannot satisfy ALP-06")


# per token value (10 x fruit + value): the bit of its fruit kind; per set of kind bits: how many
_KIND_BIT = [1 << (t // 10) for t in range(10 * C.NUM_FRUITS)]
_KINDS = [bin(bits).count("1") for bits in range(1 << C.NUM_FRUITS)]


def _side_tokens(four: bool) -> tuple[list[int], list[int]]:
    """(tokens in play, tokens removed) for a side: one value-2 token per fruit leaves the game
    with 1-3 players (ALP-05)."""
    tokens = list(C.ALL_TOKENS)
    removed = []
    if not four:
        for f in range(C.NUM_FRUITS):
            tok = C.token(f, C.REMOVED_FOR_SMALL_GAMES)
            tokens.remove(tok)
            removed.append(tok)
    return tokens, removed


_TOKENS = {four: _side_tokens(four) for four in (False, True)}  # built once, copied per game
_BAG = [k for k in range(C.NUM_FRUITS) for _ in range(C.CROPS_PER_KIND)]
_MOVE = int(Phase.MOVE)


def new_game(
    num_players: int = 2,
    seed: int | np.random.Generator | None = None,
    double_turns: int | None = None,
    star_sides: int | None = None,
) -> AlpujarrasState:
    """A new game, every random draw from `seed`. `num_players=1` is the solo game against Zara,
    whose variants are `double_turns` (0-5, default 3) and `star_sides` (0-5 zakat cards on their
    star side, chosen at random; default 0)."""
    n = check_players(num_players)
    solo = n == 1
    if not solo and (double_turns is not None or star_sides is not None):
        raise InvalidConfigError(
            "double_turns and star_sides are options of the solo game only (num_players=1); "
            f"got num_players={n}"
        )
    dt = C.DOUBLE_TURNS_DEFAULT if double_turns is None else double_turns
    dt = _check_option("double_turns", dt, C.DOUBLE_TURNS_RANGE)
    stars = _check_option("star_sides", 0 if star_sides is None else star_sides,
                          C.STAR_SIDES_RANGE)
    # a Generator passes through default_rng unchanged; a bad seed raises naming it
    rng = np.random.default_rng(check_seed(seed, generators=True))
    four = C.four_player_side(n)
    s = AlpujarrasState()
    s.num_players = n
    s.solo = solo
    # ALP-04, G-11: go, then market and harvest segments alternating (market first), then end
    # (shuffling a list in place makes the same swaps from the same draws as permuting its
    # indices with rng.permutation: the same layout and the same stream afterwards)
    markets = list(C.MARKET_SEGMENTS)
    rng.shuffle(markets)
    harvests = list(C.HARVEST_SEGMENTS)
    rng.shuffle(harvests)
    a, b = (markets, harvests) if C.MARKET_FIRST else (harvests, markets)
    # four of each (components._validate)
    s.layout = layout = [C.GO_SEGMENT, a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3],
                         C.END_SEGMENT]
    s.track = track = C.build_track(tuple(layout), four)
    # ALP-05, ALP-06: tokens (one value-2 token per fruit removed with 1-3 players)
    tokens, removed = _TOKENS[four]
    s.removed_tokens = list(removed)
    s.towns = deal_towns(rng, tokens, C.TOKENS_PER_TOWN[n])
    # ALP-07, ZARA-01: award tokens (none in the solo game)
    s.award_ids = award_ids = list(range(C.NUM_TOWNS))
    rng.shuffle(award_ids)  # rng.permutation(NUM_TOWNS)
    s.awards = [C.AWARD_GONE if solo else C.AWARD_GREEN] * C.NUM_TOWNS
    # ALP-08, ZARA-01, ZARA-02: goal cards, or zakat cards in the solo game
    if solo:
        s.goal_sides = [-1] * C.NUM_GOAL_CARDS
        starred = set(rng.choice(C.NUM_ZAKAT_CARDS, size=stars, replace=False).tolist()) \
            if stars else set()  # a draw of size 0 consumes nothing: the same stream
        s.zakat_star = [i in starred for i in range(C.NUM_ZAKAT_CARDS)]
    else:
        s.goal_sides = rng.integers(0, 2, size=C.NUM_GOAL_CARDS).tolist()
        s.zakat_star = [False] * C.NUM_ZAKAT_CARDS
    s.zakat_paid = [False] * C.NUM_ZAKAT_CARDS
    # ALP-09: the crop bag, in draw order (drawn from the end)
    s.bag = bag = list(_BAG)
    rng.shuffle(bag)  # the draws of rng.permutation(len(bag))
    s.fields = [[-1] * C.EMPTY_FIELDS for _ in range(C.NUM_FARMLANDS)]
    s.channels = [False] * C.NUM_CHANNELS
    # ALP-10, ALP-11: players start with 15 farmers in supply and nothing else
    s.fruit_supply = [C.FRUIT_PER_KIND] * C.NUM_FRUITS
    s.supply = [C.FARMERS_PER_PLAYER] * n
    s.farmers = [[0] * C.NUM_FARMLANDS for _ in range(n)]
    s.town_farmers = [[0] * C.NUM_TOWNS for _ in range(n)]
    s.card_farmers = [0] * n
    s.fruit = [[0] * C.NUM_FRUITS for _ in range(n)]
    s.norias = [0] * n
    s.dirhems = [0] * n
    s.tokens = [[] for _ in range(n)]
    s.markets_used = [0] * n
    s.goals_done = [[False] * C.NUM_GOAL_CARDS for _ in range(n)]
    # ALP-12, ALP-13, G-09, ZARA-03: mules on the rear start spots in random order, the die on
    # the front one (solo: the player behind the die)
    order = list(range(n))
    rng.shuffle(order)  # rng.permutation(n)
    die = n <= 2
    s.pos = [-1] * (n + 1 if die else n)
    spot = [0] * (n + 1 if die else n)
    for place, q in enumerate(order):
        spot[q] = place
    if die:
        spot[n] = n
    s.spot = spot
    # die rolls to come (2-player die, Zara): each roll moves the die forward, so the track length
    # bounds how many a game can use
    s.rolls = rng.integers(1, C.DIE_SIDES + 1, size=len(track)).tolist() if die else []
    # ZARA-04, ZARA-05, ZG-02: Zara's mule in a random farmland, her farmers in her supply
    s.zara_farmland = int(rng.integers(C.NUM_FARMLANDS)) if solo else 0
    s.zara_farmers = [0] * C.NUM_FARMLANDS
    s.zara_supply = C.FARMERS_PER_PLAYER if solo else 0
    s.zara_dirhems = 0
    s.zara_tokens = []
    s.double_turns = dt if solo else 0
    s.lost = ""
    s.terminal = False
    s.steps = 0
    s.turns = 0
    turns.clear_visit(s)  # also clears the sub-decision chain
    # ALP-14, G-09: the mule on the rearmost start spot (spot 0) moves first; the die, on the
    # front spot, is never the rearmost piece at the start (what turns.advance would find)
    s.current_player = order[0]
    s.phase = _MOVE
    s._fresh = True
    return s


SPEC = GameSpec(
    name="alpujarras",
    player_counts=C.PLAYER_COUNTS,
    num_actions=N_ACTIONS,
    observation_size=OBS_SIZE,
    new_game=new_game,
    state_from_dict=AlpujarrasState.from_dict,
    default_max_steps=DEFAULT_MAX_STEPS,
    options={"double_turns": C.DOUBLE_TURNS_RANGE, "star_sides": C.STAR_SIDES_RANGE},
    observation_layout=OBS_LAYOUT,
    observation_spec=OBSERVATION_SPEC,
    render_modes=("human", "ansi", "rgb_array"),
    title="Alpujarras",
    gym_id="huerta/Alpujarras-v0",
    env_module="huerta.envs.alpujarras_v0",
    variants={
        # the solo game against Zara; its env refuses any num_players but 1
        "alpujarras-solo": GameVariant(
            players=1, gym_id="huerta/AlpujarrasSolo-v0",
            gym_entry_point="huerta.envs.alpujarras.env:SoloSingleAgentEnv",
            options=("double_turns", "star_sides"), label="against Zara", opponent="Zara",
        ),
    },
    spec_document="seeds/alpujarras.md",
    clause_prefixes=("ALP", "ZARA"),
    clause_minimum=94,
    scenario_prefixes=("TS", "ZS"),
)
