"""seeds/finca.md against the code: the document's tables cannot drift from the engine.

Two layers of checks:
* every generated block of the document equals what scripts/finca_tables.py prints now;
* independently of that script, the tables parsed from the document are compared with the code
  (components, actions, observation) and with what random games actually do (which ids are legal
  in which phase, which phase changes occur).
The rule ids are checked too: each FIN-01..FIN-52 and G-01..G-40 is defined by exactly one bullet.
"""

from __future__ import annotations

import importlib.util
import inspect
import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from huerta.envs.core.aec import BoardGameAEC
from huerta.envs.core.rewards import REWARD_MODES
from huerta.envs.finca import components as C
from huerta.envs.finca import new_game
from huerta.envs.finca.actions import N_ACTIONS, Phase, action_name
from huerta.envs.finca.game import DEFAULT_MAX_STEPS, SPEC
from huerta.envs.finca.observation import (
    COMMUNITY_BLOCK,
    COMMUNITY_FIELDS,
    OBS_LAYOUT,
    OBS_SIZE,
    PLAYER_BLOCK,
    PLAYER_FIELDS,
    SLICES,
)
from huerta.envs.finca.rules import lines_crossed

ROOT = Path(__file__).resolve().parents[2]
DOC_PATH = ROOT / "seeds" / "finca.md"
SCRIPT_PATH = ROOT / "scripts" / "finca_tables.py"

N_FIN = 52
N_GAPS = 40


