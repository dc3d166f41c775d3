"""Shared test settings: HUERTA_FULL=1 (set by .ci/run) switches on the full-size random runs.

Also registers tests/spec_document_helpers.py for pytest's assertion rewriting, so the document
checks it holds report the compared values when they fail (helpers imported by name are not
rewritten otherwise).
"""

from __future__ import annotations

import os

import pytest

pytest.register_assert_rewrite("spec_document_helpers")

FULL = os.environ.get("HUERTA_FULL") == "1"


def games(default: int, full: int) -> int:
    """How many random games a property test plays: `full` under HUERTA_FULL=1, else `default`."""
    return full if FULL else default
