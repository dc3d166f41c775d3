"""seeds/alpujarras.md against the code: the document's tables cannot drift from the engine.

Two layers of checks:
* every generated block of the document equals what scripts/alpujarras_tables.py prints now;
* independently of that script, the tables parsed from the document are compared with the code
  (components, actions, observation) and with what seeded games actually do (which ids are legal
  in which phase, which phase changes occur), and the documented field offsets decode real
  observations.
The rule ids are checked too: every ALP- and ZARA- clause id is defined by exactly one bullet,
numbered in order from 01 without a gap, and every G- and ZG- gap states a question, a decision
and a reason.
"""

from __future__ import annotations

import inspect
from collections import Counter

import numpy as np
import pytest
from alp_helpers import legal, play, short_move_policy, solo_duty_policy
from spec_document_helpers import (
    SpecDocument,
    assert_action_table_ids_and_names,
    assert_clauses_defined_once_in_order,
    assert_documented_ids_match_play,
    assert_enum_table,
    assert_gap_states_question_decision_reason,
    assert_ids_defined_once_in_order,
    assert_layout_table,
    assert_numbers_table,
    assert_reward_modes_documented,
    assert_sections_exist,
    assert_transitions_match_play,
    data_decisions_section,
)

from huerta.envs.alpujarras import components as C
from huerta.envs.alpujarras import new_game
from huerta.envs.alpujarras.actions import N_ACTIONS, Phase, action_name
from huerta.envs.alpujarras.game import DEFAULT_MAX_STEPS, SPEC
from huerta.envs.alpujarras.observation import OBS_LAYOUT, OBS_SIZE, SLICES
from huerta.envs.alpujarras.observation_spec import SPEC as OBSERVATION_SPEC
from huerta.envs.alpujarras.scenario import scenario

SPEC_DOC = SpecDocument("alpujarras", gap_prefixes=("G", "ZG"))
tables = SPEC_DOC.tables
doc = SPEC_DOC.doc_fixture()
parse_table = SPEC_DOC.parse_table
_gap = SPEC_DOC.gap

# --- the generator and the document agree ------------------------------------------------------

test_generated_block_is_current, test_generator_check_mode_passes = SPEC_DOC.generator_tests()


# --- rule ids ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("prefix", "count"), [("ALP", 71), ("ZARA", 23)])
def test_every_rule_clause_is_defined_exactly_once_in_order(doc, prefix, count):
    assert_clauses_defined_once_in_order(doc, prefix, count)


def test_every_gap_is_defined_exactly_once_with_question_decision_and_reason(doc):
    found = SPEC_DOC.gaps(doc)
    expected = [f"G-{i:02d}" for i in range(1, 31)] + [f"ZG-{i:02d}" for i in range(1, 19)]
    assert_ids_defined_once_in_order([gid for gid, _ in found], expected)
    for gid, body in found:
        assert_gap_states_question_decision_reason(gid, body)


def test_required_sections_exist(doc):
    assert_sections_exist(doc, (
        "Rule clauses", "Setup", "Turn order and movement", "Standard spaces",
        "Market spaces, deliveries and awards", "Harvest spaces and goals", "Norias",
        "End track, scoring and tiebreak", "The 2-player die", "Solo game against Zara",
        "Gaps and decisions", "Where our data is a decision, not the printed game",
        "Component data", "Actions", "Phases", "Transitions", "Observation",
        "Hidden information and chance", "Rewards and episode end",
    ))


def test_data_decisions_section_names_the_data_gaps(doc):
    section = data_decisions_section(doc)
    for gid in ("G-01", "G-02", "G-03", "G-04", "G-07", "G-10", "G-12", "G-14", "G-15", "ZG-09"):
        assert gid in section
    assert "components.py" in section


# --- options and defaults ---------------------------------------------------------------------

def test_reward_modes_documented(doc):
    g29 = _gap(doc, "G-29")
    assert_reward_modes_documented(g29, 'default `reward="{default}"`')
    assert f"− {C.SOLO_CONDITION_PENALTY}" in g29


def test_solo_options_documented(doc):
    assert set(SPEC.options) == {"double_turns", "star_sides"}
    params = inspect.signature(new_game).parameters
    assert set(SPEC.options) <= set(params)
    text = " ".join(doc.split())
    assert f"`double_turns` (0-5, default {C.DOUBLE_TURNS_DEFAULT})" in text
    assert "`star_sides` (0-5, default 0)" in text
    assert SPEC.options["double_turns"] == tuple(range(6)) == SPEC.options["star_sides"]
    assert new_game(1, seed=0).double_turns == C.DOUBLE_TURNS_DEFAULT


