"""envs/core/state_base.py: the one mechanism behind every game's clone, pickling, equality and
JSON round trip, from each state's field declaration (`state_fields`).

For every game and player count, a mid-game state must clone deeply enough that no change to the
clone reaches the original, survive pickle and JSON (key order included) equal, and compare by
value; for every game's state class, a slot without a declaration is refused when the class is
made. A toy state pins the mechanism itself (kinds, defaults, omitted fields, error messages).
"""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

from huerta.envs.core.errors import CorruptRecordError
from huerta.envs.core.registry import game_specs, get_game
from huerta.envs.core.state_base import (
    BOOL,
    BOOL_ROWS,
    INT,
    INTS,
    LIST,
    ROWS,
    STR,
    TUPLES,
    VALUE,
    Kind,
    SlottedState,
    StateFields,
)

# every game's state class: the class of the states its spec makes
STATE_CLASSES = {spec.name: type(spec.new_game(spec.player_counts[0], seed=0))
                 for spec in game_specs()}
CASES = [
    pytest.param(name, n, id=f"{name}-{n}")
    for name in STATE_CLASSES for n in get_game(name).player_counts
]
LIST_KINDS = {"a list", "a list of tuples (JSON lists)", "a list of ints", "a list of bools"}
ROW_KINDS = {"a list of lists", "a list of lists of ints", "a list of lists of bools"}


def step(state, rng: np.random.Generator) -> None:
    """One random legal move (or the first face of a pending explicit-chance roll)."""
    outcomes = state.chance_outcomes()
    if outcomes:
        state.apply_chance(outcomes[0][0])
    else:
        state.apply(int(rng.choice(np.flatnonzero(state.legal_mask()))))


