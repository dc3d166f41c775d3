"""Alpujarras' facts for the shared contract suites of tests/core (not a test module).

tests/core/contract_games.py reads `CONTRACT` of `tests/<game>/<game>_contract.py` for every
registered game. The facts the contract pins (the player counts, the action count, the Gymnasium
ids, the words of the text board) are written here by hand rather than read from the game's
`SPEC`, so a change to the spec shows up as a failure.
"""

CONTRACT = {
    "gym_id": "huerta/Alpujarras-v0",
    "variant_gym_ids": {1: "huerta/AlpujarrasSolo-v0"},  # the solo game is its own id
    "player_counts": (1, 2, 3, 4),
    "num_actions": 111,
    "options": ("double_turns", "star_sides"),
    "board_words": ("Track", "Farmlands", "Towns"),
    # the short-move policy (alp_helpers.py): uniform play runs the mule to the end track
    # within a few moves (a solo game then lasts about four decisions), this one visits many
    # spaces
    "policy": "alp_helpers:short_move_policy",
    "midgame_steps": 6,
    "truncation_picks": (0,),  # the mask's last id runs the mule to the end within 15 decisions
    "record_options": {1: {"double_turns": 5}},  # the solo variants travel in the record
}
