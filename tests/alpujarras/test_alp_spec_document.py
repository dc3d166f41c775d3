"""seeds/alpujarras.md against the code: the document's tables cannot drift from the engine.

Two layers of checks:
* every generated block of the document equals what scripts/alpujarras_tables.py prints now;
* independently of that script, the tables parsed from the document are compared with the code
  (components, actions, observation) and with what seeded games actually do (which ids are legal
  in which phase, which phase changes occur), and the documented field offsets decode real
  observations.
The rule ids are checked too: ALP-01..ALP-71 and ZARA-01..ZARA-23 are each defined by exactly one
bullet, in order, and every gap G-01..G-30, ZG-01..ZG-18 states a question, a decision and a
reason.
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
from alp_helpers import legal, play, short_move_policy, solo_duty_policy

from huerta.envs.alpujarras import components as C
from huerta.envs.alpujarras import new_game
from huerta.envs.alpujarras.actions import N_ACTIONS, Phase, action_name
from huerta.envs.alpujarras.game import DEFAULT_MAX_STEPS, SPEC
from huerta.envs.alpujarras.observation import BLOCKS, OBS_LAYOUT, OBS_SIZE, SLICES
from huerta.envs.alpujarras.scenario import scenario
from huerta.envs.core.rewards import REWARD_MODES

ROOT = Path(__file__).resolve().parents[2]
DOC_PATH = ROOT / "seeds" / "alpujarras.md"
SCRIPT_PATH = ROOT / "scripts" / "alpujarras_tables.py"


def _load_generator():
    spec = importlib.util.spec_from_file_location("alpujarras_tables", SCRIPT_PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("alpujarras_tables", module)
    spec.loader.exec_module(module)
    return module


tables = _load_generator()


@pytest.fixture(scope="module")
def doc() -> str:
    return DOC_PATH.read_text(encoding="utf-8")


def _block_text(doc: str, name: str) -> str:
    begin = tables.GENERATED.begin(name)
    end = tables.GENERATED.end(name)
    assert doc.count(begin) == 1, f"seeds/alpujarras.md needs exactly one block {begin}"
    start = doc.index(begin) + len(begin)
    return doc[start:doc.index(end, start)].strip("\n")


def _clean(cell: str) -> str:
    return cell.strip().strip("`").replace("**", "").strip()


def parse_table(doc: str, name: str) -> list[dict[str, str]]:
    """The markdown pipe table of block `name` as a list of {header: cell} rows."""
    lines = [ln for ln in _block_text(doc, name).splitlines() if ln.startswith("|")]
    assert len(lines) >= 2, f"block {name!r} holds no table"
    header = [_clean(c) for c in lines[0].strip("|").split("|")]
    rows = []
    for line in lines[2:]:
        cells = [_clean(c) for c in line.strip("|").split("|")]
        assert len(cells) == len(header), f"{name}: row {line!r}"
        rows.append(dict(zip(header, cells, strict=True)))
    return rows


# --- the generator and the document agree ------------------------------------------------------

@pytest.mark.parametrize("name", list(tables.TABLES))
def test_generated_block_is_current(doc, name):
    """Each generated block equals the script's output (scripts/alpujarras_tables.py --write)."""
    assert _block_text(doc, name) == "\n".join(tables.TABLES[name]()), (
        f"seeds/alpujarras.md block {name!r} is stale; run .venv/bin/python "
        "scripts/alpujarras_tables.py --write"
    )


def test_generator_check_mode_passes():
    assert tables.main(["--check"]) == 0


# --- rule ids ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("prefix", "count"), [("ALP", 71), ("ZARA", 23)])
def test_every_rule_clause_is_defined_exactly_once_in_order(doc, prefix, count):
    found = re.findall(rf"^- \*\*({prefix}-\d+)\*\* \S", doc, re.MULTILINE)
    assert found == [f"{prefix}-{i:02d}" for i in range(1, count + 1)]


_GAP_DEF = re.compile(r"^- \*\*((?:G|ZG)-\d+)\*\* (.*?)(?=^- \*\*|^#|\Z)", re.MULTILINE | re.DOTALL)


def test_every_gap_is_defined_exactly_once_with_question_decision_and_reason(doc):
    found = _GAP_DEF.findall(doc)
    ids = [gid for gid, _ in found]
    expected = [f"G-{i:02d}" for i in range(1, 31)] + [f"ZG-{i:02d}" for i in range(1, 19)]
    assert ids == expected
    assert Counter(ids).most_common(1)[0][1] == 1
    for gid, body in found:
        assert "?" in body.split("**Decision:**")[0], f"{gid}: state the question first"
        assert body.count("**Decision:**") == 1, f"{gid}: one **Decision:**"
        assert body.count("**Why:**") == 1, f"{gid}: one **Why:**"
        assert body.index("**Decision:**") < body.index("**Why:**"), gid


