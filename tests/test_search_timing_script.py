"""scripts/search_timing.py (and decision_parts.py, which shares `time_game`): a code that never
searches is refused with a message naming it, not a numpy error on an empty array."""

import pytest
from script_modules import load_script


def test_a_code_that_never_searches_is_refused_by_name():
    search_timing = load_script("search_timing")
    with pytest.raises(SystemExit) as stop:
        search_timing.time_game("finca", "heuristic", 1)
    message = str(stop.value)
    assert "heuristic" in message and "searched in none" in message and "`search`" in message
