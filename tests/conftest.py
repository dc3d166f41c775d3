"""Shared test settings: HUERTA_FULL=1 (set by .ci/run) switches on the full-size random runs
(tests/budgets.py).

The leaderboard file that `huerta tournament` and `huerta benchmark` write lives in a temporary
folder for the whole session ($HUERTA_LEADERBOARD), never in the repository's runs/.

Also registers tests/spec_document_helpers.py for pytest's assertion rewriting, so the document
checks it holds report the compared values when they fail (helpers imported by name are not
rewritten otherwise).
"""

from __future__ import annotations

import os

import pytest

pytest.register_assert_rewrite("spec_document_helpers")


@pytest.fixture(autouse=True, scope="session")
def _leaderboard_outside_the_repository(tmp_path_factory):
    """Commands store their games in the leaderboard file named by $HUERTA_LEADERBOARD (else
    runs/leaderboard.sqlite under the current folder): point it into a temporary folder, so no
    test writes into the repository's runs/ (subprocesses inherit it). Tests about the default
    path set or clear the variable themselves."""
    old = os.environ.get("HUERTA_LEADERBOARD")
    os.environ["HUERTA_LEADERBOARD"] = str(tmp_path_factory.mktemp("leaderboard") /
                                           "leaderboard.sqlite")
    yield
    if old is None:
        os.environ.pop("HUERTA_LEADERBOARD", None)
    else:
        os.environ["HUERTA_LEADERBOARD"] = old


@pytest.fixture
def quick_ladder(tmp_path, monkeypatch):
    """The shipped ladder without its search and learned rungs, as $HUERTA_LADDER (subprocesses
    inherit it): benchmark tests check the machinery, not those agents, whose games are dear."""
    import json

    from huerta.training.evaluation.ladder import LADDER_FILE

    data = json.loads(LADDER_FILE.read_text(encoding="utf-8"))
    for counts in data["ladders"].values():
        for rungs in counts.values():
            rungs.pop("search", None)
            rungs.pop("learned", None)
    path = tmp_path / "quick_ladder.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setenv("HUERTA_LADDER", str(path))
    return path
