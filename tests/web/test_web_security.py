"""`huerta serve` against a hostile user (issue 34): a crafted model file, named in any request,
same-site or cross-site, runs nothing; requests from other sites, other host names or without
the page's token are refused before their body is read; a pipe, a device or a link planted in
the runs folder is never read; agent work is bounded; and the server answers afterwards.

The crafted files carry a harmless payload: unpickling it creates a marker file. The first test
shows that the payload is live (the loaders the page refuses do run it); every other test
checks that the marker never appears."""

from __future__ import annotations

import base64
import io
import json
import os
import pickle
import threading
import time
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import numpy as np
import pytest
from conftest import LiveServer, page_headers

from huerta.agents.learned import shipped_model
from huerta.web import create_app
from huerta.web.agents import MAX_DECISION_SECONDS, stoppable_clock
from huerta.web.sessions import PlaySession


class Payload:
    """Unpickled, it opens `marker` for writing (creating it): harmless, and visible."""

    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def crafted_sb3_zip(path: Path, marker: Path) -> Path:
    """A Stable-Baselines3 model zip whose `data` holds a serialized (pickled) payload: SB3
    unpickles every ":serialized:" entry when it loads the file. Its member names pass
    `check_ppo_file`."""
    payload = base64.b64encode(pickle.dumps(Payload(marker))).decode()
    data = {"policy_class": {":type:": "<class 'abc.ABCMeta'>", ":serialized:": payload},
            "observation_space": {":type:": "x", ":serialized:": payload}}
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("data", json.dumps(data))
        archive.writestr("policy.pth", b"")
        archive.writestr("_stable_baselines3_version", "2.3.0")
    return path


