"""What every game's state repeats, written once: `clone`, `to_dict`/`from_dict`, pickling and
equality over slotted fields, from one declaration per game of what each field holds.

A game lists its state's fields in a `StateFields`:

- the saved fields, the rules' data, in `to_dict` order, each under a `Kind` that says how a
  clone copies it, how `to_dict` writes it and how `from_dict` reads it back (`INT("steps")`,
  `ROWS("farmers")`, ...);
- the slots that only cache or index the saved fields: `shared` (a clone takes the same object),
  `copied` (a clone takes a shallow copy of the list) and `own` (the game's `_clone_caches`
  hook sets them in the clone).

The state class takes its `__slots__` from the declaration and subclasses `SlottedState`, which
checks that every slot is declared and writes `clone` and `to_dict` for that class as
straight-line functions (source built from the constant field names and `exec`uted once, when
the class is created): clones are the search agents' hot path, and a loop of getattr/setattr
costs several times more. A clone's saved lists are copied one level deeper than they nest, so
mutating a clone never touches the original.
"""

from __future__ import annotations

import keyword
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, TypeVar

from .engine import GameState
from .errors import CorruptRecordError

REQUIRED: Any = object()  # a Kind's default when `from_dict` must find the field
S = TypeVar("S", bound="SlottedState")


class Kind:
    """How a saved field is copied by `clone`, written by `to_dict` and read by `from_dict`.

    `copy` and `dump` are either source templates with one `{}` for the field's value (`"{}"`
    shares it, `"{}[:]"` copies a list), which the generated functions inline, or functions of
    the value. `load` takes the JSON value and returns the field's value, raising `TypeError` or
    `ValueError` with a message that `from_dict` prefixes with the game and the field. A field
    with a `default` may be missing from a dict (older records); `omit(value)` true leaves it out
    of `to_dict`. Calling a kind with field names gives the group `StateFields` takes.
    """

    __slots__ = ("copy", "default", "dump", "load", "omit", "what")

    def __init__(
        self, what: str, *, copy: str | Callable[[Any], Any], dump: str | Callable[[Any], Any],
        load: Callable[[Any], Any], default: Any = REQUIRED,
        omit: Callable[[Any], bool] | None = None,
    ) -> None:
        self.what = what
        self.copy = copy
        self.dump = dump
        self.load = load
        self.default = default
        self.omit = omit

    def __call__(self, *names: str) -> tuple[tuple[str, Kind], ...]:
        return tuple((name, self) for name in names)

    def __repr__(self) -> str:
        return f"Kind({self.what!r})"

    def with_default(self, default: Any, omit: Callable[[Any], bool] | None = None) -> Kind:
        """The same kind, for a field that `from_dict` may miss (it then takes `default`)."""
        return Kind(self.what, copy=self.copy, dump=self.dump, load=self.load, default=default,
                    omit=omit)


# --- loaders -----------------------------------------------------------------------------------
def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an int, got {value!r}")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected a bool, got {value!r}")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {value!r}")
    return value


def _one_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected ints, got {value!r}")
    return value


def _same(value: Any) -> Any:
    return value


# --- the kinds the games use -------------------------------------------------------------------
# scalars: shared by clones
INT = Kind("an int", copy="{}", dump="int({})", load=_int)
BOOL = Kind("a bool", copy="{}", dump="bool({})", load=_bool)
STR = Kind("a string", copy="{}", dump="str({})", load=_str)
VALUE = Kind("a JSON value, kept as it is", copy="{}", dump="{}", load=_same)
# lists of immutable values, copied by clones; LIST/ROWS take the elements as they come, the
# checked INTS/BOOLS/INT_ROWS/BOOL_ROWS refuse a non-int (ints) or convert to bool (bools)
LIST = Kind("a list", copy="{}[:]", dump="list({})", load=list)
ROWS = Kind("a list of lists", copy="[x[:] for x in {}]", dump="[list(x) for x in {}]",
            load=lambda value: [list(x) for x in value])
TUPLES = Kind("a list of tuples (JSON lists)", copy="{}[:]", dump="[list(x) for x in {}]",
              load=lambda value: [tuple(x) for x in value])
INTS = Kind("a list of ints", copy="{}[:]", dump="list({})",
            load=lambda value: [_one_int(x) for x in list(value)])
BOOLS = Kind("a list of bools", copy="{}[:]", dump="list({})",
             load=lambda value: [bool(x) for x in list(value)])