def test_truncation_documented(doc):
    g30 = _gap(doc, "G-30")
    assert "`max_steps`" in g30 and f"{DEFAULT_MAX_STEPS} agent steps by default" in g30
    assert SPEC.default_max_steps == DEFAULT_MAX_STEPS


# --- component data ---------------------------------------------------------------------------

def test_player_count_table(doc):
    rows = parse_table(doc, "players")
    assert len(rows) == len(C.PLAYER_COUNTS)
    for r, n in zip(rows, C.PLAYER_COUNTS, strict=True):
        s = new_game(n, seed=0)
        kinds = Counter(sp.kind for sp in s.track)
        assert int(r["standard spaces"]) == kinds[C.STANDARD]
        assert int(r["end spaces"]) == kinds[C.END]
        assert int(r["target spaces"]) == len(s.track)
        assert int(r["tokens in play"]) == sum(len(t) for t in s.towns)
        assert int(r["tokens per town"]) == len(s.towns[0])
        assert (r["die"] == "yes") == s.has_die
        assert (r["award tokens"] == "yes") == (s.awards[0] == C.AWARD_GREEN)
        assert (r["cards"] == "zakat cards") == s.solo


def test_numbers_table(doc):
    assert_numbers_table(parse_table(doc, "numbers"), C)


def test_farmland_table(doc):
    rows = parse_table(doc, "farmlands")
    assert [r["farmland (and town)"] for r in rows] == list(C.FARMLANDS)
    for f, r in enumerate(rows):
        assert r["primary fruit"] == C.FRUITS[C.PRIMARY[f]]
        assert r["printed fields"].split(", ") == [C.FRUITS[t] for t in C.PRINTED_FIELDS[f]]
    # D1: the orange farmland grows exactly lemons, oranges and grapes
    assert set(rows[3]["printed fields"].split(", ")) == {"lemon", "orange", "grape"}


def test_channel_table(doc):
    rows = parse_table(doc, "channels")
    assert len(rows) == C.NUM_CHANNELS
    for r, ch in zip(rows, C.CHANNELS, strict=True):
        assert int(r["id"]) == ch.cid and r["shape"] == ch.shape
        assert r["farmlands"] == "/".join(C.FARMLANDS[f] for f in ch.farmlands)
        assert ("dirhem" in r["reward"]) == ch.dirhem


def test_segment_table_matches_the_tracks(doc):
    rows = parse_table(doc, "segments")
    assert [r["segment"] for r in rows] == list(C.SEGMENT_NAMES)
    for r, seg in zip(rows, C.SEGMENTS, strict=True):
        if seg.kind == C.END:
            continue
        parts = r["spaces in track order"].split(" · ")
        special = seg.kind in (C.MARKET, C.HARVEST)
        assert len(parts) == len(seg.spaces) + special
        for part, (text, four) in zip(parts, seg.spaces, strict=False):
            assert part == text + (" (4)" if four else "")
            assert sorted(C.parse_icons(text).label().split("+")) == sorted(text.split("+"))


def test_end_ratios_table(doc):
    rows = parse_table(doc, "end_ratios")
    for r, four in zip(rows, (False, True), strict=True):
        ratios = [int(x.split(":")[0]) for x in r["end spaces, nearest first"].split(", ")]
        assert tuple(ratios) == C.END_RATIOS[four]
        track = new_game(4 if four else 3, seed=0).track
        assert [sp.ratio for sp in track if sp.kind == C.END] == ratios
    assert C.END_RATIOS[True][-1] == 3 and 4 in C.END_RATIOS[False]  # D6


def test_token_award_goal_zakat_and_noria_tables(doc):
    for r in parse_table(doc, "tokens"):
        assert [int(v) for v in r["values (4 players)"].split(", ")] == list(C.TOKEN_VALUES)
    assert [(int(r["green side (first delivery)"]), int(r["red side (second)"]))
            for r in parse_table(doc, "awards")] == list(C.AWARDS)
    goals = parse_table(doc, "goals")
    assert [r["goal"] for r in goals] == list(C.GOALS)
    assert [int(r["dirhems"]) for r in goals] == list(C.GOAL_REWARDS)
    assert int(goals[4]["dirhems"]) == 3  # D8
    zakats = parse_table(doc, "zakats")
    assert [(r["plain side"], r["star side"]) for r in zakats] == [
        (p.label(), s.label()) for p, s in C.ZAKAT_CARDS
    ]
    assert zakats[0]["plain side"] == "orange + lemon + a farmer"  # D10
    norias = {int(r["norias spent"]): int(r["dirhems"]) for r in parse_table(doc, "norias")}
    assert norias == {k: d for k, (_, d) in C.NORIA_SPEND.items()}