def _gap(doc: str, gid: str) -> str:
    return " ".join(dict(_GAP_DEF.findall(doc))[gid].split())


def test_required_sections_exist(doc):
    headings = set(re.findall(r"^#+ (.+)$", doc, re.MULTILINE))
    for title in (
        "Rule clauses", "Setup", "Turn order and movement", "Standard spaces",
        "Market spaces, deliveries and awards", "Harvest spaces and goals", "Norias",
        "End track, scoring and tiebreak", "The 2-player die", "Solo game against Zara",
        "Gaps and decisions", "Where our data is a decision, not the printed game",
        "Component data", "Actions", "Phases", "Transitions", "Observation",
        "Hidden information and chance", "Rewards and episode end",
    ):
        assert title in headings, f"missing section {title!r}"


def test_data_decisions_section_names_the_data_gaps(doc):
    section = doc.split("## Where our data is a decision, not the printed game", 1)[1]
    section = section.split("\n## ", 1)[0]
    for gid in ("G-01", "G-02", "G-03", "G-04", "G-07", "G-10", "G-12", "G-14", "G-15", "ZG-09"):
        assert gid in section
    assert "components.py" in section


# --- options and defaults ---------------------------------------------------------------------

def test_reward_modes_documented(doc):
    g29 = _gap(doc, "G-29")
    from huerta.envs.core.aec import BoardGameAEC

    default = inspect.signature(BoardGameAEC.__init__).parameters["reward"].default
    assert f'default `reward="{default}"`' in g29
    assert set(re.findall(r'reward="(\w+)"', g29)) == set(REWARD_MODES)
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
    for r in parse_table(doc, "numbers"):
        assert int(r["value"]) == getattr(C, r["constant"]), r["constant"]


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
    rows = parse_table(doc, "actions")
    assert len(rows) == N_ACTIONS == SPEC.num_actions
    assert [int(r["id"]) for r in rows] == list(range(N_ACTIONS))
    for r in rows:
        assert r["name"] == action_name(int(r["id"]))


def test_action_table_phases_match_play(doc, played):
    documented = set()
    for r in parse_table(doc, "actions"):
        phases = r["legal in phases"].split(" (")[0]
        documented |= {(int(r["id"]), p) for p in phases.split(", ")}
    seen, _ = played
    assert sorted(seen - documented) == [], "legal in play but not in the action table"
    assert sorted(documented - seen) == [], "in the action table but never legal in play"


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
    rows = parse_table(doc, "phases")
    assert [(int(r["value"]), r["phase"]) for r in rows] == [(p.value, p.name) for p in Phase]


def test_transition_table_matches_play(doc, played):
    documented = {(r["from"], r["action"], r["to"]) for r in parse_table(doc, "transitions")}
    names = {p.name for p in Phase}
    assert {a for a, _, _ in documented} | {b for _, _, b in documented} <= names
    _, changes = played
    assert sorted(changes - documented) == [], "phase changes missing from the document"
    assert sorted(documented - changes) == [], "documented phase changes never seen in play"


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
    total = rows[-1]
    assert total["block"] == "total" and int(total["size"]) == OBS_SIZE == SPEC.observation_size
    assert [(r["block"], int(r["offset"]), int(r["size"])) for r in rows[:-1]] == list(OBS_LAYOUT)
    assert [int(r["repeats"]) for r in rows[:-1]] == [rep for _, rep, _ in BLOCKS]
    assert new_game(2, seed=0).observe(0).shape == (OBS_SIZE,)


def _fields(doc: str) -> dict[str, dict[str, tuple[int, int, float]]]:
    out: dict[str, dict[str, tuple[int, int, float]]] = {}
    for r in parse_table(doc, "obs_fields"):
        out.setdefault(r["block"], {})[r["field"]] = (
            int(r["offset in repeat"]), int(r["size"]), float(r["divided by"])
        )
    return out


def test_field_table_matches_the_blocks(doc):
    fields = _fields(doc)
    for name, repeats, block_fields in BLOCKS:
        assert list(fields[name]) == [f for f, _, _ in block_fields]
        width = sum(size for _, size, _ in fields[name].values())
        assert width * repeats == SLICES[name].stop - SLICES[name].start


def _reader(doc, obs):
    fields = _fields(doc)
    repeats = {name: rep for name, rep, _ in BLOCKS}

    def read(block, field, repeat=0):
        width = (SLICES[block].stop - SLICES[block].start) // repeats[block]
        off, size, div = fields[block][field]
        start = SLICES[block].start + repeat * width + off
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