INT_ROWS = Kind("a list of lists of ints", copy="[x[:] for x in {}]",
                dump="[list(x) for x in {}]",
                load=lambda value: [[_one_int(x) for x in list(row)] for row in value])
BOOL_ROWS = Kind("a list of lists of bools", copy="[x[:] for x in {}]",
                 dump="[list(x) for x in {}]",
                 load=lambda value: [[bool(x) for x in list(row)] for row in value])


class StateFields:
    """One game's state fields: the saved ones, grouped by `Kind` in `to_dict` order, and the
    cache slots a clone shares (`shared`), copies as lists (`copied`) or leaves to the class's
    `_clone_caches(self, new)` (`own`). `slots` is the class's `__slots__`."""

    __slots__ = ("copied", "game", "own", "saved", "shared", "slots")

    def __init__(
        self, game: str, *saved: Iterable[tuple[str, Kind]], shared: Iterable[str] = (),
        copied: Iterable[str] = (), own: Iterable[str] = (),
    ) -> None:
        self.game = game
        self.saved: tuple[tuple[str, Kind], ...] = tuple(pair for group in saved for pair in group)
        self.shared = tuple(shared)
        self.copied = tuple(copied)
        self.own = tuple(own)
        names = [name for name, _ in self.saved] + [*self.shared, *self.copied, *self.own]
        for name, kind in self.saved:
            if not isinstance(kind, Kind):
                raise TypeError(f"{game} state field {name!r}: {kind!r} is not a Kind")
        for name in names:
            if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
                raise ValueError(f"{game} state: {name!r} is not a field name")
            if names.count(name) > 1:
                raise ValueError(f"{game} state: field {name!r} is declared twice")
        self.slots = tuple(names)


class SlottedState(GameState):
    """A `GameState` whose fields are declared in the class attribute `state_fields`.

    Gives the class `clone` and `to_dict` (generated for it unless it defines its own),
    `from_dict`, pickling through `to_dict`, equality of `to_dict` and no hash (states are
    mutable). `__init__` must set every slot that is not saved (the caches); a game may
    override `_after_load` (derived slots and checks once the saved fields are read) and
    `_clone_caches` (the `own` slots of a clone).
    """

    __slots__ = ()
    state_fields: ClassVar[StateFields]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields = getattr(cls, "state_fields", None)
        if fields is None:
            return
        _check_slots(cls, fields)
        # a class's own clone or to_dict (or one a base class wrote by hand) stays
        if _generated(cls, "clone"):
            cls.clone = _make_clone(cls, fields)
        if _generated(cls, "to_dict"):
            cls.to_dict = _make_to_dict(fields)

    # filled in for each class by __init_subclass__
    def clone(self: S) -> S:  # pragma: no cover - replaced in every concrete class
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:  # pragma: no cover - replaced in every concrete class
        raise NotImplementedError

    def _clone_caches(self, new: SlottedState) -> None:
        """Set the `own` slots of `new`, a clone of `self` whose other slots are set."""

    def _after_load(self) -> None:
        """Set derived slots once `from_dict` has read the saved fields; raise
        `CorruptRecordError` (or `TypeError`/`ValueError`) for values that do not fit."""

    @classmethod
    def from_dict(cls: type[S], data: dict[str, Any]) -> S:
        """Rebuild a state from `to_dict` output; raise `CorruptRecordError` naming a bad field."""
        fields = cls.state_fields
        game = fields.game
        if not isinstance(data, dict):
            raise CorruptRecordError(f"{game} state must be a dict, got {type(data).__name__}")
        for name, kind in fields.saved:
            if name not in data and kind.default is REQUIRED:
                raise CorruptRecordError(f"{game} state: missing field {name!r}")
        state = cls()
        for name, kind in fields.saved:
            if name not in data:
                setattr(state, name, kind.default)
                continue
            try:
                value = kind.load(data[name])
            except CorruptRecordError:
                raise
            except (TypeError, ValueError, KeyError) as exc:
                raise CorruptRecordError(f"{game} state: field {name!r}: {exc}") from None
            setattr(state, name, value)
        try:
            state._after_load()
        except CorruptRecordError:
            raise
        except (TypeError, ValueError, KeyError) as exc:
            raise CorruptRecordError(f"{game} state: {exc}") from None
        problems = state.check_consistency()
        if problems:
            raise CorruptRecordError(f"{game} state is inconsistent: " + "; ".join(problems))
        return state

    def check_consistency(self) -> list[str]:
        """Every broken invariant, as messages (empty when the state is sound)."""
        return []

    def __getstate__(self) -> dict[str, Any]:
        return self.to_dict()

    def __setstate__(self, data: dict[str, Any]) -> None:
        restored = type(self).from_dict(data)
        for name in type(self).state_fields.slots:
            setattr(self, name, getattr(restored, name))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, type(self)) and self.to_dict() == other.to_dict()

    __hash__ = None  # mutable


