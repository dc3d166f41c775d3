"""Shared test settings: HUERTA_FULL=1 (set by .ci/run) switches on the full-size random runs
(tests/budgets.py).

Also registers tests/spec_document_helpers.py for pytest's assertion rewriting, so the document
checks it holds report the compared values when they fail (helpers imported by name are not
rewritten otherwise).
"""

from __future__ import annotations

import pytest

pytest.register_assert_rewrite("spec_document_helpers")