def crafted_rllib_folder(folder: Path, marker: Path) -> Path:
    """An RLlib module folder whose class_and_ctor_args.pkl is the payload (RLlib
    `pickle.load`s it)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "class_and_ctor_args.pkl").write_bytes(pickle.dumps(Payload(marker)))
    (folder / "huerta_policy.json").write_text(json.dumps({"game": "finca"}))
    return folder


def crafted_npz(path: Path, marker: Path) -> Path:
    """A numpy archive holding an object array: loading it with allow_pickle=True unpickles the
    payload (huerta never does)."""
    buffer = io.BytesIO()
    np.savez(buffer, about=np.array([Payload(marker)], dtype=object))
    path.write_bytes(buffer.getvalue())
    return path


@pytest.fixture()
def marker(tmp_path: Path) -> Path:
    return tmp_path / "PAYLOAD_RAN"


@pytest.fixture()
def hostile_runs(tmp_path: Path, marker: Path) -> Path:
    """A runs folder a hostile user prepared: a PPO run (pickled zip, no export), a run whose
    exported model is a pickle, pipes, links out of the folder, and one honest exported run."""
    runs = tmp_path / "runs"
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.txt"
    secret.write_text("TOP-SECRET-LINE\n")
    ppo = runs / "ppo-run"
    ppo.mkdir(parents=True)
    crafted_sb3_zip(ppo / "best_model.zip", marker)
    (ppo / "config.json").write_text(json.dumps({"game": "finca", "players": 2}))
    (ppo / "eval.csv").write_text("steps,win_rate_vs_random\n0,0.5\n")
    pickled = runs / "pickled-export"
    pickled.mkdir()
    crafted_npz(pickled / "best_policy.npz", marker)
    (pickled / "config.json").write_text(json.dumps({"game": "finca", "players": 2}))
    linked = runs / "linked"
    linked.mkdir()
    (linked / "eval.csv").symlink_to(secret)
    (linked / "table.txt").symlink_to(secret)
    (linked / "summary.json").write_text(json.dumps({"game": "finca", "players": 2}))
    (linked / "learning_curve.png").symlink_to(secret)
    (linked / "best_policy.npz").symlink_to(shipped_model("finca", 2))
    piped = runs / "piped"
    piped.mkdir()
    for name in ("summary.json", "table.txt", "games.jsonl", "eval.csv", "best_policy.npz",
                 "tournament.png"):
        os.mkfifo(piped / name)
    (runs / "escape").symlink_to(outside, target_is_directory=True)
    honest = runs / "honest"
    honest.mkdir()
    (honest / "config.json").write_text(json.dumps({"game": "finca", "players": 2}))
    (honest / "eval.csv").write_text("steps,win_rate_vs_random\n0,0.5\n")
    (honest / "best_policy.npz").write_bytes(shipped_model("finca", 2).read_bytes())
    return runs


@pytest.fixture()
def hostile_server(hostile_runs: Path):
    live = LiveServer(hostile_runs)
    live.start()
    yield live
    live.stop()


@pytest.fixture()
def page_client(hostile_server: LiveServer):
    token = hostile_server.app.state.token
    with httpx.Client(base_url=hostile_server.url, timeout=30,
                      event_hooks={"request": [lambda r: page_headers(r, token)]}) as http:
        yield http


def new_game(client: httpx.Client, code: str, game: str = "finca", **more) -> httpx.Response:
    return client.post("/api/games", json={"game": game, "agents": [code], **more})


def assert_answers(client: httpx.Client) -> None:
    """The server still answers."""
    assert client.get("/api/meta").status_code == 200


# --- the payload is live -----------------------------------------------------------------------
def test_the_crafted_files_run_their_payload_when_a_pickle_loader_opens_them(tmp_path, marker):
    from stable_baselines3.common.save_util import load_from_zip_file

    with pytest.raises(Exception):  # noqa: B017 - the payload is no policy: SB3 fails after it
        load_from_zip_file(crafted_sb3_zip(tmp_path / "model.zip", marker), device="cpu")
    assert marker.exists()  # SB3 unpickled it: this is what the page must never do
    marker.unlink()
    pickle.loads((crafted_rllib_folder(tmp_path / "rl", marker)
                  / "class_and_ctor_args.pkl").read_bytes())
    assert marker.exists()
    marker.unlink()
    np.load(crafted_npz(tmp_path / "x.npz", marker), allow_pickle=True)["about"]
    assert marker.exists()


# --- 1. no pickle, no file a request names ------------------------------------------------------
def test_a_request_naming_a_crafted_model_runs_nothing(page_client, tmp_path, marker):
    model = crafted_sb3_zip(tmp_path / "model.zip", marker)
    rllib = crafted_rllib_folder(tmp_path / "rllib", marker)
    npz = crafted_npz(tmp_path / "policy.npz", marker)
    for code, words in ((f"ppo:{model}", "pickle-based"), (f"ppo:{tmp_path}", "pickle-based"),
                        (f"rllib:{rllib}", "pickle-based"), (f"learned:{npz}", "names a file"),
                        (f"learned:{tmp_path}", "names a file"),
                        (f"learned:search:{npz}", "learned:search")):
        response = new_game(page_client, code)
        assert response.status_code == 422, (code, response.text)
        error = response.json()["error"]
        assert error["input"] == "agents[0]" and words in error["reason"], error
    assert not marker.exists()
    assert_answers(page_client)


def test_a_run_is_seated_only_through_its_exported_numpy_model(page_client, marker):
    meta = page_client.get("/api/meta").json()
    offered = {m["code"] for m in meta["agents"]["models"]}
    assert offered == {"run:honest", "run:pickled-export"}  # regular best_policy.npz files
    for code, status_words in (("run:ppo-run", "no best_policy.npz"),
                               ("run:pickled-export", "pickle"),
                               ("run:linked", "not loaded"), ("run:piped", "not loaded"),
                               ("run:escape", "no run"), ("run:../outside", "no run"),
                               ("run:", "needs a run id")):
        response = new_game(page_client, code)
        assert response.status_code == 422, (code, response.text)
        error = response.json()["error"]
        assert error["input"] == "agents[0]" and status_words in error["reason"], (code, error)
    assert not marker.exists()
    played = new_game(page_client, "run:honest", seat=1, pace=0)
    assert played.status_code == 201, played.text
    assert played.json()["seats"][0]["code"] == "run:honest"
    assert_answers(page_client)


def test_dev_zero_and_a_named_pipe_are_refused_and_the_server_answers(page_client, tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for code in ("ppo:/dev/zero", f"ppo:{pipe}", "learned:/dev/zero", f"learned:{pipe}",
                 "rllib:/dev/zero"):
        response = new_game(page_client, code)
        assert response.status_code == 422, (code, response.text)
        assert response.json()["error"]["input"] == "agents[0]"
    assert_answers(page_client)


# --- 2. only the page itself -------------------------------------------------------------------
@pytest.mark.parametrize(("headers", "input_name"), [
    ({"Origin": "http://evil.example", "Content-Type": "text/plain"}, "Origin"),
    ({"Origin": "http://evil.example", "Content-Type": "application/json"}, "Origin"),
    ({"Origin": "null", "Content-Type": "application/json"}, "Origin"),
    ({"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"}, "Origin"),
    ({"Content-Type": "text/plain"}, "Content-Type"),
    ({"Content-Type": "application/x-www-form-urlencoded"}, "Content-Type"),
    ({"Content-Type": "application/json"}, "token"),
    ({"Content-Type": "application/json", "X-Huerta-Token": "guess"}, "token"),
    ({"Host": "evil.example", "Content-Type": "application/json"}, "Host"),
    ({"Host": "127.0.0.1:1", "Content-Type": "application/json"}, "Host"),
])
def test_a_request_not_from_the_page_is_refused_before_its_body_is_read(
        hostile_server, tmp_path, marker, headers, input_name):
    model = crafted_sb3_zip(tmp_path / "model.zip", marker)
    body = json.dumps({"game": "finca", "agents": [f"ppo:{model}"]})
    sessions = hostile_server.app.state.sessions
    with httpx.Client(base_url=hostile_server.url, timeout=30) as http:
        if "X-Huerta-Token" not in headers and input_name != "token":
            headers = {**headers, "X-Huerta-Token": hostile_server.app.state.token}
        before = len(sessions)
        response = http.post("/api/games", content=body, headers=headers)
        assert response.status_code == 403, response.text
        assert response.json()["error"]["input"] == input_name
        # nothing was read or started, and even a move or a stop is refused the same way
        assert len(sessions) == before
        assert http.post("/api/games/x/stop", headers=headers).status_code == 403
        assert http.get("/api/meta").status_code == 200
    assert not marker.exists()


def test_a_dns_rebinding_host_cannot_even_read_the_page(hostile_server):
    port = hostile_server.url.rsplit(":", 1)[1]
    with httpx.Client(base_url=hostile_server.url, timeout=30) as http:
        for path in ("/", "/api/meta", "/api/runs"):
            response = http.get(path, headers={"Host": f"rebind.example:{port}"})
            assert response.status_code == 403 and response.json()["error"]["input"] == "Host"
        assert http.get("/", headers={"Host": f"localhost:{port}"}).status_code == 200


class OtherSite(BaseHTTPRequestHandler):
    """Another web site (another origin: another port) whose page attacks the server."""

    html = b""

    def do_GET(self) -> None:  # http.server calls it by this name
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(self.html)

    def log_message(self, *args) -> None:
        pass


def test_a_cross_site_page_in_a_browser_cannot_start_a_game(browser, hostile_server, tmp_path,
                                                           marker):
    model = crafted_sb3_zip(tmp_path / "model.zip", marker)
    # a text/plain form posts "NAME=VALUE": these make it the JSON body of a new game
    name = json.dumps({"game": "finca", "agents": [f"ppo:{model}"]})[:-1] + ', "x": "'
    body = name + '="}'
    target = hostile_server.url + "/api/games"
    OtherSite.html = f"""<html><body>
      <form id="f" method="POST" action="{target}" enctype="text/plain">
        <input type="hidden" name='{name}' value='"}}'>
      </form></body></html>""".encode()
    other = ThreadingHTTPServer(("127.0.0.1", 0), OtherSite)
    thread = threading.Thread(target=other.serve_forever, daemon=True)
    thread.start()
    sessions = hostile_server.app.state.sessions
    try:
        context = browser.new_context()
        tab = context.new_page()
        tab.goto(f"http://127.0.0.1:{other.server_address[1]}/")
        # a simple request (no preflight): sent, answered 403, opaque to the other site
        sent = tab.evaluate("""async ([url, body]) => {
            const simple = await fetch(url, {method: "POST", mode: "no-cors", body,
                                             headers: {"Content-Type": "text/plain"}});
            let preflighted = "sent";
            try {
              await fetch(url, {method: "POST", body,
                                headers: {"Content-Type": "application/json"}});
            } catch (error) { preflighted = "blocked"; }
            return [simple.type, preflighted];
        }""", [target, body])
        assert sent == ["opaque", "blocked"]
        with tab.expect_navigation():
            tab.evaluate("document.getElementById('f').submit()")
        shown = tab.content()
        assert "Origin" in shown and "refused" in shown  # the server's 403, in the browser
        context.close()
    finally:
        other.shutdown()
        other.server_close()
    assert len(sessions) == 0
    assert not marker.exists()


# --- 3. bounded work ----------------------------------------------------------------------------
@pytest.mark.parametrize(("code", "words"), [
    ("mcts:3600s", f"{MAX_DECISION_SECONDS:g} s a decision"),
    ("mcts:10000000", "iterations a decision"),
    ("learned:search:1000", "samples a decision"),
    ("search:5s", "not valid"),
])
def test_agent_budgets_are_capped(page_client, code, words):
    response = new_game(page_client, code)
    assert response.status_code == 422, response.text
    assert words in response.json()["error"]["reason"]


def test_runs_folder_files_are_read_only_when_regular_and_inside(page_client):
    listing = page_client.get("/api/runs").json()  # pipes would hang here if opened
    text = json.dumps(listing)
    assert "TOP-SECRET-LINE" not in text
    ids = {r["id"] for r in listing["tournaments"] + listing["training"]}
    assert "escape" not in ids and not any(i.startswith("escape/") for i in ids)
    linked = next(r for r in listing["tournaments"] if r["id"] == "linked")
    assert linked["table"] is None and linked["plot"] is False
    assert "linked" not in {r["id"] for r in listing["training"]}  # its eval.csv is a link
    for kind in ("training", "tournament"):
        for run in ("linked", "piped"):
            response = page_client.get("/api/runs/plot", params={"run": run, "kind": kind})
            assert response.status_code == 404, response.text
    response = page_client.get("/api/runs/games", params={"run": "piped"})
    assert response.status_code == 200 and response.json()["total"] == 0
    assert_answers(page_client)


def test_agent_work_never_queues_and_a_stop_frees_the_thread(tmp_path):
    """One agent thread: a game whose agent plays (slowly paced) holds it; another game that
    needs an agent, or a move that an agent must answer, is refused with 503 and changes
    nothing; stopping the first frees the thread."""
    live = LiveServer(tmp_path, workers=1)
    live.start()
    token = live.app.state.token
    try:
        with httpx.Client(base_url=live.url, timeout=30,
                          event_hooks={"request": [lambda r: page_headers(r, token)]}) as http:
            human_first = http.post("/api/games", json={"game": "finca", "agents": ["random"],
                                                        "seat": 0, "seed": 1}).json()
            slow = http.post("/api/games", json={"game": "finca", "agents": ["random"],
                                                 "seat": 1, "pace": 5, "seed": 2})
            assert slow.status_code == 201, slow.text
            busy = http.post("/api/games", json={"game": "finca", "agents": ["random"],
                                                 "seat": 1, "seed": 3})
            assert busy.status_code == 503 and busy.json()["error"]["input"] == "agents"
            action = human_first["legal"][0]["id"]
            move = http.post(f"/api/games/{human_first['id']}/actions",
                             json={"action": action, "step": human_first["step"]})
            assert move.status_code == 503, move.text
            assert http.get(f"/api/games/{human_first['id']}").json()["step"] == \
                human_first["step"]  # the refused move changed nothing
            http.post(f"/api/games/{slow.json()['id']}/stop", json={})
            deadline = time.monotonic() + 60
            while True:  # the stopped game's pace wait ends at once and frees the thread
                again = http.post("/api/games", json={"game": "finca", "agents": ["random"],
                                                      "seat": 1, "seed": 3})
                if again.status_code == 201:
                    break
                assert again.status_code == 503 and time.monotonic() < deadline
                time.sleep(0.05)
    finally:
        live.stop()


def test_a_stopped_games_agents_read_a_clock_past_every_deadline(tmp_path):
    stopped = False
    clock = stoppable_clock(lambda: stopped)
    assert clock() < float("inf")
    stopped = True
    assert clock() == float("inf")
    app = create_app(tmp_path, workers=1)
    session = app.state.sessions.create({"game": "finca", "agents": ["search"], "seat": 0,
                                         "seed": 4})
    assert isinstance(session, PlaySession)
    agent = session.agents[1]
    assert agent.clock() < float("inf")
    session.stop()
    assert agent.clock() == float("inf")


def test_a_web_mcts_seat_is_capped_and_ends_its_search_when_stopped():
    """An mcts:N seat gets the page's time cap whatever N; a stopped game's clock (infinity)
    ends its search after the iteration under way, far below its iteration budget."""
    from huerta.agents.mcts import MCTSAgent
    from huerta.envs.core.registry import get_game
    from huerta.envs.core.view import PlayerView
    from huerta.web.agents import bound_thinking

    agent = MCTSAgent(seed=0, iterations=5000, game="finca")
    stopped = False
    bound_thinking(agent, stoppable_clock(lambda: stopped))
    assert agent.max_seconds == MAX_DECISION_SECONDS
    state = get_game("finca").new_game(2, seed=5)
    calls = []
    live = agent.clock

    def clock() -> float:  # the game is stopped once the search has begun
        calls.append(1)
        if len(calls) == 2:
            nonlocal stopped
            stopped = True
        return live()

    agent.clock = clock
    seat = state.current_player
    obs = {"observation": state.observe(seat), "action_mask": state.legal_mask()}
    action = agent.act(obs, PlayerView(state, seat))
    assert obs["action_mask"][action]
    assert agent.last_root is not None
    assert sum(child.visits for child in agent.last_root.children.values()) == 1