def midgame(name: str, n: int, steps: int = 40, seed: int = 3):
    state = get_game(name).new_game(n, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        step(state, rng)
    state.legal_mask()  # fill the caches a clone handles
    state.observe(max(state.current_player, 0))
    return state


def play_on(state, seed: int, steps: int = 25) -> dict:
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        step(state, rng)
    return state.to_dict()


# --- every game's states ------------------------------------------------------------------
@pytest.mark.parametrize(("name", "n"), CASES)
def test_a_clone_is_equal_and_shares_no_list(name, n):
    state = midgame(name, n)
    clone = state.clone()
    assert type(clone) is type(state) and clone == state
    assert json.dumps(clone.to_dict()) == json.dumps(state.to_dict())
    for slot in type(state).state_fields.slots:
        getattr(clone, slot)  # every slot is set in the clone
    for field, kind in type(state).state_fields.saved:
        ours, theirs = getattr(clone, field), getattr(state, field)
        if kind.what in LIST_KINDS | ROW_KINDS:
            assert ours is not theirs, field
        if kind.what in ROW_KINDS:
            assert all(a is not b for a, b in zip(ours, theirs, strict=True)), field


@pytest.mark.parametrize(("name", "n"), CASES)
def test_changing_a_clone_never_touches_the_original(name, n):
    state = midgame(name, n)
    before = json.dumps(state.to_dict())
    clone = state.clone()
    for field, kind in type(state).state_fields.saved:
        value = getattr(clone, field)
        if kind.what in ROW_KINDS:
            for row in value:
                row.append(99)
        if kind.what in LIST_KINDS | ROW_KINDS:
            value.append(99)
    assert json.dumps(state.to_dict()) == before
    clone = state.clone()
    play_on(clone, seed=11)
    assert json.dumps(state.to_dict()) == before
    # and the original plays on as if no clone had been made
    assert play_on(state.clone(), seed=12) == play_on(state, seed=12)


@pytest.mark.parametrize(("name", "n"), CASES)
def test_pickle_round_trip(name, n):
    state = midgame(name, n)
    copy = pickle.loads(pickle.dumps(state))
    assert type(copy) is type(state) and copy == state
    assert json.dumps(copy.to_dict()) == json.dumps(state.to_dict())
    assert play_on(copy, seed=5) == play_on(state, seed=5)  # dice and draws included


@pytest.mark.parametrize(("name", "n"), CASES)
def test_json_round_trip_keeps_the_format(name, n):
    state = midgame(name, n)
    data = state.to_dict()
    text = json.dumps(data)
    assert next(iter(data)) == "game" and data["game"] == name
    loaded = get_game(name).state_from_dict(json.loads(text))
    assert loaded == state and json.dumps(loaded.to_dict()) == text
    saved = [field for field, kind in type(state).state_fields.saved if kind.omit is None]
    assert list(data)[1:len(saved) + 1] == saved  # the declared order is the dict's order
    assert play_on(loaded, seed=7) == play_on(state, seed=7)


@pytest.mark.parametrize(("name", "n"), CASES)
def test_equality_is_by_value(name, n):
    state = midgame(name, n)
    other = midgame(name, n)
    assert state == other and (state != other) is False
    assert state != state.to_dict() and state != None  # noqa: E711
    rival = next(key for key in STATE_CLASSES if key != name)
    assert state != midgame(rival, 2, steps=0) and all(state != x for x in [object(), 1, "s"])
    if not other.is_terminal:
        step(other, np.random.default_rng(0))
        assert state != other
    with pytest.raises(TypeError, match="unhashable"):
        hash(state)


@pytest.mark.parametrize("name", list(STATE_CLASSES))
def test_a_bad_field_in_a_dict_is_named(name):
    cls = STATE_CLASSES[name]
    data = get_game(name).new_game(2, seed=0).to_dict()
    ints = [field for field, kind in cls.state_fields.saved if kind is INT]
    lists = [field for field, kind in cls.state_fields.saved if kind.what in LIST_KINDS]
    with pytest.raises(CorruptRecordError, match=f"{name} state: field '{ints[1]}': expected an"
                                                 " int, got 'x'"):
        cls.from_dict({**data, ints[1]: "x"})
    with pytest.raises(CorruptRecordError, match=f"{name} state: field '{lists[0]}': "):
        cls.from_dict({**data, lists[0]: 7})
    with pytest.raises(CorruptRecordError, match=f"{name} state: missing field '{ints[0]}'"):
        cls.from_dict({k: v for k, v in data.items() if k != ints[0]})


@pytest.mark.parametrize("name", list(STATE_CLASSES))
def test_every_slot_of_a_game_state_is_declared(name):
    cls = STATE_CLASSES[name]
    assert cls.__slots__ == cls.state_fields.slots
    assert len(set(cls.__slots__)) == len(cls.__slots__)
    with pytest.raises(TypeError, match=r"slot 'extra' is not declared in state_fields"):
        type("Bad" + cls.__name__, (cls,), {"__slots__": ("extra",)})
    # a subclass that declares its new slot is accepted, and clones into its own class
    fields = cls.state_fields
    declared = StateFields(fields.game, fields.saved, shared=(*fields.shared, "extra"),
                           copied=fields.copied, own=fields.own)
    sub = type("Good" + cls.__name__, (cls,), {"__slots__": ("extra",), "state_fields": declared})
    state = sub.from_dict(get_game(name).new_game(2, seed=0).to_dict())
    state.extra = 1
    clone = state.clone()
    assert type(clone) is sub and clone.extra == 1 and clone == state


# --- the mechanism itself ----------------------------------------------------------------------
SQUARE = Kind("a square", copy=lambda v: v, dump=lambda v: v * v, load=lambda v: round(v ** 0.5))
TOY = StateFields(
    "toy",
    INT("n"), BOOL("flag"), STR("name"), LIST("xs"), TUPLES("pairs"), ROWS("grid"),
    INTS("counts"), BOOL_ROWS("bits"), SQUARE("side"),
    VALUE.with_default("plain")("mode"),
    VALUE.with_default((), omit=lambda v: v == ())("extras"),
    shared=("version",), copied=("log",), own=("cache",),
)


class Toy(SlottedState):
    state_fields = TOY
    __slots__ = TOY.slots
    is_terminal = False
    legal_mask = apply = scores = ranking_keys = observe = describe = None
    render_text = determinize = None

    def __init__(self) -> None:
        self.version = 0
        self.log: list = []
        self.cache = "fresh"

    def _clone_caches(self, new: Toy) -> None:
        new.cache = "cloned"


def toy() -> Toy:
    state = Toy()
    state.n, state.flag, state.name = 3, True, "t"
    state.xs, state.pairs, state.grid = [1, 2], [(1, 2)], [[1], [2, 3]]
    state.counts, state.bits, state.side = [4], [[True, False]], 5
    state.mode, state.extras = "plain", ()
    state.version, state.log, state.cache = 7, ["a"], "old"
    return state


def test_toy_to_dict_follows_the_declaration():
    assert toy().to_dict() == {
        "game": "toy", "n": 3, "flag": True, "name": "t", "xs": [1, 2], "pairs": [[1, 2]],
        "grid": [[1], [2, 3]], "counts": [4], "bits": [[True, False]], "side": 25,
        "mode": "plain",
    }
    state = toy()
    state.extras = (1,)
    assert list(state.to_dict())[-2:] == ["mode", "extras"]


def test_toy_clone_copies_shares_and_hands_caches_to_the_hook():
    state = toy()
    clone = state.clone()
    assert clone == state and clone.cache == "cloned" and clone.version == 7
    assert clone.log == ["a"] and clone.log is not state.log
    assert clone.grid[1] is not state.grid[1] and clone.pairs is not state.pairs
    clone.grid[1].append(4)
    clone.xs.append(3)
    assert state.to_dict() == toy().to_dict()


def test_toy_round_trips_and_defaults():
    state = toy()
    data = json.loads(json.dumps(state.to_dict()))
    loaded = Toy.from_dict(data)
    assert loaded == state and loaded.pairs == [(1, 2)] and loaded.side == 5
    assert loaded.cache == "fresh" and loaded.version == 0  # caches come from __init__
    del data["mode"]
    assert Toy.from_dict(data).mode == "plain"
    assert pickle.loads(pickle.dumps(state)) == state


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.pop("xs"), "toy state: missing field 'xs'"),
    (lambda d: d.update(n=True), "toy state: field 'n': expected an int, got True"),
    (lambda d: d.update(flag=1), "toy state: field 'flag': expected a bool, got 1"),
    (lambda d: d.update(name=2), "toy state: field 'name': expected a string, got 2"),
    (lambda d: d.update(counts=[1, "2"]), "toy state: field 'counts': expected ints, got '2'"),
    (lambda d: d.update(grid=5), "toy state: field 'grid': 'int' object is not iterable"),
])
def test_toy_corrupt_dicts_name_the_field(change, message):
    data = toy().to_dict()
    change(data)
    with pytest.raises(CorruptRecordError, match=message):
        Toy.from_dict(data)
    with pytest.raises(CorruptRecordError, match="toy state must be a dict, got list"):
        Toy.from_dict([])


