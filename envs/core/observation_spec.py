"""Observations declared once: blocks of named fields, each saying what it holds and how to read it.

A game's observation is one float32 vector in [0, 1]. Its `ObservationSpec` lists the blocks in
vector order; a block holds named `Field`s and may repeat (one copy per seat slot, per community,
...). Each field states its size, its meaning, how its raw values are read from a game state and
how they are encoded:

- `"value"`: the raw numbers times the float32 reciprocal of `scale`, clipped at 1 (a count of 4
  fruits with scale 18 is stored as 4 x float32(1/18));
- `"one_hot"`: the reader gives one index (or None for all zeros);
- `"multi_hot"`: the reader gives any number of indices.

From the declaration come the layout (`layout`, `slices`, `offset`) that the game's fast writer uses
instead of bare numbers, a plain `reference` builder that the fast writer is tested against,
`decode` (a vector back to named raw values, for debugging and notebooks) and the documentation
tables of the game's specification (`layout_rows`, `field_rows`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

ENCODINGS = ("value", "one_hot", "multi_hot")

# (state, subject) -> raw values; the subject is what one copy of the block describes (the
# observer for a single block, a seat or a community for a repeated one)
Reader = Callable[[Any, Any], Any]


@dataclass(frozen=True)
class Field:
    """A named run of `size` values inside a block: what they mean and how to read them."""

    name: str
    size: int
    meaning: str
    read: Reader
    # "value" fields: raw / scale, clipped at 1; a tuple gives each value its own scale
    scale: float | tuple[float, ...] = 1.0
    encoding: str = "value"

    def __post_init__(self) -> None:
        if self.encoding not in ENCODINGS:
            raise ValueError(f"field {self.name!r}: encoding {self.encoding!r} not in {ENCODINGS}")
        scales = self.scales
        if self.size < 1 or len(scales) != self.size or min(scales) <= 0:
            raise ValueError(f"field {self.name!r}: size and scales must be positive, one "
                             "scale or one per value")
        factor = (np.array([1.0 / x for x in scales], dtype=np.float32)
                  if self.encoding == "value" else np.ones(self.size, dtype=np.float32))
        factor.flags.writeable = False
        object.__setattr__(self, "_factor", factor)  # computed once: the reference is a loop
        object.__setattr__(self, "_single", float(factor[0]) if self.size == 1 else None)

    @property
    def scales(self) -> tuple[float, ...]:
        """The scale of each value."""
        if isinstance(self.scale, tuple):
            return tuple(float(x) for x in self.scale)
        return (float(self.scale),) * self.size

    @property
    def factor(self) -> np.ndarray:
        """The float32 factor each raw value is multiplied by (1 for one-hot fields)."""
        return self._factor

    def encode(self, raw: Any, out: np.ndarray) -> None:
        """Write the encoding of `raw` into `out` (a zeroed float32 view of this field)."""
        if self.encoding == "value":
            if self._single is not None and type(raw) is int and -(2**24) <= raw <= 2**24:
                # one small int: its product with the float32 factor is exact in a double, so
                # storing it rounds once, as numpy's float32 product does
                x = raw * self._single
                out[0] = x if x < 1.0 else 1.0
                return
            values = np.asarray(raw, dtype=np.float32).reshape(-1)
            if values.size != self.size:
                raise ValueError(f"field {self.name!r} read {values.size} values, not {self.size}")
            np.minimum(values * self.factor, np.float32(1.0), out=out)
        elif self.encoding == "one_hot":
            if raw is not None:
                out[int(raw)] = 1.0
        else:
            for index in raw:
                out[int(index)] = 1.0

    def decode(self, values: np.ndarray) -> Any:
        """The raw value(s) behind encoded `values`: numbers for "value" (one number for a
        field of size 1), the index or None for "one_hot", the list of indices for
        "multi_hot"."""
        if self.encoding == "value":
            raw = [round(float(v) * x, 4) for v, x in zip(values, self.scales, strict=True)]
            return raw[0] if self.size == 1 else raw
        hot = [int(i) for i in np.flatnonzero(values)]
        if self.encoding == "one_hot":
            return hot[0] if hot else None
        return hot


@dataclass(frozen=True)
class Block:
    """A run of fields in the vector, once or `count` times over (one copy per subject).

    `subjects(state, observer)` names what each copy describes (a seat, a community); a None
    subject leaves its copy zero (an absent seat). A block without it describes the observer.
    """

    name: str
    meaning: str
    fields: tuple[Field, ...]
    count: int = 1
    subjects: Callable[[Any, int], Sequence[Any]] | None = None
    copy_label: str = ""  # what one copy stands for in the tables ("seat slot", "community")

    def __post_init__(self) -> None:
        object.__setattr__(self, "_width", sum(f.size for f in self.fields))

    @property
    def width(self) -> int:
        """The values of one copy."""
        return self._width

    @property
    def size(self) -> int:
        return self.width * self.count

    def field(self, name: str) -> Field:
        """Field `name` of this block."""
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"block {self.name!r} has no field {name!r}; fields: "
                       f"{', '.join(f.name for f in self.fields)}")

    def field_offset(self, name: str) -> int:
        """Where field `name` starts inside one copy."""
        at = 0
        for f in self.fields:
            if f.name == name:
                return at
            at += f.size
        raise KeyError(f"block {self.name!r} has no field {name!r}; fields: "
                       f"{', '.join(f.name for f in self.fields)}")


class ObservationSpec:
    """The blocks of one game's observation, in vector order (see the module docstring)."""

    def __init__(self, game: str, blocks: Sequence[Block]) -> None:
        self.game = game
        self.blocks = tuple(blocks)
        self._by_name: dict[str, tuple[int, Block]] = {}
        offset = 0
        for block in self.blocks:
            if block.name in self._by_name:
                raise ValueError(f"{game}: block {block.name!r} declared twice")
            self._by_name[block.name] = (offset, block)
            offset += block.size
        self.size = offset
        self.layout: tuple[tuple[str, int, int], ...] = tuple(
            (b.name, self._by_name[b.name][0], b.size) for b in self.blocks
        )
        self.slices = {name: slice(at, at + size) for name, at, size in self.layout}

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickled by name (its readers are functions of the game's module): unpickling finds
        the registered game's declared observation."""
        return (_registered_spec, (self.game,))

    def block(self, name: str) -> Block:
        if name not in self._by_name:
            raise KeyError(f"{self.game} observation has no block {name!r}; blocks: "
                           f"{', '.join(self._by_name)}")
        return self._by_name[name][1]

    def offset(self, block: str, field: str | None = None, copy: int = 0) -> int:
        """The vector index where `block` (copy `copy`, field `field`) starts."""
        start, b = self._by_name[block] if block in self._by_name else (0, self.block(block))
        if not 0 <= copy < b.count:
            raise IndexError(f"block {block!r} has {b.count} copies, not copy {copy}")
        return start + copy * b.width + (b.field_offset(field) if field else 0)

    def scalar_factor(self, block: str, field: str) -> float:
        """The float32 factor of a field with one scale for all its values, as a Python float:
        a small int times it, stored into a float32 vector, rounds once, exactly as the
        reference's float32 product (the fast writers' scalar writes rely on it)."""
        f = self.block(block).field(field)
        if len(set(f.scales)) != 1:
            raise ValueError(f"{self.game}: {block}.{field} has one scale per value, not one")
        return float(f.factor[0])

    def factors(self, block: str) -> np.ndarray:
        """One copy of `block`'s float32 factors, value by value (1 for one-hot values)."""
        return np.concatenate([f.factor for f in self.block(block).fields])

    # --- the plain builder -----------------------------------------------------------------
    def reference(self, state: Any, observer: int) -> np.ndarray:
        """`observer`'s observation of `state` built field by field from the declaration, with
        no cache and no shortcut: what every fast writer is checked against."""
        out = np.zeros(self.size, dtype=np.float32)
        for block in self.blocks:
            start = self._by_name[block.name][0]
            subjects = (block.subjects(state, observer) if block.subjects is not None
                        else [observer])
            if len(subjects) != block.count:
                raise ValueError(f"block {block.name!r}: {len(subjects)} subjects for "
                                 f"{block.count} copies")
            for copy, subject in enumerate(subjects):
                if subject is None:
                    continue
                at = start + copy * block.width
                for f in block.fields:
                    f.encode(f.read(state, subject), out[at:at + f.size])
                    at += f.size
        return out

    def decode(self, obs: np.ndarray) -> dict[str, Any]:
        """A vector back to named raw values: {block: {field: value}} for a single block,
        {block: [{field: value}, ...]} for a repeated one (see `Field.decode`)."""
        obs = np.asarray(obs)
        if obs.shape != (self.size,):
            raise ValueError(f"a {self.game} observation has shape ({self.size},), "
                             f"not {obs.shape}")
        decoded: dict[str, Any] = {}
        for block in self.blocks:
            start = self._by_name[block.name][0]
            copies = []
            for copy in range(block.count):
                at = start + copy * block.width
                values = {}
                for f in block.fields:
                    values[f.name] = f.decode(obs[at:at + f.size])
                    at += f.size
                copies.append(values)
            decoded[block.name] = copies if block.count > 1 else copies[0]
        return decoded

    # --- documentation ---------------------------------------------------------------------
    def layout_rows(self) -> list[tuple[str, int, int, str]]:
        """(block, offset, size, meaning) per block, for the specification's layout table."""
        return [(b.name, self._by_name[b.name][0], b.size, b.meaning) for b in self.blocks]

    def field_rows(self, block: str) -> list[tuple[str, int, int, str, str, str]]:
        """(field, offset in one copy, size, encoding, divisor, meaning) per field of `block`;
        the divisor is the scale ("1, 3" when values differ, "1" for one-hot values)."""
        b = self.block(block)
        rows, at = [], 0
        for f in b.fields:
            if f.encoding != "value":
                divisor = "1"
            elif isinstance(f.scale, tuple):
                divisor = ", ".join(sorted({f"{x:g}" for x in f.scales}, key=float))
            else:
                divisor = f"{f.scale:g}"
            rows.append((f.name, at, f.size, f.encoding.replace("_", "-"), divisor, f.meaning))
            at += f.size
        return rows


def _registered_spec(game: str) -> ObservationSpec:
    """The declared observation of registered game `game` (what a pickled spec stands for)."""
    from .registry import get_game

    return get_game(game).observation_spec
