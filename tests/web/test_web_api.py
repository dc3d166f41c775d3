"""The server's JSON API, without a browser: every bad input is refused with a 4xx JSON error
naming the input and the reason, the server and its games carry on unchanged, play sends the
human seat's view only, and replays and results show what the files hold."""

from __future__ import annotations

import json
import time

import pytest

from huerta.agents.learned import shipped_model
from huerta.envs.core.records import GameRecord, replay
from huerta.envs.core.registry import game_choices, game_specs, get_game, own_player_counts
from huerta.envs.core.transcript import random_record
from huerta.web import boards

SOLO_CONSTANTS = shipped_model("alpujarras", 1)  # the solo game's learned value constants


def refused(response, status: int, input_name: str, *words: str) -> str:
    """Assert a refusal: the status, the JSON error naming `input_name`, words of the reason."""
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["input"] == input_name, error
    for word in words:
        assert word in error["reason"], error
    return error["reason"]


def new_game(client, **settings):
    body = {"game": "alpujarras", "players": 2, "agents": ["random"], "seed": 1, "pace": 0}
    body.update(settings)
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def wait_for(client, game_id, statuses=("your_turn", "over"), timeout=120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = client.get(f"/api/games/{game_id}").json()
        if view["status"] in statuses:
            return view
        time.sleep(0.05)
    raise AssertionError(f"game {game_id} stayed {view['status']}")


# --- starting a game ------------------------------------------------------------------------------
@pytest.mark.parametrize(("body", "status", "input_name", "words"), [
    ({"game": "chess"}, 422, "game", ("unknown game 'chess'", "mi_tierra")),
    ({"game": "finca", "players": 7}, 422, "players", ("valid values: 2, 3, 4",)),
    ({"game": "alpujarras-solo", "players": 2}, 422, "players", ("contradicts",)),
    ({"game": "finca", "players": "two"}, 422, "players", ("must be an integer",)),
    ({"game": "finca", "agents": ["random", "random"]}, 422, "agents", ("needs 1",)),
    ({"game": "finca", "agents": ["alphazero"]}, 422, "agents[0]", ("unknown agent code",)),
    ({"game": "finca", "agents": ["mcts:0"]}, 422, "agents[0]", ("mcts budget",)),
    ({"game": "finca", "agents": ["ppo:/no/such/model.zip"]}, 422, "agents[0]",
     ("pickle-based", "never loads one")),
    ({"game": "finca", "agents": ["human"]}, 422, "agents[0]", ("'human' is you",)),
    ({"game": "alpujarras", "agents": [f"learned:{SOLO_CONSTANTS}"]}, 422, "agents[0]",
     ("names a file",)),
    ({"game": "alpujarras", "agents": ["run:train/solo"]}, 422, "agents[0]",
     ("solo value, not a model of alpujarras at 2 seat(s)",)),
    ({"game": "finca", "agents": ["random"], "seat": 2}, 422, "seat", ("not a seat",)),
    ({"game": "finca", "agents": ["random"], "seed": -1}, 422, "seed", ("out of range",)),
    ({"game": "finca", "agents": ["random"], "pace": 99}, 422, "pace", ("out of range",)),
    ({"game": "finca", "agents": ["random"], "options": {"cart_shortage": "never"}}, 422,
     "options.cart_shortage", ("not one of",)),
    ({"game": "finca", "agents": ["random"], "options": {"speed": 1}}, 422, "options.speed",
     ("not an option of finca",)),
    ({"game": "alpujarras", "agents": ["random"], "options": {"double_turns": 2}}, 422,
     "options", ("solo game only",)),
    ({"game": "finca", "agents": ["random"], "colour": "red"}, 422, "colour",
     ("not a setting",)),
    ([1, 2], 422, "body", ("JSON object",)),
])
def test_a_bad_new_game_is_refused_naming_the_input(client, body, status, input_name, words):
    refused(client.post("/api/games", json=body), status, input_name, *words)


@pytest.mark.parametrize(("raw", "words"), [
    (b"{not json", ("not valid JSON", "line 1")),
    (b'{"game": "finca", "game": "finca"}', ("duplicate key",)),
    (b'{"game": "finca", "pace": NaN}', ("NaN",)),
    (b"\xff\xfe", ("not UTF-8",)),
])
def test_a_body_that_is_not_clean_json_is_refused(client, raw, words):
    response = client.post("/api/games", content=raw, headers={"Content-Type": "application/json"})
    refused(response, 422, "body", *words)


def test_an_oversized_body_is_refused_before_it_is_read(client):
    response = client.post("/api/games", content=b"{" + b" " * (70 << 10) + b"}")
    refused(response, 413, "body", "limit")


# --- playing --------------------------------------------------------------------------------------
def test_bad_moves_are_refused_and_the_game_is_unchanged(client):
    view = wait_for(client, new_game(client)["id"])
    game_id, step, moves = view["id"], view["step"], view["moves_total"]
    legal = {a["id"] for a in view["legal"]}
    illegal = next(a for a in range(111) if a not in legal)
    url = f"/api/games/{game_id}/actions"
    refused(client.post(url, json={"action": illegal, "step": step}), 422, "action",
            f"illegal action {illegal}")
    refused(client.post(url, json={"action": 5000}), 422, "action", "valid action ids are 0-110")
    refused(client.post(url, json={"action": "3"}), 422, "action", "an integer")
    refused(client.post(url, json={"action": True}), 422, "action", "an integer")
    refused(client.post(url, json={"move": 3}), 422, "action", "an integer")
    refused(client.post(url, json={"action": min(legal), "step": step + 5}), 409, "step",
            "reload")
    refused(client.post("/api/games/nope/actions", json={"action": 1}), 404, "game", "'nope'")
    after = client.get(f"/api/games/{game_id}").json()
    assert (after["step"], after["moves_total"], after["board"]) == (step, moves, view["board"])
    played = client.post(url, json={"action": min(legal), "step": step})  # still playable
    assert played.status_code == 200 and played.json()["moves_total"] == moves + 1


def test_a_move_out_of_turn_is_refused(client):
    view = new_game(client, game="finca", seat=1, pace=3.0)  # player_0 moves first, slowly
    assert view["status"] == "thinking" and view["legal"] == [] and view["targets"] == {}
    refused(client.post(f"/api/games/{view['id']}/actions", json={"action": 0}), 409, "action",
            "not your turn", "player_0 (random)")
    client.post(f"/api/games/{view['id']}/stop")


def test_play_sends_the_human_seats_view_only(client, server):
    view = wait_for(client, new_game(client, game="mi_tierra", players=3,
                                     agents=["random", "random"], seat=2)["id"])
    assert view["status"] == "your_turn"  # the agents wait: the state stands still
    assert "hidden" not in view["board"] and "seed" not in json.dumps(view)
    assert [("knowledge" in p) for p in view["board"]["players"]] == [False, False, True]
    session = server.app.state.sessions.get(view["id"])
    assert view["board"] == boards.state_json("mi_tierra", session.state, 2)
    assert {a["id"] for a in view["legal"]} == set(session.state.legal_actions())
    refused(client.get(f"/api/games/{view['id']}/record"), 409, "record", "seed")
    stopped = client.post(f"/api/games/{view['id']}/stop").json()
    assert stopped["status"] == "stopped" and stopped["can_download"]
    assert "hidden" in stopped["board"]  # a stopped game shows everything
    refused(client.post(f"/api/games/{view['id']}/actions", json={"action": 0}), 409, "action",
            "no longer being played")


def test_a_finished_game_downloads_a_record_that_replays(client):
    view = wait_for(client, new_game(client, game="alpujarras-solo", players=None,
                                     agents=[], seed=4)["id"])
    while view["status"] == "your_turn":
        view = client.post(f"/api/games/{view['id']}/actions",
                           json={"action": view["legal"][0]["id"], "step": view["step"]}).json()
    assert view["status"] == "over" and view["message"].startswith("Game over")
    response = client.get(f"/api/games/{view['id']}/record")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    record = GameRecord.from_json(response.content)
    final = replay(record)
    assert final.is_terminal and record.final_scores == final.scores()
    assert len(record.actions) == view["moves_total"] == view["step"]
    # the seat lost to the variant's scripted opponent, whom its spec names (GameVariant.opponent)
    assert not final.winners() and view["message"] == "Game over: Zara wins."
    # Zara has no seat: her score is a row the page adds to the scores table
    assert view["board"]["extra_scores"] == [["Zara", final.zara_score()]]


# --- replays --------------------------------------------------------------------------------------
def test_a_record_replays_step_by_step_with_everything_shown(client):
    record = random_record("mi_tierra", 2, seed=8)
    response = client.post("/api/replays", params={"name": "game.json"},
                           content=record.to_json().encode())
    assert response.status_code == 201, response.text
    summary = response.json()
    assert (summary["steps"], summary["final_scores"]) == (len(record.actions),
                                                           record.final_scores)
    state = get_game("mi_tierra").new_game(2, seed=8)
    for k in (0, 1, 37, len(record.actions)):
        frame = client.get(f"/api/replays/{summary['id']}/steps/{k}").json()
        expected = replay(record, upto=k)
        assert frame["board"] == boards.state_json("mi_tierra", expected, None)
        assert frame["scores"] == expected.scores()
    for i, move in enumerate(summary["moves"][:40]):
        assert move["text"] == state.describe(move["action"]) and move["step"] == i
        state.apply(move["action"])
    refused(client.get(f"/api/replays/{summary['id']}/steps/{len(record.actions) + 1}"), 404,
            "step")
    refused(client.get(f"/api/replays/{summary['id']}/steps/x"), 422, "step", "an integer")
    refused(client.get("/api/replays/feedbeef/steps/0"), 404, "replay", "open the record again")


def test_a_tournament_line_replays_too(client, runs_folder):
    line = (runs_folder / "tour" / "games.jsonl").read_text().splitlines()[1]
    response = client.post("/api/replays", content=line.encode())
    assert response.status_code == 201 and response.json()["game"] == "alpujarras"


def _tampered() -> bytes:
    data = random_record("finca", 2, seed=1).to_dict()
    data["actions"][5] = (data["actions"][5] + 1) % 34
    return json.dumps(data).encode()


@pytest.mark.parametrize(("raw", "status", "words"), [
    (_tampered(), 422, ("record",)),
    (b"\x00\x01binary", 422, ("binary",)),
    (b'{"game": "finca"}', 422, ("missing field 'num_players'",)),
    (b'{"a": 1}\n{"b": 2}\n', 422, ("holds 2 lines",)),
    (b"[" * 40 + b"]" * 40, 422, ("nests deeper",)),
    (b" " * ((2 << 20) + 1), 413, ("limit",)),
    (b'{"game":"finca","num_players":2,"seed":0,"options":{},"actions":[],"pad":"'
     + b"x" * (1 << 20) + b'"}', 413, ("1,048,576-byte limit of a game record",)),
])
def test_a_corrupt_or_oversized_record_is_refused(client, raw, status, words):
    reason = refused(client.post("/api/replays", params={"name": "bad.json"}, content=raw),
                     status, "record", *words)
    assert "Traceback" not in reason
    assert client.get("/api/meta").status_code == 200  # the server carries on


# --- results --------------------------------------------------------------------------------------
def test_results_list_the_runs_and_their_games(client):
    listing = client.get("/api/runs").json()
    assert [t["id"] for t in listing["tournaments"]] == ["tour"]
    tour = listing["tournaments"][0]
    assert tour["game"] == "alpujarras" and tour["games"] == 2 and "heuristic" in tour["table"]
    assert [t["id"] for t in listing["training"]] == ["train/finca-ppo"]
    assert listing["training"][0]["eval"][1]["win_rate_vs_random"] == "0.7500"
    assert listing["training"][0]["budget"] == "2,048 steps"  # a PPO run (no method named)
    games = client.get("/api/runs/games", params={"run": "tour"}).json()
    assert [g["agents"] for g in games["games"]] == [["random", "heuristic"],
                                                     ["heuristic", "random"]]
    opened = client.post("/api/replays/run", json={"run": "tour", "line": 1})
    assert opened.status_code == 201
    assert opened.json()["seats"] == ["player_0 (heuristic)", "player_1 (random)"]
    plot = client.get("/api/runs/plot", params={"run": "train/finca-ppo", "kind": "training"})
    assert plot.status_code == 200 and plot.content.startswith(b"\x89PNG")


@pytest.mark.parametrize(("method", "path", "kwargs", "status", "input_name"), [
    ("get", "/api/runs/plot", {"params": {"run": "../../etc", "kind": "training"}}, 404, "run"),
    ("get", "/api/runs/plot", {"params": {"run": "tour", "kind": "passwd"}}, 422, "kind"),
    ("get", "/api/runs/games", {"params": {"run": "tour", "limit": "0"}}, 422, "limit"),
    ("post", "/api/replays/run", {"json": {"run": "tour", "line": 99}}, 404, "line"),
    ("post", "/api/replays/run", {"json": {"run": "tour", "line": "1"}}, 422, "line"),
    ("get", "/api/nothing/here", {}, 404, "path"),
    ("delete", "/api/meta", {}, 405, "method"),
])
def test_bad_requests_for_results_are_refused(client, method, path, kwargs, status, input_name):
    refused(getattr(client, method)(path, **kwargs), status, input_name)


def test_meta_offers_every_game_and_the_agent_codes(client):
    meta = client.get("/api/meta").json()
    games = {g["name"]: g for g in meta["games"]}
    assert list(games) == game_choices()  # every game of the registry, each then its variants
    for spec in game_specs():  # as its spec declares it
        own = games[spec.name]
        assert own["game"] == spec.name and own["players"] == list(own_player_counts(spec.name))
        assert own["label"] == spec.name and own["variant_label"] == ""
        for name, variant in spec.variants.items():
            entry = games[name]
            assert entry["game"] == spec.name and entry["players"] == [variant.players]
            assert entry["variant_label"] == variant.label
            assert set(entry["options"]) == set(spec.options)
            assert not set(variant.options) & set(own["options"])  # the variant's own options
    # the names published so far, pinned: the registry may add names, never drop one
    assert {"finca", "alpujarras", "alpujarras-solo", "mi_tierra"} <= set(games)
    solo = games["alpujarras-solo"]
    assert solo["players"] == [1] and set(solo["options"]) == {"double_turns", "star_sides"}
    assert solo["label"] == "alpujarras-solo (against Zara)"
    assert games["alpujarras"]["options"] == {}
    assert "human" not in meta["agents"]["codes"] and "mcts" in meta["agents"]["codes"]
    assert meta["palettes"] == boards.palettes()


def test_meta_names_every_games_board_script_and_it_is_served(client):
    """The page imports each game's board module by the name /api/meta gives (no list of games
    in the page's scripts): one per registered game, each served as JavaScript with a draw()."""
    scripts = client.get("/api/meta").json()["boards"]
    assert scripts == {spec.name: boards.board_script(spec.name) for spec in game_specs()}
    for game, script in scripts.items():
        response = client.get(f"/static/{script}")
        assert response.status_code == 200, (game, script)
        assert "javascript" in response.headers["content-type"]
        assert "export function draw(" in response.text
    page_scripts = "".join(client.get(f"/static/{name}").text
                           for name in ("app.js", "boards.js", "play.js", "replay.js"))
    for script in scripts.values():  # imported by the name the server gives, not by its own
        assert script not in page_scripts


def test_a_training_run_is_sized_in_its_methods_own_unit():
    from huerta.web.runs import training_budget

    assert training_budget({"method": "ppo", "steps": 600000}) == "600,000 steps"
    assert training_budget({"method": "afterstate", "steps": 600000, "value_games": 2000}) == \
        "afterstate value, 2,000 heuristic games"
    assert training_budget({"method": "cem", "steps": 600000, "cem_generations": 8}) == \
        "learned value constants, 8 generations"
    assert training_budget({"method": "cem"}) == "learned value constants, ? generations"
