"""scripts/search_timing.py (and decision_parts.py, which shares `time_game`): a code that never
searches is refused with a message naming it, not a numpy error on an empty array."""

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def _load(name: str):
    if str(SCRIPTS) not in sys.path:
        sys.path.insert(0, str(SCRIPTS))
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_code_that_never_searches_is_refused_by_name():
    search_timing = _load("search_timing")
    with pytest.raises(SystemExit) as stop:
        search_timing.time_game("finca", "heuristic", 1)
    message = str(stop.value)
    assert "heuristic" in message and "searched in none" in message and "`search`" in message