def _make(fields: StateFields, slots: tuple[str, ...], **body) -> type:
    return type("Made", (SlottedState,), {"state_fields": fields, "__slots__": slots, **body})


def test_a_slot_that_is_not_declared_is_refused():
    fields = StateFields("toy", INT("n"), shared=("version",))
    with pytest.raises(TypeError, match=r"Made: slot 'cache' is not declared in state_fields"):
        _make(fields, ("n", "version", "cache"))
    with pytest.raises(TypeError, match=r"declared fields \['version'\] are not slots"):
        _make(fields, ("n",))
    with pytest.raises(TypeError, match=r"own slots \['cache'\] need a _clone_caches"):
        _make(StateFields("toy", INT("n"), own=("cache",)), ("n", "cache"))
    assert _make(fields, fields.slots).state_fields is fields


def test_a_bad_declaration_is_refused():
    with pytest.raises(ValueError, match="field 'n' is declared twice"):
        StateFields("toy", INT("n"), shared=("n",))
    with pytest.raises(ValueError, match="'not a name' is not a field name"):
        StateFields("toy", INT("not a name"))
    with pytest.raises(ValueError, match="'class' is not a field name"):
        StateFields("toy", LIST("class"))
    with pytest.raises(TypeError, match="field 'n': 'int' is not a Kind"):
        StateFields("toy", [("n", "int")])


def test_a_clone_written_by_hand_stays_and_subclasses_get_their_own():
    class Own(Toy):
        __slots__ = ()

        def clone(self):
            return "by hand"

    class Below(Own):
        __slots__ = ()

    class Sub(Toy):
        __slots__ = ()

    data = toy().to_dict()
    assert Own.from_dict(data).clone() == "by hand" and Below.from_dict(data).clone() == "by hand"
    clone = Sub.from_dict(data).clone()
    assert type(clone) is Sub and clone == Sub.from_dict(data) and clone.cache == "cloned"


def test_a_misspelt_field_is_refused_not_dropped():
    """States have no __dict__: assigning a field that is not declared raises at once, instead
    of being lost silently by the next clone or record."""
    from huerta.envs.core.registry import game_names, get_game

    for name in game_names():
        state = get_game(name).new_game(2, seed=0)
        with pytest.raises(AttributeError):
            state.fruites = []  # a typo of a real field
