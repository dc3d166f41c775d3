"""Values to pass as actions, shared by the env and engine edge tests: what must be refused and
what must be accepted (each built from a legal id `a`, so that a silent coercion would play it)."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import numpy as np

# values that are not an action, built from a legal id `a` so that a coercion would play it
BAD_ACTIONS = {
    "str": lambda a: str(a),
    "bytes": lambda a: str(a).encode(),
    "float": lambda a: float(a),
    "float-fraction": lambda a: a + 0.9,
    "inf": lambda a: math.inf,
    "-inf": lambda a: -math.inf,
    "nan": lambda a: math.nan,
    "True": lambda a: True,
    "False": lambda a: False,
    "Fraction": lambda a: Fraction(a),
    "Decimal": lambda a: Decimal(a),
    "complex": lambda a: complex(a),
    "list": lambda a: [a],
    "tuple": lambda a: (a,),
    "array-1d": lambda a: np.array([a]),
    "array-2d": lambda a: np.array([[a]]),
    "array-0d-float": lambda a: np.array(float(a)),
    "array-0d-bool": lambda a: np.array(True),
    "np.float64": lambda a: np.float64(a),
    "np.bool_": lambda a: np.bool_(True),
    "None": lambda a: None,
}

# what an action may be: a Python int, a numpy integer scalar, a 0-d integer array
GOOD_ACTIONS = {
    "int": lambda a: a,
    "np.int64": lambda a: np.int64(a),
    "np.int8": lambda a: np.int8(a),
    "np.uint16": lambda a: np.uint16(a),
    "array-0d-int": lambda a: np.array(a),
    "array-0d-uint8": lambda a: np.array(a, dtype=np.uint8),
}