def _check_slots(cls: type, fields: StateFields) -> None:
    """Refuse a class whose slots and declared fields differ: a slot nobody declared would be
    left out of clones and records without a word."""
    slots: list[str] = []
    for klass in cls.__mro__:
        if issubclass(klass, SlottedState) and klass is not SlottedState:
            own = klass.__dict__.get("__slots__", ())
            slots += [own] if isinstance(own, str) else list(own)
    declared = set(fields.slots)
    for name in slots:
        if name not in declared:
            raise TypeError(
                f"{cls.__name__}: slot {name!r} is not declared in state_fields (declare it "
                "saved, under its Kind, or as shared, copied or own)"
            )
    missing = [name for name in fields.slots if name not in slots]
    if missing:
        raise TypeError(
            f"{cls.__name__}: declared fields {missing} are not slots (take __slots__ from "
            "state_fields.slots)"
        )
    if fields.own and cls._clone_caches is SlottedState._clone_caches:
        raise TypeError(f"{cls.__name__}: own slots {list(fields.own)} need a _clone_caches")


def _generated(cls: type, name: str) -> bool:
    """Whether `cls.<name>` is the placeholder or a generated function (not one written out)."""
    if name in cls.__dict__:
        return False
    method = getattr(cls, name)
    return method is getattr(SlottedState, name) or getattr(method, "_generated", False)


def _source(template: str | Callable[[Any], Any], value: str, namespace: dict[str, Any],
            tag: str) -> str:
    """The expression that applies `template` (a `{}` template or a function) to `value`."""
    if callable(template):
        namespace[tag] = template
        return f"{tag}({value})"
    return template.format(value)


def _make_clone(cls: type, fields: StateFields) -> Callable[[SlottedState], SlottedState]:
    namespace: dict[str, Any] = {"_cls": cls, "_new": cls.__new__}
    lines = ["def clone(self):", "    new = _new(_cls)"]
    for i, (name, kind) in enumerate(fields.saved):
        expr = _source(kind.copy, f"self.{name}", namespace, f"_copy{i}")
        lines.append(f"    new.{name} = {expr}")
    lines += [f"    new.{name} = self.{name}" for name in fields.shared]
    lines += [f"    new.{name} = self.{name}[:]" for name in fields.copied]
    if cls._clone_caches is not SlottedState._clone_caches:
        namespace["_caches"] = cls._clone_caches
        lines.append("    _caches(self, new)")
    lines.append("    return new")
    exec("\n".join(lines), namespace)  # the code is built from the declared field names
    clone = namespace["clone"]
    clone.__doc__ = "An independent copy (for search); cheaper than to_dict/from_dict."
    clone.__qualname__ = f"{cls.__qualname__}.clone"
    clone._generated = True
    return clone


def _make_to_dict(fields: StateFields) -> Callable[[SlottedState], dict[str, Any]]:
    namespace: dict[str, Any] = {"_game": fields.game}
    items = ['"game": _game']
    later = []  # fields after the first that may be left out, in order
    for i, (name, kind) in enumerate(fields.saved):
        expr = _source(kind.dump, f"self.{name}", namespace, f"_dump{i}")
        if kind.omit is not None:
            namespace[f"_omit{i}"] = kind.omit
            later.append(f"    if not _omit{i}(self.{name}):")
            later.append(f"        data[{name!r}] = {expr}")
        elif later:
            later.append(f"    data[{name!r}] = {expr}")
        else:
            items.append(f"{name!r}: {expr}")
    lines = ["def to_dict(self):", "    data = {" + ", ".join(items) + "}", *later,
             "    return data"]
    exec("\n".join(lines), namespace)  # the code is built from the declared field names
    to_dict = namespace["to_dict"]
    to_dict.__doc__ = "A JSON-safe dict that `from_dict` turns back into an equal state."
    to_dict._generated = True
    return to_dict


__all__ = [
    "BOOL", "BOOLS", "BOOL_ROWS", "INT", "INTS", "INT_ROWS", "LIST", "REQUIRED", "ROWS", "STR",
    "TUPLES", "VALUE", "Kind", "SlottedState", "StateFields",
]