# --- actions and phases, against the code and against play ------------------------------------

def _rich_starts():
    """Scenario starts that reach the rare chains: empty supplies with farmers out, capped fruit,
    solo games with fruit in hand."""
    out = []
    for seed in range(60):
        n = 1 + seed % 4
        kw = dict(layout=None, farmers={0: [2, 2, 1, 1, 1]}, fruit={0: [4, 5, 5, 4, 5]},
                  norias={0: 5})
        if seed % 3 == 0:
            kw["town_farmers"] = {0: [2, 2, 2, 1, 1]}  # supply empty
        out.append(scenario(n, seed=seed, **kw))
    return out


@pytest.fixture(scope="module")
def played() -> tuple[set[tuple[int, str]], set[tuple[str, str, str]]]:
    """(action id, phase) pairs seen legal and (phase, action kind, next phase) changes seen in
    seeded games over all player counts (real setups and rich scenario starts)."""
    seen: set[tuple[int, str]] = set()
    changes: set[tuple[str, str, str]] = set()
    starts = [new_game(1 + seed % 4, seed=seed) for seed in range(160)] + _rich_starts()
    for k, state in enumerate(starts):
        rng = np.random.default_rng(k)
        policy = solo_duty_policy if state.solo else short_move_policy
        while not state.is_terminal and state.steps < DEFAULT_MAX_STEPS:
            ids = np.flatnonzero(state.legal_mask())
            before = Phase(state.phase).name
            seen.update((int(a), before) for a in ids)
            action = policy(state, rng)
            state.apply(action)
            changes.add((before, tables.action_kind(action)[0], Phase(state.phase).name))
    return seen, changes


def test_action_table_ids_and_names(doc):
    assert_action_table_ids_and_names(
        parse_table(doc, "actions"), N_ACTIONS, SPEC.num_actions, action_name
    )


def test_action_table_phases_match_play(doc, played):
    documented = set()
    for r in parse_table(doc, "actions"):
        phases = r["legal in phases"].split(" (")[0]
        documented |= {(int(r["id"]), p) for p in phases.split(", ")}
    seen, _ = played
    assert_documented_ids_match_play(documented, seen)


