"""Fixtures of the web tests: a runs folder with a small tournament and a training run, the
server on a free 127.0.0.1 port in a thread (started and stopped here), and a headless Chromium
driven by Playwright.

The browser is Debian's chromium (/usr/bin/chromium, or $HUERTA_CHROMIUM); Playwright's own
browser download is not used. Without it the browser tests fail saying how to install it: no
test of this project is ever skipped.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from game_cases import middle_count

from huerta.agents import make_agent
from huerta.agents.learned import shipped_model
from huerta.envs.core.registry import game_choices, resolve_game
from huerta.training.evaluation.matches import play_game
from huerta.training.evaluation.tournament import run_tournament
from huerta.web import bind, create_app

CHROMIUM = os.environ.get("HUERTA_CHROMIUM", "/usr/bin/chromium")


class LiveServer:
    """The page's server, serving `runs`, on a free port of 127.0.0.1 in a thread."""

    def __init__(self, runs: Path, workers: int = 4, allow_remote: bool = False) -> None:
        self.app = create_app(runs, workers=workers, allow_remote=allow_remote)
        self.socket = bind("127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.socket]}, daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 120
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the web server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.socket.close()


@pytest.fixture(scope="session")
def runs_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """runs/: a finished 2-game tournament of Alpujarras and a training run's files."""
    runs = tmp_path_factory.mktemp("runs")
    run_tournament("alpujarras", ["random", "heuristic"], players=2, games=1, seed=3,
                   out=runs / "tour")
    training = runs / "train" / "finca-ppo"
    training.mkdir(parents=True)
    (training / "config.json").write_text(json.dumps({"game": "finca", "players": 2,
                                                      "steps": 2048, "seed": 1}))
    (training / "eval.csv").write_text("steps,win_rate_vs_random,win_rate_vs_heuristic,time\n"
                                       "0,0.5000,0.1000,1\n2048,0.7500,0.2000,2\n")
    from PIL import Image

    Image.new("RGB", (40, 30), "#2e7d32").save(training / "learning_curve.png")
    # runs whose exported models the page may seat (run:ID): the shipped Finca model and the
    # solo game's learned value constants
    for name, game, players in (("finca-model", "finca", 2), ("solo", "alpujarras", 1)):
        folder = runs / "train" / name
        folder.mkdir(parents=True)
        (folder / "config.json").write_text(json.dumps({"game": game, "players": players}))
        shutil.copyfile(shipped_model(game, players), folder / "best_policy.npz")
    return runs


@pytest.fixture(scope="session")
def server(runs_folder: Path) -> Iterator[LiveServer]:
    live = LiveServer(runs_folder)
    live.start()
    yield live
    live.stop()


def page_headers(request: httpx.Request, token: str) -> None:
    """What the server's own page sends with every request that changes something: the
    per-server token and a JSON content type (web/guard.py refuses anything else)."""
    if request.method not in ("GET", "HEAD"):
        request.headers["X-Huerta-Token"] = token
        request.headers.setdefault("Content-Type", "application/json")


@pytest.fixture()
def client(server: LiveServer) -> Iterator[httpx.Client]:
    """A client that calls the API as the page does (its token, JSON bodies)."""
    token = server.app.state.token
    with httpx.Client(base_url=server.url, timeout=30,
                      event_hooks={"request": [lambda r: page_headers(r, token)]}) as http:
        yield http


@pytest.fixture()
def raw_client(server: LiveServer) -> Iterator[httpx.Client]:
    """A client that sends only what each test gives it (no token, no content type)."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        yield http


@pytest.fixture(scope="session")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A record file of a heuristic game of each name the page offers (every game, and each
    variant: the solo game), by name: the middle one of a game's player counts (3 of 2, 3, 4),
    seeds 3, 4, ... in the registry's order (finca: 3 players, seed 3; alpujarras: 3, seed 4)."""
    folder = tmp_path_factory.mktemp("records")
    files = {}
    for seed, name in enumerate(game_choices(), start=3):
        game, players = resolve_game(name)[0].name, middle_count(name)
        agents = [make_agent("heuristic", game=game, seed=seed + i) for i in range(players)]
        record, _ = play_game(game, agents, seed)
        files[name] = folder / f"{name}.json"
        record.save(files[name])
    return files


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Chromium (Debian's), or a failure saying how to install it."""
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        pytest.fail(f"the browser tests need Chromium at {CHROMIUM}: install it with "
                    "`apt-get update && apt-get install -y chromium` (or set HUERTA_CHROMIUM); "
                    "Playwright's own browser download is not used", pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM,
                                              args=["--no-sandbox", "--disable-gpu"])
        yield chromium
        chromium.close()


@pytest.fixture()
def page(browser, server: LiveServer) -> Iterator[object]:
    """A fresh page on the server's page, wired up, with its script errors collected."""
    context = browser.new_context(viewport={"width": 1500, "height": 1000},
                                  accept_downloads=True)
    context.set_default_timeout(120_000)  # waits, not speed checks: generous under load
    tab = context.new_page()
    tab.script_errors = []
    tab.on("pageerror", lambda error: tab.script_errors.append(str(error)))
    tab.goto(server.url + "/")
    tab.wait_for_selector("body[data-ready=true]")
    yield tab
    context.close()
    assert tab.script_errors == []
