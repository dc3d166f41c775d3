"""seeds/finca.md against the code: the document's tables cannot drift from the engine.

Two layers of checks:
* every generated block of the document equals what scripts/finca_tables.py prints now;
* independently of that script, the tables parsed from the document are compared with the code
  (components, actions, observation) and with what random games actually do (which ids are legal
  in which phase, which phase changes occur).
The rule ids are checked too: each FIN- clause and G- gap id is defined by exactly one bullet.
"""

from __future__ import annotations

import inspect
import re
from collections import Counter

import numpy as np
import pytest
from spec_document_helpers import (
    SpecDocument,
    assert_action_table_ids_and_names,
    assert_clauses_defined_once_in_order,
    assert_documented_ids_match_play,
    assert_enum_table,
    assert_fields_match,
    assert_gap_states_question_decision_reason,
    assert_ids_defined_once_in_order,
    assert_layout_table,
    assert_numbers_table,
    assert_reward_modes_documented,
    assert_sections_exist,
    assert_transitions_match_play,
    data_decisions_section,
)

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

N_FIN = 52
N_GAPS = 40

SPEC_DOC = SpecDocument("finca")
tables = SPEC_DOC.tables
doc = SPEC_DOC.doc_fixture()
_block_text = SPEC_DOC.block_text
parse_table = SPEC_DOC.parse_table
_gap = SPEC_DOC.gap

# --- the generator and the document agree ------------------------------------------------------

test_generated_block_is_current, test_generator_check_mode_passes = SPEC_DOC.generator_tests()


# --- rule ids ---------------------------------------------------------------------------------

def test_every_rule_clause_is_defined_exactly_once_in_order(doc):
    assert_clauses_defined_once_in_order(doc, "FIN", N_FIN)


def test_every_gap_is_defined_exactly_once_with_decision_and_reason(doc):
    found = SPEC_DOC.gaps(doc)
    assert_ids_defined_once_in_order([gid for gid, _ in found],
                                     [f"G-{i:02d}" for i in range(1, N_GAPS + 1)])
    for gid, body in found:
        assert_gap_states_question_decision_reason(gid, body)


def test_required_sections_exist(doc):
    assert_sections_exist(doc, (
        "Setup", "Introduction", "Move a farmer", "Deliver fruit", "Action tiles", "Finca awards",
        "Bonus tiles", "Game end and scoring", "Tiebreak", "Component data", "Actions",
        "Observation", "Hidden information and chance", "Rewards and episode end",
        "Where our data is a decision, not the printed game",
    ))


def test_data_decisions_section_names_the_data_gaps(doc):
    section = data_decisions_section(doc)
    for gid in ("G-01", "G-02", "G-04", "G-06"):
        assert gid in section


# --- options and defaults named in the gaps exist in the code ---------------------------------

def test_reward_modes_documented(doc):
    assert_reward_modes_documented(_gap(doc, "G-29"), 'Default `reward="{default}"`')


def test_cart_shortage_option_documented(doc):
    g23 = _gap(doc, "G-23")
    default = inspect.signature(new_game).parameters["cart_shortage"].default
    modes = SPEC.options["cart_shortage"]
    assert f'default (`cart_shortage="{default}"`)' in g23
    assert set(re.findall(r'cart_shortage="(\w+)"', g23)) == set(modes)


def test_truncation_documented(doc):
    g30 = _gap(doc, "G-30")
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
    assert_numbers_table(parse_table(doc, "numbers"), C)


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
        fixed, wild = C.parse_requirement(r["published as"].strip("`"))
        assert (fixed, wild) == (tile.fixed, tile.wild), f"tile {tile.tile_id}"
    # G-04: value = fruits asked; the published counts per value.
    assert all(int(r["value"]) == int(r["fruits asked"]) for r in rows)
    assert Counter(int(r["value"]) for r in rows) == {1: 6, 2: 6, 3: 6, 4: 9, 5: 9, 6: 6}
    by_value = parse_table(doc, "fruit_tiles_by_value")
    assert [int(r["tiles"]) for r in by_value] == [6, 6, 6, 9, 9, 6]
    assert [int(r["of them wild"]) for r in by_value] == [0, 0, 0, 3, 3, 3]


def test_finca_tiles(doc):
    rows = parse_table(doc, "finca_tiles")
    assert [(int(r["id"]), r["tile"]) for r in rows] == [
        (t.tile_id, t.label()) for t in C.FINCA_TILES
    ]
    assert all(int(r["points"]) == C.FINCA_TILE_POINTS for r in rows)
    assert sum(1 for t in C.FINCA_TILES if t.universal) == 1
    assert {r["tile"] for r in rows} >= {"A+F", "G+R", "L+O", "ALL"}


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
    assert_action_table_ids_and_names(
        parse_table(doc, "actions"), N_ACTIONS, SPEC.num_actions, action_name
    )


def test_action_table_phases_match_play(doc, played):
    documented = {
        (int(r["id"]), phase)
        for r in parse_table(doc, "actions")
        for phase in r["legal in phases"].split(", ")
    }
    legal, _ = played
    assert_documented_ids_match_play(documented, legal)


def test_phase_table(doc):
    assert_enum_table(parse_table(doc, "phases"), "phase", Phase)


def test_transition_table_matches_play(doc, played):
    _, changes = played
    assert_transitions_match_play(parse_table(doc, "transitions"), Phase, changes)


# --- observation ------------------------------------------------------------------------------

def test_observation_layout_table(doc):
    assert_layout_table(parse_table(doc, "obs_layout"), OBS_LAYOUT, OBS_SIZE)
    assert SPEC.observation_size == OBS_SIZE
    assert new_game(2, seed=0).observe(0).shape == (OBS_SIZE,)


_fields = SPEC_DOC.fields


def test_player_field_table(doc):
    fields = _fields(doc, "player_fields")
    assert_fields_match(fields, PLAYER_FIELDS)
    assert sum(s for _, _, s, _ in fields) == PLAYER_BLOCK
    start = SLICES["players"].start
    slots = re.findall(r"slot (\d) at (\d+)", _block_text(doc, "player_slots"))
    assert [(int(k), int(o)) for k, o in slots] == [
        (k, start + k * PLAYER_BLOCK) for k in range(len(slots))
    ]
    assert len(slots) * PLAYER_BLOCK == SLICES["players"].stop - start


def test_community_field_table(doc):
    fields = _fields(doc, "community_fields")
    assert_fields_match(fields, COMMUNITY_FIELDS)
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