def test_four_player_only_ids_are_never_legal_with_fewer(doc):
    rows = parse_table(doc, "actions")
    only4 = [int(r["id"]) for r in rows if "4 players only" in r["legal in phases"]]
    assert only4
    for seed in range(30):
        state = new_game(1 + seed % 3, seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal:
            assert not state.legal_mask()[only4].any()
            state.apply(short_move_policy(state, rng))


def test_phase_table(doc):
    assert_enum_table(parse_table(doc, "phases"), "phase", Phase)


def test_transition_table_matches_play(doc, played):
    _, changes = played
    assert_transitions_match_play(parse_table(doc, "transitions"), Phase, changes)


def test_example_sequences_replay(doc):
    text = " ".join(doc.split())
    assert "`[0, 46, 59, 64, 55]`" in text and "`[1, 66, 55]`" in text
    s = scenario(2, positions={1: 20})
    s.current_player = 0
    play(s, 0, 46, 59, 64, 55)
    assert s.farmers[0][3] == 1 and s.fruit[0][3] == 1
    s = scenario(2, positions={1: 20})
    s.current_player = 0
    play(s, 1, 66, 55)
    assert s.channels[0] and s.dirhems[0] == 1
    s = scenario(2, positions={0: 4, 1: 20}, farmers={0: {1: 1}}, fruit={0: {0: 4, 1: 4}},
                 towns={1: [(0, 3), (1, 4), (2, 3), (3, 4)]})
    assert "`[5, 86, 55]`" in text
    play(s, 5)
    assert 86 in legal(s)
    play(s, 86, 55)
    assert s.tokens[0] == [C.token(0, 3)]


# --- observation ------------------------------------------------------------------------------

def test_observation_layout_table(doc):
    rows = parse_table(doc, "obs_layout")
    assert_layout_table(rows, OBS_LAYOUT, OBS_SIZE)
    assert SPEC.observation_size == OBS_SIZE
    assert SPEC.observation_spec is OBSERVATION_SPEC and OBSERVATION_SPEC.layout == OBS_LAYOUT
    assert new_game(2, seed=0).observe(0).shape == (OBS_SIZE,)


def _fields(doc: str) -> dict[str, dict[str, tuple[int, int, int, float, str]]]:
    """block -> field -> (offset of the first copy, stride between copies (0 for a single
    block), size, divisor, encoding), parsed from the field table ("1717 + 35 × seat slot")."""
    out: dict[str, dict[str, tuple[int, int, int, float, str]]] = {}
    for r in parse_table(doc, "obs_fields"):
        first, _, rest = r["offset"].partition(" + ")
        stride = int(rest.split(" × ")[0]) if rest else 0
        out.setdefault(r["block"], {})[r["field"]] = (
            int(first), stride, int(r["size"]), float(r["divided by"]), r["encoding"]
        )
    return out


def test_field_table_matches_the_blocks(doc):
    """The documented fields of every block tile it exactly: in order, each starting where the
    one before ends, the copies (stride = the summed field sizes) filling the block's slice."""
    fields = _fields(doc)
    assert list(fields) == [name for name, _, _ in OBS_LAYOUT]
    for name, offset, size in OBS_LAYOUT:
        block = OBSERVATION_SPEC.block(name)
        assert list(fields[name]) == [f.name for f in block.fields]
        at = offset
        strides = set()
        for first, stride, width, divisor, encoding in fields[name].values():
            assert first == at
            at += width
            strides.add(stride)
        width = at - offset
        count = size // width
        assert count * width == size == SLICES[name].stop - SLICES[name].start
        assert strides == ({width} if count > 1 else {0})
        assert count == block.count


def _reader(doc, obs):
    fields = _fields(doc)

    def read(block, field, repeat=0):
        first, stride, size, div, encoding = fields[block][field]
        start = first + repeat * stride
        if encoding != "value":
            div = 1.0
        return np.round(obs[start:start + size] * div).astype(int).tolist()

    return read


def _midgame(n, seed=7):
    state = new_game(n, seed=seed)
    rng = np.random.default_rng(seed)
    while state.steps < 60 and not state.is_terminal:
        state.apply(short_move_policy(state, rng))
    return state


@pytest.mark.parametrize("n", (2, 3, 4))
def test_documented_fields_decode_the_observation(doc, n):
    """Offsets and divisors of the field table read the right numbers out of real vectors."""
    state = _midgame(n)
    for observer in range(n):
        read = _reader(doc, state.observe(observer))
        for k in range(n):
            q = (observer + k) % n
            assert read("players", "present", k) == [1]
            assert read("players", "fruit", k) == state.fruit[q]
            assert read("players", "norias", k) == [state.norias[q]]
            assert read("players", "supply", k) == [state.supply[q]]
            assert read("players", "score", k) == [min(state.scores()[q], 60)]
            assert read("pieces", "position", k) == [state.pos[q] + 1]
            assert read("pieces", "is_acting", k) == [int(q == state.current_player)]
        for k in range(n, 4):
            assert read("players", "present", k) == [0]
        for f in range(5):
            assert read("farmlands", "farmers", f)[:n] == [
                state.farmers[(observer + k) % n][f] for k in range(n)
            ]
        for w in range(5):
            grid = read("towns", "tokens", w)
            assert sum(grid) == len(state.towns[w])
            assert read("towns", "award", w) == [int(state.awards[w] == a) for a in range(3)]
        assert read("channels", "filled", 0) == [int(state.channels[0])]
        assert read("crop_bag", "crops_left") == [state.bag.count(k) for k in range(5)]
        assert read("game_meta", "player_count") == [int(n == m) for m in (1, 2, 3, 4)]


def test_documented_solo_fields_decode_the_observation(doc):
    state = scenario(1, seed=3, layout=None, fruit={0: [4] * 5}, farmers={0: [1] * 5},
                     zara_farmers=[0, 2, 0, 1, 0], zara_dirhems=4, double_turns=2,
                     zakat_star=[True, False, False, False, True],
                     tokens={0: [(0, 3)]}, zara_tokens=[(1, 4)])
    read = _reader(doc, state.observe(0))
    assert read("zara", "zara_dirhems") == [4] and read("zara", "zara_score") == [7]
    assert read("solo", "double_turns") == [2]
    assert read("solo", "delivered_kinds") == [1, 0, 0, 0, 0]
    assert read("zakats", "star_side", 4) == [1] and read("zakats", "star_side", 1) == [0]
    assert read("farmlands", "zara_farmers", 1) == [2]
    assert read("farmlands", "zara_mule", state.zara_farmland) == [1]
    assert read("goals", "goal", 0) == [0] * 10
