"""seeds/mi_tierra.md against the code: the document's tables cannot drift from the engine.

Two layers of checks:
* every generated block of the document equals what scripts/mi_tierra_tables.py prints now;
* independently of that script, the tables parsed from the document are compared with the code
  (components, actions, observation) and with what random games actually do (which action ids
  are legal in which decision).
The rule ids are checked too: each MIT- clause and G- gap id is defined by exactly one bullet,
gaps with a question, a decision and a reason.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest
from mt_helpers import RICH
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
    data_decisions_section,
)

from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra import new_game
from huerta.envs.mi_tierra.actions import N_ACTIONS, Decision, Stage, action_name
from huerta.envs.mi_tierra.game import DEFAULT_MAX_STEPS, SPEC
from huerta.envs.mi_tierra.observation import (
    CARD_FIELDS,
    CONTEXT_FIELDS,
    GAME_FIELDS,
    OBS_LAYOUT,
    OBS_SIZE,
    PLAYER_BLOCK,
    PLAYER_FIELDS,
    SLICES,
)
from huerta.envs.mi_tierra.observation_spec import SPEC as OBSERVATION
from huerta.envs.mi_tierra.scenario import scenario

N_MIT = 106
N_GAPS = 71

SPEC_DOC = SpecDocument("mi_tierra")
tables = SPEC_DOC.tables
doc = SPEC_DOC.doc_fixture()
_block_text = SPEC_DOC.block_text
parse_table = SPEC_DOC.parse_table
_gap = SPEC_DOC.gap

# --- the generator and the document agree -------------------------------------------------------

test_generated_block_is_current, test_generator_check_mode_passes = SPEC_DOC.generator_tests()


# --- rule ids -------------------------------------------------------------------------------------

def test_every_rule_clause_is_defined_exactly_once_in_order(doc):
    assert_clauses_defined_once_in_order(doc, "MIT", N_MIT)


def test_every_gap_is_defined_exactly_once_with_decision_and_reason(doc):
    found = SPEC_DOC.gaps(doc)
    assert_ids_defined_once_in_order([gid for gid, _ in found],
                                     [f"G-{i:02d}" for i in range(1, N_GAPS + 1)])
    for gid, body in found:
        if gid == "G-37":  # answered by G-03, stated as a decision only
            assert "**Decision:**" in body
            continue
        assert_gap_states_question_decision_reason(gid, body)


def test_required_sections_exist(doc):
    assert_sections_exist(doc, (
        "Rule clauses", "Gaps and decisions", "Component data", "Actions", "Decisions", "Stages",
        "Observation", "Hidden information and chance", "Rewards and episode end",
        "How the balance was checked", "Where our data is a decision, not the printed game",
        "Market deck A", "Market deck B", "Events", "Dice", "Farm",
    ))
    balance = doc.split("## How the balance was checked", 1)[1]
    assert "PLACEHOLDER" not in balance and "rounds" in balance


def test_data_decisions_section_names_the_data_gaps(doc):
    section = data_decisions_section(doc)
    for gid in ("G-02", "G-04", "G-11", "G-16", "G-31", "G-47", "G-48", "G-57", "G-61"):
        assert gid in section


def test_reward_modes_documented(doc):
    assert_reward_modes_documented(_gap(doc, "G-70"), 'by default `reward="{default}"`')


def test_truncation_and_round_cap_documented(doc):
    g56 = _gap(doc, "G-56")
    assert f"after round {C.MAX_ROUNDS}" in g56 and f"({DEFAULT_MAX_STEPS} by default)" in g56
    assert SPEC.default_max_steps == DEFAULT_MAX_STEPS


def test_first_player_is_seat_zero_as_documented(doc):
    assert "seat 0 (`player_0`) is always the start player" in _gap(doc, "G-69")
    for n in C.PLAYER_COUNTS:
        s = new_game(n, seed=n)
        assert s.order[0] == 0 and s.current_player == 0


# --- component data -------------------------------------------------------------------------------

def test_setup_table(doc):
    rows = parse_table(doc, "setup")
    assert [int(r["players"]) for r in rows] == list(C.PLAYER_COUNTS)
    for r in rows:
        n = int(r["players"])
        s = new_game(n, seed=0)
        assert r["starting money by seat"] == ", ".join(f"${m}" for m in s.money)
        assert int(r["workers each"]) == s.owned[0]
        assert int(r["Established markets"]) == len(s.est)


def test_numbers_table(doc):
    assert_numbers_table(parse_table(doc, "numbers"), C)


def test_goods_table(doc):
    rows = parse_table(doc, "goods")
    assert [r["good"] for r in rows] == list(C.GOODS)
    for g, r in enumerate(rows):
        assert int(r["Black Market pays"]) == C.bm_price(g, False, False)
        if r["Black Market sells for"] == "-":
            assert g not in C.BUYABLE
        else:
            assert int(r["Black Market sells for"]) == C.bm_price(g, True, False)


def test_zones_table(doc):
    rows = parse_table(doc, "zones")
    assert [r["key"] for r in rows] == list(C.ZONE_KEYS)
    assert sum(int(r["spaces"]) for r in rows) == C.NUM_SPACES
    assert {int(r["blocked with 2 players"]) for r in rows} == set(C.BLOCKED_2P)
    steps = [int(r["activation step"]) for r in rows]
    assert steps == sorted(steps)


def test_dice_table(doc):
    rows = parse_table(doc, "dice")
    assert [int(r["Forest: barnyard capacity"]) for r in rows] == list(C.FOREST_CAPACITY)
    assert [int(r["Sheep: sheep"]) for r in rows] == list(C.SHEEP_ROLL)
    assert [int(r["Cow: cows"]) for r in rows] == list(C.COW_ROLL)
    assert [int(r["Henhouse (white die): hens"]) for r in rows] == list(C.HEN_ROLL)
    assert [r["Crops: field"] for r in rows] == [C.GOODS[g] for g in C.CROP_ROLL]


def test_dev_tables(doc):
    rows = parse_table(doc, "dev_cards")
    assert [(int(r["id"]), r["card"], r["name"]) for r in rows] == [
        (d.card_id, d.numeral, d.name) for d in C.DEV_CARDS
    ]
    spots = parse_table(doc, "dev_spots")
    assert [r["spot"] for r in spots] == list(C.DEV_SPOTS)
    for k, r in enumerate(spots):
        assert r["touches"] == ", ".join(C.DEV_SLOTS[s] for s in C.DEV_SPOT_TOUCHES[k])


@pytest.mark.parametrize("deck", ["A", "B"])
def test_market_tables_list_every_card(doc, deck):
    rows = parse_table(doc, f"market_{deck.lower()}")
    cards = [c for c in C.MARKET_CARDS if c.deck == deck]
    assert sum(int(r["copies"]) for r in rows) == len(cards)
    by_code = Counter(c.code for c in cards)
    assert {r["code"]: int(r["copies"]) for r in rows} == dict(by_code)
    for r in rows:
        card = next(c for c in cards if c.code == r["code"])
        if card.kind == "simple":
            assert r["pays"] == f"${card.price} each" and int(r["at most"]) == card.limit
        if card.kind == "pack":
            assert r["pays"] == f"${card.price} for the bundle"
        if card.kind != "event":
            assert r["outgoing"] == ("yes" if card.outgoing else "no")


def test_events_table(doc):
    rows = parse_table(doc, "events")
    assert [r["event"] for r in rows] == list(C.EVENT_NAMES)
    perm = {r["event"] for r in rows if r["type"] == "permanent"}
    assert perm == {C.EVENT_NAMES[e] for e in C.PERMANENT_EVENTS}


# --- actions and decisions, against the code and against play ------------------------------------

@pytest.fixture(scope="module")
def played() -> set[tuple[int, str]]:
    """(action id, decision) pairs seen legal in 300 seeded random games over all counts, and in
    30 random games from a rich position (every factory, most cards in play), where the options
    that random games from the start reach only rarely (the Cloth Factory, flour and wine
    together) come up every time."""
    legal: set[tuple[int, str]] = set()
    starts = [(new_game(C.PLAYER_COUNTS[seed % 3], seed=seed), seed) for seed in range(300)]
    starts += [(scenario(3, seed=seed, explicit_chance=False, **RICH), 1000 + seed)
               for seed in range(30)]
    for state, seed in starts:
        rng = np.random.default_rng(seed)
        while not state.is_terminal:
            ids = state.legal_actions()
            legal.update((a, Decision(state.decision).name) for a in ids)
            state.apply(ids[rng.integers(len(ids))])
    return legal


def test_action_table_ids_and_names(doc):
    assert_action_table_ids_and_names(
        parse_table(doc, "actions"), N_ACTIONS, SPEC.num_actions, action_name
    )


def test_action_table_decisions_match_play(doc, played):
    documented = {
        (int(r["id"]), d)
        for r in parse_table(doc, "actions")
        for d in r["legal in decisions"].split(", ")
    }
    assert_documented_ids_match_play(documented, played)


def test_decision_and_stage_tables(doc):
    assert_enum_table(parse_table(doc, "decisions"), "decision", Decision)
    assert_enum_table(parse_table(doc, "stages"), "stage", Stage)


# --- observation ----------------------------------------------------------------------------------

def test_observation_layout_table(doc):
    assert_layout_table(parse_table(doc, "obs_layout"), OBS_LAYOUT, OBS_SIZE)
    assert f"float32[{OBS_SIZE}]" in doc and f"int8[{N_ACTIONS}]" in doc


_fields = SPEC_DOC.fields


@pytest.mark.parametrize("name, block, fields", [
    ("game_fields", "game", GAME_FIELDS), ("player_fields", "players", PLAYER_FIELDS),
    ("card_fields", "markets", CARD_FIELDS), ("context_fields", "context", CONTEXT_FIELDS),
    ("space_fields", "board", None),
])
def test_field_tables(doc, name, block, fields):
    """Each field table lists the declared fields of its block at running offsets, with their
    divisors and encodings (and the writer's field lists agree with the declaration)."""
    declared = OBSERVATION.block(block).fields
    if fields is not None:
        assert fields == tuple((f.name, f.size, f.scale) for f in declared)
    assert_fields_match(_fields(doc, name), [(f.name, f.size, f.scale) for f in declared])
    assert [r["encoding"] for r in parse_table(doc, name)] == [
        f.encoding.replace("_", "-") for f in declared]


def test_smaller_blocks_table(doc):
    """The table of the smaller blocks places every declared field in the vector."""
    rows = parse_table(doc, "obs_fields")
    named = {(r["block"], r["field"]): r for r in rows}
    blocks = ("black_market", "display", "revealed", "knowledge", "stage", "decision")
    assert len(rows) == sum(len(OBSERVATION.block(block).fields) for block in blocks)
    for block in blocks:
        b = OBSERVATION.block(block)
        for f in b.fields:
            r = named[(block, f.name)]
            assert int(r["offset"].split(" + ")[0]) == OBSERVATION.offset(block, f.name)
            assert (int(r["size"]), r["encoding"]) == (f.size, f.encoding.replace("_", "-"))
            if b.count > 1:
                assert r["offset"].split(" + ")[1].startswith(f"{b.width} ")


def test_player_fields_decode_the_observation(doc):
    """MIT-07: offsets and divisors of the player table read every player's money, goods and
    workers out of any observer's vector."""
    state = new_game(3, seed=7)
    rng = np.random.default_rng(7)
    while state.steps < 150 and not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    fields = {n: (o, s, d) for n, o, s, d in _fields(doc, "player_fields")}
    start = SLICES["players"].start
    slots = re.findall(r"slot (\d) at (\d+)", _block_text(doc, "player_slots"))
    assert [(int(k), int(o)) for k, o in slots] == [(k, start + k * PLAYER_BLOCK)
                                                    for k in range(4)]
    for observer in range(3):
        obs = state.observe(observer)
        for k in range(3):
            seat = (observer + k) % 3
            base = start + k * PLAYER_BLOCK

            def read(name, base=base, obs=obs):
                o, s, d = fields[name]
                return np.round(obs[base + o:base + o + s] * d).astype(int).tolist()

            assert read("present") == [1]
            assert read("money") == [min(state.money[seat], 250)]
            assert read("goods") == [min(g, 10) for g in state.goods[seat]]
            assert read("workers_owned") == [state.owned[seat]]
            assert read("is_acting") == [int(seat == state.current_player)]
        o, _, _ = fields["present"]
        assert obs[start + 3 * PLAYER_BLOCK + o] == 0.0
