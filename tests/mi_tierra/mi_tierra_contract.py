"""Mi Tierra's facts for the shared contract suites of tests/core (not a test module).

tests/core/contract_games.py reads `CONTRACT` of `tests/<game>/<game>_contract.py` for every
registered game. The facts the contract pins (the player counts, the action count, the Gymnasium
ids, the words of the text board) are written here by hand rather than read from the game's
`SPEC`, so a change to the spec shows up as a failure.
"""

CONTRACT = {
    "gym_id": "huerta/MiTierra-v0",
    "player_counts": (2, 3, 4),
    "num_actions": 64,
    "options": (),
    "board_words": ("Established", "Development display", "market pile"),
    "midgame_steps": 60,
}