def _load_generator():
    spec = importlib.util.spec_from_file_location("finca_tables", SCRIPT_PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("finca_tables", module)
    spec.loader.exec_module(module)
    return module


tables = _load_generator()


@pytest.fixture(scope="module")
def doc() -> str:
    return DOC_PATH.read_text(encoding="utf-8")


def _block_text(doc: str, name: str) -> str:
    begin = tables.GENERATED.begin(name)
    end = tables.GENERATED.end(name)
    assert doc.count(begin) == 1, f"seeds/finca.md needs exactly one block {begin}"
    start = doc.index(begin) + len(begin)
    stop = doc.index(end, start)
    return doc[start:stop].strip("\n")


def _clean(cell: str) -> str:
    return cell.strip().strip("`").replace("**", "").strip()


def parse_table(doc: str, name: str) -> list[dict[str, str]]:
    """The markdown pipe table of block `name` as a list of {header: cell} rows."""
    lines = [ln for ln in _block_text(doc, name).splitlines() if ln.startswith("|")]
    assert len(lines) >= 2, f"block {name!r} holds no table"
    header = [_clean(c) for c in lines[0].strip("|").split("|")]
    assert all(set(c.strip()) <= {"-", ":"} for c in lines[1].strip("|").split("|"))
    rows = []
    for line in lines[2:]:
        cells = [_clean(c) for c in line.strip("|").split("|")]
        assert len(cells) == len(header), f"{name}: row {line!r} has {len(cells)} cells"
        rows.append(dict(zip(header, cells, strict=True)))
    return rows


# --- the generator and the document agree ------------------------------------------------------

@pytest.mark.parametrize("name", list(tables.TABLES))
def test_generated_block_is_current(doc, name):
    """Each generated block equals the script's output (run scripts/finca_tables.py --write)."""
    assert _block_text(doc, name) == "\n".join(tables.TABLES[name]()), (
        f"seeds/finca.md block {name!r} is stale; run .venv/bin/python scripts/finca_tables.py "
        "--write"
    )


def test_generator_check_mode_passes():
    assert tables.main(["--check"]) == 0


# --- rule ids ---------------------------------------------------------------------------------

_FIN_DEF = re.compile(r"^- \*\*(FIN-\d+)\*\* \S", re.MULTILINE)
_GAP_DEF = re.compile(r"^- \*\*(G-\d+)\*\* (.*?)(?=^- \*\*|^#|\Z)", re.MULTILINE | re.DOTALL)


def test_every_rule_clause_is_defined_exactly_once_in_order(doc):
    found = _FIN_DEF.findall(doc)
    expected = [f"FIN-{i:02d}" for i in range(1, N_FIN + 1)]
    counts = Counter(found)
    assert [i for i in expected if counts[i] != 1] == [], "FIN ids not defined exactly once"
    assert sorted(set(found) - set(expected)) == [], "unknown FIN ids defined"
    assert found == expected, "FIN clauses must keep the analysis numbering and order"


def test_every_gap_is_defined_exactly_once_with_decision_and_reason(doc):
    found = _GAP_DEF.findall(doc)
    ids = [gid for gid, _ in found]
    expected = [f"G-{i:02d}" for i in range(1, N_GAPS + 1)]
    counts = Counter(ids)
    assert [i for i in expected if counts[i] != 1] == [], "G ids not defined exactly once"
    assert sorted(set(ids) - set(expected)) == [], "unknown G ids defined"
    for gid, body in found:
        assert "?" in body.split("**Decision:**")[0], f"{gid}: state the question first"
        assert body.count("**Decision:**") == 1, f"{gid}: one **Decision:**"
        assert body.count("**Why:**") == 1, f"{gid}: one **Why:**"
        assert body.index("**Decision:**") < body.index("**Why:**"), gid


def _gap(doc: str, gid: str) -> str:
    return dict(_GAP_DEF.findall(doc))[gid]


def test_required_sections_exist(doc):
    headings = set(re.findall(r"^#+ (.+)$", doc, re.MULTILINE))
    for title in (
        "Setup", "Introduction", "Move a farmer", "Deliver fruit", "Action tiles", "Finca awards",
        "Bonus tiles", "Game end and scoring", "Tiebreak", "Component data", "Actions",
        "Observation", "Hidden information and chance", "Rewards and episode end",
        "Where our data is a decision, not the printed game",
    ):
        assert title in headings, f"missing section {title!r}"


def test_data_decisions_section_names_the_data_gaps(doc):
    section = doc.split("## Where our data is a decision, not the printed game", 1)[1]
    section = section.split("\n## ", 1)[0]
    for gid in ("G-01", "G-02", "G-04", "G-06"):
        assert gid in section


# --- options and defaults named in the gaps exist in the code ---------------------------------

def test_reward_modes_documented(doc):
    g29 = _gap(doc, "G-29")
    default = inspect.signature(BoardGameAEC.__init__).parameters["reward"].default
    assert f'Default `reward="{default}"`' in " ".join(g29.split())
    for mode in REWARD_MODES:
        assert f'"{mode}"' in g29, f"G-29 must describe reward mode {mode!r}"
    quoted = set(re.findall(r'reward="(\w+)"', " ".join(g29.split())))
    assert quoted == set(REWARD_MODES)


def test_cart_shortage_option_documented(doc):
    g23 = " ".join(_gap(doc, "G-23").split())
    default = inspect.signature(new_game).parameters["cart_shortage"].default
    modes = SPEC.options["cart_shortage"]
    assert f'default (`cart_shortage="{default}"`)' in g23
    assert set(re.findall(r'cart_shortage="(\w+)"', g23)) == set(modes)


def test_truncation_documented(doc):
    g30 = " ".join(_gap(doc, "G-30").split())
    assert "`max_steps`" in g30
    assert f"{DEFAULT_MAX_STEPS} by default" in g30
    assert SPEC.default_max_steps == DEFAULT_MAX_STEPS


def test_first_player_is_seat_zero_as_documented(doc):
    assert "always seat 0" in _gap(doc, "G-26")
    for n in C.PLAYER_COUNTS:
        for seed in range(3):
            assert new_game(n, seed=seed).current_player == 0


# --- component data ---------------------------------------------------------------------------

def test_player_count_table(doc):
    rows = parse_table(doc, "players")
    assert [int(r["players"]) for r in rows] == list(C.SETUP)
    for r in rows:
        n = int(r["players"])
        setup = C.SETUP[n]
        assert int(r["farmers per player"]) == setup.farmers_per_player
        assert int(r["donkey carts in play"]) == setup.carts
        assert int(r["wooden fincas"]) == setup.wooden_fincas
        assert int(r["farmers on the windmill"]) == n * setup.farmers_per_player
        assert int(r["intro placements"]) == n * setup.farmers_per_player
        state = new_game(n, seed=0)
        assert state.intro_left == int(r["intro placements"])
        assert state.centre_carts == int(r["donkey carts in play"])
        assert state.wooden_reserve == int(r["wooden fincas"])


def test_numbers_table(doc):
    rows = parse_table(doc, "numbers")
    assert rows, "numbers table is empty"
    for r in rows:
        assert int(r["value"]) == getattr(C, r["constant"]), r["constant"]


def test_windmill_table(doc):
    rows = parse_table(doc, "windmill")
    assert [r["fruit"] for r in rows] == list(C.FRUITS)
    assert [r["letter"] for r in rows] == list(C.FRUIT_LETTERS)
    counts = Counter(C.BLADE_FRUITS)
    assert [int(r["blades showing it"]) for r in rows] == [counts[f] for f in range(C.NUM_FRUITS)]
    text = _block_text(doc, "line_blades")
    assert re.findall(r"\*\*([\d, ]+)\*\*", text) == [", ".join(map(str, C.LINE_BLADES))]


def test_blade_rule_worked_examples(doc):
    """The worked examples under the windmill table hold for the code's crossing rule."""
    assert "one step from blade 11 enters blade 0 (one cart)" in " ".join(doc.split())
    assert lines_crossed(11, 1) == 1
    assert lines_crossed(5, 1) == 1
    assert lines_crossed(0, 1) == 0
    assert lines_crossed(5, 7) == 2


def test_fruit_tile_catalogue(doc):
    rows = parse_table(doc, "fruit_tiles")
    assert len(rows) == C.NUM_FRUIT_TILES == len(C.FRUIT_TILES)
    for r, tile in zip(rows, C.FRUIT_TILES, strict=True):
        assert int(r["id"]) == tile.tile_id
        assert f"{r['requirement']} [{r['value']}]" == tile.label(), f"tile {tile.tile_id}"
        assert int(r["value"]) == tile.value
        assert int(r["fruits asked"]) == tile.size
    # G-04: value = fruits asked, seven tiles per value.
    assert all(int(r["value"]) == int(r["fruits asked"]) for r in rows)
    assert Counter(int(r["value"]) for r in rows) == dict.fromkeys(range(1, 7), 7)


def test_finca_tiles(doc):
    rows = parse_table(doc, "finca_tiles")
    assert [(int(r["id"]), r["tile"]) for r in rows] == [
        (t.tile_id, t.label()) for t in C.FINCA_TILES
    ]
    assert all(int(r["points"]) == C.FINCA_TILE_POINTS for r in rows)
    assert sum(1 for t in C.FINCA_TILES if t.universal) == 1
    assert {r["tile"] for r in rows} >= {"F+A", "O+R", "G+L", "ALL"}


def test_scoring_table(doc):
    points = {r["source"]: r["points"] for r in parse_table(doc, "scoring")}
    assert points["finca tiles won"] == f"{C.FINCA_TILE_POINTS} each"
    assert points["unused action tiles"] == f"{C.UNUSED_ACTION_TILE_POINTS} each"
    bonus = re.search(r"hands out ([\d, ]+) \(top first\)", points["bonus tiles"]).group(1)
    assert tuple(int(v) for v in bonus.split(", ")) == C.BONUS_VALUES_TOP_FIRST


# --- actions and phases, against the code and against play ------------------------------------

@pytest.fixture(scope="module")
def played() -> tuple[set[tuple[int, str]], set[tuple[str, str, str]]]:
    """(action id, phase) pairs seen legal and (phase, action kind, next phase) changes seen in
    150 seeded random games over all player counts."""
    legal: set[tuple[int, str]] = set()
    changes: set[tuple[str, str, str]] = set()
    for seed in range(150):
        state = new_game(C.PLAYER_COUNTS[seed % len(C.PLAYER_COUNTS)], seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal and state.steps < DEFAULT_MAX_STEPS:
            ids = np.flatnonzero(state.legal_mask())
            before = Phase(state.phase).name
            legal.update((int(a), before) for a in ids)
            action = int(rng.choice(ids))
            state.apply(action)
            changes.add((before, tables.action_kind(action)[0], Phase(state.phase).name))
    return legal, changes


def test_action_table_ids_and_names(doc):
    rows = parse_table(doc, "actions")
    assert len(rows) == N_ACTIONS == SPEC.num_actions
    assert [int(r["id"]) for r in rows] == list(range(N_ACTIONS))
    for r in rows:
        assert r["name"] == action_name(int(r["id"]))


def test_action_table_phases_match_play(doc, played):
    documented = {
        (int(r["id"]), phase)
        for r in parse_table(doc, "actions")
        for phase in r["legal in phases"].split(", ")
    }
    legal, _ = played
    assert sorted(legal - documented) == [], "legal in play but not in the action table"
    assert sorted(documented - legal) == [], "in the action table but never legal in play"


def test_phase_table(doc):
    rows = parse_table(doc, "phases")
    assert [(int(r["value"]), r["phase"]) for r in rows] == [(p.value, p.name) for p in Phase]


def test_transition_table_matches_play(doc, played):
    documented = {(r["from"], r["action"], r["to"]) for r in parse_table(doc, "transitions")}
    names = {p.name for p in Phase}
    assert {a for a, _, _ in documented} | {b for _, _, b in documented} <= names
    _, changes = played
    assert sorted(changes - documented) == [], "phase changes missing from the document"
    assert sorted(documented - changes) == [], "documented phase changes never seen in play"


# --- observation ------------------------------------------------------------------------------

def test_observation_layout_table(doc):
    rows = parse_table(doc, "obs_layout")
    total = rows[-1]
    assert total["block"] == "total"
    assert int(total["size"]) == OBS_SIZE == SPEC.observation_size
    assert [(r["block"], int(r["offset"]), int(r["size"])) for r in rows[:-1]] == list(OBS_LAYOUT)
    assert new_game(2, seed=0).observe(0).shape == (OBS_SIZE,)


def _fields(doc: str, name: str) -> list[tuple[str, int, int, float]]:
    return [
        (r["field"], int(r["offset in block"]), int(r["size"]), float(r["divided by"]))
        for r in parse_table(doc, name)
    ]


def test_player_field_table(doc):
    fields = _fields(doc, "player_fields")
    assert [(n, s, d) for n, _, s, d in fields] == [(n, s, float(d)) for n, s, d in PLAYER_FIELDS]
    offsets = np.cumsum([0] + [s for _, s, _ in PLAYER_FIELDS])[:-1].tolist()
    assert [o for _, o, _, _ in fields] == offsets
    assert sum(s for _, _, s, _ in fields) == PLAYER_BLOCK
    start = SLICES["players"].start
    slots = re.findall(r"slot (\d) at (\d+)", _block_text(doc, "player_slots"))
    assert [(int(k), int(o)) for k, o in slots] == [
        (k, start + k * PLAYER_BLOCK) for k in range(len(slots))
    ]
    assert len(slots) * PLAYER_BLOCK == SLICES["players"].stop - start


def test_community_field_table(doc):
    fields = _fields(doc, "community_fields")
    assert [(n, s, d) for n, _, s, d in fields] == [
        (n, s, float(d)) for n, s, d in COMMUNITY_FIELDS
    ]
    offsets = np.cumsum([0] + [s for _, s, _ in COMMUNITY_FIELDS])[:-1].tolist()
    assert [o for _, o, _, _ in fields] == offsets
    assert sum(s for _, _, s, _ in fields) == COMMUNITY_BLOCK
    start = SLICES["communities"].start
    slot = re.fullmatch(
        r"Community c starts at offset (\d+) \+ (\d+) × c\.", _block_text(doc, "community_slots")
    )
    assert slot is not None
    assert (int(slot.group(1)), int(slot.group(2))) == (start, COMMUNITY_BLOCK)
    assert SLICES["communities"].stop - start == C.NUM_COMMUNITIES * COMMUNITY_BLOCK


def _midgame_state(num_players: int = 3, seed: int = 7, steps: int = 80):
    state = new_game(num_players, seed=seed)
    rng = np.random.default_rng(seed)
    while state.steps < steps and not state.is_terminal:
        state.apply(int(rng.choice(np.flatnonzero(state.legal_mask()))))
    return state


def test_player_fields_decode_the_observation(doc):
    """Offsets and divisors of the player table read the right numbers out of a real vector."""
    state = _midgame_state()
    fields = {n: (o, s, d) for n, o, s, d in _fields(doc, "player_fields")}
    start = SLICES["players"].start
    n = state.num_players
    for observer in range(n):
        obs = state.observe(observer)
        for k in range(n):
            seat = (observer + k) % n
            base = start + k * PLAYER_BLOCK

            def read(name, base=base, obs=obs):
                o, s, d = fields[name]
                return np.round(obs[base + o:base + o + s] * d).astype(int).tolist()

            assert read("present") == [1]
            assert read("fruits") == list(state.fruits[seat])
            assert read("carts") == [state.carts[seat]]
            assert read("unused_action_tiles") == [int(u) for u in state.unused[seat]]
            assert read("score") == [min(state.scores()[seat], 100)]
            assert read("is_acting") == [int(seat == state.current_player)]
        for k in range(n, 4):
            o, _, _ = fields["present"]
            assert obs[start + k * PLAYER_BLOCK + o] == 0.0


def test_community_fields_decode_the_observation(doc):
    state = _midgame_state()
    fields = {n: (o, s, d) for n, o, s, d in _fields(doc, "community_fields")}
    obs = state.observe(0)
    start = SLICES["communities"].start
    for c, stack in enumerate(state.stacks):
        base = start + COMMUNITY_BLOCK * c

        def read(name, base=base):
            o, s, d = fields[name]
            return np.round(obs[base + o:base + o + s] * d).astype(int).tolist()

        assert read("has_top") == [int(bool(stack))]
        if stack:
            top = state.catalogue[stack[-1]]
            assert read("top_fixed") == list(top.fixed)
            assert read("top_wild") == [top.wild]
            assert read("hidden_beneath") == [len(stack) - 1]
        assert read("resolved") == [int(state.finca_tile[c] < 0)]
